// Exercise 05: the row pass with STEPS outputs per work-item, spread so that loads and stores
// stay coalesced. Built with -D RADIUS=R -D STEPS=S -D ROW_W=W -D ROW_H=H for work-groups of
// W x H work-items. Each row of a group computes SPAN = W * STEPS neighbouring outputs of one
// image row, and work-item lx owns outputs lx, lx + W, lx + 2W, ... of that span: at each step
// the W work-items of a row write W neighbouring pixels, one run of consecutive addresses. The
// STEPS + 2R inputs that several_outputs.cl keeps in registers are not next to each other any
// more, so the row of the group shares one line of SPAN + 2R inputs in local memory instead.
// The host launches ceil(width / SPAN) groups along x, W work-items wide each.
#define SPAN (ROW_W * STEPS)
#define LINE (SPAN + 2 * RADIUS)

__kernel void row_pass_spread_steps(__global const float* input, __global float* output, __constant float* weights,
                                    const int width, const int height) {
  __local float lines[ROW_H * LINE];
  POISON_LOCAL(lines, ROW_H * LINE);
  const int lx = get_local_id(0), ly = get_local_id(1);
  // Work-items below the image load the last row, so that they can take part in the barrier
  // without reading outside the image; they store nothing.
  const int y = min((int)get_global_id(1), height - 1);
  __local float* line = lines + ly * LINE;  // the line of this work-item's row of the group
  /* >>> GAP 1: the image column of the span's first output. */
  const int x0 = get_group_id(0) * ROW_W; /* replace: right only when STEPS is 1 */
  /* <<< GAP 1 */
  // line[i] holds image pixel (x0 - RADIUS + i, y), the column clamped to the image.
  /* >>> GAP 2: copy the LINE values of line[], the W work-items of the row on W neighbouring addresses at a time. */
  line[lx + RADIUS] = input[y * width + min(x0 + lx, width - 1)]; /* replace: no halo, one value each */
  /* <<< GAP 2 */
  // Every output needs values that other work-items of its row copied.
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_global_id(1) >= height) return;
#pragma unroll
  for (int s = 0; s < STEPS; ++s) {
    const int x = x0 + lx + s * ROW_W;  // this step's output: the W work-items of a row on W neighbouring pixels
    /* >>> GAP 3: output x's sum of 2*RADIUS + 1 weighted values from line[], stored if x lies inside the image. */
    if (x < width) output[y * width + x] = line[x - x0]; /* replace: copies a value, and not the centre one */
    /* <<< GAP 3 */
  }
}
