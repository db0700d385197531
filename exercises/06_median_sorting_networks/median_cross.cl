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
  // Your code: above, left, centre, right and below (as floats you may overwrite).
  float above = input[y * width + x], left = above, centre = above, right = above, below = above; /* replace */
  /* <<< GAP 1 */

  /* >>> GAP 2: the median of the five in `median`: seven compare-exchanges or single min/max steps */
  // Your code: call compare_exchange, or min or max where one of the two results is enough.
  const float median = centre; /* replace: the pixel itself, not the median */
  /* <<< GAP 2 */

  output[y * width + x] = median;
}
