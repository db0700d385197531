// Exercise 08: one level of an image pyramid. The output is the input halved, from a tile that
// the work-group loads into local memory together.
//
// Output pixel (x, y) is the weighted sum of the TAPS x TAPS input pixels centred on input pixel
// (2x, 2y): input (2x - RADIUS + i, 2y - RADIUS + j) with weight weights[j * TAPS + i], for i and
// j from 0 to TAPS - 1 (the classic pyramid uses a 5x5 Gaussian, RADIUS 2). An input position
// outside the picture reads the nearest edge pixel, which the sampler's clamp gives for free.
// The output is out_width = ceil(width / 2) by out_height = ceil(height / 2) pixels.
//
// A work-group of GROUP_W x GROUP_H work-items makes as many neighbouring output pixels, so it
// reads a block of input pixels about twice as wide and twice as tall, plus the halo.
//
// Compile-time constants: RADIUS, GROUP_W, GROUP_H (the group's shape, as in image_blur.cl).
#define TAPS (2 * RADIUS + 1)
/* >>> GAP 1: the tile's width and height in input pixels: every input pixel the group's sums read */
#define TILE_W (GROUP_W + 2 * RADIUS) /* replace: the blur's tile, for outputs one input pixel apart */
#define TILE_H (GROUP_H + 2 * RADIUS)
/* <<< GAP 1 */

__constant sampler_t nearest_clamped = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

__attribute__((reqd_work_group_size(GROUP_W, GROUP_H, 1)))
__kernel void pyramid_down(read_only image2d_t input, __constant float* weights, __global uchar4* output,
                           const int out_width, const int out_height) {
  __local float4 tile[TILE_W * TILE_H];
  POISON_LOCAL(tile, TILE_W * TILE_H);
  const int lx = (int)get_local_id(0);
  const int ly = (int)get_local_id(1);

  /* >>> GAP 2: the input position of tile element (0, 0) */
  const int origin_x = (int)get_group_id(0) * GROUP_W - RADIUS; /* replace */
  const int origin_y = (int)get_group_id(1) * GROUP_H - RADIUS;
  /* <<< GAP 2 */

  /* >>> GAP 3: load the whole tile, every work-item its share, then make the group wait */
  // Your code: the loads, then the barrier.
  /* <<< GAP 3 */

  // Work-items past the output's right or bottom edge helped load the tile; now they may leave.
  const int x = (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  if (x >= out_width || y >= out_height) return;
  float4 sum = (float4)(0.0f);
  /* >>> GAP 4: add to sum the TAPS x TAPS weighted input pixels of output (x, y), read from the tile */
  sum = tile[0]; /* replace */
  /* <<< GAP 4 */
  output[y * out_width + x] = convert_uchar4_sat_rte(sum * 255.0f);
}
