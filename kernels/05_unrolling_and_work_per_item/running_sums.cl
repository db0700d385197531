// Lesson 05: the box filter by running sums, a change of algorithm rather than of layout. Every
// kernel above costs 2R+1 multiply-adds per pixel and pass; a box filter's weights are all equal,
// so the window's sum at x + 1 is the sum at x plus the pixel entering the window minus the one
// leaving it: two loads and two additions per pixel, whatever the radius.
//
// Each work-item walks SEGMENT pixels of one line (a row in the row pass, a column in the column
// pass) carrying that sum. It starts the sum from scratch, 2R+1 loads, once per segment; the
// radius then costs (2R+1) / SEGMENT loads per pixel, a quarter of one at R = 64 and 512-pixel
// segments.
//
// The float drift: adding and subtracting rounds at every step, and the rounding errors of a
// running sum add up along the walk (a sum recomputed for every pixel holds one window's worth
// only). Starting each segment afresh bounds the walk to SEGMENT steps of two roundings of at
// most half an ulp of the sum: for values up to 255 and R = 64 the sum stays under 2^15, half an
// ulp is 2^-9, and 512 steps drift 2 at worst, 0.016 of a gray level after the division by
// 2R+1 (the errors' signs vary, so the drift measured is far smaller). A walk over a whole
// 8192-pixel line could drift 16 times as far. Integer sums of 8-bit pixels would be exact at
// any length.
//
// The row pass's work-items are neighbouring rows: in one load instruction their addresses lie a
// row apart, 32 different cache lines, and each line serves the next 7 steps from the cache.
// The column pass's work-items are neighbouring columns: every load is coalesced.
// Built with -D SEGMENT=<pixels a work-item walks>; the radius is an argument.
#ifndef SEGMENT
#error "build with -D SEGMENT=<pixels a work-item walks>"
#endif

__kernel void running_rows(__global const float* input, __global float* output, const int width, const int height,
                           const int radius) {
  const int y = get_global_id(0);  // neighbouring work-items: neighbouring rows
  const int x0 = get_global_id(1) * SEGMENT;
  if (y >= height || x0 >= width) return;
  __global const float* row = input + y * width;
  __global float* out = output + y * width;
  const float scale = 1.0f / (2 * radius + 1);
  // The window of x0 - 1, so that the loop's first step makes x0's.
  float sum = 0.0f;
  for (int i = -radius - 1; i < radius; ++i) sum += row[clamp(x0 + i, 0, width - 1)];
  const int end = min(x0 + SEGMENT, width);
  for (int x = x0; x < end; ++x) {
    sum += row[min(x + radius, width - 1)] - row[max(x - radius - 1, 0)];
    out[x] = sum * scale;
  }
}

__kernel void running_columns(__global const float* input, __global float* output, const int width,
                              const int height, const int radius) {
  const int x = get_global_id(0);  // neighbouring work-items: neighbouring columns
  const int y0 = get_global_id(1) * SEGMENT;
  if (x >= width || y0 >= height) return;
  const float scale = 1.0f / (2 * radius + 1);
  float sum = 0.0f;
  for (int i = -radius - 1; i < radius; ++i) sum += input[clamp(y0 + i, 0, height - 1) * width + x];
  const int end = min(y0 + SEGMENT, height);
  for (int y = y0; y < end; ++y) {
    sum += input[min(y + radius, height - 1) * width + x] - input[max(y - radius - 1, 0) * width + x];
    output[y * width + x] = sum * scale;
  }
}
