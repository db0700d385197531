// Exercise 02's cases: the naive convolution with a rectangular window, on random images whose
// sizes no work-group divides, every horizontal and every vertical radius from 0 to 8 (mostly
// with the two different, so a swapped radius_x and radius_y shows), box and random weights
// (random ones have no symmetry, so a flipped or transposed weight index shows), several
// work-group shapes, and guard bands around the buffers to catch reads and writes past the image.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "checker.hpp"
#include "course.hpp"
#include "guard_damage.hpp"

namespace {

constexpr int kMaxRadius = 8;

// The correlation with a (2 * radius_x + 1) x (2 * radius_y + 1) window stored row by row,
// borders clamped to the nearest edge pixel: what the kernel must compute.
std::vector<float> correlate_rectangle(const course::GrayImage& in, const std::vector<float>& weights, int radius_x,
                                       int radius_y) {
  const int window_width = 2 * radius_x + 1, window_height = 2 * radius_y + 1;
  std::vector<float> out(in.pixels.size());
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      double sum = 0;
      for (int row = 0; row < window_height; ++row)
        for (int column = 0; column < window_width; ++column)
          sum += weights[row * window_width + column] * in.at(std::clamp(x + column - radius_x, 0, in.width - 1),
                                                              std::clamp(y + row - radius_y, 0, in.height - 1));
      out[static_cast<std::size_t>(y) * in.width + x] = static_cast<float>(sum);
    }
  return out;
}

// The window sum as a kernel with a mistake computes it: the weight that (i, j) reads (-1 for
// one outside the weights, which reads the guard band's sentinel), and whether neighbours
// outside the image count as 0 instead of the nearest edge pixel.
std::vector<float> correlate_with_mistake(const course::GrayImage& in, const std::vector<float>& weights, int rows_from,
                                          int rows_to, int columns_from, int columns_to,
                                          const std::function<int(int i, int j)>& weight_index, bool zero_padding) {
  std::vector<float> out(in.pixels.size());
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      double sum = 0;
      for (int j = rows_from; j <= rows_to; ++j)
        for (int i = columns_from; i <= columns_to; ++i) {
          const int k = weight_index(i, j);
          const double w = k >= 0 && k < static_cast<int>(weights.size()) ? weights[k] : course::kGuardSentinel;
          const bool outside = x + i < 0 || x + i >= in.width || y + j < 0 || y + j >= in.height;
          if (zero_padding && outside) continue;
          sum += w * in.at(std::clamp(x + i, 0, in.width - 1), std::clamp(y + j, 0, in.height - 1));
        }
      out[static_cast<std::size_t>(y) * in.width + x] = static_cast<float>(sum);
    }
  return out;
}

// The correlation whose clamps bound x + i by `x_last` and y + j by `y_last` (width - 1 and
// height - 1 are right; a clamp that takes the other side's size stops short of the image's edge,
// or reaches past it), read at row * `stride` + column (stride 0: the width; 1: a row not
// multiplied by it). A bound past the image gives no output: its
// reads outside the input hold anything, as those of any other unclamped index do, so only a case
// whose image is the other way round (the bound short of the edge) tells this mistake.
std::vector<float> correlate_clamped_to(const course::GrayImage& in, const std::vector<float>& weights, int radius_x,
                                        int radius_y, int x_last, int y_last, long stride = 0) {
  if (x_last >= in.width || y_last >= in.height) return {};
  const int window_width = 2 * radius_x + 1, window_height = 2 * radius_y + 1;
  const long count = static_cast<long>(in.width) * in.height;
  std::vector<float> out(in.pixels.size());
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      double sum = 0;
      for (int row = 0; row < window_height; ++row)
        for (int column = 0; column < window_width; ++column) {
          const long at = static_cast<long>(std::clamp(y + row - radius_y, 0, y_last)) * (stride ? stride : in.width) +
                          std::clamp(x + column - radius_x, 0, x_last);
          sum += at < count ? weights[row * window_width + column] * in.pixels[at] : NAN;
        }
      out[static_cast<std::size_t>(y) * in.width + x] = static_cast<float>(sum);
    }
  return out;
}

// The mistakes this exercise's kernels typically make, as the reference would make them.
std::vector<course::Mistake> rectangle_mistakes(const course::GrayImage& in, const std::vector<float>& w, int rx,
                                                int ry) {
  const int row_length = 2 * rx + 1, centre = ry * row_length + rx;
  auto model = [&in, &w](int j0, int j1, int i0, int i1, std::function<int(int, int)> index, bool zero = false) {
    return [=, &in, &w] { return correlate_with_mistake(in, w, j0, j1, i0, i1, index, zero); };
  };
  return {
      {"weights transposed",
       "The weights are read transposed: w(i, j) is at weights[(j + radius_y) * (2 * radius_x + 1) + i + radius_x], "
       "row j, column i, not row i, column j.",
       model(-ry, ry, -rx, rx, [=](int i, int j) { return centre + i * row_length + j; })},
      {"weights x and y swapped",
       "x and y are swapped in the weights' index: w(i, j) is row j + radius_y, column i + radius_x of rows 2 * "
       "radius_x + 1 weights long, weights[(j + radius_y) * (2 * radius_x + 1) + i + radius_x].",
       model(-ry, ry, -rx, rx, [=](int i, int j) { return (i + rx) * row_length + j + ry; })},
      {"weights stored by columns",
       "x and y are swapped in the weights' index: w(i, j) is row j + radius_y, column i + radius_x of rows 2 * "
       "radius_x + 1 weights long, weights[(j + radius_y) * (2 * radius_x + 1) + i + radius_x].",
       model(-ry, ry, -rx, rx, [=](int i, int j) { return (i + rx) * (2 * ry + 1) + j + ry; })},
      {"weights flipped",
       "The window is flipped (a convolution, not a correlation): neighbour (x + i, y + j) takes w(i, j), not w(-i, "
       "-j).",
       model(-ry, ry, -rx, rx, [=](int i, int j) { return centre - j * row_length - i; })},
      {"window mirrored left to right",
       "The window is mirrored left to right: neighbour (x + i, y + j) takes w(-i, j), not w(i, j), as where the "
       "kernel reads x - i for x + i.",
       model(-ry, ry, -rx, rx, [=](int i, int j) { return centre + j * row_length - i; })},
      {"window mirrored top to bottom",
       "The window is mirrored top to bottom: neighbour (x + i, y + j) takes w(i, -j), not w(i, j), as where the "
       "kernel reads y - j for y + j.",
       model(-ry, ry, -rx, rx, [=](int i, int j) { return centre - j * row_length + i; })},
      {"radii swapped",
       "radius_x and radius_y are swapped: the window reaches radius_x pixels left and right (i) and radius_y up and "
       "down (j).",
       model(-rx, rx, -ry, ry, [=](int i, int j) { return centre + j * row_length + i; })},
      {"rows over radius_x",
       "radius_x and radius_y are swapped: the window reaches radius_x pixels left and right (i) and radius_y up and "
       "down (j).",
       model(-rx, rx, -rx, rx, [=](int i, int j) { return centre + j * row_length + i; })},
      {"columns over radius_y",
       "radius_x and radius_y are swapped: the window reaches radius_x pixels left and right (i) and radius_y up and "
       "down (j).",
       model(-ry, ry, -ry, ry, [=](int i, int j) { return centre + j * row_length + i; })},
      {"row length", "One row of the window holds 2 * radius_x + 1 weights (the window's width), not 2 * radius_y + 1.",
       model(-ry, ry, -rx, rx, [=](int i, int j) { return (ry + j) * (2 * ry + 1) + rx + i; })},
      {"weight rows 2 * radius_y + 1 long",
       "The weight index steps 2 * radius_y + 1 weights a row (the window's height): a row of the window holds "
       "2 * radius_x + 1 weights (the window's width), so row j of the weights starts that many after row j - 1.",
       model(-ry, ry, -rx, rx, [=](int i, int j) { return centre + j * (2 * ry + 1) + i; })},
      {"one tap short (x)",
       "The window is one tap short: i must run from -radius_x to +radius_x inclusive (<=, not <).",
       model(-ry, ry, -rx, rx - 1, [=](int i, int j) { return centre + j * row_length + i; })},
      {"one tap short (y)",
       "The window is one tap short: j must run from -radius_y to +radius_y inclusive (<=, not <).",
       model(-ry, ry - 1, -rx, rx, [=](int i, int j) { return centre + j * row_length + i; })},
      {"centre misplaced",
       "The centre weight w(0, 0) is misplaced: it lies radius_y rows of 2 * radius_x + 1 weights down and radius_x "
       "across, at weights + (2 * radius_x + 1) * radius_y + radius_x.",
       model(-ry, ry, -rx, rx, [=](int i, int j) { return rx * row_length + ry + j * row_length + i; })},
      {"centre misplaced",
       "The centre weight w(0, 0) is misplaced: it lies radius_y rows of 2 * radius_x + 1 weights down and radius_x "
       "across, at weights + (2 * radius_x + 1) * radius_y + radius_x.",
       model(-ry, ry, -rx, rx, [=](int i, int j) { return ry * row_length + j * row_length + i; })},
      {"centre misplaced",
       "The centre weight w(0, 0) is misplaced: it lies radius_y rows of 2 * radius_x + 1 weights down and radius_x "
       "across, at weights + (2 * radius_x + 1) * radius_y + radius_x (the middle of a square window's weights only "
       "when the radii are equal).",
       model(-ry, ry, -rx, rx, [=](int i, int j) { return row_length * row_length / 2 + j * row_length + i; })},
      {"row length 2 * radius_x",
       "One row of the window holds 2 * radius_x + 1 weights, not 2 * radius_x: taps_x counts the centre column too.",
       model(-ry, ry, -rx, rx, [=](int i, int j) { return (ry + j) * (2 * rx) + rx + i; })},
      {"last tap only",
       "Only the window's last tap counts: every output is its neighbour (x + radius_x, y + radius_y) times that "
       "tap's weight, as if each tap replaced the sum instead of adding to it (or the sum were set to 0 again "
       "inside the loop over the columns). Every tap must add its product to the sum.",
       model(ry, ry, rx, rx, [=](int i, int j) { return centre + j * row_length + i; })},
      {"sum reset per row",
       "Only the window's last row is summed: sum is set to 0 inside the loop over the rows. Set it once, before "
       "both loops.",
       model(ry, ry, -rx, rx, [=](int i, int j) { return centre + j * row_length + i; })},
      {"output transposed", "The output index swaps x and y: pixel (x, y) is stored at output[y * width + x].",
       [&in, &w, rx, ry] {
         const std::vector<float> right = correlate_rectangle(in, w, rx, ry);
         std::vector<float> out(right.size(), NAN);
         for (int y = 0; y < in.height; ++y)
           for (int x = 0; x < in.width; ++x)
             out[static_cast<std::size_t>(x) * in.height + y] = right[static_cast<std::size_t>(y) * in.width + x];
         return out;
       }},
      {"y clamped to the width",
       "The clamp of y + j takes the width where the height belongs: a row must stay in 0 .. height - 1, and "
       "width - 1 as its bound lets it reach past the last row (or stop short of it).",
       [&in, &w, rx, ry] { return correlate_clamped_to(in, w, rx, ry, in.width - 1, in.width - 1); }},
      {"x clamped to the height",
       "The clamp of x + i takes the height where the width belongs: a column must stay in 0 .. width - 1, and "
       "height - 1 as its bound lets it reach past the last column (or stop short of it).",
       [&in, &w, rx, ry] { return correlate_clamped_to(in, w, rx, ry, in.height - 1, in.height - 1); }},
      {"clamps swap width and height",
       "The clamps swap width and height: x + i must stay in 0 .. width - 1 and y + j in 0 .. height - 1.",
       [&in, &w, rx, ry] { return correlate_clamped_to(in, w, rx, ry, in.height - 1, in.width - 1); }},
      {"rows from 0",
       "The window's rows run from 0 to 2 * radius_y where they run from -radius_y to radius_y: the window lies "
       "radius_y rows too low, and its last rows read weights past the array's end.",
       model(0, 2 * ry, -rx, rx, [=](int i, int j) { return centre + j * row_length + i; })},
      {"columns from 0",
       "The window's columns run from 0 to 2 * radius_x where they run from -radius_x to radius_x: the window lies "
       "radius_x columns too far right, and its last columns read the next row's weights.",
       model(-ry, ry, 0, 2 * rx, [=](int i, int j) { return centre + j * row_length + i; })},
      {"row not times the width",
       "The neighbour's row is not multiplied by the width: the index adds the row number to the column, so every "
       "neighbour is read from the image's first row.",
       [&in, &w, rx, ry] { return correlate_clamped_to(in, w, rx, ry, in.width - 1, in.height - 1, 1); }},
      {"zero padding",
       "Neighbours outside the image count as 0 (zero padding); they must take the nearest edge pixel's value (clamp "
       "the coordinates).",
       model(
           -ry, ry, -rx, rx, [=](int i, int j) { return centre + j * row_length + i; }, true)},
  };
}

// Weights that sum to one: all equal (a box), or random and lopsided.
std::vector<float> rectangle_weights(int radius_x, int radius_y, bool box, std::uint32_t seed) {
  const int count = (2 * radius_x + 1) * (2 * radius_y + 1);
  std::vector<float> weights(count, 1.0f / count);
  if (box) return weights;
  const course::GrayImage noise = course::random_gray(2 * radius_x + 1, 2 * radius_y + 1, seed);
  double total = count;  // each weight is its noise value plus one, over the sum of them all
  for (float v : noise.pixels) total += v;
  for (int k = 0; k < count; ++k) weights[k] = static_cast<float>((noise.pixels[k] + 1.0) / total);
  return weights;
}

struct Case {
  int width, height;
  std::size_t local_x, local_y;
  int radius_x, radius_y;
  bool box;
};

// Every radius_x and every radius_y from 0 to kMaxRadius, paired with a different radius in the
// other direction (and twice with the same), cycling through sizes no work-group divides and
// work-group shapes (square, flat, tall, one-wide).
std::vector<Case> rectangle_cases() {
  using Size = course::CaseSize;
  const Size sizes[] = {{37, 29}, {1, 1}, {131, 67}, {1, 23}, {29, 1}, {97, 61}, {13, 7}, {61, 97}, {3, 41}, {71, 5}};
  const std::size_t shapes[][2] = {{16, 16}, {8, 4}, {32, 2}, {4, 8}, {16, 1}, {1, 16}, {8, 8}, {64, 4}};
  std::vector<std::pair<int, int>> radii;
  for (int r = 0; r <= kMaxRadius; ++r) {
    radii.push_back({r, (r + 3) % (kMaxRadius + 1)});
    radii.push_back({(r * 2 + 5) % (kMaxRadius + 1), r});
  }
  radii.push_back({4, 4});
  radii.push_back({kMaxRadius, kMaxRadius});
  std::vector<Case> cases;
  for (std::size_t n = 0; n < radii.size(); ++n) {
    const Size s = sizes[n % std::size(sizes)];
    const auto* shape = shapes[(n * 3 + 1) % std::size(shapes)];
    cases.push_back({s.width, s.height, shape[0], shape[1], radii[n].first, radii[n].second, n % 4 == 3});
  }
  return cases;
}

void run_rectangle_case(course::ExerciseCheck& check, cl::Kernel& kernel, const Case& c, std::uint32_t seed) {
  const course::DeviceContext& dc = check.device();
  const std::size_t kernel_max = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
  const auto item_max = dc.device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  std::size_t lx = std::min(c.local_x, item_max[0]), ly = std::min(c.local_y, item_max[1]);
  while (lx * ly > kernel_max) (lx >= ly ? lx : ly) /= 2;
  const std::vector<float> weights = rectangle_weights(c.radius_x, c.radius_y, c.box, seed + 7919);
  const std::string name = std::to_string(c.width) + "x" + std::to_string(c.height) + " image, " + std::to_string(lx) +
                           "x" + std::to_string(ly) + " work-groups, " + (c.box ? "box" : "random-weight") +
                           " radius_x " + std::to_string(c.radius_x) + " radius_y " + std::to_string(c.radius_y) +
                           " (a " + std::to_string(2 * c.radius_x + 1) + "x" + std::to_string(2 * c.radius_y + 1) +
                           " window)";
  check.run_case(name, [&] {
    const course::GrayImage image = course::random_gray(c.width, c.height, seed);
    // The NDRange overhangs the image by up to a work-group in each direction. A kernel without a
    // bounds check writes that far past the last pixel, so the output gets a slack region as
    // long as the overhang, which must still hold NaN afterwards.
    const std::size_t global_x = course::round_up(c.width, lx), global_y = course::round_up(c.height, ly);
    const std::size_t count = image.pixels.size();
    const std::size_t slack = (global_y - c.height + 1) * c.width + global_x;
    course::ConvolutionBuffers buffers(dc, image.pixels, weights, slack);
    course::set_args(kernel, buffers.input.buffer(), buffers.taps.buffer(), buffers.output.buffer(), c.width, c.height,
                     c.radius_x, c.radius_y);
    dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global_x, global_y), cl::NDRange(lx, ly));
    dc.queue.finish();
    if (const std::string damage = buffers.output.damaged_guards(); !damage.empty()) return check.fail(name, damage);
    std::vector<float> got = buffers.output.read();
    if (const auto past = course::written_past_image(
            got, count, "A bounds check (x < width && y < height) is missing or wrong.");
        !past.cause.empty())
      return check.fail(name, past.cause, past.where, "");
    check.expect_image(name, got, correlate_rectangle(image, weights, c.radius_x, c.radius_y), c.width, c.height, 0.02,
                       1, {rectangle_mistakes(image, weights, c.radius_x, c.radius_y), {}});
  });
}

void check_rectangular_convolution(course::ExerciseCheck& check) {
  cl::Program program = check.build("rectangular_convolution.cl");
  cl::Kernel kernel(program, "rectangular_convolution");
  std::uint32_t seed = 200;
  for (const Case& c : rectangle_cases()) run_rectangle_case(check, kernel, c, seed++);
}

}  // namespace

COURSE_EXERCISE("02", "02_naive_convolution",
                "the naive convolution with a rectangular window: two radii, the weights' layout, the clamped sum",
                check_rectangular_convolution);
