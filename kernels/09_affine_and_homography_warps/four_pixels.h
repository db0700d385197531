// Lesson 09: how the warps with four output pixels per work-item write them (image_warp.cl and
// buffer_warp.cl include this file).
//
// One 16-byte store where the row starts 16-byte aligned (a width that is a multiple of 4): the
// neighbouring work-items of a row then write consecutive bytes in one instruction (in 16x16 groups
// a warp's 32 work-items are two runs of 256 bytes), where four 4-byte stores would each leave
// gaps of 12 bytes between neighbouring work-items. The last work-item
// of a row may own fewer than four pixels: it stores those one by one.
static inline void store_four(const uchar4 pixels[4], __global uchar4* output, const int out_width, const int y,
                              const int x_first) {
  __global uchar4* out = output + y * out_width + x_first;
  if (x_first + 4 <= out_width && out_width % 4 == 0)
    *(__global uint4*)out = (uint4)(as_uint(pixels[0]), as_uint(pixels[1]), as_uint(pixels[2]), as_uint(pixels[3]));
  else
    for (int k = 0; k < 4 && x_first + k < out_width; ++k) out[k] = pixels[k];
}
