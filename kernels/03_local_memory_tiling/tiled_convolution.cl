// Lesson 03: convolution from a tile in local memory. A work-group computes a block of
// output pixels; the input those pixels need is that block plus a halo of R pixels on every
// side. The group copies it once from global memory into __local memory, waits at a barrier,
// and then every work-item reads its (2R+1)^2 window from the tile instead of global memory.
// Both kernels take the tile as a __local argument sized by the host: (W + 2R) x (H + 2R)
// floats for W x H work-groups, so one build serves every radius and group shape.

// The tile's top-left corner in image coordinates: R pixels above and left of the group's
// first output pixel, so it can be negative (the clamp below then reads the edge pixel).
int tile_origin(const int dimension, const int radius) {
  return (int)(get_group_id(dimension) * get_local_size(dimension)) - radius;
}

// The window sum from the tile; (lx, ly) is the work-item's output pixel inside the group, so
// its window starts at tile column lx, row ly (the halo shifts everything by R).
float correlate_from_tile(__local const float* tile, const int tile_width, __global const float* weights,
                          const int radius, const int lx, const int ly) {
  const int taps = 2 * radius + 1;
  float sum = 0.0f;
  for (int j = 0; j < taps; ++j) {
    __local const float* tile_row = tile + (ly + j) * tile_width + lx;
    __global const float* weight_row = weights + j * taps;
    for (int i = 0; i < taps; ++i) sum += weight_row[i] * tile_row[i];
  }
  return sum;
}

// The cooperative strided load: the tile is larger than the group, so each work-item copies
// every element whose column is lx, lx + W, lx + 2W, ... and whose row is ly, ly + H, ...
// Neighbouring work-items copy neighbouring addresses, and any W, H and R work.
__kernel void tiled_convolution(__global const float* input, __global const float* weights, __global float* output,
                                const int width, const int height, const int radius, __local float* tile) {
  const int group_width = (int)get_local_size(0), group_height = (int)get_local_size(1);
  const int tile_width = group_width + 2 * radius, tile_height = group_height + 2 * radius;
  POISON_LOCAL(tile, tile_width * tile_height);
  const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
  const int origin_x = tile_origin(0, radius), origin_y = tile_origin(1, radius);

  for (int ty = ly; ty < tile_height; ty += group_height) {
    const int row_start = clamp(origin_y + ty, 0, height - 1) * width;
    for (int tx = lx; tx < tile_width; tx += group_width)
      tile[ty * tile_width + tx] = input[row_start + clamp(origin_x + tx, 0, width - 1)];
  }
  // Every work-item reads values other work-items copied: none may start before all copies
  // are done. Work-items past the image edge copied too, which is why they return only now.
  barrier(CLK_LOCAL_MEM_FENCE);

  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  if (x >= width || y >= height) return;
  output[y * width + x] = correlate_from_tile(tile, tile_width, weights, radius, lx, ly);
}

// The four-load scheme: each work-item copies its own element of the tile and, when it lies in
// the first 2R columns or rows of the group, the elements W to its right, H below it and
// diagonally. That covers the (W + 2R) x (H + 2R) tile only when W >= 2R and H >= 2R (the
// "BS >= F - 1" condition, F = 2R + 1 taps); the host picks such groups or skips this kernel.
__kernel void tiled_convolution_four_loads(__global const float* input, __global const float* weights,
                                           __global float* output, const int width, const int height, const int radius,
                                           __local float* tile) {
  const int group_width = (int)get_local_size(0), group_height = (int)get_local_size(1);
  const int tile_width = group_width + 2 * radius, tile_height = group_height + 2 * radius;
  POISON_LOCAL(tile, tile_width * tile_height);
  const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
  const int origin_x = tile_origin(0, radius), origin_y = tile_origin(1, radius);

  const int left = clamp(origin_x + lx, 0, width - 1), right = clamp(origin_x + lx + group_width, 0, width - 1);
  const int top = clamp(origin_y + ly, 0, height - 1) * width;
  const int bottom = clamp(origin_y + ly + group_height, 0, height - 1) * width;
  const bool halo_x = lx < 2 * radius, halo_y = ly < 2 * radius;
  tile[ly * tile_width + lx] = input[top + left];
  if (halo_x) tile[ly * tile_width + lx + group_width] = input[top + right];
  if (halo_y) tile[(ly + group_height) * tile_width + lx] = input[bottom + left];
  if (halo_x && halo_y) tile[(ly + group_height) * tile_width + lx + group_width] = input[bottom + right];
  barrier(CLK_LOCAL_MEM_FENCE);

  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  if (x >= width || y >= height) return;
  output[y * width + x] = correlate_from_tile(tile, tile_width, weights, radius, lx, ly);
}
