// Exercise 03: convolution from a tile in local memory. A W x H work-group computes W x H
// output pixels; their windows need a (W + 2R) x (H + 2R) block of the image, the tile, which the
// group copies from global memory into __local memory before anyone computes.
// Neighbours outside the image are clamped to the nearest edge pixel.
__kernel void tiled_convolution(__global const float* input, __global const float* weights, __global float* output,
                                const int width, const int height, const int radius, __local float* tile) {
  const int group_width = (int)get_local_size(0), group_height = (int)get_local_size(1);
  const int tile_width = group_width + 2 * radius, tile_height = group_height + 2 * radius;
  POISON_LOCAL(tile, tile_width * tile_height);
  const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
  // The tile's top-left corner in the image: R pixels above and left of the group's first
  // output pixel (negative at the image's top and left edges).
  const int origin_x = (int)(get_group_id(0) * get_local_size(0)) - radius;
  const int origin_y = (int)(get_group_id(1) * get_local_size(1)) - radius;

  /* >>> GAP 1: copy the tile: element (tx, ty) is image pixel (origin_x + tx, origin_y + ty), clamped. */
  /* replace: each work-item copies only the pixel under itself, so the halo is missing */
  tile[(ly + radius) * tile_width + lx + radius] =
      input[clamp(origin_y + ly + radius, 0, height - 1) * width + clamp(origin_x + lx + radius, 0, width - 1)];
  /* <<< GAP 1 */
  /* >>> GAP 2: make sure the whole tile is in place before anyone reads it. */
  /* <<< GAP 2 */

  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  if (x >= width || y >= height) return;
  const int taps = 2 * radius + 1;
  float sum = 0.0f;
  for (int j = 0; j < taps; ++j)
    for (int i = 0; i < taps; ++i) sum += weights[j * taps + i] * tile[(ly + j) * tile_width + lx + i];
  output[y * width + x] = sum;
}
