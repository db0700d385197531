// Lesson 05: the two passes laid out for a GPU. vector_passes.cl gives each work-item 8
// neighbouring outputs, which suits a CPU (one AVX register) but puts the lanes of a GPU's warp
// 32 bytes apart in every load and store instruction, each load an unaligned vload8. Here each
// work-item owns one aligned float4 (4 neighbouring outputs, 16 bytes), and neighbouring
// work-items own neighbouring float4s: one load instruction of a 32-wide warp reads 512
// consecutive bytes, 16 whole 32-byte sectors, as single 128-bit loads. The loads, the stores
// and the row filter are float4_helpers.h's.
#ifndef RADIUS
#error "build with -D RADIUS=<radius> -D STEPS=<rows per work-item> -D ALIGNED_ROWS=<0 or 1>"
#endif
#include "float4_helpers.h"

__kernel void row_pass_float4(__global const pixel* input, __global pixel* output, __constant float* weights,
                              const int width, const int height) {
  const int x0 = get_global_id(0) * 4;
  const int y = get_global_id(1);
  if (x0 >= width || y >= height) return;
  store4_inside(filter_row4(input + y * width, x0, width, weights), output + y * width, x0, width);
}

__kernel void column_pass_float4(__global const pixel* input, __global pixel* output, __constant float* weights,
                                 const int width, const int height) {
  const int x0 = get_global_id(0) * 4;
  const int y0 = get_global_id(1) * STEPS;
  if (x0 >= width || y0 >= height) return;
  float4 sums[STEPS];
#pragma unroll
  for (int s = 0; s < STEPS; ++s) sums[s] = (float4)(0.0f);
  // Input row i of the window feeds output s with weight i - s: each row is loaded once.
#pragma unroll
  for (int i = 0; i < STEPS + 2 * RADIUS; ++i) {
    const float4 v = load4_clamped(input + clamp(y0 - RADIUS + i, 0, height - 1) * width, x0, width);
#pragma unroll
    for (int s = 0; s < STEPS; ++s)
      if (i - s >= 0 && i - s <= 2 * RADIUS) sums[s] += weights[i - s] * v;
  }
#pragma unroll
  for (int s = 0; s < STEPS; ++s)
    if (y0 + s < height) store4_inside(sums[s], output + (y0 + s) * width, x0, width);
}

// The copy of the same pixels, loaded and stored as the passes load and store them: the least
// time any filter of this storage can take (with -D PIXELS_U8 or PIXELS_F16, a copy of bytes or
// halves). `weights` is unused: the arguments are the passes'.
__kernel void copy_pixels4(__global const pixel* input, __global pixel* output, __constant float* weights,
                           const int width, const int height) {
  const int x0 = get_global_id(0) * 4;
  const int y = get_global_id(1);
  if (x0 >= width || y >= height) return;
  store4_inside(load4_clamped(input + y * width, x0, width), output + y * width, x0, width);
}
