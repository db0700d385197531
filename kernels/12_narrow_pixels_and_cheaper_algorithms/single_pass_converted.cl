// Lesson 12: lesson 05's single pass (single_pass_blocked.cl) with one change: every input pixel
// is converted to a float once, and the row filter blocks in registers as the column filter does.
// single_pass_blocked row-filters each row straight from global memory: a work-item loads the
// 2 CHUNKS + 1 float4s around its own and converts each, so at R = 8 every byte or half is
// loaded and converted 5 times (by its own work-item and its neighbours): instructions beside
// the multiply-adds that converting once, and reading fewer float4s a row, take away. Here:
// - Convert once: the group copies the rows it needs into local memory as floats, `staged`,
//   each pixel loaded and converted by one work-item, neighbouring work-items on neighbouring
//   float4s of a row (coalesced). The rows run from 4 CHUNKS pixels left of the group's first
//   column to 4 CHUNKS right of its last, clamped at the image's edges while they are copied:
//   the filters that read them need no check at all.
// - Block the row filter: a work-item owns two neighbouring float4 columns (8 outputs). Their
//   windows overlap, so it reads 2 CHUNKS + 2 float4s of a staged row for 8 outputs, where one
//   float4 column reads 2 CHUNKS + 1 for 4: 6 instead of 10 at R = 8. The taps run on them in
//   registers (float4_helpers.h's taps4, once for each float4).
// - The column filter is single_pass_blocked's: the row-filtered rows go to a ring in local
//   memory, and work-item (lx, ly) adds the STEPS + 2R rows its STEPS outputs need, each read
//   once, to STEPS sums in registers, for each of its two columns.
// - A group walks down a strip of STRIP rows, TILE_H = GROUP_H * STEPS rows at a time; the ring
//   keeps the 2R rows a tile shares with the next, so each row is staged and row-filtered once
//   per strip (the 2R rows around a strip by two groups).
// Each tile takes three steps, a barrier after the first two: (1) stage its new rows; (2)
// row-filter them into the ring; (3) column-filter the tile from the ring, while the faster
// work-items go on to stage the next tile's rows. Staging a tile while filtering the one before
// would save a barrier but need a second `staged` (local memory limits how many groups a GPU's
// core runs).
//
// Local memory, as float4s. `ring`: row s of the strip's window (image row strip_y0 - R + s) in
// slot s mod RING, a slot holding the group's 2 GROUP_W float4 columns, work-item lx's first at
// lx and its second at GROUP_W + lx: a warp's 16-byte reads are consecutive, no bank conflicts.
// `staged`: a row's float4 i (pixels 4i .. 4i + 3 counted from the staged row's left end) sits at
// STAGED_AT(i), the even float4s in a row's first half and the odd in its second. Work-item lx
// reads float4s 2 lx + c: with the float4s in order, neighbouring work-items would read 32 bytes
// apart, and of the 8 work-items whose 16-byte loads an NVIDIA GPU serves at once (128 bytes, one per
// bank) two would meet in the same banks; split in halves they read 16 bytes apart.
// A half is HALF float4s, a multiple of 8 plus 4, so that the copy's 8 consecutive float4s
// (alternately in the two halves) fall in 8 different banks too.
//
// Build with -D RADIUS, STEPS, GROUP_W, GROUP_H, STRIP (a multiple of GROUP_H * STEPS) and
// ALIGNED_ROWS, and -D PIXELS_U8 or PIXELS_F16 for narrow pixels (floats without); launch
// GROUP_W x GROUP_H groups, one per 8 GROUP_W columns and STRIP rows.
#include "float4_helpers.h"  // which asks for RADIUS and ALIGNED_ROWS
#if !defined(STEPS) || !defined(GROUP_W) || !defined(GROUP_H) || !defined(STRIP) || STRIP % (GROUP_H * STEPS) != 0
#error "build with -D STEPS=<rows> -D GROUP_W=<w> -D GROUP_H=<h> -D STRIP=<a multiple of GROUP_H * STEPS>"
#endif
#define TILE_H (GROUP_H * STEPS)
#define RING (TILE_H + 2 * RADIUS)  // rows of the ring: a tile's window
#define WRAP(slot) ((slot) >= RING ? (slot)-RING : (slot))
#define STAGED_ROW (2 * GROUP_W + 2 * CHUNKS)  // float4s of a staged row: the group's and CHUNKS each side
#define HALF (((STAGED_ROW / 2 + 3) / 8) * 8 + 4)
#define STAGED_AT(i) (((i)&1) * HALF + ((i) >> 1))
// The 2R window rows above the strip's first tile are staged and row-filtered first, TILE_H at
// a time: HALO_BATCHES batches before the tiles' own.
#define HALO_BATCHES ((2 * RADIUS + TILE_H - 1) / TILE_H)

// Batch b of a strip's window rows: the 2R halo rows in batches of TILE_H (the last one shorter),
// then TILE_H new rows for each tile.
static inline int batch_first_row(const int b) {
  return b < HALO_BATCHES ? b * TILE_H : 2 * RADIUS + (b - HALO_BATCHES) * TILE_H;
}
static inline int batch_rows(const int b) {
  return b < HALO_BATCHES ? min(TILE_H, 2 * RADIUS - b * TILE_H) : TILE_H;
}

__kernel void single_pass_converted(__global const pixel* input, __global pixel* output, __constant float* weights,
                                    const int width, const int height) {
  __local float4 staged[TILE_H * 2 * HALF];
  __local float4 ring[RING * 2 * GROUP_W];
  POISON_LOCAL((__local float*)staged, TILE_H * 2 * HALF * 4);
  POISON_LOCAL((__local float*)ring, RING * 2 * GROUP_W * 4);
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int group_x0 = get_group_id(0) * GROUP_W * 8;
  const int x0 = group_x0 + 8 * lx;  // this work-item's 8 outputs, two float4s
  const int staged_x0 = group_x0 - 4 * CHUNKS;
  const int strip_y0 = get_group_id(1) * STRIP;
  const int tiles = (min(STRIP, height - strip_y0) + TILE_H - 1) / TILE_H;  // the same for the whole group
  const int batches = HALO_BATCHES + tiles;

  int first = 0;  // the ring slot of the next tile's first window row
  for (int b = 0; b < batches; ++b) {
    // Step 1: copy window rows row0 .. row0 + rows - 1 of the strip to `staged`, each pixel
    // loaded and converted once: row j by work-items ly = j mod GROUP_H, float4 i of it by
    // lx = i mod GROUP_W. Rows above and below the image repeat its first and last (clamp to
    // edge), and so do the columns beyond its left and right ends (load4_clamped, lane by lane
    // there). The last step 2 has finished reading `staged`: a barrier lies between.
    const int row0 = batch_first_row(b), rows = batch_rows(b);
    for (int j = ly; j < rows; j += GROUP_H) {
      __global const pixel* row = input + clamp(strip_y0 - RADIUS + row0 + j, 0, height - 1) * width;
      for (int i = lx; i < STAGED_ROW; i += GROUP_W)
        staged[j * 2 * HALF + STAGED_AT(i)] = load4_clamped(row, staged_x0 + 4 * i, width);
    }
    // Step 2 reads what other work-items staged, and overwrites ring rows the last step 3 read.
    barrier(CLK_LOCAL_MEM_FENCE);

    // Step 2: row-filter the staged rows j = ly + k GROUP_H into the ring. Work-item lx's window
    // is staged float4s 2 lx .. 2 lx + 2 CHUNKS + 1: its 8 outputs and 4 CHUNKS pixels each side.
    // A work-item right of the image filters the clamped copies of the last pixel: no branch,
    // and its outputs are never stored.
#pragma unroll
    for (int k = 0; k < STEPS; ++k) {
      const int j = ly + k * GROUP_H;
      if (j < rows) {
        float window[4 * (2 * CHUNKS + 2)];
#pragma unroll
        for (int c = 0; c < 2 * CHUNKS + 2; ++c) put4(window, c, staged[j * 2 * HALF + STAGED_AT(2 * lx + c)]);
        const int slot = (row0 + j) % RING;
        ring[slot * 2 * GROUP_W + lx] = taps4(window, weights);
        ring[slot * 2 * GROUP_W + GROUP_W + lx] = taps4(window + 4, weights);
      }
    }
    // Step 3 reads rows other work-items filtered; the next step 1 overwrites `staged`.
    barrier(CLK_LOCAL_MEM_FENCE);

    // Step 3: once a tile's new rows are in, column-filter it: window row i of this work-item's
    // STEPS + 2R feeds output s with weight i - s, and is read from the ring once per column.
    if (b >= HALO_BATCHES) {
      const int mine = first + ly * STEPS;
      float4 left[STEPS], right[STEPS];
#pragma unroll
      for (int s = 0; s < STEPS; ++s) left[s] = right[s] = (float4)(0.0f);
#pragma unroll
      for (int i = 0; i < STEPS + 2 * RADIUS; ++i) {
        const int slot = WRAP(mine + i);
        const float4 u = ring[slot * 2 * GROUP_W + lx], v = ring[slot * 2 * GROUP_W + GROUP_W + lx];
#pragma unroll
        for (int s = 0; s < STEPS; ++s)
          if (i - s >= 0 && i - s <= 2 * RADIUS) {
            left[s] += weights[i - s] * u;
            right[s] += weights[i - s] * v;
          }
      }
      const int y0 = strip_y0 + (b - HALO_BATCHES) * TILE_H + ly * STEPS;
#pragma unroll
      for (int s = 0; s < STEPS; ++s)
        if (y0 + s < height) {
          store4_inside(left[s], output + (y0 + s) * width, x0, width);
          store4_inside(right[s], output + (y0 + s) * width, x0 + 4, width);
        }
      first = WRAP(first + TILE_H);
    }
  }
}
