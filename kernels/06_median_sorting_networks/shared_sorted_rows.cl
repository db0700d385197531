// Lesson 06: sharing work between neighbouring outputs. A work-item computes a block of
// VECTOR x STRIP outputs: VECTOR neighbours along a row, held in one vector so every min and
// max serves them all, and STRIP rows down the image. Vertically adjacent outputs share
// WINDOW - 1 rows of their windows, so each row of WINDOW values is sorted once and reused by
// up to WINDOW outputs. For every output the sorted rows are then sorted by rank (a matrix
// sorted both ways), which rules out every value with too many values below or above it; the
// median of the values left is the answer.
// Built with -D WINDOW=K -D STRIP=S -D VECTOR=1|2|4|8|16 -D PIXEL=float|uchar
// -D CANDIDATES=C -D BELOW=B (C and B are counted by the host, see IS_CANDIDATE).
#define RADIUS (WINDOW / 2)
#define MIDDLE (WINDOW * WINDOW / 2)
#define ROWS (STRIP + WINDOW - 1)

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#if VECTOR == 1
typedef PIXEL pixels;
#define LOAD(p) (*(p))
#define STORE(v, p) (*(p) = (v))
#else
typedef CAT(PIXEL, VECTOR) pixels;  // e.g. float16: sixteen neighbouring outputs at once
#define LOAD(p) CAT(vload, VECTOR)(0, p)
#define STORE(v, p) CAT(vstore, VECTOR)(v, 0, p)
#endif

#define COMPARE_EXCHANGE(a, b)     \
  do {                             \
    const pixels low_ = min(a, b); \
    (b) = max(a, b);               \
    (a) = low_;                    \
  } while (0)

// Odd-even transposition sort of n values: n rounds of exchanges between neighbours. Every
// index is a compile-time constant once the loops are unrolled, so the values stay in registers
// and the compiler deletes every exchange whose result is never read.
#define SORT_VALUES(v, n)                                                                                        \
  do {                                                                                                           \
    _Pragma("unroll") for (int round_ = 0; round_ < (n); ++round_) {                                             \
      _Pragma("unroll") for (int i_ = round_ & 1; i_ + 1 < (n); i_ += 2) COMPARE_EXCHANGE((v)[i_], (v)[i_ + 1]); \
    }                                                                                                            \
  } while (0)

// In a WINDOW x WINDOW matrix whose rows and columns are sorted, the value at (r, c) is >= the
// (r + 1)(c + 1) values above-left of it and <= the (WINDOW - r)(WINDOW - c) values below-right.
// It cannot be the median (MIDDLE values on either side) when either count exceeds MIDDLE + 1.
#define IS_CANDIDATE(r, c) (((r) + 1) * ((c) + 1) <= MIDDLE + 1 && (WINDOW - (r)) * (WINDOW - (c)) <= MIDDLE + 1)

// The median of the CANDIDATES values (an odd count) by forgetful selection: of any KEEP values,
// the smallest has KEEP - 1 values above it, too many for a median, and the largest too many
// below. So hold KEEP values, drop the smallest and the largest, take in the next value, repeat
// until three are left; their median is the answer. Only KEEP values are ever live.
#define KEEP (CANDIDATES / 2 + 2)
pixels median_of_candidates(const pixels candidates[CANDIDATES]) {
  pixels held[KEEP];
#pragma unroll
  for (int i = 0; i < KEEP; ++i) held[i] = candidates[i];
#pragma unroll
  for (int next = KEEP; next < CANDIDATES; ++next) {
    const int size = 2 * KEEP - next;  // values held in this step
    // The smallest to held[0] and the largest to held[size - 1], keeping every value.
#pragma unroll
    for (int i = 1; i < size; ++i) COMPARE_EXCHANGE(held[0], held[i]);
#pragma unroll
    for (int i = 1; i < size - 1; ++i) COMPARE_EXCHANGE(held[i], held[size - 1]);
#pragma unroll
    for (int i = 0; i < size - 2; ++i) held[i] = held[i + 1];
    held[size - 2] = candidates[next];
  }
  COMPARE_EXCHANGE(held[0], held[1]);
  return max(held[0], min(held[1], held[2]));
}

// The median of the window whose WINDOW rows, each already sorted, start at sorted[first_row].
pixels median_of_sorted_rows(const pixels sorted[ROWS][WINDOW], const int first_row) {
  // Sort each rank column: afterwards the columns are sorted and the rows still are.
  pixels m[WINDOW][WINDOW];
#pragma unroll
  for (int c = 0; c < WINDOW; ++c) {
    pixels column[WINDOW];
#pragma unroll
    for (int r = 0; r < WINDOW; ++r) column[r] = sorted[first_row + r][c];
    SORT_VALUES(column, WINDOW);
#pragma unroll
    for (int r = 0; r < WINDOW; ++r) m[r][c] = column[r];
  }
  // BELOW values are ruled out for being too small and as many for being too large, so the
  // median of the whole window is the median of the candidates.
  pixels candidates[CANDIDATES];
  int n = 0;
#pragma unroll
  for (int r = 0; r < WINDOW; ++r)
#pragma unroll
    for (int c = 0; c < WINDOW; ++c)
      if (IS_CANDIDATE(r, c)) candidates[n++] = m[r][c];
  return median_of_candidates(candidates);
}

// VECTOR neighbouring pixels of one row from column `first` on. Inside the image they are one
// vector load; at the left and right edges each lane is clamped to the nearest edge pixel.
pixels load_run(__global const PIXEL* input, const int row, const int first, const int width, const bool inside) {
  if (inside) return LOAD(input + row + first);
  PIXEL lanes[VECTOR];
#pragma unroll
  for (int l = 0; l < VECTOR; ++l) lanes[l] = input[row + clamp(first + l, 0, width - 1)];
  return LOAD(lanes);
}

__kernel void median_shared_sorted_rows(__global const PIXEL* input, __global PIXEL* output, const int width,
                                        const int height) {
  const int first_x = (int)get_global_id(0) * VECTOR;
  const int first_y = (int)get_global_id(1) * STRIP;
  if (first_x >= width || first_y >= height) return;
  // Whether every column this work-item reads lies inside the image: true for all but the work-
  // items at the left and right edges, so the branch costs nothing to the others.
  const bool inside = first_x - RADIUS >= 0 && first_x + VECTOR - 1 + RADIUS < width;

  // Sort each of the ROWS rows once: the WINDOW values of row r for output column x are
  // input[r][x - RADIUS .. x + RADIUS]; with vectors, lane l holds those of column first_x + l.
  pixels sorted[ROWS][WINDOW];
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    const int row = clamp(first_y - RADIUS + r, 0, height - 1) * width;
#pragma unroll
    for (int i = 0; i < WINDOW; ++i) sorted[r][i] = load_run(input, row, first_x - RADIUS + i, width, inside);
    SORT_VALUES(sorted[r], WINDOW);
  }

#pragma unroll
  for (int s = 0; s < STRIP; ++s) {
    const int y = first_y + s;
    if (y >= height) break;
    const pixels median = median_of_sorted_rows(sorted, s);
    if (first_x + VECTOR <= width) {
      STORE(median, output + y * width + first_x);
    } else {  // the last vector of a row may stick out past the image
      PIXEL lanes[VECTOR];
      STORE(median, lanes);
      for (int l = 0; first_x + l < width; ++l) output[y * width + first_x + l] = lanes[l];
    }
  }
}
