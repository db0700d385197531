// Exercise 06: the median of a plus-shaped window. Each output pixel is the median of five
// values: the pixel itself and its four neighbours above, left, right and below (a neighbour
// outside the image is the nearest edge pixel, as in the lesson). Unlike the 3x3 median, the
// cross keeps lines one pixel thick, as long as they run along a row or a column.
//
// Find the median the way network_3x3.cl does: compare-exchanges and single min or max
// operations only, no loops, no branches on the data, and no more steps than needed (seven).

// Puts the smaller of two values in *low and the larger in *high.
void compare_exchange(float* low, float* high) {
  const float a = *low, b = *high;
  *low = min(a, b);
  *high = max(a, b);
}

__kernel void median_cross(__global const float* input, __global float* output, const int width, const int height) {
  const int x = (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  if (x >= width || y >= height) return;

  /* >>> GAP 1: the five values of the cross, every neighbour clamped to the image */
  const int row = y * width;
  float above = input[max(y - 1, 0) * width + x];
  float left = input[row + max(x - 1, 0)];
  float centre = input[row + x];
  float right = input[row + min(x + 1, width - 1)];
  float below = input[min(y + 1, height - 1) * width + x];
  /* <<< GAP 1 */

  /* >>> GAP 2: the median of the five in `median`: seven compare-exchanges or single min/max steps */
  // Two pairs, each sorted (2 exchanges): above <= below and left <= right.
  compare_exchange(&above, &below);
  compare_exchange(&left, &right);
  // The smaller pair minimum has three values at or above it (its partner, the other minimum
  // and that one's partner), one too many for the median of five: only the larger minimum
  // can still be it (1 max). In the mirror image, only the smaller pair maximum (1 min).
  const float low = max(above, left);
  const float high = min(below, right);
  // One value at or below the median and one at or above it are gone, so the median of the
  // five is the median of the three left: low, high and centre (3).
  const float lesser = min(low, high), greater = max(low, high);
  const float median = max(lesser, min(greater, centre));
  /* <<< GAP 2 */

  output[y * width + x] = median;
}
