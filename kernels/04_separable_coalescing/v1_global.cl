// Lesson 04, v1: the separable filter as two passes straight from global memory. A 1D NDRange
// of width x height work-items, one per pixel in row-major order; each reads its 2R+1 inputs
// itself, so every input is fetched 2R+1 times (caches may catch some of that, or not).
#include "access_trace.h"

__kernel void row_pass_v1(__global const float* input, __global float* output, __constant float* weights,
                          const int width, const int height, const int radius TRACE_ARGS) {
  TRACE_START;
  const int i = get_global_id(0);
  if (i >= width * height) return;
  const int y = i / width, x = i - y * width;
  float sum = 0.0f;
  for (int k = -radius; k <= radius; ++k) {
    const int at = y * width + clamp(x + k, 0, width - 1);
    TRACE_GLOBAL_READ(at);
    sum += weights[k + radius] * input[at];
  }
  TRACE_GLOBAL_WRITE(i);
  output[i] = sum;
}

// Neighbouring work-items still own neighbouring pixels of a row, so each of the 2R+1 reads of
// a warp falls on consecutive addresses: v1's column pass is slow for its many reads, not for
// its pattern.
__kernel void column_pass_v1(__global const float* input, __global float* output, __constant float* weights,
                             const int width, const int height, const int radius TRACE_ARGS) {
  TRACE_START;
  const int i = get_global_id(0);
  if (i >= width * height) return;
  const int y = i / width, x = i - y * width;
  float sum = 0.0f;
  for (int k = -radius; k <= radius; ++k) {
    const int at = clamp(y + k, 0, height - 1) * width + x;
    TRACE_GLOBAL_READ(at);
    sum += weights[k + radius] * input[at];
  }
  TRACE_GLOBAL_WRITE(i);
  output[i] = sum;
}
