// Lesson 01: the smallest useful image kernel. Each work-item owns one pixel of a gray image
// stored row by row, and writes its photographic negative.
__kernel void invert(__global const float* input, __global float* output, const int width, const int height) {
  // The NDRange is two-dimensional: dimension 0 runs along a row (x), dimension 1 down the
  // columns (y), so neighbouring work-items touch neighbouring addresses.
  /* >>> GAP 1: which pixel is this work-item's? Ask for its global id in each dimension. */
  const int x = (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  /* <<< GAP 1 */
  // The host rounds the NDRange up to whole work-groups, so the last groups stick out past the
  // image: those work-items must do nothing, or they would write outside the buffer.
  /* >>> GAP 2: leave when (x, y) lies outside the image. */
  if (x >= width || y >= height) return;
  /* <<< GAP 2 */
  /* >>> GAP 3: the index of pixel (x, y) in a row-major buffer. */
  const int i = y * width + x;
  /* <<< GAP 3 */
  output[i] = 255.0f - input[i];
}
