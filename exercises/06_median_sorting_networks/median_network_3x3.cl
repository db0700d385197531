// Exercise 06: the 3x3 median as a sorting network. Each work-item loads its pixel's nine
// neighbours into registers (borders clamped to the nearest edge pixel) and finds their median
// with compare-exchanges only: no loops, no branches that depend on the data.

// Puts the smaller of the two values in *low and the larger in *high.
void compare_exchange(float* low, float* high) {
  /* >>> GAP 1: the exchange: min into *low, max into *high, without an if */
  // Your code: *low must end up with the smaller value, *high with the larger.
  /* <<< GAP 1 */
}

__kernel void median_network_3x3(__global const float* input, __global float* output, const int width,
                                 const int height) {
  const int x = (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  if (x >= width || y >= height) return;

  const int left = max(x - 1, 0), right = min(x + 1, width - 1);
  const int up = max(y - 1, 0) * width, centre = y * width, down = min(y + 1, height - 1) * width;
  float p0 = input[up + left], p1 = input[up + x], p2 = input[up + right];
  float p3 = input[centre + left], p4 = input[centre + x], p5 = input[centre + right];
  float p6 = input[down + left], p7 = input[down + x], p8 = input[down + right];

  /* >>> GAP 2: the order of exchanges, 19 of them, leaving the median in p4 */
  // Your code: call compare_exchange (and min or max where one result is enough).
  /* <<< GAP 2 */

  output[y * width + x] = p4;
}
