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
// at any length. The scan (running_rows_scan) rounds along a tree instead of a line: an output's
// sum passes through its step's difference, its work-item's SCAN_ITEMS additions, the
// log2(SCAN_GROUP) rounds of the group's scan, two additions that join them, and one for each
// tile before it (the sum carried along the row), each of a value that is the difference of two
// windows' sums, under 255 (2R+1): 27 roundings for an 8192-pixel row in tiles of 128 x 8 steps,
// under 0.0005 of a gray level at any radius, although the group crosses the whole row.
//
// Three layouts, as for lesson 05's blur passes (vector_passes.cl for a CPU, float4_passes.cl for
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
// - For a GPU again, running_rows_scan (with running_columns_chunked): a row pass that does not
//   walk. A group of SCAN_GROUP work-items takes a whole row, SCAN_GROUP x SCAN_ITEMS steps (a
//   tile) at a time, and computes every step's sum at once by a prefix sum (a scan) of the tile's
//   entering-minus-leaving differences: each work-item adds its SCAN_ITEMS neighbouring steps in
//   turn, the group scans those SCAN_GROUP partial sums in log2(SCAN_GROUP) rounds, and each
//   work-item adds the partial sums before its own. The walk of running_rows_tiled takes CHUNK
//   dependent additions per chunk of CHUNK steps; the scan takes SCAN_ITEMS + log2(SCAN_GROUP).
// - running_rows_prefetch: the scan with one change, when its loads are issued. running_rows_scan
//   loads a tile, waits for it, scans it, and only then asks for the next: while a group scans,
//   none of its loads is in flight. running_rows_prefetch asks for the next tile's pixels right
//   after storing this tile's differences in local memory, into registers (2 SCAN_ITEMS floats a
//   work-item), and uses them only after this tile's scan: the loads' latency passes while the
//   group scans.
// Built with -D SEGMENT=<pixels a work-item walks> -D CHUNK=<steps of a chunk, and the tiled row
// pass's group> -D SCAN_GROUP=<the scan's group, a power of two> -D SCAN_ITEMS=<steps a work-item
// adds in turn, at most 32>; the radius is an argument. running_rows_tiled runs in groups of
// CHUNK x 1, running_rows_scan and running_rows_prefetch in groups of SCAN_GROUP x 1, one group a
// row.
#if !defined(SEGMENT) || !defined(CHUNK) || !defined(SCAN_GROUP) || !defined(SCAN_ITEMS)
#error \
    "build with -D SEGMENT=<pixels a work-item walks> -D CHUNK=<steps of a chunk> -D SCAN_GROUP=<n> -D SCAN_ITEMS=<n>"
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

// The column pass with a ring (running_sums_ring's): running_columns_chunked reads the pixel
// leaving each window from global memory again, 2R+1 rows after it entered; when the rows between
// the two edges of every column's window no longer fit the GPU's last-level cache, that is a
// second read from memory for every pixel. Here each work-item keeps the pixels that entered its
// column's window in a ring of 2R+1 floats in local memory (the group's columns side by side,
// `ring` sized by the host: 2R+1 rows of the group's width) and takes the leaving pixel from it:
// global memory is read once a pixel. The pixel leaving step y's window is the one that entered
// at step y - (2R+1), clamped the same way, so the sum is the chunked pass's. No work-item reads
// another's column, so after the poison no barrier is needed and a work-item past the picture
// can return.
__kernel void running_columns_ring(__global const float* input, __global float* output, const int width,
                                   const int height, const int radius, __local float* ring) {
  const int window = 2 * radius + 1;
  POISON_LOCAL(ring, window * (int)get_local_size(0));
  const int x = get_global_id(0);  // neighbouring work-items: neighbouring columns
  const int y0 = get_global_id(1) * SEGMENT;
  if (x >= width || y0 >= height) return;
  __local float* mine = ring + get_local_id(0);  // slot k of this column: mine[k * get_local_size(0)]
  const int stride = get_local_size(0);
  const int y_end = min(y0 + SEGMENT, height);
  const int start = walk_start(y0, radius);
  const float scale = 1.0f / window;
  float sum = 0.0f;
  int slot = 0;  // the ring slot of step y: (y - start) mod (2R+1)
  for (int yc = start; yc < y_end; yc += CHUNK) {
    float entering[CHUNK];
#pragma unroll
    for (int i = 0; i < CHUNK; ++i) entering[i] = input[clamp(yc + i + radius, 0, height - 1) * width + x];
#pragma unroll
    for (int i = 0; i < CHUNK; ++i) {
      const int y = yc + i;
      const float leaving = y - start >= window ? mine[slot * stride] : 0.0f;  // entered at step y - (2R+1)
      mine[slot * stride] = entering[i];
      slot = slot + 1 == window ? 0 : slot + 1;
      sum += entering[i] - leaving;
      if (y >= y0 && y < y_end) output[y * width + x] = sum * scale;
    }
  }
}

// The scan layout. A tile holds SCAN_GROUP x SCAN_ITEMS steps plus one float of padding every 32:
// the loads and stores put neighbouring work-items on neighbouring steps, but the additions give
// work-item l the steps l SCAN_ITEMS .. l SCAN_ITEMS + SCAN_ITEMS - 1, SCAN_ITEMS floats apart
// from its neighbour's; the padding moves each group of 32 / SCAN_ITEMS work-items one bank
// along, so the 32 of a warp read 32 different banks.
#define SCAN_TILE (SCAN_GROUP * SCAN_ITEMS)
#define PADDED(i) ((i) + (i) / 32)

// Steps 2 to 4 of a scanned tile, once its differences are in tile (and a barrier has passed):
// work-item l adds its SCAN_ITEMS steps in turn, keeping each running total; the group scans the
// SCAN_GROUP totals (in round d each total adds the one d places before it, so after
// log2(SCAN_GROUP) rounds entry l holds the totals 0 .. l: a Hillis-Steele scan; reading one half
// of partial and writing the other needs one barrier a round); each work-item writes its outputs,
// the sum before its steps plus each of its running totals, over its steps in tile. Adds the
// tile's sum to carry; the caller's barrier must follow before tile is read again.
static inline void scan_tile(__local float* tile, __local float (*partial)[SCAN_GROUP], const int l, float* carry,
                             const float scale) {
  float sums[SCAN_ITEMS];
  float total = 0.0f;
#pragma unroll
  for (int i = 0; i < SCAN_ITEMS; ++i) {
    total += tile[PADDED(l * SCAN_ITEMS + i)];
    sums[i] = total;
  }
  partial[0][l] = total;
  barrier(CLK_LOCAL_MEM_FENCE);
  int from = 0;
  for (int d = 1; d < SCAN_GROUP; d *= 2) {
    partial[1 - from][l] = partial[from][l] + (l >= d ? partial[from][l - d] : 0.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    from = 1 - from;
  }
  const float before = *carry + (l > 0 ? partial[from][l - 1] : 0.0f);
#pragma unroll
  for (int i = 0; i < SCAN_ITEMS; ++i) tile[PADDED(l * SCAN_ITEMS + i)] = (before + sums[i]) * scale;
  *carry += partial[from][SCAN_GROUP - 1];
}

// Step 4's stores, lanes along the row again; the steps before pixel 0 only started the sum.
static inline void store_tile(__global float* out, __local const float* tile, const int first, const int l,
                              const int width) {
#pragma unroll
  for (int k = 0; k < SCAN_ITEMS; ++k) {
    const int i = k * SCAN_GROUP + l, x = first + i;
    if (x >= 0 && x < width) out[x] = tile[PADDED(i)];
  }
}

__kernel __attribute__((reqd_work_group_size(SCAN_GROUP, 1, 1))) void running_rows_scan(
    __global const float* input, __global float* output, const int width, const int height, const int radius) {
  __local float tile[PADDED(SCAN_TILE)];
  __local float partial[2][SCAN_GROUP];  // the partial sums' scan reads one half, writes the other
  POISON_LOCAL(tile, PADDED(SCAN_TILE));
  POISON_LOCAL((__local float*)partial, 2 * SCAN_GROUP);
  const int l = get_local_id(0);
  __global const float* row = input + get_group_id(1) * width;
  __global float* out = output + get_group_id(1) * width;
  const float scale = 1.0f / (2 * radius + 1);
  // As in the walks, step x adds the pixel entering x's window and subtracts the one leaving it,
  // from an empty sum at step -2R: from step 0 on, the sum of the steps up to x is x's window.
  const int start = -2 * radius;
  float carry = 0.0f;  // the sum of every step before the tile
  for (int first = start; first < width; first += SCAN_TILE) {
    // 1. Load the tile's differences, lanes along the row (coalesced; unrolled, so that the
    // 2 SCAN_ITEMS loads of a work-item are in flight together).
#pragma unroll
    for (int k = 0; k < SCAN_ITEMS; ++k) {
      const int i = k * SCAN_GROUP + l, x = first + i;
      float change = 0.0f;  // steps past the row's end add nothing
      if (x < width) {
        change = row[clamp(x + radius, 0, width - 1)];
        if (x - start > 2 * radius) change -= row[clamp(x - radius - 1, 0, width - 1)];
      }
      tile[PADDED(i)] = change;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    scan_tile(tile, partial, l, &carry, scale);  // 2.-4.
    barrier(CLK_LOCAL_MEM_FENCE);
    store_tile(out, tile, first, l, width);
    barrier(CLK_LOCAL_MEM_FENCE);  // the next tile overwrites tile and partial
  }
}

// The pixels entering and leaving at work-item l's steps of the tile from step `first`: every load
// clamped into the row, so that it can be issued before it is known to be needed; which of them
// count is decided when the differences are stored.
static inline void load_tile_pixels(__global const float* row, float* entering, float* leaving, const int first,
                                    const int l, const int width, const int radius) {
#pragma unroll
  for (int k = 0; k < SCAN_ITEMS; ++k) {
    const int x = first + k * SCAN_GROUP + l;
    entering[k] = row[clamp(x + radius, 0, width - 1)];
    leaving[k] = row[clamp(x - radius - 1, 0, width - 1)];
  }
}

__kernel __attribute__((reqd_work_group_size(SCAN_GROUP, 1, 1))) void running_rows_prefetch(
    __global const float* input, __global float* output, const int width, const int height, const int radius) {
  __local float tile[PADDED(SCAN_TILE)];
  __local float partial[2][SCAN_GROUP];
  POISON_LOCAL(tile, PADDED(SCAN_TILE));
  POISON_LOCAL((__local float*)partial, 2 * SCAN_GROUP);
  const int l = get_local_id(0);
  __global const float* row = input + get_group_id(1) * width;
  __global float* out = output + get_group_id(1) * width;
  const float scale = 1.0f / (2 * radius + 1);
  const int start = -2 * radius;
  float carry = 0.0f;
  float entering[SCAN_ITEMS], leaving[SCAN_ITEMS];  // the next tile's pixels
  load_tile_pixels(row, entering, leaving, start, l, width, radius);
  for (int first = start; first < width; first += SCAN_TILE) {
    // 1. Store this tile's differences (their loads were issued a tile ago)...
#pragma unroll
    for (int k = 0; k < SCAN_ITEMS; ++k) {
      const int x = first + k * SCAN_GROUP + l;
      tile[PADDED(k * SCAN_GROUP + l)] = x < width ? entering[k] - (x - start > 2 * radius ? leaving[k] : 0.0f) : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // ... and ask for the next tile's pixels, which nothing reads before the next round.
    load_tile_pixels(row, entering, leaving, first + SCAN_TILE, l, width, radius);
    scan_tile(tile, partial, l, &carry, scale);  // 2.-4.
    barrier(CLK_LOCAL_MEM_FENCE);
    store_tile(out, tile, first, l, width);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
