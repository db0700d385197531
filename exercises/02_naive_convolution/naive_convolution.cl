// Exercise 02: the naive 2D convolution. One work-item computes one output pixel as the
// weighted sum of the (2R+1) x (2R+1) window around it, read straight from global memory.
// Neighbours outside the image are clamped to the nearest edge pixel, so the output keeps the
// image's size.
__kernel void naive_convolution(__global const float* input, __global const float* weights, __global float* output,
                                const int width, const int height, const int radius) {
  // Dimension 0 of the NDRange runs along a row (x), dimension 1 down the image (y).
  /* >>> GAP 1: which output pixel is this work-item's? */
  const int x = 0; /* replace: every work-item now computes pixel (0, 0) */
  const int y = 0;
  /* <<< GAP 1 */
  // The host rounds the NDRange up to whole work-groups, so some work-items have no pixel.
  /* >>> GAP 2: leave when (x, y) lies outside the image. */
  /* <<< GAP 2 */
  const int taps = 2 * radius + 1;
  float sum = 0.0f;
  for (int j = -radius; j <= radius; ++j) {
    for (int i = -radius; i <= radius; ++i) {
      /* >>> GAP 3: the neighbour (x + i, y + j), clamped to the nearest pixel of the image. */
      const int nx = x; /* replace: this reads the centre pixel every time */
      const int ny = y;
      /* <<< GAP 3 */
      /* >>> GAP 4: add the neighbour times its weight w(i, j), stored row-major at row j + R, column i + R. */
      sum += 0.0f; /* replace */
      /* <<< GAP 4 */
    }
  }
  output[y * width + x] = sum;
}
