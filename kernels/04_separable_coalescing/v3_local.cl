// Lesson 04, v3: each 1D work-group of LINE work-items caches LINE + 2R pixels in local memory.
// Work-item i reads two of them: its "left" pixel (R before its own) into slot i and its "right"
// pixel (R after) into slot i + 2R. Together they cover the line and its halo on both sides.
// LINE must be at least 2R, or slots LINE .. 2R-1 stay empty.
#include "access_trace.h"
#define MAX_RADIUS 16

// The NDRange is height x (width rounded up to LINE): a work-group never straddles two rows.
__kernel void row_pass_v3(__global const float* input, __global float* output, __constant float* weights,
                          const int width, const int height, const int radius TRACE_ARGS) {
  __local float line[LINE + 2 * MAX_RADIUS];
  POISON_LOCAL(line, LINE + 2 * MAX_RADIUS);
  TRACE_START;
  const int padded_width = (width + LINE - 1) / LINE * LINE;
  const int y = get_global_id(0) / padded_width, x = get_global_id(0) % padded_width;
  const int i = get_local_id(0);
  // Work-items past the right edge still load (clamped) pixels: their neighbours need them.
  const int left = y * width + clamp(x - radius, 0, width - 1);
  const int right = y * width + clamp(x + radius, 0, width - 1);
  TRACE_GLOBAL_READ(left);
  TRACE_LOCAL_WRITE(i);
  line[i] = input[left];
  TRACE_GLOBAL_READ(right);
  TRACE_LOCAL_WRITE(i + 2 * radius);
  line[i + 2 * radius] = input[right];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (x >= width) return;
  float sum = 0.0f;
  for (int k = 0; k <= 2 * radius; ++k) {
    TRACE_LOCAL_READ(i + k);
    sum += weights[k] * line[i + k];
  }
  TRACE_GLOBAL_WRITE(y * width + x);
  output[y * width + x] = sum;
}

// The same along columns: the NDRange is width x (height rounded up to LINE) and a work-group
// is LINE pixels of one column. Neighbouring work-items now read addresses a whole row apart,
// so a warp's read touches as many memory segments as it has work-items: not coalesced.
__kernel void column_pass_v3(__global const float* input, __global float* output, __constant float* weights,
                             const int width, const int height, const int radius TRACE_ARGS) {
  __local float line[LINE + 2 * MAX_RADIUS];
  POISON_LOCAL(line, LINE + 2 * MAX_RADIUS);
  TRACE_START;
  const int padded_height = (height + LINE - 1) / LINE * LINE;
  const int x = get_global_id(0) / padded_height, y = get_global_id(0) % padded_height;
  const int i = get_local_id(0);
  const int above = clamp(y - radius, 0, height - 1) * width + x;
  const int below = clamp(y + radius, 0, height - 1) * width + x;
  TRACE_GLOBAL_READ(above);
  TRACE_LOCAL_WRITE(i);
  line[i] = input[above];
  TRACE_GLOBAL_READ(below);
  TRACE_LOCAL_WRITE(i + 2 * radius);
  line[i + 2 * radius] = input[below];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (y >= height) return;
  float sum = 0.0f;
  for (int k = 0; k <= 2 * radius; ++k) {
    TRACE_LOCAL_READ(i + k);
    sum += weights[k] * line[i + k];
  }
  TRACE_GLOBAL_WRITE(y * width + x);
  output[y * width + x] = sum;
}
