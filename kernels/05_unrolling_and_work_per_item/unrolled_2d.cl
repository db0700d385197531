// Lesson 05: the same 2D correlation with the radius fixed when the program is built
// (-D RADIUS=2 gives seed 000's fully unrolled 5x5). With both loop bounds constant the
// compiler unrolls them, turns every index into a constant offset and keeps the weights'
// addresses out of the loop; the price is one build per radius.
#ifndef RADIUS
#error "build with -D RADIUS=<radius>"
#endif
#define TAPS (2 * RADIUS + 1)

__kernel void unrolled_2d(__global const float* input, __global float* output, __constant float* weights_2d,
                          const int width, const int height) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;
  float sum = 0.0f;
#pragma unroll
  for (int j = 0; j < TAPS; ++j) {
    const int row = clamp(y + j - RADIUS, 0, height - 1) * width;
#pragma unroll
    for (int i = 0; i < TAPS; ++i) {
      sum += weights_2d[j * TAPS + i] * input[row + clamp(x + i - RADIUS, 0, width - 1)];
    }
  }
  output[y * width + x] = sum;
}
