// Exercise 07, part a: a branch on a colour mosaic that splits only between SIMD groups.
//
// A camera sensor sees one colour per pixel through a Bayer filter, a 2x2 pattern repeated over
// the picture: red, green on even rows, green, blue on odd rows. Pixel (x, y) has the class
// (y % 2) * 2 + x % 2 (0 red, 1 green of a red row, 2 green of a blue row, 3 blue), and each
// class gets its own tone curve. Giving work-item (x, y) the pixel (x, y) puts two classes in
// every SIMD group, which then runs two curves one after the other. Re-deal the pixels so that
// every SIMD group of WARP work-items handles a single class; the output must not change.
//
// The launch (the host's side, fixed): a 2D range whose work-group width is a multiple of WARP,
// so a SIMD group is WARP neighbouring work-items of one row, starting at a multiple of WARP.
// Along x there are runs of 4 * WARP work-items, one run for every 2 * WARP columns of the
// picture (get_global_size(0) is a multiple of 4 * WARP, enough runs for the width, maybe more);
// along y one row of work-items for every two rows of pixels (ceil(height / 2) rows, maybe more).
// A run thus meets 2 rows x 2 * WARP columns: WARP pixels of each class.
// WARP and STEPS come from the host as -D options.

// One tone curve: STEPS dependent multiply-adds pulling v towards 8 (curve + 1), as in divergence.cl.
float apply_curve(float v, const int curve) {
  const float pull = 0.25f * (float)(curve + 1);
  for (int step = 0; step < STEPS; ++step) v = fma(v, 0.96875f, pull);
  return v;
}

// One test per class: a SIMD group pays for every class one of its work-items needs.
float apply_class_curve(float v, const int curve) {
  for (int k = 0; k < 4; ++k)
    if (curve == k) v = apply_curve(v, k);
  return v;
}

// `curve_taken` records the class each work-item ran and `pixel_taken` the pixel it handled
// (y * width + x, or -1 for none), so the check can see whether a SIMD group split and whether
// every pixel was handled exactly once.
__kernel void bayer_between_warps(__global const float* mosaic, __global float* output, const int width,
                                  const int height, __global float* curve_taken, __global float* pixel_taken) {
  const int gx = (int)get_global_id(0);
  const int gy = (int)get_global_id(1);
  /* >>> GAP 1: the class this work-item runs, the same for the WARP work-items of its SIMD group */
  const int colour = (gy % 2) * 2 + gx % 2; /* replace: neighbouring work-items get different classes */
  /* <<< GAP 1 */
  /* >>> GAP 2: the pixel (x, y) it handles: one of class `colour`, every pixel exactly once */
  const int x = gx, y = gy; /* replace */
  /* <<< GAP 2 */
  const int item = gy * (int)get_global_size(0) + gx;
  curve_taken[item] = (float)colour;
  const bool inside = x >= 0 && y >= 0 && x < width && y < height;
  pixel_taken[item] = inside ? (float)(y * width + x) : -1.0f;
  if (!inside) return;
  output[y * width + x] = apply_class_curve(mosaic[y * width + x], colour);
}
