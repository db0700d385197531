// Exercise 06: the 3x3 median as a sorting network. Each work-item loads its pixel's nine
// neighbours into registers (borders clamped to the nearest edge pixel) and finds their median
// with compare-exchanges only: no loops, no branches that depend on the data.

// Puts the smaller of the two values in *low and the larger in *high.
void compare_exchange(float* low, float* high) {
  /* >>> GAP 1: the exchange: min into *low, max into *high, without an if */
  const float a = *low, b = *high;
  *low = min(a, b);
  *high = max(a, b);
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
  // Sort each row (9 exchanges).
  compare_exchange(&p0, &p1);
  compare_exchange(&p1, &p2);
  compare_exchange(&p0, &p1);
  compare_exchange(&p3, &p4);
  compare_exchange(&p4, &p5);
  compare_exchange(&p3, &p4);
  compare_exchange(&p6, &p7);
  compare_exchange(&p7, &p8);
  compare_exchange(&p6, &p7);
  // Only the largest row minimum can be the median (2 half exchanges)...
  p3 = max(p0, p3);
  p6 = max(p3, p6);
  // ...only the smallest row maximum (2)...
  p5 = min(p5, p8);
  p2 = min(p2, p5);
  // ...and only the median of the row medians (3).
  compare_exchange(&p1, &p4);
  p4 = min(p4, p7);
  p4 = max(p1, p4);
  // The median of those three candidates (3).
  compare_exchange(&p6, &p4);
  p4 = min(p4, p2);
  p4 = max(p6, p4);
  /* <<< GAP 2 */

  output[y * width + x] = p4;
}
