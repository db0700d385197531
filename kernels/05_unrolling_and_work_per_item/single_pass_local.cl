// Lesson 05: both passes in one kernel. A work-group owns a tile of TILE_W x TILE_H outputs.
// It first row-filters the TILE_H + 2R rows the tile's columns need and keeps them in local
// memory, then column-filters from there. The image is read once and the result written once;
// the row-filtered image never goes through global memory.
// Work-group: GROUP_W x GROUP_H work-items, each VEC pixels wide and STEPS rows tall.
#ifndef RADIUS
#error "build with -D RADIUS=<radius> -D STEPS=<rows> -D GROUP_W=<w> -D GROUP_H=<h>"
#endif
#include "vector_helpers.h"
#define TILE_W (GROUP_W * VEC)
#define TILE_H (GROUP_H * STEPS)
#define TILE_ROWS (TILE_H + 2 * RADIUS)

// Where work-item lx keeps its vector in tile row r. By default its VEC lanes are neighbours
// (from lx * VEC): one vector access on a CPU, but on a GPU the work-items of a warp then touch
// words VEC apart, and local memory's 32 banks of 4 bytes serve them in several rounds (a bank
// conflict). -D LANE_TILE deals the vector out in float4 parts: part p of work-item lx is the
// float4 at p * GROUP_W + lx of the row, so the 8 work-items a GPU serves per round of 16-byte
// accesses read 128 consecutive bytes, all 32 banks once. (Needs VEC a multiple of 4.)
#ifdef LANE_TILE
inline void tile_store(const floatv v, __local float* tile, const int r, const int lx) {
  float lanes[VEC];
  vstorev(v, 0, lanes);
#pragma unroll
  for (int p = 0; p < VEC / 4; ++p) ((__local float4*)(tile + r * TILE_W))[p * GROUP_W + lx] = vload4(p, lanes);
}
inline floatv tile_load(__local const float* tile, const int r, const int lx) {
  float lanes[VEC];
#pragma unroll
  for (int p = 0; p < VEC / 4; ++p) vstore4(((__local const float4*)(tile + r * TILE_W))[p * GROUP_W + lx], p, lanes);
  return vloadv(0, lanes);
}
#else
inline void tile_store(const floatv v, __local float* tile, const int r, const int lx) {
  vstorev(v, 0, tile + r * TILE_W + lx * VEC);
}
inline floatv tile_load(__local const float* tile, const int r, const int lx) {
  return vloadv(0, tile + r * TILE_W + lx * VEC);
}
#endif

__kernel void single_pass_local(__global const float* input, __global float* output, __constant float* weights,
                                const int width, const int height) {
  __local float row_filtered[TILE_ROWS * TILE_W] __attribute__((aligned(16)));
  POISON_LOCAL(row_filtered, TILE_ROWS * TILE_W);
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int x0 = get_group_id(0) * TILE_W + lx * VEC;
  const int tile_y0 = get_group_id(1) * TILE_H;

  // Phase 1: row-filter the tile's rows plus R above and R below (clamped at the image's top
  // and bottom). The work-items of a column of the group take every GROUP_H-th row.
  for (int r = ly; r < TILE_ROWS; r += GROUP_H) {
    const int y = clamp(tile_y0 - RADIUS + r, 0, height - 1);
    tile_store(filter_row(input + y * width, x0, width, weights), row_filtered, r, lx);
  }
  // Every work-item's column needs rows that other work-items filtered.
  barrier(CLK_LOCAL_MEM_FENCE);

  // Phase 2: the column filter for this work-item's STEPS rows, each local row loaded once.
  const int y0 = tile_y0 + ly * STEPS;
  if (x0 >= width || y0 >= height) return;
  floatv sums[STEPS];
#pragma unroll
  for (int s = 0; s < STEPS; ++s) sums[s] = (floatv)(0.0f);
#pragma unroll
  for (int i = 0; i < STEPS + 2 * RADIUS; ++i) {
    const floatv v = tile_load(row_filtered, ly * STEPS + i, lx);
#pragma unroll
    for (int s = 0; s < STEPS; ++s)
      if (i - s >= 0 && i - s <= 2 * RADIUS) sums[s] += weights[i - s] * v;
  }
#pragma unroll
  for (int s = 0; s < STEPS; ++s)
    if (y0 + s < height) store_inside(sums[s], output + (y0 + s) * width, x0, width);
}
