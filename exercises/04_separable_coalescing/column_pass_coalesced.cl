// Exercise 04: the coalesced column pass (lesson 04's v411 column kernel).
// A work-group of COL_W x COL_H work-items computes COL_W x COL_H outputs. It first copies the
// rows its columns need, COL_H + 2R of them, into the local tile; work-items that are
// neighbours in x read neighbouring columns of one row, so every warp-wide load is one run of
// consecutive addresses. Then each work-item sums its 2R+1 values down its column of the tile.
#define MAX_RADIUS 16
#define TILE_ROWS (COL_H + 2 * MAX_RADIUS)

__kernel void column_pass_coalesced(__global const float* input, __global float* output, __constant float* weights,
                                    const int width, const int height, const int radius) {
  __local float tile[TILE_ROWS * COL_W];  // row i of the tile, column lx: tile[i * COL_W + lx]
  POISON_LOCAL(tile, TILE_ROWS * COL_W);
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int x = get_global_id(0), y = get_global_id(1);
  const int y0 = get_group_id(1) * COL_H;  // the group's first output row
  // Work-items right of the image load the last column instead: they must not read outside
  // the image, and they still take part in the barrier below.
  const int column = min(x, width - 1);
  // Tile row i is image row y0 - radius + i, clamped to the image. The COL_H work-items of one
  // tile column (same lx) share its COL_H + 2*radius rows: ly, ly + COL_H, ly + 2*COL_H, ...
  /* >>> GAP 1: copy tile rows 0 .. COL_H + 2*radius - 1 of your column into the tile. */
  /* <<< GAP 1 */
  /* >>> GAP 2: no work-item may read the tile before every work-item has written its rows. */
  /* <<< GAP 2 */
  if (x >= width || y >= height) return;
  // Output (x, y) is tile row ly + radius; its window is tile rows ly .. ly + 2*radius.
  float sum = 0.0f;
  for (int k = 0; k <= 2 * radius; ++k) sum += weights[k] * tile[(ly + k) * COL_W + lx];
  output[y * width + x] = sum;
}
