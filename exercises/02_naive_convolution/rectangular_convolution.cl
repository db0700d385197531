// Exercise 02: the naive convolution with a rectangular window. One work-item computes one
// output pixel as the weighted sum of the window around it, read straight from global memory,
// but the window is (2 * radius_x + 1) pixels wide and (2 * radius_y + 1) pixels high: a
// horizontal motion blur, a vertical blur, or any filter stronger in one direction than the
// other. Applied as a correlation, out(x, y) = sum of w(i, j) * in(x + i, y + j) for
// i = -radius_x .. radius_x and j = -radius_y .. radius_y. Neighbours outside the image are
// clamped to the nearest edge pixel.
//
// The weights are stored row by row: 2 * radius_y + 1 rows of 2 * radius_x + 1 weights, so
// w(-radius_x, -radius_y) comes first and w(0, 0), the centre, lies in the middle row.
__kernel void rectangular_convolution(__global const float* input, __global const float* weights,
                                      __global float* output, const int width, const int height, const int radius_x,
                                      const int radius_y) {
  const int x = (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  if (x >= width || y >= height) return;
  /* >>> GAP 1: how many weights one row of the window holds, and where the centre weight w(0, 0) lies. */
  const int taps_x = 1; /* replace */
  __global const float* centre = weights; /* replace: this is w(-radius_x, -radius_y), the first weight */
  /* <<< GAP 1 */
  float sum = 0.0f;
  /* >>> GAP 2: add w(i, j) * in(x + i, y + j) over the whole window, the neighbour clamped into the image. */
  sum = centre[0] * input[y * width + x]; /* replace: only the centre pixel, times one weight */
  /* <<< GAP 2 */
  output[y * width + x] = sum;
}
