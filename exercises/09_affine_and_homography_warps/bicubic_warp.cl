// Exercise 09, part 1: the warp of lesson 09 with bicubic interpolation, on a plain buffer, with
// positions outside the input reading the nearest edge pixel instead of black.
//
// Bilinear interpolation blends the 2 x 2 pixels around a position; bicubic blends the 4 x 4
// around it, with weights that follow a cubic curve (Catmull-Rom's), so edges stay sharper and
// a zoom shows no diamond-shaped artefacts. Pixel centres sit at integer coordinates, as in
// buffer_warp.cl. Built with -D PROJECTIVE=0 for an affine map or -D PROJECTIVE=1 for a homography.
#ifndef PROJECTIVE
#define PROJECTIVE 0
#endif

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

// One input pixel as floats in 0..255, its coordinates clamped to the input: outside the
// picture, the nearest edge pixel.
float4 texel_clamped(__global const uchar4* image, const int width, const int height, const int x, const int y) {
  return convert_float4(image[clamp(y, 0, height - 1) * width + clamp(x, 0, width - 1)]);
}

// Catmull-Rom's weights of the four taps at -1, 0, 1 and 2 pixels from floor(position), for a
// position t (0 <= t < 1) past that pixel, in .x, .y, .z and .w:
//   w(-1) = (-t^3 + 2 t^2 - t) / 2        w(0) = (3 t^3 - 5 t^2 + 2) / 2
//   w(1)  = (-3 t^3 + 4 t^2 + t) / 2      w(2) = (t^3 - t^2) / 2
// They add up to 1 for every t; at t = 0 they are (0, 1, 0, 0), so a position on a pixel centre
// gives that pixel exactly.
float4 cubic_weights(const float t) {
  /* >>> GAP 1: the four weights for fraction t */
  return (float4)(0.0f, 1.0f, 0.0f, 0.0f); /* replace: the nearest pixel to the left, whatever t */
  /* <<< GAP 1 */
}

// The bicubic sample at `position` (finite, pixel centres at integers), in 0..255 per channel
// before rounding (Catmull-Rom may overshoot a little past 0 and 255).
float4 sample_bicubic(__global const uchar4* image, const int width, const int height, const float2 position) {
  /* >>> GAP 2: the 4 x 4 pixels around position, weighted by cubic_weights along x and along y */
  return texel_clamped(image, width, height, (int)position.x, (int)position.y); /* replace */
  /* <<< GAP 2 */
}

// One output pixel per work-item.
__kernel void warp_bicubic(__global const uchar4* input, const int in_width, const int in_height,
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
  output[y * out_width + x] = convert_uchar4_sat_rte(sample_bicubic(input, in_width, in_height, position));
}
