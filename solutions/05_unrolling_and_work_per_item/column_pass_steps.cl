// Exercise 05: the column pass with STEPS outputs per work-item and the radius fixed at build
// time (-D RADIUS=R -D STEPS=S), lesson 05's several_outputs kernel.
// Work-item (x, g) computes outputs (x, g*STEPS) .. (x, g*STEPS + STEPS - 1). Those outputs
// need the STEPS + 2R input rows g*STEPS - R .. g*STEPS + STEPS - 1 + R, and each of them is
// loaded only once into `window`. Because RADIUS and STEPS are constants, the compiler unrolls
// every loop below and `window` lives in registers.
#define WINDOW (STEPS + 2 * RADIUS)

__kernel void column_pass_steps(__global const float* input, __global float* output, __constant float* weights,
                                const int width, const int height) {
  const int x = get_global_id(0);
  const int y0 = get_global_id(1) * STEPS;  // this work-item's first output row
  if (x >= width || y0 >= height) return;
  float window[WINDOW];
  // window[i] holds image row y0 - RADIUS + i of column x, clamped to the image (clamp to edge).
  /* >>> GAP 1: load the WINDOW input values of this work-item's column into window[]. */
#pragma unroll
  for (int i = 0; i < WINDOW; ++i) window[i] = input[clamp(y0 - RADIUS + i, 0, height - 1) * width + x];
  /* <<< GAP 1 */
  // Output row y0 + s needs window[s] .. window[s + 2*RADIUS], times weights[0] .. weights[2*RADIUS].
  /* >>> GAP 2: compute and store the STEPS outputs; the last work-items of a column may have fewer rows left. */
#pragma unroll
  for (int s = 0; s < STEPS; ++s) {
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k <= 2 * RADIUS; ++k) sum += weights[k] * window[s + k];
    if (y0 + s < height) output[(y0 + s) * width + x] = sum;
  }
  /* <<< GAP 2 */
}
