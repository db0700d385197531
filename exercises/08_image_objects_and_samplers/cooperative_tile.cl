// Lesson 08, the exercise: the blur with its tile loaded by the whole work-group. Whatever the
// radius and the group's shape, the GROUP_W x GROUP_H work-items walk over the tile's
// TILE_W x TILE_H pixels together, each taking every (GROUP_W * GROUP_H)-th one.
//
// Compile-time constants: RADIUS, GROUP_W, GROUP_H (see image_blur.cl).
#define TAPS (2 * RADIUS + 1)
#define TILE_W (GROUP_W + 2 * RADIUS)
#define TILE_H (GROUP_H + 2 * RADIUS)

__constant sampler_t nearest_clamped = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

__attribute__((reqd_work_group_size(GROUP_W, GROUP_H, 1)))
__kernel void blur_image_tile_cooperative(read_only image2d_t input, __constant float* weights,
                                          __global uchar4* output, const int width, const int height) {
  __local float4 tile[TILE_W * TILE_H];
  POISON_LOCAL(tile, TILE_W * TILE_H);
  const int lx = (int)get_local_id(0);
  const int ly = (int)get_local_id(1);
  // Tile element (0, 0) is the group's first pixel minus the halo; the sampler clamps the
  // positions that fall outside the image.
  const int origin_x = (int)get_group_id(0) * GROUP_W - RADIUS;
  const int origin_y = (int)get_group_id(1) * GROUP_H - RADIUS;
  // Work-items numbered row by row, 0 .. GROUP_W * GROUP_H - 1.
  const int flat = ly * GROUP_W + lx;

  /* >>> GAP 1: load the whole tile (tile[ty * TILE_W + tx] = the pixel at origin + (tx, ty)), each work-item its share, then make the group wait */
  // Your code: a loop in which work-item `flat` loads tile elements flat, flat + GROUP_W * GROUP_H, ...
  /* <<< GAP 1 */

  // Work-items past the image's right or bottom edge still had to help load the tile (and
  // reach the barrier); only now may they leave.
  const int x = origin_x + RADIUS + lx;
  const int y = origin_y + RADIUS + ly;
  if (x >= width || y >= height) return;
  float4 sum = (float4)(0.0f);
  for (int j = 0; j < TAPS; ++j)
    for (int i = 0; i < TAPS; ++i) sum += weights[j * TAPS + i] * tile[(ly + j) * TILE_W + (lx + i)];
  output[y * width + x] = convert_uchar4_sat_rte(sum * 255.0f);
}
