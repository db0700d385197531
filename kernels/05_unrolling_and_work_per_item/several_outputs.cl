// Lesson 05: more work per work-item. Each work-item computes STEPS neighbouring outputs
// (along the row in the row pass, down the column in the column pass). Neighbouring outputs
// share 2R of their 2R+1 inputs, so the work-item loads its STEPS + 2R inputs once into
// registers and reuses them: (STEPS + 2R) / STEPS loads per output instead of 2R + 1. This is
// the RESULT_STEPS idea of NVIDIA's separable sample and the 4-outputs trick of seed 004.
#ifndef RADIUS
#error "build with -D RADIUS=<radius> -D STEPS=<outputs per work-item>"
#endif
#define WINDOW (STEPS + 2 * RADIUS)

__kernel void row_pass_steps(__global const float* input, __global float* output, __constant float* weights,
                             const int width, const int height) {
  const int x0 = get_global_id(0) * STEPS;
  const int y = get_global_id(1);
  if (x0 >= width || y >= height) return;
  __global const float* row = input + y * width;
  // With every index a constant after unrolling, this array lives in registers.
  float window[WINDOW];
#pragma unroll
  for (int i = 0; i < WINDOW; ++i) window[i] = row[clamp(x0 - RADIUS + i, 0, width - 1)];
#pragma unroll
  for (int s = 0; s < STEPS; ++s) {
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < 2 * RADIUS + 1; ++k) sum += weights[k] * window[s + k];
    if (x0 + s < width) output[y * width + x0 + s] = sum;
  }
}

__kernel void column_pass_steps(__global const float* input, __global float* output, __constant float* weights,
                                const int width, const int height) {
  const int x = get_global_id(0);
  const int y0 = get_global_id(1) * STEPS;
  if (x >= width || y0 >= height) return;
  float window[WINDOW];
#pragma unroll
  for (int i = 0; i < WINDOW; ++i) window[i] = input[clamp(y0 - RADIUS + i, 0, height - 1) * width + x];
#pragma unroll
  for (int s = 0; s < STEPS; ++s) {
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < 2 * RADIUS + 1; ++k) sum += weights[k] * window[s + k];
    if (y0 + s < height) output[(y0 + s) * width + x] = sum;
  }
}
