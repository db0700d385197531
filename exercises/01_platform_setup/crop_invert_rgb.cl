// Exercise 01: the negative of a rectangle cut out of a colour picture.
// The picture is `width` pixels wide and stored row by row like lesson 01's gray image, but each
// pixel is three floats, red, green and blue, one after the other (interleaved RGB). The crop
// is the crop_width x crop_height rectangle whose top-left pixel is (crop_x, crop_y); the host
// makes sure it lies inside the picture. The output holds only the crop, itself stored row by
// row with three floats per pixel, so its rows are crop_width pixels long.
// The NDRange covers the crop, rounded up to whole work-groups: work-item (x, y) owns pixel
// (x, y) of the crop, which is pixel (crop_x + x, crop_y + y) of the picture.
__kernel void crop_invert_rgb(__global const float* input, __global float* output, const int width,
                              const int crop_x, const int crop_y, const int crop_width, const int crop_height) {
  const int x = (int)get_global_id(0);
  const int y = (int)get_global_id(1);
  /* >>> GAP 1: leave when (x, y) lies outside the crop. */
  /* <<< GAP 1 */
  /* >>> GAP 2: the index of the red value of picture pixel (crop_x + x, crop_y + y), and of crop pixel (x, y). */
  const int from = y * width + x; /* replace: this is lesson 01's gray index, not a crop of RGB */
  const int to = y * width + x;
  /* <<< GAP 2 */
  /* >>> GAP 3: write the negative (255 - value) of the pixel's three channels. */
  output[to] = 255.0f - input[from]; /* replace: only one value of the three */
  /* <<< GAP 3 */
}
