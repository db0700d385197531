// Lesson 08: the same blur with the picture in a plain buffer of uchar4 (R, G, B, A bytes), to
// compare with the image object: here the kernel clamps coordinates and converts bytes itself.
// Compile-time constants: RADIUS, GROUP_W, GROUP_H (see image_blur.cl).
#define TAPS (2 * RADIUS + 1)
#define TILE_W (GROUP_W + 2 * RADIUS)
#define TILE_H (GROUP_H + 2 * RADIUS)

// The pixel at (x, y) with coordinates clamped to the image, as floats in [0, 1] like
// read_imagef gives them.
float4 pixel_clamped(__global const uchar4* input, const int width, const int height, const int x, const int y) {
  const int cx = clamp(x, 0, width - 1);
  const int cy = clamp(y, 0, height - 1);
  return convert_float4(input[cy * width + cx]) * (1.0f / 255.0f);
}

// Every work-item reads its (2R+1)^2 neighbours from global memory (the caches may help).
__attribute__((reqd_work_group_size(GROUP_W, GROUP_H, 1)))
__kernel void blur_buffer_direct(__global const uchar4* input, __constant float* weights, __global uchar4* output,
                                 const int width, const int height) {
  const int x = (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  if (x >= width || y >= height) return;
  float4 sum = (float4)(0.0f);
  for (int j = -RADIUS; j <= RADIUS; ++j)
    for (int i = -RADIUS; i <= RADIUS; ++i)
      sum += weights[(j + RADIUS) * TAPS + (i + RADIUS)] * pixel_clamped(input, width, height, x + i, y + j);
  output[y * width + x] = convert_uchar4_sat_rte(sum * 255.0f);
}

// The group's tile plus halo loaded cooperatively from the buffer, then summed from local
// memory: the buffer version of blur_image_tile_cooperative.
__attribute__((reqd_work_group_size(GROUP_W, GROUP_H, 1)))
__kernel void blur_buffer_tiled(__global const uchar4* input, __constant float* weights, __global uchar4* output,
                                const int width, const int height) {
  __local float4 tile[TILE_W * TILE_H];
  POISON_LOCAL(tile, TILE_W * TILE_H);
  const int lx = (int)get_local_id(0);
  const int ly = (int)get_local_id(1);
  const int origin_x = (int)get_group_id(0) * GROUP_W - RADIUS;
  const int origin_y = (int)get_group_id(1) * GROUP_H - RADIUS;
  for (int t = ly * GROUP_W + lx; t < TILE_W * TILE_H; t += GROUP_W * GROUP_H)
    tile[t] = pixel_clamped(input, width, height, origin_x + t % TILE_W, origin_y + t / TILE_W);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int x = origin_x + RADIUS + lx;
  const int y = origin_y + RADIUS + ly;
  if (x >= width || y >= height) return;
  float4 sum = (float4)(0.0f);
  for (int j = 0; j < TAPS; ++j)
    for (int i = 0; i < TAPS; ++i) sum += weights[j * TAPS + i] * tile[(ly + j) * TILE_W + (lx + i)];
  output[y * width + x] = convert_uchar4_sat_rte(sum * 255.0f);
}
