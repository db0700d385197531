// Lesson 09: warping an RGBA picture stored in a plain buffer, with bilinear interpolation done
// by hand. Each output pixel asks the matrix where it comes from in the input, then blends the
// four input pixels around that position.
//
// Built with -D PROJECTIVE=0 for an affine map or -D PROJECTIVE=1 for a homography: the
// affine kernel skips the two divisions, which is why the 2010 thesis (docs/references.md) kept two kernels.
#ifndef PROJECTIVE
#define PROJECTIVE 0
#endif
#include "four_pixels.h"

// The matrix arrives as three rows (x, y, 1 multiply the first three entries; .w is unused).
// Pixel centres sit at integer coordinates: output pixel (x, y) is the point (x, y), and its
// source is the homogeneous point (X, Y, W) = matrix * (x, y, 1), i.e. the position (X/W, Y/W).
float3 source_homogeneous(const float4 row0, const float4 row1, const float4 row2, const float x, const float y) {
  const float4 p = (float4)(x, y, 1.0f, 0.0f);
  return (float3)(dot(row0, p), dot(row1, p), dot(row2, p));
}

float2 to_position(const float3 h) {
#if PROJECTIVE
  // A divisor of 0 gives inf or NaN, which the range test in sample_bilinear turns into black.
  return h.xy / h.z;
#else
  return h.xy;  // affine: W is 1, and the compiler drops the unused third row
#endif
}

// One input pixel as floats, or black when (x, y) lies outside the input.
float4 texel_or_black(__global const uchar4* image, const int width, const int height, const int x, const int y) {
  if (x < 0 || y < 0 || x >= width || y >= height) return (float4)(0.0f);
  return convert_float4(image[y * width + x]);
}

// The bilinear sample at `position`, in 0..255 per channel. The four pixel centres around the
// position are weighted by how close they are; those outside the input count as black.
float4 sample_bilinear(__global const uchar4* image, const int width, const int height, const float2 position) {
  // More than one pixel outside, every tap is outside. Written so that NaN also fails the
  // test, and no huge float is ever converted to int.
  if (!(position.x > -1.0f && position.x < (float)width && position.y > -1.0f && position.y < (float)height))
    return (float4)(0.0f);
  const float2 corner = floor(position);
  const float2 fraction = position - corner;
  const int x0 = (int)corner.x;
  const int y0 = (int)corner.y;
  const float4 top = mix(texel_or_black(image, width, height, x0, y0),
                         texel_or_black(image, width, height, x0 + 1, y0), fraction.x);
  const float4 bottom = mix(texel_or_black(image, width, height, x0, y0 + 1),
                            texel_or_black(image, width, height, x0 + 1, y0 + 1), fraction.x);
  return mix(top, bottom, fraction.y);
}

// One output pixel per work-item.
__kernel void warp_buffer(__global const uchar4* input, const int in_width, const int in_height,
                          __global uchar4* output, const int out_width, const int out_height,
                          const float4 row0, const float4 row1, const float4 row2) {
  const int x = (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  if (x >= out_width || y >= out_height) return;
  const float2 position = to_position(source_homogeneous(row0, row1, row2, (float)x, (float)y));
  output[y * out_width + x] = convert_uchar4_sat_rte(sample_bilinear(input, in_width, in_height, position));
}

// Four neighbouring output pixels of a row per work-item, as the thesis did: the matrix
// product is computed once for four pixels, and fewer work-items are scheduled. The
// NDRange is a quarter as wide as the output (rounded up).
__kernel void warp_buffer_x4(__global const uchar4* input, const int in_width, const int in_height,
                             __global uchar4* output, const int out_width, const int out_height,
                             const float4 row0, const float4 row1, const float4 row2) {
  const int x_first = 4 * (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  if (x_first >= out_width || y >= out_height) return;
  // One step right adds the matrix's first column to the homogeneous point, so the products
  // are computed once for the four pixels.
  float3 h = source_homogeneous(row0, row1, row2, (float)x_first, (float)y);
  const float3 step_right = (float3)(row0.x, row1.x, row2.x);
  // The four pixels are sampled first (past the row's end too: those are dropped below).
  uchar4 pixels[4];
  for (int k = 0; k < 4; ++k, h += step_right)
    pixels[k] = convert_uchar4_sat_rte(sample_bilinear(input, in_width, in_height, to_position(h)));
  store_four(pixels, output, out_width, y, x_first);
}
