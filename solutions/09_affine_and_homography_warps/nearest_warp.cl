// Exercise 09, part 2: the warp of lesson 09 through an image sampler, with nearest-neighbour
// sampling (the one pixel whose centre is closest: blocky, but it never invents a colour,
// which is what a label map or a mask needs) and positions outside the input reading the
// nearest edge pixel. Pixel centres sit at integer coordinates, as in image_warp.cl.
// Built with -D PROJECTIVE=0 for an affine map or -D PROJECTIVE=1 for a homography.
#ifndef PROJECTIVE
#define PROJECTIVE 0
#endif

/* >>> GAP 1: the sampler: pixel coordinates, the nearest edge pixel outside the input, no blending */
__constant sampler_t nearest_edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
/* <<< GAP 1 */

// The source of output pixel (x, y) as the homogeneous point matrix * (x, y, 1); see buffer_warp.cl.
float3 source_homogeneous(const float4 row0, const float4 row1, const float4 row2, const float x, const float y) {
  const float4 p = (float4)(x, y, 1.0f, 0.0f);
  return (float3)(dot(row0, p), dot(row1, p), dot(row2, p));
}

float2 to_position(const float3 h) {
#if PROJECTIVE
  return h.xy / h.z;
#else
  return h.xy;
#endif
}

// The input's size comes as arguments rather than from get_image_width / get_image_height:
// some OpenCL compilers in use (Mesa's rusticl) cannot compile those two built-ins.
// One output pixel per work-item.
__kernel void warp_nearest(read_only image2d_t input, const int in_width, const int in_height,
                           __global uchar4* output, const int out_width, const int out_height, const float4 row0,
                           const float4 row1, const float4 row2) {
  const int x = (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  if (x >= out_width || y >= out_height) return;
  const float2 position = to_position(source_homogeneous(row0, row1, row2, (float)x, (float)y));
  // A homography sends one line of the output to infinity (a divisor of 0): that pixel is black.
  if (!isfinite(position.x) || !isfinite(position.y)) {
    output[y * out_width + x] = (uchar4)(0);
    return;
  }
  /* >>> GAP 2: the colour of the input pixel whose centre is nearest to position, in 0..255 */
  // A position more than a pixel outside reads an edge pixel anyway: clamping it there keeps a
  // far-away position (a homography near its horizon) away from the sampler's number formats.
  const float2 p = clamp(position, (float2)(-1.0f), (float2)((float)in_width, (float)in_height));
  // The sampler's texel i covers [i, i + 1) and it returns the texel p falls in; the pixel whose
  // centre (an integer here) is nearest to p is the texel that p + 0.5 falls in.
  const float4 colour = read_imagef(input, nearest_edge, p + 0.5f) * 255.0f;
  /* <<< GAP 2 */
  output[y * out_width + x] = convert_uchar4_sat_rte(colour);
}
