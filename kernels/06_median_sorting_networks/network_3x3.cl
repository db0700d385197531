// Lesson 06: the 3x3 median with 19 compare-exchanges and no branches. The nine values live in
// registers; the network sorts each row, keeps only the three values that can still be the
// median, and takes their median. Built with -D PIXEL=float|uchar.

// Puts the smaller of two values in *low and the larger in *high. min and max are single
// instructions on every SIMD unit, so all lanes run the same code whatever the data.
void compare_exchange(PIXEL* low, PIXEL* high) {
  const PIXEL a = *low, b = *high;
  *low = min(a, b);
  *high = max(a, b);
}

__kernel void median_network_3x3(__global const PIXEL* input, __global PIXEL* output, const int width,
                                 const int height) {
  const int x = (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  if (x >= width || y >= height) return;

  // Borders are clamped to the nearest edge pixel, as in the CPU reference.
  const int left = max(x - 1, 0), right = min(x + 1, width - 1);
  const int up = max(y - 1, 0) * width, centre = y * width, down = min(y + 1, height - 1) * width;
  PIXEL p0 = input[up + left], p1 = input[up + x], p2 = input[up + right];
  PIXEL p3 = input[centre + left], p4 = input[centre + x], p5 = input[centre + right];
  PIXEL p6 = input[down + left], p7 = input[down + x], p8 = input[down + right];

  // Sort each row: afterwards p0 <= p1 <= p2, p3 <= p4 <= p5 and p6 <= p7 <= p8 (9 exchanges).
  compare_exchange(&p0, &p1);
  compare_exchange(&p1, &p2);
  compare_exchange(&p0, &p1);
  compare_exchange(&p3, &p4);
  compare_exchange(&p4, &p5);
  compare_exchange(&p3, &p4);
  compare_exchange(&p6, &p7);
  compare_exchange(&p7, &p8);
  compare_exchange(&p6, &p7);
  // The median (5th of 9) has four values above it. The two smaller row minima each have at
  // least six values above or equal (their own row and the row of the largest minimum), so
  // only the largest row minimum can still be it. Half exchanges: only the max is kept (2).
  p3 = max(p0, p3);
  p6 = max(p3, p6);
  // Mirror image: the smallest row maximum, keeping only the min (2).
  p5 = min(p5, p8);
  p2 = min(p2, p5);
  // Of the row medians, the smallest and largest are ruled out the same way: their median (3).
  compare_exchange(&p1, &p4);
  p4 = min(p4, p7);
  p4 = max(p1, p4);
  // The median of the nine is the median of these three candidates (3).
  compare_exchange(&p6, &p4);
  p4 = min(p4, p2);
  p4 = max(p6, p4);
  output[y * width + x] = p4;
}
