// Lesson 12: the box filter by running sums, a change of algorithm rather than of layout. Each
// kernel of lesson 05 costs 2R+1 multiply-adds per pixel and pass; a box filter's weights are all equal,
// so the window's sum at x + 1 is the sum at x plus the pixel entering the window minus the one
// leaving it: two loads and two additions per pixel, whatever the radius.
//
// Each work-item walks SEGMENT pixels of one line (a row in the row pass, a column in the column
// pass) carrying that sum, and starts it afresh for each segment, which costs about 2R / SEGMENT
// extra loads a pixel: a quarter of one at R = 64 and 512-pixel segments.
//
// The float drift: adding and subtracting rounds at every step, and the rounding errors of a
// running sum add up along the walk (a sum recomputed for every pixel holds one window's worth
// only). Starting each segment afresh bounds the walk to SEGMENT steps plus the 2R+1 (rounded up
// to a chunk) that start it, each rounding at most twice by half an ulp of a value under
// 255 (2R+1), that is under 255 (2R+1) 2^-24: after the division by 2R+1, 1.5e-5 of a gray level
// per rounding at any radius. 512-pixel segments at R = 64 round at most 1342 times: 0.02 of a
// gray level at worst (the errors' signs vary, so the drift measured is far smaller). A walk over
// a whole 8192-pixel line could drift 12 times as far. Integer sums of 8-bit pixels would be exact
// at any length.
//
// Two layouts, as for lesson 05's blur passes (vector_passes.cl for a CPU, float4_passes.cl for
// a GPU):
// - For a CPU, running_rows and running_columns: a work-item walks its own line through global
//   memory, starting with the 2R+1 loads of its first window. Along a row each load is the next
//   pixel of the same cache line, which a CPU core's cache and prefetcher serve well.
// - For a GPU, running_rows_tiled and running_columns_chunked keep every global access
//   coalesced (neighbouring work-items on neighbouring pixels of a row in each load and store
//   instruction). On a GPU the walk along a row puts neighbouring work-items (neighbouring rows)
//   a row apart: one load instruction of a warp touches 32 cache lines. Here a group of CHUNK
//   work-items owns CHUNK rows and stages each CHUNK x CHUNK chunk through local memory:
//   work-item l loads pixel l of every row (lanes along the row) and stores entering - leaving in
//   tile[row][l]; then each work-item walks its own row of the tile, replacing the differences by
//   the outputs; then the tile goes back to global memory the way it came. A tile row is
//   CHUNK + 1 floats long, so the walk's accesses (one row per work-item, the same column) fall
//   in different banks. The column pass's neighbouring work-items are neighbouring columns, whose
//   loads are coalesced already; it loads a chunk's CHUNK entering and CHUNK leaving pixels
//   before it adds them, 2 CHUNK independent loads in flight. Both start from an empty sum 2R
//   steps (rounded up to whole chunks) before their segment, adding only the entering pixels
//   until the sum holds the segment's first window: every step is the same loop.
// Built with -D SEGMENT=<pixels a work-item walks> -D CHUNK=<steps of a chunk, and the tiled row
// pass's group>; the radius is an argument. running_rows_tiled runs in groups of CHUNK x 1.
#if !defined(SEGMENT) || !defined(CHUNK)
#error "build with -D SEGMENT=<pixels a work-item walks> -D CHUNK=<steps of a chunk>"
#endif

// The CPU layout: a work-item walks its segment of a line through global memory.
__kernel void running_rows(__global const float* input, __global float* output, const int width, const int height,
                           const int radius) {
  const int y = get_global_id(0);
  const int x0 = get_global_id(1) * SEGMENT;
  if (y >= height || x0 >= width) return;
  __global const float* row = input + y * width;
  __global float* out = output + y * width;
  const float scale = 1.0f / (2 * radius + 1);
  // The window of x0 - 1, so that the loop's first step makes x0's.
  float sum = 0.0f;
  for (int i = -radius - 1; i < radius; ++i) sum += row[clamp(x0 + i, 0, width - 1)];
  const int end = min(x0 + SEGMENT, width);
  for (int x = x0; x < end; ++x) {
    sum += row[min(x + radius, width - 1)] - row[max(x - radius - 1, 0)];
    out[x] = sum * scale;
  }
}

__kernel void running_columns(__global const float* input, __global float* output, const int width, const int height,
                              const int radius) {
  const int x = get_global_id(0);  // neighbouring work-items: neighbouring columns
  const int y0 = get_global_id(1) * SEGMENT;
  if (x >= width || y0 >= height) return;
  const float scale = 1.0f / (2 * radius + 1);
  float sum = 0.0f;
  for (int i = -radius - 1; i < radius; ++i) sum += input[clamp(y0 + i, 0, height - 1) * width + x];
  const int end = min(y0 + SEGMENT, height);
  for (int y = y0; y < end; ++y) {
    sum += input[min(y + radius, height - 1) * width + x] - input[max(y - radius - 1, 0) * width + x];
    output[y * width + x] = sum * scale;
  }
}

// The GPU layout.

// The first step of a walk: 2R steps before the segment's first pixel, in whole chunks.
static inline int walk_start(const int first, const int radius) {
  return first - (2 * radius + CHUNK - 1) / CHUNK * CHUNK;
}

__kernel void running_rows_tiled(__global const float* input, __global float* output, const int width, const int height,
                                 const int radius) {
  __local float tile[CHUNK][CHUNK + 1];
  POISON_LOCAL((__local float*)tile, CHUNK * (CHUNK + 1));
  const int l = get_local_id(0);
  const int y0 = get_group_id(0) * CHUNK;  // the group's rows y0 .. y0 + CHUNK - 1
  const int x0 = get_group_id(1) * SEGMENT;
  const int x_end = min(x0 + SEGMENT, width);
  const int start = walk_start(x0, radius);
  const float scale = 1.0f / (2 * radius + 1);
  float sum = 0.0f;  // work-item l's row: y0 + l
  for (int xc = start; xc < x_end; xc += CHUNK) {
    // Stage: lane l takes pixel x of every row; rows below the image repeat the last one.
    const int x = xc + l;
    const int entering = clamp(x + radius, 0, width - 1), leaving = clamp(x - radius - 1, 0, width - 1);
    const bool leaves = x - start > 2 * radius;  // the pixel leaving was added 2R+1 steps ago
#pragma unroll
    for (int r = 0; r < CHUNK; ++r) {
      __global const float* row = input + min(y0 + r, height - 1) * width;
      tile[r][l] = row[entering] - (leaves ? row[leaving] : 0.0f);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Walk: work-item l along row l of the tile.
    for (int i = 0; i < CHUNK; ++i) {
      sum += tile[l][i];
      tile[l][i] = sum * scale;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Store the segment's outputs, lanes along the row again.
    if (x >= x0 && x < x_end)
      for (int r = 0; r < CHUNK && y0 + r < height; ++r) output[(y0 + r) * width + x] = tile[r][l];
    barrier(CLK_LOCAL_MEM_FENCE);  // the next chunk overwrites the tile
  }
}

__kernel void running_columns_chunked(__global const float* input, __global float* output, const int width,
                                      const int height, const int radius) {
  const int x = get_global_id(0);  // neighbouring work-items: neighbouring columns
  const int y0 = get_global_id(1) * SEGMENT;
  if (x >= width || y0 >= height) return;
  const int y_end = min(y0 + SEGMENT, height);
  const int start = walk_start(y0, radius);
  const float scale = 1.0f / (2 * radius + 1);
  float sum = 0.0f;
  for (int yc = start; yc < y_end; yc += CHUNK) {
    float change[CHUNK];
#pragma unroll
    for (int i = 0; i < CHUNK; ++i) {
      const int y = yc + i;
      const float leaving = y - start > 2 * radius ? input[clamp(y - radius - 1, 0, height - 1) * width + x] : 0.0f;
      change[i] = input[clamp(y + radius, 0, height - 1) * width + x] - leaving;
    }
#pragma unroll
    for (int i = 0; i < CHUNK; ++i) {
      sum += change[i];
      const int y = yc + i;
      if (y >= y0 && y < y_end) output[y * width + x] = sum * scale;
    }
  }
}
