// Lesson 06: the 3x3 network shaped for a CPU. A CPU core runs one work-item at a time, and its
// SIMD unit takes a min or a max of 16 bytes or more in one instruction. So a work-item here
// computes VECTOR neighbouring outputs of a row in one vector (uchar16: sixteen medians per min
// and max), as OpenCV's SIMD median does, LANES such vectors side by side, and walks STRIP rows
// down the image. The network is
// network_3x3.cl's: sort each row of three values, then keep the largest row minimum, the
// smallest row maximum and the median of the row medians, and take the median of those three.
// Walking down, each image row is loaded and sorted once and serves the three outputs whose
// windows hold it. Built with -D PIXEL=float|uchar -D VECTOR=1|2|4|8|16 -D LANES=L -D STRIP=S.
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#if VECTOR > 1
typedef CAT(PIXEL, VECTOR) pixels;  // e.g. uchar16: sixteen neighbouring outputs at once
#else
typedef PIXEL pixels;
#endif
// VECTOR pixels from `p` on, read and written as one vector that needs no more alignment than
// one pixel. (vload16 at x - 1 and x + 1 and vstore16 of bytes compile to a word or a byte at a
// time in PoCL 3.1; this compiles to one unaligned load or store.)
typedef pixels __attribute__((aligned(sizeof(PIXEL)))) unaligned_pixels;
#define LOAD_ROW(p) (*(const __global unaligned_pixels*)(p))
#define STORE_ROW(v, p) (*(__global unaligned_pixels*)(p) = (v))

// One image row sorted across each lane's window: lane l of low, middle and high holds the
// pixels of columns first_x + l - 1, first_x + l and first_x + l + 1 in order.
typedef struct {
  pixels low, middle, high;
} sorted_three;

// Three compare-exchanges sort the three values of every lane.
inline sorted_three sort_three(const pixels left, const pixels centre, const pixels right) {
  const pixels a = min(left, centre), b = max(left, centre), c = min(b, right);
  return (sorted_three){min(a, c), max(a, c), max(b, right)};
}

// The row at the picture's left or right edge: every lane's three columns clamped to the nearest
// edge pixel, as the CPU reference does; lanes past the right edge read it and are not stored.
sorted_three edge_row(__global const PIXEL* input, const int row, const int first_x, const int width) {
  PIXEL left[VECTOR], centre[VECTOR], right[VECTOR];
  for (int i = 0; i < VECTOR; ++i) {
    const int x = min(first_x + i, width - 1);
    left[i] = input[row + max(x - 1, 0)];
    centre[i] = input[row + x];
    right[i] = input[row + min(x + 1, width - 1)];
  }
  return sort_three(*(unaligned_pixels*)left, *(unaligned_pixels*)centre, *(unaligned_pixels*)right);
}

// The row starting `row` pixels into the picture, sorted: inside it three vector loads, the
// columns first_x - 1, first_x and first_x + 1 on; at its edges edge_row().
inline sorted_three sorted_row(__global const PIXEL* input, const int row, const int first_x, const int width,
                               const bool inside) {
  if (!inside) return edge_row(input, row, first_x, width);
  const __global PIXEL* p = input + row + first_x;
  return sort_three(LOAD_ROW(p - 1), LOAD_ROW(p), LOAD_ROW(p + 1));
}

// The median of three values: max(min(a, b), min(max(a, b), c)).
inline pixels median_of_3(const pixels a, const pixels b, const pixels c) {
  return max(min(a, b), min(max(a, b), c));
}

__kernel void median_network_3x3_rows(__global const PIXEL* input, __global PIXEL* output, const int width,
                                      const int height) {
  const int first_x = (int)get_global_id(0) * VECTOR * LANES;
  const int first_y = (int)get_global_id(1) * STRIP;
  if (first_x >= width || first_y >= height) return;
  // LANES vectors side by side, lane k's VECTOR outputs from column first_x + k VECTOR on: their
  // networks are independent, so the core overlaps them. inside[k]: whether lane k's columns
  // x - 1 .. x + VECTOR lie inside the picture, true for all but the work-items at its left and
  // right edges, so the others never take the slow path.
  int x[LANES];
  bool inside[LANES];
  sorted_three above[LANES], here[LANES];
#pragma unroll
  for (int k = 0; k < LANES; ++k) {
    x[k] = min(first_x + k * VECTOR, width - 1);  // a lane wholly past the right edge is not stored
    inside[k] = x[k] >= 1 && x[k] + VECTOR < width;
    // The rows above and at first_y, sorted; the loop adds the row below each output.
    above[k] = sorted_row(input, max(first_y - 1, 0) * width, x[k], width, inside[k]);
    here[k] = sorted_row(input, first_y * width, x[k], width, inside[k]);
  }
  for (int s = 0; s < STRIP; ++s) {
    const int y = first_y + s;
    if (y >= height) break;
#pragma unroll
    for (int k = 0; k < LANES; ++k) {
      const sorted_three below = sorted_row(input, min(y + 1, height - 1) * width, x[k], width, inside[k]);
      // Only the largest row minimum, the smallest row maximum and the median of the row medians
      // can still be the median of the nine (network_3x3.cl says why); it is their median.
      const pixels median = median_of_3(max(max(above[k].low, here[k].low), below.low),
                                        median_of_3(above[k].middle, here[k].middle, below.middle),
                                        min(min(above[k].high, here[k].high), below.high));
      const int lane_x = first_x + k * VECTOR;
      if (lane_x + VECTOR <= width) {
        STORE_ROW(median, output + y * width + lane_x);
      } else {  // a vector that sticks out past the picture, or lies past it: the pixels inside it
        PIXEL lanes[VECTOR];
        *(unaligned_pixels*)lanes = median;
        for (int l = 0; lane_x + l < width; ++l) output[y * width + lane_x + l] = lanes[l];
      }
      // Move down a row: the three sorted rows of the next output are the last two and a new one.
      above[k] = here[k];
      here[k] = below;
    }
  }
}
