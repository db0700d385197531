// Lesson 05: the same 2D correlation with the radius fixed when the program is built
// (-D RADIUS=2 gives seed 000's fully unrolled 5x5). With both loop bounds constant the
// compiler unrolls them, turns every index into a constant offset and keeps the weights'
// addresses out of the loop; the price is one build per radius.
// Those are several changes at once. To tell them apart, one at a time (lesson 05's rungs
// radius_fixed_2d, columns_unrolled_2d and literal_weights_2d): -D KEEP_ROW_LOOP keeps the loop
// over rows a loop (#pragma unroll 1), -D KEEP_COLUMN_LOOP the loop over a row's columns too;
// -D WEIGHT_LIST=w0,w1,... puts the (2R+1)^2 weights into the program as literals, which the
// unrolled code can take as operands of its multiply-adds instead of loading them.
#ifndef RADIUS
#error "build with -D RADIUS=<radius>"
#endif
#define TAPS (2 * RADIUS + 1)
#ifdef WEIGHT_LIST
__constant float literal_weights[TAPS * TAPS] = {WEIGHT_LIST};
#define WEIGHT(k) literal_weights[k]
#else
#define WEIGHT(k) weights_2d[k]
#endif

__kernel void unrolled_2d(__global const float* input, __global float* output, __constant float* weights_2d,
                          const int width, const int height) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  float sum = 0.0f;
#ifdef KEEP_ROW_LOOP
#pragma unroll 1
#else
#pragma unroll
#endif
  for (int j = 0; j < TAPS; ++j) {
    const int row = clamp(y + j - RADIUS, 0, height - 1) * width;
#ifdef KEEP_COLUMN_LOOP
#pragma unroll 1
#else
#pragma unroll
#endif
    for (int i = 0; i < TAPS; ++i) {
      sum += WEIGHT(j * TAPS + i) * input[row + clamp(x + i - RADIUS, 0, width - 1)];
    }
  }
  output[y * width + x] = sum;
}
