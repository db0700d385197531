// Lesson 06: sharing work between neighbouring outputs. A work-item computes STRIP outputs
// down one column. The windows of vertically adjacent pixels share WINDOW - 1 of their rows,
// so each row of WINDOW values is sorted once and reused by up to WINDOW outputs. For every
// output, the sorted rows are then sorted by rank (a matrix sorted both ways), which rules out
// every value that has too many values below or above it; the median of the rest is the answer.
// Built with -D WINDOW=K -D STRIP=S -D PIXEL=float|uchar -D CANDIDATES=C -D BELOW=B.
#define RADIUS (WINDOW / 2)
#define AREA (WINDOW * WINDOW)
#define MIDDLE (AREA / 2)
#define ROWS (STRIP + WINDOW - 1)

#define COMPARE_EXCHANGE(a, b)      \
  do {                              \
    const PIXEL low_ = min(a, b);   \
    (b) = max(a, b);                \
    (a) = low_;                     \
  } while (0)

// Odd-even transposition sort of n values: n rounds of exchanges between neighbours. Every
// index is a compile-time constant once the loops are unrolled, so the values stay in registers
// and the compiler deletes every exchange whose result is never read.
#define SORT_VALUES(v, n)                                                      \
  do {                                                                         \
    _Pragma("unroll") for (int round_ = 0; round_ < (n); ++round_) {           \
      _Pragma("unroll") for (int i_ = round_ & 1; i_ + 1 < (n); i_ += 2)       \
          COMPARE_EXCHANGE((v)[i_], (v)[i_ + 1]);                              \
    }                                                                          \
  } while (0)

// In a WINDOW x WINDOW matrix whose rows and columns are sorted, the value at (r, c) is >= the
// (r + 1)(c + 1) values above-left of it and <= the (WINDOW - r)(WINDOW - c) values below-right.
// It cannot be the median (MIDDLE values below it, MIDDLE above) when either count exceeds
// MIDDLE + 1.
#define IS_CANDIDATE(r, c) \
  (((r) + 1) * ((c) + 1) <= MIDDLE + 1 && (WINDOW - (r)) * (WINDOW - (c)) <= MIDDLE + 1)
// The host counts the candidates (-D CANDIDATES=...) and the values ruled out for being too
// small (-D BELOW=...), those whose (WINDOW - r)(WINDOW - c) exceeds MIDDLE + 1.

PIXEL median_of_sorted_rows(const PIXEL sorted[ROWS][WINDOW], const int first_row) {
  // Sort each rank column: afterwards columns are sorted too, and rows stay sorted.
  PIXEL m[WINDOW][WINDOW];
#pragma unroll
  for (int c = 0; c < WINDOW; ++c) {
    PIXEL column[WINDOW];
#pragma unroll
    for (int r = 0; r < WINDOW; ++r) column[r] = sorted[first_row + r][c];
    SORT_VALUES(column, WINDOW);
#pragma unroll
    for (int r = 0; r < WINDOW; ++r) m[r][c] = column[r];
  }
  // The median is the (MIDDLE - BELOW)-th smallest of the candidates.
  PIXEL candidates[CANDIDATES];
  int n = 0;
#pragma unroll
  for (int r = 0; r < WINDOW; ++r)
#pragma unroll
    for (int c = 0; c < WINDOW; ++c)
      if (IS_CANDIDATE(r, c)) candidates[n++] = m[r][c];
  SORT_VALUES(candidates, CANDIDATES);
  return candidates[MIDDLE - BELOW];
}

__kernel void median_shared_sorted_rows(__global const PIXEL* input, __global PIXEL* output, const int width,
                                        const int height) {
  const int x = (int)get_global_id(0);
  const int first_y = (int)get_global_id(1) * STRIP;
  if (x >= width || first_y >= height) return;

  // Neighbouring work-items (x, x + 1) read neighbouring addresses in every row.
  int columns[WINDOW];
#pragma unroll
  for (int i = 0; i < WINDOW; ++i) columns[i] = clamp(x - RADIUS + i, 0, width - 1);

  PIXEL sorted[ROWS][WINDOW];
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    const int row = clamp(first_y - RADIUS + r, 0, height - 1) * width;
#pragma unroll
    for (int i = 0; i < WINDOW; ++i) sorted[r][i] = input[row + columns[i]];
    SORT_VALUES(sorted[r], WINDOW);
  }

#pragma unroll
  for (int s = 0; s < STRIP; ++s)
    if (first_y + s < height) output[(first_y + s) * width + x] = median_of_sorted_rows(sorted, s);
}
