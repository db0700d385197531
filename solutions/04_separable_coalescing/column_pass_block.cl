// Exercise 04: the coalesced column pass for a block of outputs taller or shorter than the group.
// Built with -D COL_W=.. -D COL_H=.. -D BLOCK_H=..: a work-group of COL_W x COL_H work-items
// computes a block of COL_W columns and BLOCK_H rows of outputs, BLOCK_H any number from 1 up,
// smaller than COL_H, equal to it, or larger (then a work-item computes several rows of the
// block: ly, ly + COL_H, ly + 2*COL_H, ...). The group first copies the BLOCK_H + 2R input rows
// the block needs into a local tile, with neighbouring work-items on neighbouring columns, so
// every load of a row of the tile is one run of consecutive addresses. The host launches
// ceil(height / BLOCK_H) groups down the image, COL_H work-items high each.
#define MAX_RADIUS 16
#define TILE_ROWS (BLOCK_H + 2 * MAX_RADIUS)

__kernel void column_pass_block(__global const float* input, __global float* output, __constant float* weights,
                                const int width, const int height, const int radius) {
  __local float tile[TILE_ROWS * COL_W];  // row i of the tile, column lx: tile[i * COL_W + lx]
  POISON_LOCAL(tile, TILE_ROWS * COL_W);
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int x = get_global_id(0);
  // Work-items right of the image load the last column instead: they must not read outside
  // the image, and they still take part in the barrier.
  const int column = min(x, width - 1);
  /* >>> GAP 1: the image row of the block's first output. */
  const int y0 = get_group_id(1) * BLOCK_H;
  /* <<< GAP 1 */
  // Tile row i holds image row y0 - radius + i, clamped to the image.
  /* >>> GAP 2: copy the tile's BLOCK_H + 2*radius rows of your column, then wait for the whole group. */
  for (int i = ly; i < BLOCK_H + 2 * radius; i += COL_H)
    tile[i * COL_W + lx] = input[clamp(y0 - radius + i, 0, height - 1) * width + column];
  barrier(CLK_LOCAL_MEM_FENCE);
  /* <<< GAP 2 */
  if (x >= width) return;
  /* >>> GAP 3: compute and store your outputs: rows ly, ly + COL_H, ... of the block, those inside the image. */
  for (int r = ly; r < BLOCK_H && y0 + r < height; r += COL_H) {
    float sum = 0.0f;
    for (int k = 0; k <= 2 * radius; ++k) sum += weights[k] * tile[(r + k) * COL_W + lx];
    output[(y0 + r) * width + x] = sum;
  }
  /* <<< GAP 3 */
}
