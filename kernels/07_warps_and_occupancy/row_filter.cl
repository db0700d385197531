// Lesson 07, the sub-group rung: a row filter (2*RADIUS+1 taps along x, borders clamped) in
// the two ways the course already knows, as the yardsticks for row_filter_shuffle.cl. The
// NDRange is (width rounded up to the group width) x height, in work-groups one row tall, so a
// work-group never straddles two rows.

// Every work-item reads its 2R+1 inputs from global memory itself: each input is read 2R+1
// times, by 2R+1 neighbouring work-items (caches may catch the repeats, or not).
__kernel void row_filter_global(__global const float* input, __global float* output, __constant float* weights,
                                const int width, const int height) {
  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  if (x >= width || y >= height) return;
  const __global float* row = input + y * width;
  float sum = 0.0f;
  for (int k = 0; k <= 2 * RADIUS; ++k) sum += weights[k] * row[clamp(x - RADIUS + k, 0, width - 1)];
  output[y * width + x] = sum;
}

// The group copies its line plus RADIUS pixels on each side into local memory (the host makes
// `line` group width + 2R floats), waits for every work-item's copy, then reads its window from
// there: one global read per pixel, 2R+1 local reads, and a barrier.
__kernel void row_filter_local(__global const float* input, __global float* output, __constant float* weights,
                               const int width, const int height, __local float* line) {
  const int lx = (int)get_local_size(0), i = (int)get_local_id(0);
  POISON_LOCAL(line, lx + 2 * RADIUS);
  const int y = (int)get_global_id(1);
  const __global float* row = input + y * width;
  const int first = (int)get_group_id(0) * lx;  // x of the group's first pixel
  // Work-items past the right edge still copy (clamped) pixels: their neighbours need them.
  for (int t = i; t < lx + 2 * RADIUS; t += lx) line[t] = row[clamp(first - RADIUS + t, 0, width - 1)];
  barrier(CLK_LOCAL_MEM_FENCE);  // every work-item reads what the others copied
  const int x = first + i;
  if (x >= width) return;
  float sum = 0.0f;
  for (int k = 0; k <= 2 * RADIUS; ++k) sum += weights[k] * line[i + k];
  output[y * width + x] = sum;
}
