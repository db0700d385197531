// Exercise 03's cases: the tiled convolution with two output rows per work-item, on random
// images whose sizes no work-group divides (odd heights, so that the last group has bottom
// outputs past the image), radii 0 to 16 with Gaussian, box and random weights, square, flat,
// tall and one-high work-groups, local memory filled with NaN before the kernel copies its tile
// (so a missing barrier or a missing part of the halo shows as NaN), and guarded buffers.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "checker.hpp"
#include "course.hpp"
#include "never_written.hpp"

namespace {

constexpr int kMaxRadius = 16;

struct Case {
  int width, height;
  std::size_t local_x, local_y;
  int radius;
  enum Weights { kGaussian, kBox, kRandom } weights;
};

// Each radius with Gaussian, box and random weights, cycling through sizes and group shapes.
std::vector<Case> two_row_cases() {
  using Size = course::CaseSize;
  const Size sizes[] = {{37, 29}, {1, 1}, {131, 67}, {1, 23}, {29, 1}, {97, 61}, {13, 7}, {61, 97}, {3, 41}, {71, 5}};
  const std::size_t shapes[][2] = {{16, 16}, {8, 4}, {32, 2}, {4, 8}, {16, 1}, {1, 16}, {8, 8}, {64, 4}, {5, 3}};
  std::vector<Case> cases;
  std::size_t n = 0;
  for (int radius = 0; radius <= kMaxRadius; ++radius)
    for (auto weights : {Case::kGaussian, Case::kBox, Case::kRandom}) {
      const Size s = sizes[n % std::size(sizes)];
      const auto* shape = shapes[(n * 4 + radius) % std::size(shapes)];
      cases.push_back({s.width, s.height, shape[0], shape[1], radius, weights});
      ++n;
    }
  return cases;
}

// Square weights, normalised: Gaussian, box, or random ones with no symmetry at all, so that a
// window read upside down, mirrored or transposed shows.
std::vector<float> square_weights(const Case& c, std::uint32_t seed) {
  const double sigma = 0.5 + (seed % 7) * 0.25 + c.radius * 0.3;
  const std::vector<float> g = course::gaussian_weights(c.radius, sigma), box = course::box_weights(c.radius);
  if (c.weights == Case::kGaussian) return course::outer_product(g, g);
  std::vector<float> weights = course::outer_product(box, box);
  if (c.weights == Case::kBox) return weights;
  const course::GrayImage noise = course::random_gray(2 * c.radius + 1, 2 * c.radius + 1, seed + 7919);
  const double total =
      std::accumulate(noise.pixels.begin(), noise.pixels.end(), 0.0, [](double t, float v) { return t + v + 1.0; });
  for (std::size_t k = 0; k < weights.size(); ++k) weights[k] = static_cast<float>((noise.pixels[k] + 1.0) / total);
  return weights;
}

// The correlation of every pixel's window moved by (dx, dy): what a tile whose origin leaves out the
// halo computes (each output then holds the sum centred R pixels right of or below it).
std::vector<float> correlate_moved(const course::GrayImage& in, const std::vector<float>& weights, int radius, int dx,
                                   int dy) {
  const int taps = 2 * radius + 1;
  std::vector<float> out(in.pixels.size());
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      double sum = 0;
      for (int j = 0; j < taps; ++j)
        for (int i = 0; i < taps; ++i)
          sum += weights[j * taps + i] * in.at(std::clamp(x + dx + i - radius, 0, in.width - 1),
                                               std::clamp(y + dy + j - radius, 0, in.height - 1));
      out[static_cast<std::size_t>(y) * in.width + x] = static_cast<float>(sum);
    }
  return out;
}

// The sentence for a result moved by R along x, y or both: the tile's origin without its halo, or
// with it taken twice (2R before the block).
std::string halo_left_out(bool along_x, bool along_y, bool twice = false) {
  const std::string axes = along_x && along_y ? (twice ? "left and up" : "right and down")
                           : along_x          ? (twice ? "left" : "right")
                                              : (twice ? "up" : "down");
  const std::string which = along_x && along_y ? "origin_x and origin_y" : along_x ? "origin_x" : "origin_y";
  return "The result is moved by R pixels: each output holds the sum centred R pixels " + axes +
         " of it. The tile's origin " + (twice ? "takes the halo twice" : "leaves out the halo") + ": " + which +
         " must start R pixels before the block (group_id * block size - R" + (twice ? ", not 2R" : "") +
         "), so that output (lx, ly)'s window starts at tile element (lx, ly).";
}

// The block's second outputs (rows H to 2H - 1 of each block of 2H) with their windows `shift` tile
// rows off: that output, ly + H in its block, sums tile rows ly + H + shift + j, which hold image
// rows (clamped) from the block's first row - R on; a row past the tile's 2H + 2R is any value (NaN).
std::vector<float> second_window_shifted(const course::GrayImage& in, const std::vector<float>& weights, int radius,
                                         int group_height, int shift) {
  const int block = group_height * 2, taps = 2 * radius + 1, rows = block + 2 * radius;
  std::vector<float> out = course::correlate_2d(in, weights, radius).pixels;
  for (int y = 0; y < in.height; ++y) {
    if (y % block < group_height) continue;
    const int first = y % block + shift, top = y / block * block - radius;
    for (int x = 0; x < in.width; ++x) {
      double sum = 0;
      for (int j = 0; j < taps; ++j)
        for (int i = 0; i < taps; ++i)
          sum += first + j < 0 || first + j >= rows
                     ? NAN
                     : weights[j * taps + i] * in.at(std::clamp(x + i - radius, 0, in.width - 1),
                                                     std::clamp(top + first + j, 0, in.height - 1));
      out[static_cast<std::size_t>(y) * in.width + x] = static_cast<float>(sum);
    }
  }
  return out;
}

// The outputs of one half of each block (the first, rows 0 to H - 1, or the second) with their
// windows read (dx, dy) tile elements off: output (lx, ly) sums tile[(ly + dy + j) * tile_width + lx +
// dx + i] (a column past the tile's width runs into its next row), the pixel the copy put there; an
// element outside the tile is any value (NaN).
std::vector<float> half_window_moved(const course::GrayImage& in, const std::vector<float>& weights, int radius,
                                     int group_width, int group_height, bool second, int dx, int dy) {
  const int block = group_height * 2, taps = 2 * radius + 1, tile_width = group_width + 2 * radius;
  const int elements = tile_width * (block + 2 * radius);
  std::vector<float> out = course::correlate_2d(in, weights, radius).pixels;
  for (int y = 0; y < in.height; ++y) {
    if ((y % block >= group_height) != second) continue;
    for (int x = 0; x < in.width; ++x) {
      const int origin_x = x / group_width * group_width - radius, origin_y = y / block * block - radius;
      double sum = 0;
      for (int j = 0; j < taps; ++j)
        for (int i = 0; i < taps; ++i) {
          const int t = (y % block + dy + j) * tile_width + x % group_width + dx + i;
          sum += t < 0 || t >= elements
                     ? NAN
                     : weights[j * taps + i] * in.at(std::clamp(origin_x + t % tile_width, 0, in.width - 1),
                                                     std::clamp(origin_y + t / tile_width, 0, in.height - 1));
        }
      out[static_cast<std::size_t>(y) * in.width + x] = static_cast<float>(sum);
    }
  }
  return out;
}

// The typical mistakes: a tile one row short (the poison NaN of its missing last row reaches the
// last output row of every block of 2H rows), and a tile that starts H rows per group down
// instead of 2H (each block then filters the rows of another).
std::vector<course::Mistake> two_row_mistakes(const course::GrayImage& in, const std::vector<float>& weights,
                                              int radius, int group_width, int group_height) {
  const int block = group_height * 2;
  const auto second_window = [&in, weights, radius, group_height](int shift) {
    return [&in, weights, radius, group_height, shift] {
      if (radius == 0) return std::vector<float>();  // no shift to see
      return course::where_values_show(second_window_shifted(in, weights, radius, group_height, shift),
                                       course::correlate_2d(in, weights, radius).pixels, 0.02);
    };
  };
  return {
      {"second window R rows down",
       "Every second output (rows H to 2H - 1 of each block) equals the sum of the window R rows below its own: "
       "its window starts at tile row ly + H + R, where ly + H belongs (tile row 0 already holds the row R above "
       "the block, so the halo is counted twice).",
       second_window(radius), true},
      {"second window R rows up",
       "Every second output (rows H to 2H - 1 of each block) equals the sum of the window R rows above its own: "
       "its window starts at tile row ly + H - R, where ly + H belongs (tile row 0 already holds the row R above "
       "the block).",
       second_window(-radius), true},
      {"first window moved by the halo",
       "The first output's window starts at tile element (lx + R, ly + R), where (lx, ly) belongs: tile element "
       "(0, 0) already holds the pixel R left of and above the block, so the halo is counted twice and every first "
       "output (rows 0 to H - 1 of each block) sums the window R pixels right of and below its own.",
       [&in, weights, radius, group_width, group_height] {
         if (radius == 0) return std::vector<float>();  // no shift to see
         return course::where_values_show(
             half_window_moved(in, weights, radius, group_width, group_height, false, radius, radius),
             course::correlate_2d(in, weights, radius).pixels, 0.02);
       },
       true},
      {"second window one row down",
       "The second output's window starts one tile row below the first's, at ly + 1: its pixel is H rows below "
       "the first, so its window starts at tile row ly + H.",
       [&in, weights, radius, block, group_height] {
         std::vector<float> out = course::correlate_2d(in, weights, radius).pixels;
         for (int y = in.height - 1; y >= 0; --y)
           if (y % block >= group_height)  // the second output: the first output's row plus one
             std::copy_n(out.begin() + static_cast<std::size_t>(y - group_height + 1) * in.width, in.width,
                         out.begin() + static_cast<std::size_t>(y) * in.width);
         return out;
       }},
      {"tile one row short",
       "The tile is one row short: a block of 2H output rows reads 2H + 2R rows, so the block's last output row reads "
       "a row never copied.",
       [&in, weights, radius, block] {
         std::vector<float> out = course::correlate_2d(in, weights, radius).pixels;
         for (int y = block - 1; y < in.height; y += block)
           std::fill_n(out.begin() + static_cast<std::size_t>(y) * in.width, in.width, NAN);
         return out;
       }},
      {"origin one block",
       "The tile starts at the wrong row: each group computes 2H rows, so its tile starts at row group_id(1) * 2H - R, "
       "not group_id(1) * H - R.",
       [&in, weights, radius, block] {
         const std::vector<float> full = course::correlate_2d(in, weights, radius).pixels;
         std::vector<float> out(full.size());
         for (int y = 0; y < in.height; ++y) {
           const int source = y - y / block * block / 2;  // block b filters the rows from b H on
           std::copy_n(full.begin() + static_cast<std::size_t>(source) * in.width, in.width,
                       out.begin() + static_cast<std::size_t>(y) * in.width);
         }
         return out;
       }},
      {"halo left out along x", halo_left_out(true, false),
       [&in, weights, radius] { return correlate_moved(in, weights, radius, radius, 0); }},
      {"halo left out along y", halo_left_out(false, true),
       [&in, weights, radius] { return correlate_moved(in, weights, radius, 0, radius); }},
      {"halo left out", halo_left_out(true, true),
       [&in, weights, radius] { return correlate_moved(in, weights, radius, radius, radius); }},
      {"halo twice along x", halo_left_out(true, false, true),
       [&in, weights, radius] { return correlate_moved(in, weights, radius, -radius, 0); }},
      {"halo twice along y", halo_left_out(false, true, true),
       [&in, weights, radius] { return correlate_moved(in, weights, radius, 0, -radius); }},
      {"halo twice", halo_left_out(true, true, true),
       [&in, weights, radius] { return correlate_moved(in, weights, radius, -radius, -radius); }},
  };
}

// What a copy computes that places tile element t at column t % a, row t / b (a row of the tile is
// tile_width elements long, so a = b = tile_width is right), stepping from one image row to the
// next by `stride` floats (0: the width): every output's window, read from the tile as the kernel
// reads it, holds the pixels that copy put there; a float past the image's end is any value (NaN).
std::vector<float> copied_across(const course::GrayImage& in, const std::vector<float>& weights, int radius,
                                 int group_width, int block, int a, int b, int stride = 0) {
  const int taps = 2 * radius + 1, tile_width = group_width + 2 * radius;
  std::vector<float> out(in.pixels.size());
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      const int origin_x = x / group_width * group_width - radius, origin_y = y / block * block - radius;
      double sum = 0;
      for (int j = 0; j < taps; ++j)
        for (int i = 0; i < taps; ++i) {
          const int t = (y % block + j) * tile_width + x % group_width + i;
          const long at = long(std::clamp(origin_y + t / b, 0, in.height - 1)) * (stride ? stride : in.width) +
                          std::clamp(origin_x + t % a, 0, in.width - 1);
          sum += at < long(in.pixels.size()) ? weights[j * taps + i] * in.pixels[std::size_t(at)] : NAN;
        }
      out[static_cast<std::size_t>(y) * in.width + x] = static_cast<float>(sum);
    }
  return out;
}

// The copy's column and row of tile element t taken with the wrong size (one of the four the kernel
// has): one mistake for each pair whose values differ from the right one's in this case. Where two
// names have one value here, both are tried: the other cases tell which holds.
std::vector<course::Mistake> copy_index_mistakes(const course::GrayImage& in, const std::vector<float>& weights,
                                                 int radius, int group_width, int group_height) {
  const int block = group_height * 2, tile_width = group_width + 2 * radius;
  const std::pair<const char*, int> sizes[] = {{"tile_width", tile_width},
                                               {"tile_height", block + 2 * radius},
                                               {"group_width", group_width},
                                               {"group_height", group_height}};
  std::vector<course::Mistake> mistakes;
  if (tile_width != in.width)
    mistakes.push_back({"copy's rows tile_width apart",
                        "The copy steps from one image row to the next by tile_width floats: the image's rows are "
                        "`width` floats long, so the tile holds other pixels than the block's.",
                        [&in, weights, radius, group_width, block, tile_width] {
                          return copied_across(in, weights, radius, group_width, block, tile_width, tile_width,
                                               tile_width);
                        },
                        true});
  for (const auto& [a_name, a] : sizes)
    for (const auto& [b_name, b] : sizes) {
      if (a == tile_width && b == tile_width) continue;  // the right copy, whatever its names
      const std::string name = std::string("tile element t at (t % ") + a_name + ", t / " + b_name + ")";
      mistakes.push_back(
          {name,
           std::string("The copy places tile element t at column t % ") + a_name + ", row t / " + b_name +
               (std::string(a_name) == "group_width"
                    ? " (t % group_width is then each work-item's lx: a copy that reads image column origin_x + "
                      "lx does the same)"
                    : "") +
               ": a row of the tile is tile_width elements long, so element t is column t % tile_width, row t / "
               "tile_width.",
           [&in, weights, radius, group_width, block, a = a, b = b] {
             return copied_across(in, weights, radius, group_width, block, a, b);
           }});
    }
  return mistakes;
}

// The cause when some pixel of the image still holds never_written(): no work-item stored it.
std::vector<course::Mistake> unwritten_pixels(const std::vector<float>& got, int width) {
  return course::never_written_mistakes(got, width,
                                        "Work-item (lx, ly) stores rows top = group_id(1) * 2H + ly and top + H of "
                                        "column x = get_global_id(0); check those rows, that column and their bounds "
                                        "checks.");
}

void run_two_row_case(course::ExerciseCheck& check, cl::Kernel& kernel, const Case& c, std::uint32_t seed) {
  const course::DeviceContext& dc = check.device();
  const std::size_t kernel_max = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
  const auto item_max = dc.device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  std::size_t lx = std::min(c.local_x, item_max[0]), ly = std::min(c.local_y, item_max[1]);
  while (lx * ly > kernel_max) (lx >= ly ? lx : ly) /= 2;
  static const char* const kind_names[] = {"gaussian", "box", "random-weight"};
  const std::string name = std::to_string(c.width) + "x" + std::to_string(c.height) + " image, " + std::to_string(lx) +
                           "x" + std::to_string(ly) + " work-groups (" + std::to_string(lx) + "x" +
                           std::to_string(2 * ly) + " outputs each), " + kind_names[c.weights] + " radius " +
                           std::to_string(c.radius);
  check.run_case(name, [&] {
    const course::GrayImage image = course::random_gray(c.width, c.height, seed);
    const std::vector<float> weights = square_weights(c, seed);
    // Half as many rows of work-items as the image has rows, rounded up to whole groups.
    const std::size_t global_x = course::round_up(c.width, lx);
    const std::size_t global_y = course::round_up((c.height + 1) / 2, ly);
    const std::size_t count = image.pixels.size();
    // A kernel that forgets a bounds check writes up to a block's worth of rows past the image:
    // the output gets that much slack, which must still hold NaN afterwards.
    const std::size_t slack = (2 * global_y - c.height + 1) * c.width + global_x;
    course::ConvolutionBuffers buffers(dc, image.pixels, weights, slack);
    course::set_args(kernel, buffers.input.buffer(), buffers.taps.buffer(), buffers.output.buffer(), c.width, c.height,
                     c.radius, cl::Local((lx + 2 * c.radius) * (2 * ly + 2 * c.radius) * sizeof(float)));
    // One run on an output marked never written (again when the report runs the kernel a second time).
    const auto run = [&] { return buffers.run(dc, kernel, {global_x, global_y}, {lx, ly}); };
    std::vector<float> got = run();
    if (const std::string damage = buffers.output.damaged_guards(); !damage.empty()) return check.fail(name, damage);
    if (const auto past = course::written_past_image(
            got, count,
            "Each of the two outputs needs its own check against the image's height (and x its check against the "
            "width): one is missing or wrong.");
        !past.cause.empty())
      return check.fail(name, past.cause, past.where, "");
    // The result is the ordinary 2D correlation with clamped borders; only the work is shared
    // out differently.
    const course::GrayImage expected = course::correlate_2d(image, weights, c.radius);
    std::vector<course::Mistake> mistakes = unwritten_pixels(got, c.width);
    for (course::Mistake& m : two_row_mistakes(image, weights, c.radius, static_cast<int>(lx), static_cast<int>(ly)))
      mistakes.push_back(std::move(m));
    for (course::Mistake& m : copy_index_mistakes(image, weights, c.radius, static_cast<int>(lx), static_cast<int>(ly)))
      mistakes.push_back(std::move(m));
    course::CaseDetails details(std::move(mistakes));
    details.rerun = run;
    details.work_groups = global_x / lx * (global_y / ly);
    // A group computes lx x 2ly outputs from a tile of (lx + 2R) x (2ly + 2R).
    details.tile = {static_cast<int>(lx), static_cast<int>(2 * ly), c.radius, c.radius};
    check.expect_image(name, got, expected.pixels, c.width, c.height, 0.02, 1, details);
  });
}

void check_tiled_two_rows(course::ExerciseCheck& check) {
  cl::Program program = check.build("tiled_two_rows.cl", "-D COURSE_POISON_LOCAL");
  cl::Kernel kernel(program, "tiled_convolution_two_rows");
  std::uint32_t seed = 300;
  for (const Case& c : two_row_cases()) run_two_row_case(check, kernel, c, seed++);
}

}  // namespace

COURSE_EXERCISE("03", "03_local_memory_tiling",
                "a tile for two output rows per work-item: its size and origin, the shared copy, the barrier",
                check_tiled_two_rows);
