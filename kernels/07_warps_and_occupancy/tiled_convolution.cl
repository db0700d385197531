// Lesson 07: a tiled 2D correlation whose work-group shape is chosen by the host at run time,
// for the work-group size sweep. Each group copies its tile plus a RADIUS-wide halo into local
// memory (sized by the host: (lx + 2R) x (ly + 2R) floats), then every work-item reads its
// (2R+1)^2 window from there. Borders are clamped to the nearest edge pixel.

// Built with -D REQUIRED_X=32 -D REQUIRED_Y=32, the kernel states its work-group size
// (reqd_work_group_size): it may then only be launched in groups of exactly that shape, and the
// compiler knows the shape in advance. The lesson prints CL_KERNEL_WORK_GROUP_SIZE for both builds.
#ifdef REQUIRED_X
#define REQUIRED_SIZE __attribute__((reqd_work_group_size(REQUIRED_X, REQUIRED_Y, 1)))
#else
#define REQUIRED_SIZE
#endif

REQUIRED_SIZE __kernel void tiled_convolution(__global const float* input, __global float* output, const int width,
                                              const int height, __constant float* weights, __local float* tile) {
  const int lx = (int)get_local_size(0), ly = (int)get_local_size(1);
  const int tile_w = lx + 2 * RADIUS, tile_h = ly + 2 * RADIUS;
  POISON_LOCAL(tile, tile_w * tile_h);
  const int local_x = (int)get_local_id(0), local_y = (int)get_local_id(1);
  const int origin_x = (int)get_group_id(0) * lx - RADIUS;
  const int origin_y = (int)get_group_id(1) * ly - RADIUS;

  // Cooperative load: the group walks the tile in steps of its own shape, so any shape works,
  // whether it is wider or narrower than the halo.
  for (int ty = local_y; ty < tile_h; ty += ly) {
    const int y = clamp(origin_y + ty, 0, height - 1);
    for (int tx = local_x; tx < tile_w; tx += lx)
      tile[ty * tile_w + tx] = input[y * width + clamp(origin_x + tx, 0, width - 1)];
  }
  // Every work-item reads pixels other work-items loaded: wait until the whole tile is there.
  barrier(CLK_LOCAL_MEM_FENCE);

  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  if (x >= width || y >= height) return;  // after the barrier: every work-item must reach it
  float sum = 0.0f;
  for (int j = -RADIUS; j <= RADIUS; ++j)
    for (int i = -RADIUS; i <= RADIUS; ++i)
      sum += weights[(j + RADIUS) * (2 * RADIUS + 1) + (i + RADIUS)] *
             tile[(local_y + RADIUS + j) * tile_w + (local_x + RADIUS + i)];
  output[y * width + x] = sum;
}
