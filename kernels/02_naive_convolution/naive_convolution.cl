// Lesson 02: the naive 2D convolution. One work-item computes one output pixel and reads
// everything it needs straight from global memory: (2R+1)^2 image values and as many weights.
// Applied as a correlation, out(x, y) = sum of w(i, j) * in(x + i, y + j), like OpenCV's
// filter2D; true convolution would read the weights rotated by 180 degrees.

// The weighted sum around (x, y). Neighbours outside the image are clamped to the nearest edge
// pixel, so every output pixel exists and the result keeps the image's size.
float correlate_at(__global const float* input, __global const float* weights, const int width, const int height,
                   const int radius, const int x, const int y) {
  const int taps = 2 * radius + 1;
  float sum = 0.0f;
  for (int j = -radius; j <= radius; ++j) {
    // One clamp per row of the window, not per tap: the row does not change inside the i loop.
    const int row_start = clamp(y + j, 0, height - 1) * width;
    __global const float* weight_row = weights + (j + radius) * taps + radius;
    for (int i = -radius; i <= radius; ++i) sum += weight_row[i] * input[row_start + clamp(x + i, 0, width - 1)];
  }
  return sum;
}

// Dimension 0 of the NDRange runs along a row (x), dimension 1 down the image (y). Work-items
// next to each other in dimension 0 run together (in one warp on a GPU, in one vector of
// lanes on a CPU), and they read neighbouring addresses.
__kernel void naive_convolution(__global const float* input, __global const float* weights, __global float* output,
                                const int width, const int height, const int radius) {
  const int x = (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  // The host rounds the NDRange up to whole work-groups; the work-items past the right or
  // bottom edge have no pixel and must not write.
  if (x >= width || y >= height) return;
  output[y * width + x] = correlate_at(input, weights, width, height, radius, x, y);
}

// The same arithmetic with the two NDRange dimensions swapped: neighbouring work-items now own
// pixels one ROW apart, so each of their reads lands `width` floats from the other's. Same
// result, worse memory order: the cost of a mapping that does not follow the data.
__kernel void naive_convolution_swapped_axes(__global const float* input, __global const float* weights,
                                             __global float* output, const int width, const int height,
                                             const int radius) {
  const int y = (int)get_global_id(0);
  const int x = (int)get_global_id(1);
  if (x >= width || y >= height) return;
  output[y * width + x] = correlate_at(input, weights, width, height, radius, x, y);
}

// The weights in __constant memory. Every work-item reads the same weight at the same step, the
// access pattern constant memory is built for: on a GPU it is broadcast from a small cache to
// the whole warp; on a CPU it is ordinary memory and changes little.
__kernel void naive_convolution_constant_weights(__global const float* input, __constant float* weights,
                                                 __global float* output, const int width, const int height,
                                                 const int radius) {
  const int x = (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  if (x >= width || y >= height) return;
  const int taps = 2 * radius + 1;
  float sum = 0.0f;
  for (int j = -radius; j <= radius; ++j) {
    const int row_start = clamp(y + j, 0, height - 1) * width;
    __constant float* weight_row = weights + (j + radius) * taps + radius;
    for (int i = -radius; i <= radius; ++i) sum += weight_row[i] * input[row_start + clamp(x + i, 0, width - 1)];
  }
  output[y * width + x] = sum;
}

// The seeds' tutorials compute only the "valid" interior, where the whole window lies inside
// the image and no clamp is needed. This variant keeps the full-size output but takes that
// short path wherever it can: only work-items within R pixels of an edge pay for clamping.
__kernel void naive_convolution_unclamped_interior(__global const float* input, __global const float* weights,
                                                   __global float* output, const int width, const int height,
                                                   const int radius) {
  const int x = (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  if (x >= width || y >= height) return;
  const bool interior = x >= radius && y >= radius && x + radius < width && y + radius < height;
  if (!interior) {
    output[y * width + x] = correlate_at(input, weights, width, height, radius, x, y);
    return;
  }
  const int taps = 2 * radius + 1;
  __global const float* window = input + (y - radius) * width + (x - radius);
  float sum = 0.0f;
  for (int j = 0; j < taps; ++j)
    for (int i = 0; i < taps; ++i) sum += weights[j * taps + i] * window[j * width + i];
  output[y * width + x] = sum;
}
