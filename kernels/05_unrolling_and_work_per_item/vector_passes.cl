// Lesson 05: the two passes with vector loads. Each work-item computes VEC neighbouring
// outputs of a row at once (one float8 is one AVX register on a CPU, where PoCL would otherwise
// have to find this parallelism itself); the column pass also goes STEPS rows down, reusing each
// loaded row for every output it touches.
#ifndef RADIUS
#error "build with -D RADIUS=<radius> -D STEPS=<rows per work-item>"
#endif
#include "vector_helpers.h"

__kernel void row_pass_vector(__global const float* input, __global float* output, __constant float* weights,
                              const int width, const int height) {
  const int x0 = get_global_id(0) * VEC;
  const int y = get_global_id(1);
  if (x0 >= width || y >= height) return;
  store_inside(filter_row(input + y * width, x0, width, weights), output + y * width, x0, width);
}

__kernel void column_pass_vector(__global const float* input, __global float* output, __constant float* weights,
                                 const int width, const int height) {
  const int x0 = get_global_id(0) * VEC;
  const int y0 = get_global_id(1) * STEPS;
  if (x0 >= width || y0 >= height) return;
  floatv sums[STEPS];
#pragma unroll
  for (int s = 0; s < STEPS; ++s) sums[s] = (floatv)(0.0f);
  // Input row i of the window feeds output s with weight i - s: each row is loaded once.
#pragma unroll
  for (int i = 0; i < STEPS + 2 * RADIUS; ++i) {
    const floatv v = load_clamped(input + clamp(y0 - RADIUS + i, 0, height - 1) * width, x0, width);
#pragma unroll
    for (int s = 0; s < STEPS; ++s)
      if (i - s >= 0 && i - s <= 2 * RADIUS) sums[s] += weights[i - s] * v;
  }
#pragma unroll
  for (int s = 0; s < STEPS; ++s)
    if (y0 + s < height) store_inside(sums[s], output + (y0 + s) * width, x0, width);
}
