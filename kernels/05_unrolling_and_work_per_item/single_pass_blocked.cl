// Lesson 05: the single pass laid out for a GPU. single_pass_local loses on a GPU in two ways:
// its row filter loads with vload8 at every float offset x0 - R + k, which a GPU compiler turns
// into 4-byte loads, and each of its tiles row-filters the 2R rows around it again (1.25x the
// row work for 64-row tiles). Here:
// - Every work-item owns one aligned float4 column of outputs, neighbouring work-items
//   neighbouring float4s, and row-filters with float4_helpers.h's aligned float4 loads (the
//   pattern of float4_passes.cl, which runs each pass at the copy bandwidth).
// - Row-filtered rows go to local memory as float4s, row r of the group's columns at
//   ring[r * GROUP_W + lx]: the 16-byte accesses of a warp are consecutive, no bank conflicts.
// - Register blocking: work-item (lx, ly) computes STEPS output rows of its column. It reads
//   the STEPS + 2R row-filtered rows they need from local memory once each, and adds each one,
//   times its weight, to every sum it feeds, all in registers.
// - A work-group walks down a strip of STRIP rows, one tile of TILE_H = GROUP_H * STEPS rows at
//   a time, and local memory holds a ring of row-filtered rows: the 2R rows a tile shares with
//   the next stay there, so each input row is row-filtered once per strip, and only the R rows
//   above and the R below a strip twice, by two groups ((STRIP + 2R) / STRIP the row work).
// - The ring holds two tiles and the halo. While the group column-filters tile t from one
//   part, it has already row-filtered tile t + 1 into the other, so one barrier per tile keeps
//   them apart, and the warps of a group need not all wait for memory at the same time.
// Build with -D RADIUS, STEPS, GROUP_W, GROUP_H, STRIP (a multiple of GROUP_H * STEPS) and
// ALIGNED_ROWS; launch GROUP_W x GROUP_H groups, one per 4 GROUP_W columns and STRIP rows.
#if !defined(RADIUS) || !defined(STEPS) || !defined(GROUP_W) || !defined(GROUP_H) || !defined(STRIP)
#error "build with -D RADIUS=<r> -D STEPS=<rows> -D GROUP_W=<w> -D GROUP_H=<h> -D STRIP=<rows> -D ALIGNED_ROWS=<0|1>"
#endif
#include "float4_helpers.h"
#define TILE_H (GROUP_H * STEPS)
#if STRIP % TILE_H != 0
#error "STRIP must be a multiple of GROUP_H * STEPS"
#endif
#define RING (2 * TILE_H + 2 * RADIUS)  // rows of the ring
// Ring slot of window row s of the strip (image row strip_y0 - RADIUS + s) is s mod RING: the
// slots below come as `first + offset`, both below RING, so one subtraction wraps them.
#define WRAP(slot) ((slot) >= RING ? (slot)-RING : (slot))

// Two rungs that change one thing each (lesson 05's single_pass_restrict and single_pass_reqd):
// -D RESTRICT_POINTERS declares the input and output `restrict`, a promise that no store through
// one changes what the other reads, so the compiler may keep loads ahead of stores and use a
// read-only path for the input; -D REQUIRED_GROUP declares the group shape the host launches,
// reqd_work_group_size(GROUP_W, GROUP_H, 1), so the compiler knows it when it allocates.
// -D COUNT_LIVE (lesson 05's strip sweep) adds an argument `live`: live[0] counts the groups
// running now, live[1] the most that ran at once, the device's resident groups.
#ifdef RESTRICT_POINTERS
#define NO_ALIAS restrict
#else
#define NO_ALIAS
#endif
#ifdef REQUIRED_GROUP
#define GROUP_SHAPE __attribute__((reqd_work_group_size(GROUP_W, GROUP_H, 1)))
#else
#define GROUP_SHAPE
#endif
#ifdef COUNT_LIVE
#define LIVE_ARGUMENT , __global int* live
#else
#define LIVE_ARGUMENT
#endif

__kernel GROUP_SHAPE void single_pass_blocked(__global const pixel* NO_ALIAS input, __global pixel* NO_ALIAS output,
                                              __constant float* weights, const int width,
                                              const int height LIVE_ARGUMENT) {
  __local float4 ring[RING * GROUP_W];
  POISON_LOCAL((__local float*)ring, RING * GROUP_W * 4);
  const int lx = get_local_id(0), ly = get_local_id(1);
#ifdef COUNT_LIVE
  if (lx == 0 && ly == 0) atomic_max(&live[1], atomic_inc(&live[0]) + 1);
#endif
  const int x0 = (get_group_id(0) * GROUP_W + lx) * 4;
  const bool inside = x0 < width;  // work-items right of the image only join the barriers
  const int strip_y0 = get_group_id(1) * STRIP;
  const int tiles = (min(STRIP, height - strip_y0) + TILE_H - 1) / TILE_H;  // the same for the whole group

  // Window rows 0 .. 2R - 1: the R rows above the strip (clamped at the image's top) and its
  // first R, which tile 0's window needs besides the tile's own new rows.
  for (int s = ly; s < 2 * RADIUS; s += GROUP_H)
    if (inside)
      ring[s * GROUP_W + lx] =
          filter_row4(input + clamp(strip_y0 - RADIUS + s, 0, height - 1) * width, x0, width, weights);

  // Step t row-filters tile t + 1's new rows and column-filters tile t: tile -1 has no outputs,
  // tile `tiles` no rows.
  int first = RING - TILE_H;  // the ring slot of tile t's first window row, t TILE_H
  for (int t = -1; t < tiles; ++t) {
    // Tile t + 1's new rows, j = ly + k GROUP_H for k < STEPS: window rows (t + 1) TILE_H + 2R + j,
    // image rows (clamped at the bottom) R below their tile's. Their slots are none of the
    // TILE_H + 2R that tile t reads below: the ring has TILE_H more. Whether the column's window
    // lies inside the row does not depend on the row: checked once, the STEPS rows' loads have no
    // branch between them, and the compiler may issue several rows' loads before it waits.
    if (t + 1 < tiles) {
      const int y0 = strip_y0 + (t + 1) * TILE_H + RADIUS, slot0 = first + TILE_H + 2 * RADIUS;
      if (CHUNKS_INSIDE(x0, width)) {
#pragma unroll
        for (int k = 0; k < STEPS; ++k) {
          const int j = ly + k * GROUP_H;
          const float4 v = filter_row4_inside(input + min(y0 + j, height - 1) * width, x0, weights);
          ring[WRAP(slot0 + j) * GROUP_W + lx] = v;
        }
      } else if (inside) {  // the few columns at the image's left and right edges
#pragma unroll 1
        for (int k = 0; k < STEPS; ++k) {
          const int j = ly + k * GROUP_H;
          const float4 v = filter_row4(input + min(y0 + j, height - 1) * width, x0, width, weights);
          ring[WRAP(slot0 + j) * GROUP_W + lx] = v;
        }
      }
    }

    // Column-filter tile t: window row i of this work-item's STEPS + 2R feeds output s with
    // weight i - s, and is read from local memory once.
    if (t >= 0) {
      const int mine = first + ly * STEPS;
      float4 sums[STEPS];
#pragma unroll
      for (int s = 0; s < STEPS; ++s) sums[s] = (float4)(0.0f);
#pragma unroll
      for (int i = 0; i < STEPS + 2 * RADIUS; ++i) {
        const float4 v = ring[WRAP(mine + i) * GROUP_W + lx];
#pragma unroll
        for (int s = 0; s < STEPS; ++s)
          if (i - s >= 0 && i - s <= 2 * RADIUS) sums[s] += weights[i - s] * v;
      }
      const int y0 = strip_y0 + t * TILE_H + ly * STEPS;
#pragma unroll
      for (int s = 0; s < STEPS; ++s)
        if (inside && y0 + s < height) store4_inside(sums[s], output + (y0 + s) * width, x0, width);
    }

    // Tile t + 1 reads the rows filtered above; tile t + 2's row filter overwrites rows read here.
    barrier(CLK_LOCAL_MEM_FENCE);
    first = WRAP(first + TILE_H);  // from tile -1's RING - TILE_H to tile 0's 0
  }
#ifdef COUNT_LIVE
  if (lx == 0 && ly == 0) atomic_dec(&live[0]);  // after the last barrier: the whole group is done
#endif
}
