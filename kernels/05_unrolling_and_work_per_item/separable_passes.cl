// Lesson 05: a separable filter as two passes, rows then columns, one output per work-item.
// Built as is, the radius is the kernel argument `radius` and the loops run to a bound known
// only at run time. Built with -D RADIUS=R, the bound is a constant: `#pragma unroll` then
// lays out all 2R+1 multiply-adds in a row, with constant offsets and no loop counter.
#ifdef RADIUS
#define TAP_RADIUS RADIUS
#define UNROLL _Pragma("unroll")
#else
#define TAP_RADIUS radius
#define UNROLL  // a loop whose bound is a run-time value cannot be laid out in full
#endif

__kernel void row_pass(__global const float* input, __global float* output, __constant float* weights,
                       const int width, const int height, const int radius) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  __global const float* row = input + y * width;
  float sum = 0.0f;
  UNROLL
  for (int k = -TAP_RADIUS; k <= TAP_RADIUS; ++k) sum += weights[k + TAP_RADIUS] * row[clamp(x + k, 0, width - 1)];
  output[y * width + x] = sum;
}

__kernel void column_pass(__global const float* input, __global float* output, __constant float* weights,
                          const int width, const int height, const int radius) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  float sum = 0.0f;
  UNROLL
  for (int k = -TAP_RADIUS; k <= TAP_RADIUS; ++k)
    sum += weights[k + TAP_RADIUS] * input[clamp(y + k, 0, height - 1) * width + x];
  output[y * width + x] = sum;
}
