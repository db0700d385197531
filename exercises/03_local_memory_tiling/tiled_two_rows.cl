// Exercise 03: a tile that serves two output pixels per work-item. A W x H work-group computes
// a W x 2H block of the output: work-item (lx, ly) owns the pixel in row ly of the block and the
// one H rows further down, in row ly + H. Their windows together need a block of the image with
// a halo of R pixels on every side, the tile, which the group copies into __local memory once.
// The host sizes the __local argument `tile` for it: (W + 2R) x (2H + 2R) floats. The NDRange
// has half as many rows of work-items as the image has rows (rounded up to whole groups).
// Neighbours outside the image are clamped to the nearest edge pixel.

// The window sum from the tile, for the output pixel whose window starts at tile column tx,
// row ty (the halo shifts everything by R, so that is the pixel's own position in the block).
float window_sum(__local const float* tile, const int tile_width, __global const float* weights, const int radius,
                 const int tx, const int ty) {
  const int taps = 2 * radius + 1;
  float sum = 0.0f;
  for (int j = 0; j < taps; ++j)
    for (int i = 0; i < taps; ++i) sum += weights[j * taps + i] * tile[(ty + j) * tile_width + tx + i];
  return sum;
}

__kernel void tiled_convolution_two_rows(__global const float* input, __global const float* weights,
                                         __global float* output, const int width, const int height, const int radius,
                                         __local float* tile) {
  const int group_width = (int)get_local_size(0), group_height = (int)get_local_size(1);
  const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
  /* >>> GAP 1: the tile's size, and the image pixel its element (0, 0) holds: R above and left of the block. */
  /* replace: this is lesson 03's tile, for one output pixel per work-item */
  const int tile_width = group_width + 2 * radius;
  const int tile_height = group_height + 2 * radius;
  const int origin_x = (int)get_group_id(0) * group_width - radius;
  const int origin_y = (int)get_group_id(1) * group_height - radius;
  /* <<< GAP 1 */
  POISON_LOCAL(tile, tile_width * tile_height);

  // Tile element (tx, ty) holds image pixel (origin_x + tx, origin_y + ty), clamped into the image.
  /* >>> GAP 2: copy the whole tile, each work-item its share, then make sure it is complete before anyone reads it. */
  /* replace: each work-item copies only the pixel under itself, so the halo is missing */
  tile[(ly + radius) * tile_width + lx + radius] =
      input[clamp(origin_y + ly + radius, 0, height - 1) * width + clamp(origin_x + lx + radius, 0, width - 1)];
  /* <<< GAP 2 */

  const int x = (int)get_global_id(0);
  if (x >= width) return;
  /* >>> GAP 3: compute and store the work-item's two output pixels, each only if it lies inside the image. */
  const int y = (int)get_global_id(1); /* replace: one output per work-item, in the wrong row */
  if (y < height) output[y * width + x] = window_sum(tile, tile_width, weights, radius, lx, ly);
  /* <<< GAP 3 */
}
