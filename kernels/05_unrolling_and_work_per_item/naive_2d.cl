// Lesson 05, the bottom rung of the ladder: lesson 02's constant_weights kernel. One work-item per
// output pixel, the radius a kernel argument, every one of the (2R+1)^2 image values read from
// global memory and the (2R+1)^2 weights from __constant memory.
__kernel void naive_2d(__global const float* input, __global float* output, __constant float* weights_2d,
                       const int width, const int height, const int radius) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  // The NDRange is rounded up to whole work-groups: the extra work-items leave.
  if (x >= width || y >= height) return;
  const int taps = 2 * radius + 1;
  float sum = 0.0f;
  for (int j = -radius; j <= radius; ++j) {
    const int row = clamp(y + j, 0, height - 1) * width;
    for (int i = -radius; i <= radius; ++i) {
      sum += weights_2d[(j + radius) * taps + (i + radius)] * input[row + clamp(x + i, 0, width - 1)];
    }
  }
  output[y * width + x] = sum;
}
