// Lesson 10: the two passes of a separable filter, written for a frame pipeline.
// convolve_rows reads the picture (float, or 8-bit with -D EIGHT_BIT) and writes float rows;
// convolve_columns reads those and writes the picture's type again. Compile-time constants:
//   RADIUS              taps reach from -RADIUS to +RADIUS (the 2010 thesis's (docs/references.md) 17x17 filter is 8)
//   GROUP_W, GROUP_H    the work-group shape the host chose from the device's limits
// Borders are clamped to the nearest edge pixel, like course::correlate_separable.

#ifdef EIGHT_BIT
// The thesis's v51: pixels cross the bus as 8-bit values, a quarter of the bytes of floats.
// The sums stay in float; only the final store rounds and saturates to 0..255.
typedef uchar pixel_t;
#define TO_PIXEL(value) convert_uchar_sat_rte(value)
#else
typedef float pixel_t;
#define TO_PIXEL(value) (value)
#endif

#define ROW_TILE_W (GROUP_W + 2 * RADIUS)
#define COLUMN_TILE_H (GROUP_H + 2 * RADIUS)

// Each work-group filters a GROUP_W x GROUP_H block along x. Its rows, plus RADIUS pixels of
// halo on both sides, are read once into local memory: without the tile every input pixel
// would be read 2R+1 times from global memory.
__kernel __attribute__((reqd_work_group_size(GROUP_W, GROUP_H, 1))) void convolve_rows(__global const pixel_t* input,
                                                                                       __global float* output,
                                                                                       __constant float* weights,
                                                                                       const int width,
                                                                                       const int height) {
  __local float tile[GROUP_H][ROW_TILE_W];
  POISON_LOCAL(&tile[0][0], GROUP_H * ROW_TILE_W);
  const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  // Work-items below the last row still help to load (a clamped row) and reach the barrier:
  // a barrier that only part of the group reaches is undefined behaviour.
  const int source_row = min(y, height - 1) * width;
  const int tile_left = (int)get_group_id(0) * GROUP_W - RADIUS;
  // Neighbouring work-items load neighbouring addresses, so each strided step is coalesced.
  for (int i = lx; i < ROW_TILE_W; i += GROUP_W)
    tile[ly][i] = (float)input[source_row + clamp(tile_left + i, 0, width - 1)];
  barrier(CLK_LOCAL_MEM_FENCE);  // the whole tile must be in place before anyone reads a neighbour
  if (x >= width || y >= height) return;
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k <= 2 * RADIUS; ++k) sum += weights[k] * tile[ly][lx + k];
  output[y * width + x] = sum;
}

// The same along y: a GROUP_W-wide strip of GROUP_H + 2R rows. Work-items of a row read
// consecutive addresses, which is the coalescing fix the thesis's v411 made for this pass.
__kernel __attribute__((reqd_work_group_size(GROUP_W, GROUP_H, 1))) void convolve_columns(__global const float* input,
                                                                                          __global pixel_t* output,
                                                                                          __constant float* weights,
                                                                                          const int width,
                                                                                          const int height) {
  __local float tile[COLUMN_TILE_H][GROUP_W];
  POISON_LOCAL(&tile[0][0], COLUMN_TILE_H * GROUP_W);
  const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  const int source_column = min(x, width - 1);
  const int tile_top = (int)get_group_id(1) * GROUP_H - RADIUS;
  for (int i = ly; i < COLUMN_TILE_H; i += GROUP_H)
    tile[i][lx] = input[clamp(tile_top + i, 0, height - 1) * width + source_column];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (x >= width || y >= height) return;
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k <= 2 * RADIUS; ++k) sum += weights[k] * tile[ly + k][lx];
  output[y * width + x] = TO_PIXEL(sum);
}
