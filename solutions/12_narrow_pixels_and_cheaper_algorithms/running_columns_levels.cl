// Exercise 12: the running-sum column pass of a box filter for any radius, on gray levels, exact.
// The input holds whole gray levels (0..255) as floats; each output is the mean of the 2R+1
// pixels from y - R to y + R of its column, rows clamped to the image, rounded to the nearest
// level. Integer sums are exact however long the walk: one work-item walks its whole column,
// carrying the window's sum from one row to the next (one pixel enters, one leaves), so its work
// does not grow with the radius. The host launches one work-item per column, in groups of 16.
__kernel void running_columns_levels(__global const float* input, __global float* output, const int width,
                                     const int height, const int radius) {
  const int x = get_global_id(0);
  if (x >= width) return;
  __global const float* column = input + x;  // pixel y of the column: column[y * width]
  int sum = 0;
  /* >>> GAP 1: the window of row -1 (rows -R - 1 .. R - 1, clamped), so that row 0's step makes row 0's. */
  for (int i = -radius - 1; i < radius; ++i)
    sum += (int)column[clamp(i, 0, height - 1) * width];
  /* <<< GAP 1 */
  for (int y = 0; y < height; ++y) {
    /* >>> GAP 2: one step down: the pixel entering the window and the one leaving it, both clamped. */
    const int entering = min(y + radius, height - 1), leaving = max(y - radius - 1, 0);
    sum += (int)column[entering * width] - (int)column[leaving * width];
    /* <<< GAP 2 */
    /* >>> GAP 3: store the mean, rounded to the nearest level. */
    output[y * width + x] = (float)((sum + radius) / (2 * radius + 1));
    /* <<< GAP 3 */
  }
}
