// Lesson 05: the vector, float4 and single-pass kernels against the reference at every radius and
// at sizes around the vector width, the blocked single pass with many work-group shapes and
// strips, the register-blocked 2D correlation with random weights and every block shape, and the
// exercise check catching wrong multi-output kernels.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>

#include "blocked_2d.hpp"
#include "checker.hpp"
#include "course.hpp"
#include "one_change.hpp"
#include "separable_host.hpp"
#include "strip_waves.hpp"
#include "test_support.hpp"

namespace {

// "2 float4s, 128-row strips, 64x1 groups, at most 128 registers": a block, for the messages.
std::string describe(const course::Block2D& block) {
  return std::to_string(block.float4s) + " float4s, " + std::to_string(block.strip) + "-row strips, " +
         std::to_string(block.group_x) + "x" + std::to_string(block.group_y) + " groups" +
         (block.max_registers ? ", at most " + std::to_string(block.max_registers) + " registers" : "");
}

const course::DeviceContext& device05() {
  static const course::DeviceContext dc = course::open_device("");
  return dc;
}

// Runs one of lesson 05's vector or single-pass kernels on `image` and returns the result.
// The kernels run05() can run: vector_passes, single_pass_local (also with its GPU tile layout)
// and float4_passes.
enum class Kernel05 { vector, single_pass, single_pass_lanes, float4 };

std::vector<float> run05(const course::GrayImage& image, int radius, Kernel05 kind, int steps) {
  const auto& dc = device05();
  const std::vector<float> weights = course::gaussian_weights(radius, std::max(0.5, radius / 2.0));
  const course::SeparableBuffers b = course::make_separable_buffers(dc, image, weights);
  const std::string folder = "kernels/05_unrolling_and_work_per_item/";
  const std::string defines = "-D COURSE_POISON_LOCAL -D RADIUS=" + std::to_string(radius) +
                              " -D STEPS=" + std::to_string(steps) + " -D GROUP_W=4 -D GROUP_H=2 -I " +
                              course::locate_course_file(folder + "vector_helpers.h").parent_path().string();
  cl::CommandQueue queue = dc.queue;
  auto args = [&](cl::Kernel& k, const cl::Buffer& in, const cl::Buffer& out) {
    k.setArg(0, in);
    k.setArg(1, out);
    k.setArg(2, b.weights);
    k.setArg(3, image.width);
    k.setArg(4, image.height);
  };
  const std::size_t sy = (image.height + steps - 1) / steps;
  const std::size_t vx = kind == Kernel05::float4 ? (image.width + 3) / 4 : (image.width + 7) / 8;
  if (kind == Kernel05::single_pass || kind == Kernel05::single_pass_lanes) {
    const std::string layout = kind == Kernel05::single_pass_lanes ? " -D LANE_TILE" : "";
    cl::Kernel k(course::build_course_program(dc, folder + "single_pass_local.cl", defines + layout),
                 "single_pass_local");
    args(k, b.input, b.output);
    queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(course::round_up(vx, 4), course::round_up(sy, 2)),
                               cl::NDRange(4, 2));
  } else {
    const bool f4 = kind == Kernel05::float4;
    const std::string aligned = f4 ? std::string(" -D ALIGNED_ROWS=") + (image.width % 4 == 0 ? "1" : "0") : "";
    const cl::Program p =
        course::build_course_program(dc, folder + (f4 ? "float4_passes.cl" : "vector_passes.cl"), defines + aligned);
    cl::Kernel row(p, f4 ? "row_pass_float4" : "row_pass_vector"),
        column(p, f4 ? "column_pass_float4" : "column_pass_vector");
    args(row, b.input, b.intermediate);
    args(column, b.intermediate, b.output);
    queue.enqueueNDRangeKernel(
        row, cl::NullRange, cl::NDRange(course::round_up(vx, 4), course::round_up(image.height, 2)), cl::NDRange(4, 2));
    queue.enqueueNDRangeKernel(column, cl::NullRange, cl::NDRange(course::round_up(vx, 4), course::round_up(sy, 2)),
                               cl::NDRange(4, 2));
  }
  std::vector<float> out(image.pixels.size());
  queue.enqueueReadBuffer(b.output, CL_TRUE, 0, out.size() * sizeof(float), out.data());
  return out;
}

bool matches05(const course::GrayImage& image, int radius, Kernel05 kind, int steps) {
  const std::vector<float> w = course::gaussian_weights(radius, std::max(0.5, radius / 2.0));
  const course::GrayImage expected = course::correlate_separable(image, w, w);
  const course::Comparison c =
      course::compare_images(run05(image, radius, kind, steps), expected.pixels, image.width, image.height, 2e-3);
  if (!c.ok()) MESSAGE("radius " << radius << ", " << image.width << "x" << image.height << ": " << c.describe());
  return c.ok();
}

// The blocked single pass's shape: a GROUP_W x GROUP_H group, STEPS rows a work-item, and a strip
// of STRIP rows (a multiple of GROUP_H * STEPS) that each group walks down.
struct Blocked {
  int group_w, group_h, steps, strip;
};

// single_pass_blocked.cl on `image`, with its local memory poisoned with NaN first.
std::vector<float> run_blocked(const course::GrayImage& image, int radius, const Blocked& shape) {
  const auto& dc = device05();
  const std::vector<float> weights = course::gaussian_weights(radius, std::max(0.5, radius / 2.0));
  const course::SeparableBuffers b = course::make_separable_buffers(dc, image, weights);
  const std::string folder = "kernels/05_unrolling_and_work_per_item/";
  const std::string defines =
      "-D COURSE_POISON_LOCAL -D RADIUS=" + std::to_string(radius) + " -D STEPS=" + std::to_string(shape.steps) +
      " -D GROUP_W=" + std::to_string(shape.group_w) + " -D GROUP_H=" + std::to_string(shape.group_h) +
      " -D STRIP=" + std::to_string(shape.strip) + " -D ALIGNED_ROWS=" + (image.width % 4 == 0 ? "1" : "0") + " -I " +
      course::locate_course_file(folder + "float4_helpers.h").parent_path().string();
  cl::Kernel k(course::build_course_program(dc, folder + "single_pass_blocked.cl", defines), "single_pass_blocked");
  k.setArg(0, b.input);
  k.setArg(1, b.output);
  k.setArg(2, b.weights);
  k.setArg(3, image.width);
  k.setArg(4, image.height);
  // One group per GROUP_W float4s of a row and per strip.
  const std::size_t columns = (image.width + 4 * shape.group_w - 1) / (4 * shape.group_w);
  const std::size_t strips = (image.height + shape.strip - 1) / shape.strip;
  cl::CommandQueue queue = dc.queue;
  queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(columns * shape.group_w, strips * shape.group_h),
                             cl::NDRange(shape.group_w, shape.group_h));
  std::vector<float> out(image.pixels.size());
  queue.enqueueReadBuffer(b.output, CL_TRUE, 0, out.size() * sizeof(float), out.data());
  return out;
}

bool blocked_matches(const course::GrayImage& image, int radius, const Blocked& shape) {
  const std::vector<float> w = course::gaussian_weights(radius, std::max(0.5, radius / 2.0));
  const course::GrayImage expected = course::correlate_separable(image, w, w);
  const course::Comparison c =
      course::compare_images(run_blocked(image, radius, shape), expected.pixels, image.width, image.height, 2e-3);
  if (!c.ok())
    MESSAGE("radius " << radius << ", " << image.width << "x" << image.height << ", group " << shape.group_w << "x"
                      << shape.group_h << ", " << shape.steps << " rows, strip " << shape.strip << ": "
                      << c.describe());
  return c.ok();
}

// blocked_2d.cl on `image` with random weights that are not symmetric (a flipped or transposed
// weight index shows), its output filled with NaN first (a pixel it skips shows), against
// correlate_2d(). With `literal`, the weights are built into the program (blocked_2d_literal).
bool blocked_2d_matches(const course::GrayImage& image, int radius, const course::Block2D& block,
                        bool literal = false) {
  const auto& dc = device05();
  const int taps = 2 * radius + 1;
  const course::GrayImage noise = course::random_gray(taps * taps, 1, static_cast<std::uint32_t>(radius + 99));
  std::vector<float> weights(noise.pixels.size());
  for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = (noise.pixels[i] / 255.0f - 0.3f) / taps;
  const course::SeparableBuffers b = course::make_separable_buffers(dc, image, {1.0f});
  // With literal weights the buffer holds NaN: a weight read from it instead of the program shows.
  const std::vector<float> in_buffer(weights.size(), literal ? std::numeric_limits<float>::quiet_NaN() : 0.0f);
  const cl::Buffer weights_2d(dc.context, literal ? in_buffer.begin() : weights.begin(),
                              literal ? in_buffer.end() : weights.end(), true);
  cl::CommandQueue queue = dc.queue;
  queue.enqueueFillBuffer(b.output, std::numeric_limits<float>::quiet_NaN(), 0, image.pixels.size() * sizeof(float));
  cl::Kernel k =
      course::build_blocked_2d(dc, radius, block, image.width, literal ? course::literal_weights_define(weights) : "");
  k.setArg(0, b.input);
  k.setArg(1, b.output);
  k.setArg(2, weights_2d);
  k.setArg(3, image.width);
  k.setArg(4, image.height);
  course::launch_blocked_2d(dc, k, block, image.width, image.height);
  std::vector<float> out(image.pixels.size());
  queue.enqueueReadBuffer(b.output, CL_TRUE, 0, out.size() * sizeof(float), out.data());
  const course::GrayImage expected = course::correlate_2d(image, weights, radius);
  const course::Comparison c = course::compare_images(out, expected.pixels, image.width, image.height, 2e-3);
  if (!c.ok())
    MESSAGE((literal ? "literal weights, radius " : "radius ")
            << radius << ", " << image.width << "x" << image.height << ", " << describe(block) << ": "
            << c.describe());
  return c.ok();
}

}  // namespace

TEST_CASE("the register-blocked 2D correlation matches the reference for every radius, rows aligned or not") {
  // 84 wide: float4 pointer loads and stores; 83: vload4 and vstore4. 2 to 11 groups across,
  // strips ending inside the image and at its last row.
  const course::Block2D blocks[] = {{1, 8, 4, 1}, {2, 5, 2, 2}, {3, 16, 1, 3}, {4, 3, 2, 1}};
  for (int radius = 0; radius <= 16; ++radius) {
    const int width = radius % 2 == 0 ? 84 : 83;
    CAPTURE(width);
    CAPTURE(radius);
    CHECK(blocked_2d_matches(course::random_gray(width, 29, 17 + radius), radius, blocks[radius % 4]));
  }
}

TEST_CASE("the 2D correlation with literal weights matches the reference for every radius, on sizes no group divides") {
  // The weights are random and not symmetric, so a literal in the wrong place shows.
  const course::Block2D blocks[] = {{1, 8, 4, 1}, {2, 5, 2, 2}, {3, 16, 1, 3}, {4, 3, 2, 1}};
  for (int radius = 0; radius <= 16; ++radius) {
    CAPTURE(radius);
    CHECK(blocked_2d_matches(course::random_gray(radius % 2 == 0 ? 84 : 83, 29, 5 + radius), radius, blocks[radius % 4],
                             true));
  }
  CHECK(blocked_2d_matches(course::random_gray(1, 1, 3), 4, {1, 4, 4, 2}, true));
  CHECK(blocked_2d_matches(course::random_gray(37, 23, 4), 7, {2, 32, 8, 1}, true));
}

TEST_CASE(
    "the register-blocked 2D correlation matches the reference on one pixel, prime sizes, one row and one column") {
  for (const auto& [w, h] : {std::pair{1, 1}, {37, 23}, {1021, 7}, {7, 5}, {1, 19}, {40, 3}, {131, 67}}) {
    CAPTURE(w);
    CAPTURE(h);
    const course::GrayImage image = course::random_gray(w, h, static_cast<std::uint32_t>(w * 17 + h));
    CHECK(blocked_2d_matches(image, 3, {1, 4, 4, 2}));
    CHECK(blocked_2d_matches(image, 16, {2, 32, 8, 1}));
  }
}

TEST_CASE("the register-blocked 2D correlation matches the reference for every float4 count, strip and group shape") {
  // Strips of one row, shorter than 2R, taller than the image; groups one wide, one high, square.
  const course::GrayImage image = course::random_gray(203, 97, 3);
  for (const course::Block2D& block : std::initializer_list<course::Block2D>{
           {1, 1, 16, 1}, {2, 7, 1, 8}, {3, 64, 4, 4}, {4, 200, 8, 1}, {1, 128, 64, 1}, {2, 128, 2, 2}}) {
    CAPTURE(describe(block));
    CHECK(blocked_2d_matches(image, 5, block));
    CHECK(blocked_2d_matches(image, 12, block));
  }
}

TEST_CASE("the 2D correlation built with a register cap matches the reference where NVIDIA's compiler options are") {
  const auto& dc = device05();
  if (dc.device.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_nv_compiler_options") == std::string::npos) return;
  CHECK(blocked_2d_matches(course::random_gray(131, 67, 5), 8, course::Block2D{2, 128, 64, 1, 128}));
}

TEST_CASE("the blocked single pass matches the reference for every radius, with rows aligned to 16 bytes and without") {
  // 84 wide: float4 pointer loads and stores; 83: vload4 and vstore4 (each for every number of
  // float4s the row filter loads, which changes every 4 radii). 3 to 6 groups across, 3 strips.
  const Blocked shapes[] = {{4, 2, 3, 12}, {8, 1, 4, 8}, {2, 3, 2, 12}};
  for (int radius = 0; radius <= 16; ++radius) {
    const int width = radius % 2 == 0 ? 84 : 83;
    CAPTURE(width);
    CAPTURE(radius);
    CHECK(blocked_matches(course::random_gray(width, 29, 17), radius, shapes[radius % 3]));
  }
}

TEST_CASE("the blocked single pass matches the reference on one pixel, prime sizes, one row and one column") {
  for (const auto& [w, h] : {std::pair{1, 1}, {37, 23}, {1021, 7}, {7, 5}, {1, 19}, {40, 3}, {131, 67}}) {
    CAPTURE(w);
    CAPTURE(h);
    const course::GrayImage image = course::random_gray(w, h, static_cast<std::uint32_t>(w * 31 + h));
    CHECK(blocked_matches(image, 3, {4, 2, 3, 12}));
    CHECK(blocked_matches(image, 16, {8, 4, 2, 16}));
  }
}

TEST_CASE("the blocked single pass matches the reference for work-group shapes, rows per work-item and strips") {
  // Strips of one tile (no ring turns), of many tiles, taller than the image, and tiles taller
  // than 2R or shorter than it (the ring then holds more halo than tile).
  const course::GrayImage image = course::random_gray(203, 97, 5);
  for (const Blocked& shape : std::initializer_list<Blocked>{
           {16, 1, 8, 8}, {16, 1, 8, 64}, {4, 4, 1, 4}, {4, 4, 1, 40}, {1, 8, 2, 32}, {32, 2, 4, 200}, {3, 5, 3, 30}}) {
    CAPTURE(shape.group_w);
    CAPTURE(shape.group_h);
    CAPTURE(shape.steps);
    CAPTURE(shape.strip);
    CHECK(blocked_matches(image, 5, shape));
    CHECK(blocked_matches(image, 12, shape));
  }
}

TEST_CASE("the single-pass kernel matches the reference for every radius from 0 to 16 on an odd-sized image") {
  const course::GrayImage image = course::random_gray(83, 47, 11);
  for (int radius = 0; radius <= 16; ++radius) {
    CAPTURE(radius);
    CHECK(matches05(image, radius, Kernel05::single_pass, 3));
    CHECK(matches05(image, radius, Kernel05::single_pass_lanes, 3));
  }
}

TEST_CASE("the float4 passes match the reference for every radius, with rows aligned to 16 bytes and without") {
  for (const int width : {84, 83}) {  // 84: aligned float4 accesses; 83: vload4 and vstore4
    const course::GrayImage image = course::random_gray(width, 29, 7);
    for (int radius = 0; radius <= 16; ++radius) {
      CAPTURE(width);
      CAPTURE(radius);
      CHECK(matches05(image, radius, Kernel05::float4, 3));
    }
  }
}

TEST_CASE("the vector and float4 passes match the reference on images narrower than a vector and one row high") {
  for (const auto& [w, h] : {std::pair{1, 1}, {7, 5}, {9, 1}, {1, 19}, {17, 33}, {40, 3}}) {
    CAPTURE(w);
    CAPTURE(h);
    const course::GrayImage image = course::random_gray(w, h, static_cast<std::uint32_t>(w * 100 + h));
    CHECK(matches05(image, 3, Kernel05::vector, 4));
    CHECK(matches05(image, 16, Kernel05::vector, 5));
    CHECK(matches05(image, 5, Kernel05::single_pass, 8));
    CHECK(matches05(image, 5, Kernel05::single_pass_lanes, 8));
    CHECK(matches05(image, 3, Kernel05::float4, 4));
    CHECK(matches05(image, 16, Kernel05::float4, 5));
  }
}

TEST_CASE("the 2D rungs that change one thing at a time match the reference, loops kept or unrolled, weights literal") {
  // Random weights that are not symmetric (a flipped or transposed index shows), an image whose
  // size no group divides, its output filled with NaN first (a pixel skipped shows).
  const auto& dc = device05();
  const course::GrayImage image = course::random_gray(37, 23, 3);
  for (const int radius : {0, 1, 3, 6}) {
    const int taps = 2 * radius + 1;
    const course::GrayImage noise = course::random_gray(taps * taps, 1, static_cast<std::uint32_t>(radius + 7));
    std::vector<float> weights(noise.pixels.size());
    for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = (noise.pixels[i] / 255.0f - 0.3f) / taps;
    const course::GrayImage expected = course::correlate_2d(image, weights, radius);
    const course::SeparableBuffers b = course::make_separable_buffers(dc, image, {1.0f});
    const cl::Buffer weights_2d(dc.context, weights.begin(), weights.end(), true);
    for (const char* variant : {"radius_fixed_2d", "columns_unrolled_2d", "unrolled_2d", "literal_weights_2d"}) {
      CAPTURE(radius);
      CAPTURE(variant);
      cl::Kernel k(course::build_course_program(dc, "kernels/05_unrolling_and_work_per_item/unrolled_2d.cl",
                                                course::unrolled_2d_defines(variant, radius, weights)),
                   "unrolled_2d");
      cl::CommandQueue queue = dc.queue;
      queue.enqueueFillBuffer(b.output, std::numeric_limits<float>::quiet_NaN(), 0,
                              image.pixels.size() * sizeof(float));
      course::set_image_args(k, b.input, b.output, weights_2d, b);
      course::launch_2d(dc, k, image.width, image.height, cl::NDRange(8, 4));
      std::vector<float> out(image.pixels.size());
      queue.enqueueReadBuffer(b.output, CL_TRUE, 0, out.size() * sizeof(float), out.data());
      const course::Comparison c = course::compare_images(out, expected.pixels, image.width, image.height, 2e-3);
      if (!c.ok()) MESSAGE(c.describe());
      CHECK(c.ok());
    }
  }
}

TEST_CASE("the blocked single pass with restrict pointers or a required group shape matches the reference") {
  const auto& dc = device05();
  for (const auto& [w, h] : {std::pair{37, 23}, {84, 61}, {1, 19}}) {
    const course::GrayImage image = course::random_gray(w, h, static_cast<std::uint32_t>(w + h));
    for (const int radius : {2, 8}) {
      const std::vector<float> weights = course::gaussian_weights(radius, radius / 2.0 + 0.5);
      const course::GrayImage expected = course::correlate_separable(image, weights, weights);
      const course::SeparableBuffers b = course::make_separable_buffers(dc, image, weights);
      for (const char* variant : {"single_pass_restrict", "single_pass_reqd"}) {
        CAPTURE(w);
        CAPTURE(h);
        CAPTURE(radius);
        CAPTURE(variant);
        const course::BlockedRung rung = course::single_pass_blocked_rung(dc, variant, b, radius, 2, 8);
        cl::CommandQueue queue = dc.queue;
        queue.enqueueFillBuffer(b.output, std::numeric_limits<float>::quiet_NaN(), 0,
                                image.pixels.size() * sizeof(float));
        rung.enqueue();
        std::vector<float> out(image.pixels.size());
        queue.enqueueReadBuffer(b.output, CL_TRUE, 0, out.size() * sizeof(float), out.data());
        const course::Comparison c = course::compare_images(out, expected.pixels, w, h, 2e-3);
        if (!c.ok()) MESSAGE(c.describe());
        CHECK(c.ok());
      }
    }
  }
}

TEST_CASE("the wave model predicts whole waves of a group's rows, fitted to the point with the most waves") {
  // 10 groups at once: 100 groups are 10 full waves (the fit), 25 groups 3 waves with the last
  // half empty, 7 groups one wave 70% full.
  std::vector<course::StripPoint> points(3);
  points[0].groups = 100, points[0].rows = 10, points[0].row.kernel_ms = 1.0;
  points[1].groups = 25, points[1].rows = 40, points[1].row.kernel_ms = 1.5;
  points[2].groups = 7, points[2].rows = 200, points[2].row.kernel_ms = 3.0;
  CHECK(course::predict_strip_times(points, 10) == 0);
  // 1.0 ms for 10 waves of 10 rows: 0.01 ms a row of a wave.
  CHECK(points[0].predicted_ms == doctest::Approx(1.0));
  CHECK(points[1].predicted_ms == doctest::Approx(3 * 40 * 0.01));
  CHECK(points[1].no_tail_ms == doctest::Approx(2.5 * 40 * 0.01));
  CHECK(points[2].predicted_ms == doctest::Approx(1 * 200 * 0.01));
  CHECK(points[2].no_tail_ms == doctest::Approx(0.7 * 200 * 0.01));
}

TEST_CASE("the strip list takes whole numbers of rows and refuses anything else") {
  CHECK(course::parse_strips("").empty());
  CHECK(course::parse_strips("64,256,1024") == std::vector<std::size_t>{64, 256, 1024});
  for (const char* bad : {"0", "64,,128", "x", "-8", "65537", "12.5"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(course::parse_strips(bad), course::UsageError);
  }
}

TEST_CASE("the blocked single pass counts at least one resident group and no more than it launched") {
  const auto& dc = device05();
  const course::GrayImage image = course::random_gray(131, 67, 4);
  const std::vector<float> weights = course::gaussian_weights(3, 1.5);
  const course::SeparableBuffers b = course::make_separable_buffers(dc, image, weights);
  const cl::NDRange group = course::single_pass_blocked_shape(dc, 3, 2).group;
  const std::size_t groups = (131 + 4 * group[0] - 1) / (4 * group[0]) * ((67 + 7) / 8);
  const std::size_t resident = course::count_resident_groups(dc, b, 3, 2, 8);
  CHECK(resident >= 1);
  CHECK(resident <= groups);
}
