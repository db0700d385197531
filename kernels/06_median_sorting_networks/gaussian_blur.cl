// Lesson 06's yardstick for the noise demo: a plain Gaussian blur over the same window, so the
// median can be compared with the filter most people reach for first. Built with -D RADIUS=R.
__kernel void gaussian_blur(__global const float* input, __global float* output, __constant float* weights,
                            const int width, const int height) {
  const int x = (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  if (x >= width || y >= height) return;
  const int taps = 2 * RADIUS + 1;
  float sum = 0.0f;
  for (int j = -RADIUS; j <= RADIUS; ++j) {
    const int row = clamp(y + j, 0, height - 1) * width;
    for (int i = -RADIUS; i <= RADIUS; ++i)
      sum += weights[(j + RADIUS) * taps + (i + RADIUS)] * input[row + clamp(x + i, 0, width - 1)];
  }
  // A salt or pepper pixel is spread over the whole window instead of removed: the weights
  // only dilute it.
  output[y * width + x] = sum;
}
