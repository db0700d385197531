// Lesson 05: the vector and single-pass kernels against the reference at every radius and at
// sizes around the vector width, and the exercise check catching wrong multi-output kernels.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "checker.hpp"
#include "course.hpp"
#include "separable_host.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

const course::DeviceContext& device05() {
  static const course::DeviceContext dc = course::open_device("");
  return dc;
}

// Runs lesson 05's vector passes or its single-pass kernel on `image` and returns the result.
std::vector<float> run05(const course::GrayImage& image, int radius, bool single_pass, int steps) {
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
  const std::size_t vx = (image.width + 7) / 8, sy = (image.height + steps - 1) / steps;
  if (single_pass) {
    cl::Kernel k(course::build_course_program(dc, folder + "single_pass_local.cl", defines), "single_pass_local");
    args(k, b.input, b.output);
    queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(course::round_up(vx, 4), course::round_up(sy, 2)),
                               cl::NDRange(4, 2));
  } else {
    const cl::Program p = course::build_course_program(dc, folder + "vector_passes.cl", defines);
    cl::Kernel row(p, "row_pass_vector"), column(p, "column_pass_vector");
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

bool matches05(const course::GrayImage& image, int radius, bool single_pass, int steps) {
  const std::vector<float> w = course::gaussian_weights(radius, std::max(0.5, radius / 2.0));
  const course::GrayImage expected = course::correlate_separable(image, w, w);
  const course::Comparison c = course::compare_images(run05(image, radius, single_pass, steps), expected.pixels,
                                                      image.width, image.height, 2e-3);
  if (!c.ok()) MESSAGE("radius " << radius << ", " << image.width << "x" << image.height << ": " << c.describe());
  return c.ok();
}

}  // namespace

TEST_CASE("the single-pass kernel matches the reference for every radius from 0 to 16 on an odd-sized image") {
  const course::GrayImage image = course::random_gray(83, 47, 11);
  for (int radius = 0; radius <= 16; ++radius) CHECK(matches05(image, radius, true, 3));
}

TEST_CASE("the vector passes match the reference on images narrower than a vector and one row high") {
  for (const auto& [w, h] : {std::pair{1, 1}, {7, 5}, {9, 1}, {1, 19}, {17, 33}, {40, 3}}) {
    CAPTURE(w);
    CAPTURE(h);
    const course::GrayImage image = course::random_gray(w, h, static_cast<std::uint32_t>(w * 100 + h));
    CHECK(matches05(image, 3, false, 4));
    CHECK(matches05(image, 16, false, 5));
    CHECK(matches05(image, 5, true, 8));
  }
}

TEST_CASE("the exercise 05 check catches a span placed by the group's width, a short line and a window off by x0") {
  if (course_tests::skipped_without_solutions()) return;
  CHECK(course_tests::failures_of_mutant("05", "row_pass_spread_steps.cl", "get_group_id(0) * SPAN;",
                                         "get_group_id(0) * ROW_W;") > 0);
  CHECK(course_tests::failures_of_mutant("05", "row_pass_spread_steps.cl", "i < LINE; i += ROW_W",
                                         "i < SPAN + RADIUS; i += ROW_W") > 0);
  CHECK(course_tests::failures_of_mutant("05", "row_pass_spread_steps.cl", "clamp(x0 - RADIUS + i, 0, width - 1)",
                                         "min(x0 - RADIUS + i, width - 1)") > 0);
  CHECK(course_tests::failures_of_mutant("05", "row_pass_spread_steps.cl", "line[x - x0 + k]", "line[x + k]") > 0);
  CHECK(course_tests::failures_of_mutant("05", "row_pass_spread_steps.cl", "if (x < width) output", "output") > 0);
}
