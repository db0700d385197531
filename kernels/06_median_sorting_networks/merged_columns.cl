// Lesson 06: sharing the sorting work in both directions, after Adams' separable sorting
// networks [Adams 2021]. A work-item computes a tile of VECTOR x STRIP outputs:
//
// 1. Columns, sorted once for two output rows. Output rows s and s + 1 share WINDOW - 1 rows of
//    their windows, so in every column those values are sorted once and each of the two rows
//    inserts its one other value (2 operations per value).
// 2. Columns merged once for two outputs. Outputs o and o + 1 of a row share WINDOW - 1 of their
//    sorted columns: these are merged into one sorted list, and each output then needs only the
//    middle WINDOW + 1 values of it and its own column: its median is the middle one, the
//    (WINDOW + 1)-th smallest, of those 2 WINDOW + 1 values, 2 WINDOW operations. Neighbouring
//    pairs merge some of the same columns; those merges are written twice and the compiler
//    computes them once (the same min and max of the same values).
//
// Every index is a constant once the loops are unrolled, so the values live in registers and the
// compiler deletes every operation whose result is never read: a merge whose upper half no output
// needs costs only what its lower half needs.
//
// Rows are read with aligned vector loads when the host defines ALIGNED_ROWS (the width is a
// multiple of 4 pixels, so every row starts on a 4-pixel boundary): each row of the tile is the
// aligned units of 4 (or 2) pixels that cover it, loaded whole, and the shifted windows are picked
// from registers. Elsewhere, and at the image's left and right edges, the units are gathered
// from single clamped pixels.
//
// -D LANES=L (1, 2, 4, 8 or 16) makes every value a vector of L tiles side by side, lane l's tile
// l VECTOR pixels right of lane 0's: one min or max then serves L outputs, as a CPU's SIMD units
// want. With -D PAIRS (8-bit pixels only) every value is a ushort2 of two tiles, for hardware
// with 16-bit pair instructions; with -D PTX_MIN_U16X2 as well (NVIDIA GPUs of compute
// capability 9.0 and later) those are PTX's min.u16x2 and max.u16x2, written as inline PTX. A
// work-item covers SPAN = VECTOR x LANES pixels of a row.
//
// PAIRS holds a pixel p as the 16-bit number 257 p, its byte written twice: one byte permute
// (PTX's prmt, OpenCL's shuffle2) builds a value from two loaded 32-bit words, and another puts
// four results back into a word, where widening each byte to 16 bits and narrowing it back cost
// several instructions a pixel. 257 p keeps the pixels' order, and its low byte is p.
//
// Built with -D WINDOW=K (odd) -D VECTOR=V (even) -D STRIP=S (even) -D PIXEL=float|uchar and the
// merge steps below.
#define RADIUS (WINDOW / 2)
#define MIDDLE (WINDOW * WINDOW / 2)
#define COLUMNS (VECTOR + WINDOW - 1)  // input columns a tile reads

#if VECTOR % 2 != 0 || STRIP % 2 != 0
#error "VECTOR and STRIP must be even: outputs are computed in pairs"
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

#ifdef PAIRS
#undef LANES
#define LANES 2
typedef ushort2 pixels;
// Byte i of permute_bytes(a, b, s) is byte s_i of (a, b), bytes 0-3 of a then 4-7 of b; s_i is
// the i-th hexadecimal digit of s, from the lowest.
#define SELECT(b0, b1, b2, b3) ((uint)(b0) | (uint)(b1) << 4 | (uint)(b2) << 8 | (uint)(b3) << 12)
#ifdef PTX_MIN_U16X2
uint permute_bytes(const uint a, const uint b, const uint selector) {
  uint r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(selector));
  return r;
}
// Not volatile: the compiler may still delete or merge them like any other min and max.
pixels min_pixels(const pixels a, const pixels b) {
  uint r;
  asm("min.u16x2 %0, %1, %2;" : "=r"(r) : "r"(as_uint(a)), "r"(as_uint(b)));
  return as_ushort2(r);
}
pixels max_pixels(const pixels a, const pixels b) {
  uint r;
  asm("max.u16x2 %0, %1, %2;" : "=r"(r) : "r"(as_uint(a)), "r"(as_uint(b)));
  return as_ushort2(r);
}
#define MIN(a, b) min_pixels(a, b)
#define MAX(a, b) max_pixels(a, b)
#else
uint permute_bytes(const uint a, const uint b, const uint selector) {
  const uchar4 pick = (uchar4)(selector & 7, selector >> 4 & 7, selector >> 8 & 7, selector >> 12 & 7);
  return as_uint(shuffle2(as_uchar4(a), as_uchar4(b), pick));
}
#endif
#else
#ifndef LANES
#define LANES 1
#endif
#if LANES == 1
typedef PIXEL pixels;
#else
typedef CAT(PIXEL, LANES) pixels;
#endif
#endif
#ifndef MIN
#define MIN(a, b) min(a, b)
#define MAX(a, b) max(a, b)
#endif

#define SPAN (VECTOR * LANES)  // pixels of a row one work-item computes
#if SPAN % 4 == 0
#define UNIT 4  // pixels per aligned load
#else
#define UNIT 2
#endif
typedef CAT(PIXEL, UNIT) unit;
#define HALO_UNITS ((RADIUS + UNIT - 1) / UNIT)  // units left and right of the span
#define ROW_UNITS (SPAN / UNIT + 2 * HALO_UNITS)
#define SKIP (UNIT * HALO_UNITS - RADIUS)  // loaded pixels before the tile's first column

// The merges are Batcher's odd-even merges, listed by the host for this window as steps on an
// array v (median_filters.cpp, odd_even_merge_steps()): EXCHANGE(i,j) puts the smaller of v[i]
// and v[j] at i and the larger at j; MOVE(i,j) moves v[j] down into an empty place i. Every
// index is a number in the source, so v becomes registers without the compiler first having to
// unroll loops whose bounds depend on other loops.
//  -D CORE_PLACES=P -D CORE_STEPS=...: WINDOW - 1 values at v[0 .. WINDOW - 1), sorted.
//  -D COLUMN_SLOT=Q -D COLUMN_PLACES=P -D COLUMN_STEPS=...: WINDOW - 1 sorted columns, column k
//   at v[k Q ..], merged into one sorted list at v[0 .. WINDOW (WINDOW - 1)).
#define EXCHANGE(i, j)                   \
  do {                                   \
    const pixels low_ = MIN(v[i], v[j]); \
    v[j] = MAX(v[i], v[j]);              \
    v[i] = low_;                         \
  } while (0);
#define MOVE(i, j) v[i] = v[j];

// out = the sorted a with x inserted: out[i] is x clamped to [a[i - 1], a[i]].
void insert_sorted(const pixels a[WINDOW - 1], const pixels x, pixels out[WINDOW]) {
  out[0] = MIN(a[0], x);
#pragma unroll
  for (int i = 1; i < WINDOW - 1; ++i) out[i] = MAX(a[i - 1], MIN(a[i], x));
  out[WINDOW - 1] = MAX(a[WINDOW - 2], x);
}

// The median of a window, from `kept`, the WINDOW + 1 middle values of the WINDOW - 1 columns it
// shares with its neighbour (those below them cannot be the median, and there are as many below
// as above: see the lesson's page), and `own`, its own sorted column: the middle one, the
// (WINDOW + 1)-th smallest, of these 2 WINDOW + 1 values. Taking i + 1 of them from `kept` and the
// rest from `own`, the largest taken is max(kept[i], own[WINDOW - 1 - i]); the answer is the least
// of these.
pixels median_with_column(const pixels kept[WINDOW + 1], const pixels own[WINDOW]) {
  pixels m = kept[WINDOW];
#pragma unroll
  for (int i = 0; i < WINDOW; ++i) m = MIN(m, MAX(kept[i], own[WINDOW - 1 - i]));
  return m;
}

// Component k (a constant) of a unit, a unit from 4 (or 2) clamped pixels, a unit from an array.
#if UNIT == 4
#define COMPONENT(u, k) ((k) == 0 ? (u).s0 : (k) == 1 ? (u).s1 : (k) == 2 ? (u).s2 : (u).s3)
#define CLAMPED_UNIT(row, first, width)                                                 \
  ((unit)((row)[clamp((first), 0, (width)-1)], (row)[clamp((first) + 1, 0, (width)-1)], \
          (row)[clamp((first) + 2, 0, (width)-1)], (row)[clamp((first) + 3, 0, (width)-1)]))
#define UNIT_OF(p) ((unit)((p)[0], (p)[1], (p)[2], (p)[3]))
#else
#define COMPONENT(u, k) ((k) == 0 ? (u).s0 : (u).s1)
#define CLAMPED_UNIT(row, first, width) \
  ((unit)((row)[clamp((first), 0, (width)-1)], (row)[clamp((first) + 1, 0, (width)-1)]))
#define UNIT_OF(p) ((unit)((p)[0], (p)[1]))
#endif

// Row y of the tile (clamped to the image), as its COLUMNS values: the pixels from x0 - RADIUS
// of every lane, loaded as the aligned units that cover [x0 - UNIT HALO_UNITS, x0 + SPAN + UNIT
// HALO_UNITS) where that piece of the row lies inside the image, else gathered clamped to its
// edges.
void load_row(__global const PIXEL* input, const int y, const int x0, const int width, const int height,
              const bool inside, pixels columns[COLUMNS]) {
  __global const PIXEL* row = input + clamp(y, 0, height - 1) * width;
  const int first = x0 - UNIT * HALO_UNITS;
  unit units[ROW_UNITS];
#ifdef ALIGNED_ROWS
  if (inside || (first >= 0 && first + UNIT * ROW_UNITS <= width)) {
#pragma unroll
    for (int u = 0; u < ROW_UNITS; ++u) units[u] = ((__global const unit*)(row + first))[u];
  } else
#endif
  {
#pragma unroll
    for (int u = 0; u < ROW_UNITS; ++u) units[u] = CLAMPED_UNIT(row, first + UNIT * u, width);
  }
#pragma unroll
  for (int c = 0; c < COLUMNS; ++c) {
#ifdef PAIRS
    // Lane 0's pixel i of the loaded ones in bytes 0 and 1, lane 1's pixel j in bytes 2 and 3.
    const int i = SKIP + c, j = SKIP + VECTOR + c;
    columns[c] = as_ushort2(permute_bytes(as_uint(units[i / 4]), as_uint(units[j / 4]),
                                          SELECT(i % 4, i % 4, 4 + j % 4, 4 + j % 4)));
#else
    PIXEL lanes[LANES];
#pragma unroll
    for (int l = 0; l < LANES; ++l) {
      const int i = SKIP + l * VECTOR + c;
      lanes[l] = COMPONENT(units[i / UNIT], i % UNIT);
    }
#if LANES == 1
    columns[c] = lanes[0];
#else
    columns[c] = CAT(vload, LANES)(0, lanes);
#endif
#endif
  }
}

// The SPAN results of one output row, stored whole where the row is aligned and the tile inside.
void store_row(__global PIXEL* row, const int x0, const int width, const bool inside, const PIXEL results[SPAN]) {
#ifdef ALIGNED_ROWS
  if (inside || x0 + SPAN <= width) {
#pragma unroll
    for (int u = 0; u < SPAN / UNIT; ++u) ((__global unit*)(row + x0))[u] = UNIT_OF(results + UNIT * u);
    return;
  }
#endif
#pragma unroll
  for (int i = 0; i < SPAN; ++i)
    if (x0 + i < width) row[x0 + i] = results[i];
}

#ifdef PAIRS
// The same from VECTOR pairs of results, lane 0's output o in the low byte of pairs[o] and lane
// 1's in byte 2: four pairs become a word of lane 0's results and one of lane 1's in four byte
// permutes.
void store_pairs(__global uchar* row, const int x0, const int width, const bool inside, const pixels pairs[VECTOR]) {
#if defined(ALIGNED_ROWS) && VECTOR % 4 == 0
  if (inside || x0 + SPAN <= width) {
#pragma unroll
    for (int u = 0; u < VECTOR / 4; ++u) {
      const uint a = permute_bytes(as_uint(pairs[4 * u]), as_uint(pairs[4 * u + 1]), SELECT(0, 4, 2, 6));
      const uint b = permute_bytes(as_uint(pairs[4 * u + 2]), as_uint(pairs[4 * u + 3]), SELECT(0, 4, 2, 6));
      ((__global uint*)(row + x0))[u] = permute_bytes(a, b, SELECT(0, 1, 4, 5));
      ((__global uint*)(row + x0 + VECTOR))[u] = permute_bytes(a, b, SELECT(2, 3, 6, 7));
    }
    return;
  }
#endif
  uchar results[SPAN];
#pragma unroll
  for (int o = 0; o < VECTOR; ++o) {
    results[o] = (uchar)pairs[o].s0;  // 257 p is p in its low byte
    results[VECTOR + o] = (uchar)pairs[o].s1;
  }
  store_row(row, x0, width, inside, results);
}
#endif

// The tile of outputs from (x0, y0). `inside` (a constant once inlined) says that the tile's
// outputs and every unit its rows load lie inside the image (rows above or below it are still
// clamped): then nothing is tested inside the tile, the whole tile is one stretch of code, and
// the compiler may issue the loads of later rows before the work on earlier ones.
void median_tile(__global const PIXEL* input, __global PIXEL* output, const int x0, const int y0, const int width,
                 const int height, const bool inside) {
  // The WINDOW + 1 input rows of two output rows; the first WINDOW - 1 of them now, the other
  // two at the start of each pair of output rows, after the ones no longer needed moved up.
  pixels rows[WINDOW + 1][COLUMNS];
#pragma unroll
  for (int r = 0; r < WINDOW - 1; ++r) load_row(input, y0 - RADIUS + r, x0, width, height, inside, rows[r]);

#pragma unroll
  for (int s = 0; s < STRIP; s += 2) {
    if (!inside && y0 + s >= height) break;
    load_row(input, y0 + s - RADIUS + WINDOW - 1, x0, width, height, inside, rows[WINDOW - 1]);
    load_row(input, y0 + s - RADIUS + WINDOW, x0, width, height, inside, rows[WINDOW]);

    // Step 1: each column's WINDOW values for output rows s and s + 1: the WINDOW - 1 they share,
    // sorted once, with the row above (for s) or below (for s + 1) inserted.
    pixels sorted[2][COLUMNS][WINDOW];
#pragma unroll
    for (int c = 0; c < COLUMNS; ++c) {
      pixels v[CORE_PLACES];
#pragma unroll
      for (int i = 0; i < WINDOW - 1; ++i) v[i] = rows[1 + i][c];
      CORE_STEPS
      insert_sorted(v, rows[0][c], sorted[0][c]);
      insert_sorted(v, rows[WINDOW][c], sorted[1][c]);
    }

    // Step 2: outputs o and o + 1 of each of the two rows: the WINDOW - 1 columns they share,
    // merged; each output's median from the middle of that list and its own column.
#pragma unroll
    for (int n = 0; n < 2; ++n) {
      if (!inside && y0 + s + n >= height) break;
#ifdef PAIRS
      pixels results[VECTOR];
#else
      PIXEL results[SPAN];
#endif
#pragma unroll
      for (int o = 0; o < VECTOR; o += 2) {
        pixels v[COLUMN_PLACES];
#pragma unroll
        for (int k = 0; k < WINDOW - 1; ++k)
#pragma unroll
          for (int i = 0; i < WINDOW; ++i) v[k * COLUMN_SLOT + i] = sorted[n][o + 1 + k][i];
        COLUMN_STEPS
        const pixels medians[2] = {median_with_column(v + MIDDLE - WINDOW, sorted[n][o]),
                                   median_with_column(v + MIDDLE - WINDOW, sorted[n][o + WINDOW])};
#pragma unroll
        for (int m = 0; m < 2; ++m) {
#if LANES == 1 || defined(PAIRS)
          results[o + m] = medians[m];
#else
          PIXEL lanes[LANES];
          CAT(vstore, LANES)(medians[m], 0, lanes);
#pragma unroll
          for (int l = 0; l < LANES; ++l) results[l * VECTOR + o + m] = lanes[l];
#endif
        }
      }
#ifdef PAIRS
      store_pairs(output + (y0 + s + n) * width, x0, width, inside, results);
#else
      store_row(output + (y0 + s + n) * width, x0, width, inside, results);
#endif
    }

    // The next two output rows need these rows from the third on.
#pragma unroll
    for (int r = 0; r < WINDOW - 1; ++r)
#pragma unroll
      for (int c = 0; c < COLUMNS; ++c) rows[r][c] = rows[r + 2][c];
  }
}

__kernel void median_merged_columns(__global const PIXEL* input, __global PIXEL* output, const int width,
                                    const int height) {
  const int x0 = (int)get_global_id(0) * SPAN;
  const int y0 = (int)get_global_id(1) * STRIP;
  if (x0 >= width || y0 >= height) return;
#ifdef ALIGNED_ROWS
  // Almost every tile of a large image lies inside it, and takes the untested copy of the code;
  // those at its edges take the careful one. (On an H100, 8-bit 3x3 at 8192x8192, lesson 11's best
  // of 24 candidates: 0.0988 ms with the careful copy for every tile, 0.0707 ms with the two.)
  if (x0 >= UNIT * HALO_UNITS && x0 + SPAN + UNIT * HALO_UNITS <= width && y0 + STRIP <= height) {
    median_tile(input, output, x0, y0, width, height, true);
    return;
  }
#endif
  median_tile(input, output, x0, y0, width, height, false);
}
