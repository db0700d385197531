// Lesson 04, v411: a 2D NDRange, and loads laid out for the memory system.
//  - Row pass: work-groups of ROW_W x ROW_H. The halo on each side is HALO = 16 floats, whatever
//    the radius, so a group's loads start at x0 - 16: with x0 a multiple of ROW_W (a multiple of
//    16) every warp-wide load starts on a 64-byte boundary, which the 2010 GT240 rewarded. Only
//    ROW_W + 2R of the ROW_W + 32 cached values are used: at today's 32-byte sectors the extra
//    ones are not free (for R = 8 a row of the tile is 8 sectors, 6 of them needed).
//  - Column pass: work-groups of COL_W x COL_H, neighbouring work-items on neighbouring columns,
//    so each warp-wide load of a tile row reads consecutive addresses: coalesced.
// Built with -D ASYNC_COPY, the column pass loads its tile rows with async_work_group_copy.
// Built with -D TRANSPOSED_TILE, the column tile is kept column by column (each work-item's
// column in consecutive words, the habit of CPU code): then the work-items of a warp hit the
// same bank. -D TILE_PAD=1 adds one word per column, which spreads them over all the banks.
#include "access_trace.h"
#define MAX_RADIUS 16
#define HALO 16
#define ROW_STRIDE (ROW_W + 2 * HALO)
#define TILE_ROWS (COL_H + 2 * MAX_RADIUS)
#ifndef TILE_PAD
#define TILE_PAD 0
#endif
#ifdef TRANSPOSED_TILE
#define TILE_AT(row, col) ((col) * (TILE_ROWS + TILE_PAD) + (row))
#define TILE_SIZE (COL_W * (TILE_ROWS + TILE_PAD))
#else
#define TILE_AT(row, col) ((row) * COL_W + (col))
#define TILE_SIZE (TILE_ROWS * COL_W)
#endif

__kernel void row_pass_v411(__global const float* input, __global float* output, __constant float* weights,
                            const int width, const int height, const int radius TRACE_ARGS) {
  __local float rows[ROW_H * ROW_STRIDE];
  POISON_LOCAL(rows, ROW_H * ROW_STRIDE);
  TRACE_START;
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int x0 = get_group_id(0) * ROW_W;
  const int y = min((int)get_global_id(1), height - 1);  // rows below the image load a real row
  __local float* mine = rows + ly * ROW_STRIDE;
  for (int i = lx; i < ROW_STRIDE; i += ROW_W) {
    const int at = y * width + clamp(x0 - HALO + i, 0, width - 1);
    TRACE_GLOBAL_READ(at);
    TRACE_LOCAL_WRITE(ly * ROW_STRIDE + i);
    mine[i] = input[at];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int x = x0 + lx;
  if (x >= width || get_global_id(1) >= height) return;
  float sum = 0.0f;
  for (int k = -radius; k <= radius; ++k) {
    TRACE_LOCAL_READ(ly * ROW_STRIDE + HALO + lx + k);
    sum += weights[k + radius] * mine[HALO + lx + k];
  }
  TRACE_GLOBAL_WRITE(y * width + x);
  output[y * width + x] = sum;
}

__kernel void column_pass_v411(__global const float* input, __global float* output, __constant float* weights,
                               const int width, const int height, const int radius TRACE_ARGS) {
  __local float tile[TILE_SIZE];
  POISON_LOCAL(tile, TILE_SIZE);
  TRACE_START;
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int x = get_global_id(0), y = get_global_id(1);
  const int y0 = get_group_id(1) * COL_H;
  // Columns right of the image load the last column, so that every tile slot holds a number.
  const int column = min(x, width - 1);
  // The tile's rows y0 - R .. y0 + COL_H + R - 1, clamped at the top and bottom of the image.
#if defined(ASYNC_COPY) && !defined(TRANSPOSED_TILE) && !defined(COURSE_TRACE)
  // -D ASYNC_COPY: the work-group hands each tile row to async_work_group_copy, which copies
  // COL_W consecutive floats however the device likes (a DMA engine, or the work-items in
  // turn), then waits for all of them. A group whose columns reach past the image's right edge
  // copies with the loop below instead, since the copy cannot clamp; the condition depends only
  // on the group, so every work-item of a group takes the same branch, as the copy requires.
  const int x0 = get_group_id(0) * COL_W;
  if (x0 + COL_W <= width) {
    event_t copied = 0;
    for (int i = 0; i < COL_H + 2 * radius; ++i)
      copied = async_work_group_copy(tile + i * COL_W, input + clamp(y0 - radius + i, 0, height - 1) * width + x0,
                                     COL_W, copied);
    wait_group_events(1, &copied);
  } else
#endif
  {
    for (int i = ly; i < COL_H + 2 * radius; i += COL_H) {
      const int at = clamp(y0 - radius + i, 0, height - 1) * width + column;
      TRACE_GLOBAL_READ(at);
      TRACE_LOCAL_WRITE(TILE_AT(i, lx));
      tile[TILE_AT(i, lx)] = input[at];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (x >= width || y >= height) return;
  float sum = 0.0f;
  for (int k = 0; k <= 2 * radius; ++k) {
    TRACE_LOCAL_READ(TILE_AT(ly + k, lx));
    sum += weights[k] * tile[TILE_AT(ly + k, lx)];
  }
  TRACE_GLOBAL_WRITE(y * width + x);
  output[y * width + x] = sum;
}
