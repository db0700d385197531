// Lesson 06, the baseline: each work-item copies its WINDOW x WINDOW neighbourhood into a private
// array, sorts it with insertion sort and keeps the middle value.
// Built with -D WINDOW=K (odd) and -D PIXEL=float or uchar.
#define RADIUS (WINDOW / 2)
#define AREA (WINDOW * WINDOW)

__kernel void median_insertion_sort(__global const PIXEL* input, __global PIXEL* output, const int width,
                                    const int height) {
  const int x = (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  if (x >= width || y >= height) return;

  // Borders are clamped to the nearest edge pixel, as in the CPU reference.
  PIXEL values[AREA];
  int n = 0;
  for (int j = -RADIUS; j <= RADIUS; ++j) {
    const int row = clamp(y + j, 0, height - 1) * width;
    for (int i = -RADIUS; i <= RADIUS; ++i) values[n++] = input[row + clamp(x + i, 0, width - 1)];
  }

  // How far each value travels depends on the data, so neighbouring work-items leave the inner
  // loop at different times: on SIMD hardware the lanes that are done wait for the slowest one.
  for (int i = 1; i < AREA; ++i) {
    const PIXEL v = values[i];
    int k = i - 1;
    while (k >= 0 && values[k] > v) {
      values[k + 1] = values[k];
      --k;
    }
    values[k + 1] = v;
  }
  output[y * width + x] = values[AREA / 2];
}
