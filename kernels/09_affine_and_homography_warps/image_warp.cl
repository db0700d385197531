// Lesson 09: the same warps with the input in an image object. A linear sampler does the
// bilinear blend in the texture hardware (on GPUs) and returns black outside the picture.
//
// Built with -D PROJECTIVE=0 (affine) or -D PROJECTIVE=1 (homography).
#ifndef PROJECTIVE
#define PROJECTIVE 0
#endif
#include "four_pixels.h"

// Unnormalised coordinates (in pixels), CLK_ADDRESS_CLAMP (outside reads the border colour,
// black with alpha 0 for RGBA), CLK_FILTER_LINEAR (blend of the four nearest texels).
__constant sampler_t bilinear_sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;

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

// The sampler's bilinear sample at a position given with pixel centres at integers, in 0..255.
// The picture's size comes in as arguments, as in buffer_warp.cl: get_image_width() and
// get_image_height() would ask the image itself, but Mesa's rusticl (25.0) cannot compile
// them and crashes while building the program.
float4 sample_image(read_only image2d_t input, const int width, const int height, const float2 position) {
  // Far outside (or NaN from a zero divisor): black, without handing the sampler inf or NaN.
  if (!(position.x > -1.0f && position.x < (float)width && position.y > -1.0f && position.y < (float)height))
    return (float4)(0.0f);
  // The sampler puts the centre of texel i at i + 0.5, so shift by half a pixel.
  const float4 colour = read_imagef(input, bilinear_sampler, position + (float2)(0.5f, 0.5f));
  // An 8-bit normalised image reads as 0..1.
  return colour * 255.0f;
}

// One output pixel per work-item.
__kernel void warp_image(read_only image2d_t input, const int in_width, const int in_height,
                         __global uchar4* output, const int out_width, const int out_height,
                         const float4 row0, const float4 row1, const float4 row2) {
  const int x = (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  if (x >= out_width || y >= out_height) return;
  const float2 position = to_position(source_homogeneous(row0, row1, row2, (float)x, (float)y));
  output[y * out_width + x] = convert_uchar4_sat_rte(sample_image(input, in_width, in_height, position));
}

// Four neighbouring output pixels of a row per work-item (the 2010 thesis's (docs/references.md) layout).
__kernel void warp_image_x4(read_only image2d_t input, const int in_width, const int in_height,
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
    pixels[k] = convert_uchar4_sat_rte(sample_image(input, in_width, in_height, to_position(h)));
  store_four(pixels, output, out_width, y, x_first);
}
