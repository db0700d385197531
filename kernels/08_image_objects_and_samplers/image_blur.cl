// Lesson 08: a blur of an RGBA picture read through an image object and a sampler.
//
// Compile-time constants from the host: RADIUS (the filter reaches RADIUS pixels each way),
// GROUP_W x GROUP_H (the work-group shape: these values size the local tile and bound the loops
// that load it; reqd_work_group_size adds that the runtime refuses any other shape, and tells
// the compiler the group's size).
#define TAPS (2 * RADIUS + 1)
#define TILE_W (GROUP_W + 2 * RADIUS)
#define TILE_H (GROUP_H + 2 * RADIUS)

// Integer pixel coordinates, nearest texel, and coordinates outside the image clamped to the
// edge: the sampler does the border handling that buffer kernels write by hand.
__constant sampler_t nearest_clamped = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

// Every work-item samples its (2R+1)^2 neighbours itself: 9 x 32 = 288 samples per 8x4 group
// for a 3x3 filter, although the group only touches 10 x 6 = 60 distinct pixels.
__attribute__((reqd_work_group_size(GROUP_W, GROUP_H, 1)))
__kernel void blur_image_direct(read_only image2d_t input, __constant float* weights, __global uchar4* output,
                                const int width, const int height) {
  const int x = (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  if (x >= width || y >= height) return;
  float4 sum = (float4)(0.0f);
  for (int j = -RADIUS; j <= RADIUS; ++j)
    for (int i = -RADIUS; i <= RADIUS; ++i)
      // read_imagef turns the four 8-bit channels into a float4 in [0, 1] in one step.
      sum += weights[(j + RADIUS) * TAPS + (i + RADIUS)] * read_imagef(input, nearest_clamped, (int2)(x + i, y + j));
  output[y * width + x] = convert_uchar4_sat_rte(sum * 255.0f);
}

// The weighted sum over the tile: work-item (lx, ly) owns tile position (lx + R, ly + R).
float4 blur_from_tile(__local const float4* tile, __constant float* weights, const int lx, const int ly) {
  float4 sum = (float4)(0.0f);
  for (int j = 0; j < TAPS; ++j)
    for (int i = 0; i < TAPS; ++i) sum += weights[j * TAPS + i] * tile[(ly + j) * TILE_W + (lx + i)];
  return sum;
}

// The group's pixels plus a RADIUS-wide halo are sampled once into local memory, by work-item
// (0, 0) alone: 60 samples instead of 288 for 3x3, but one work-item does them all in a row
// while the other 31 wait at the barrier.
__attribute__((reqd_work_group_size(GROUP_W, GROUP_H, 1)))
__kernel void blur_image_tile_one_loader(read_only image2d_t input, __constant float* weights,
                                         __global uchar4* output, const int width, const int height) {
  __local float4 tile[TILE_W * TILE_H];
  POISON_LOCAL(tile, TILE_W * TILE_H);
  const int lx = (int)get_local_id(0);
  const int ly = (int)get_local_id(1);
  // The image position of tile element (0, 0): the group's first pixel minus the halo.
  const int origin_x = (int)get_group_id(0) * GROUP_W - RADIUS;
  const int origin_y = (int)get_group_id(1) * GROUP_H - RADIUS;
  if (lx == 0 && ly == 0)
    for (int ty = 0; ty < TILE_H; ++ty)
      for (int tx = 0; tx < TILE_W; ++tx)
        tile[ty * TILE_W + tx] = read_imagef(input, nearest_clamped, (int2)(origin_x + tx, origin_y + ty));
  // Nobody may read the tile before work-item (0, 0) has filled it.
  barrier(CLK_LOCAL_MEM_FENCE);
  const int x = origin_x + RADIUS + lx;
  const int y = origin_y + RADIUS + ly;
  if (x >= width || y >= height) return;
  output[y * width + x] = convert_uchar4_sat_rte(blur_from_tile(tile, weights, lx, ly) * 255.0f);
}

// The tile loaded in two halves by the first TILE_W * ceil(TILE_H / 2) work-items, each
// sampling one pixel of the top half and the pixel half a tile below it: for 3x3 on 8x4
// groups, 30 work-items load 2 pixels each. The host uses it only where that many work-items
// exist (TILE_W * HALF_H <= GROUP_W * GROUP_H).
#define HALF_H ((TILE_H + 1) / 2)
__attribute__((reqd_work_group_size(GROUP_W, GROUP_H, 1)))
__kernel void blur_image_tile_two_halves(read_only image2d_t input, __constant float* weights,
                                         __global uchar4* output, const int width, const int height) {
  __local float4 tile[TILE_W * TILE_H];
  POISON_LOCAL(tile, TILE_W * TILE_H);
  const int lx = (int)get_local_id(0);
  const int ly = (int)get_local_id(1);
  const int origin_x = (int)get_group_id(0) * GROUP_W - RADIUS;
  const int origin_y = (int)get_group_id(1) * GROUP_H - RADIUS;
  const int flat = ly * GROUP_W + lx;
  if (flat < TILE_W * HALF_H) {
    const int tx = flat % TILE_W;
    const int ty = flat / TILE_W;
    tile[ty * TILE_W + tx] = read_imagef(input, nearest_clamped, (int2)(origin_x + tx, origin_y + ty));
    if (ty + HALF_H < TILE_H)  // an odd tile height leaves the bottom half one row short
      tile[(ty + HALF_H) * TILE_W + tx] =
          read_imagef(input, nearest_clamped, (int2)(origin_x + tx, origin_y + ty + HALF_H));
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int x = origin_x + RADIUS + lx;
  const int y = origin_y + RADIUS + ly;
  if (x >= width || y >= height) return;
  output[y * width + x] = convert_uchar4_sat_rte(blur_from_tile(tile, weights, lx, ly) * 255.0f);
}
