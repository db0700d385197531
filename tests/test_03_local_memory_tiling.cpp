// Lesson 03's kernels: both tiled kernels against the reference with poisoned local memory,
// the four-load scheme's size condition, and the exercise check catching wrong tile loads.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "checker.hpp"
#include "conv_check.hpp"
#include "course.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

const course::DeviceContext& device03() {
  static const course::DeviceContext dc = course::open_device("");
  return dc;
}

std::size_t tile_size03(std::size_t local_x, std::size_t local_y, int radius) {
  return (local_x + 2 * radius) * (local_y + 2 * radius);
}

}  // namespace

TEST_CASE("both tiled kernels match the reference on odd-sized images with poisoned local memory") {
  const course::DeviceContext& dc = device03();
  cl::Program program =
      course::build_course_program(dc, "kernels/03_local_memory_tiling/tiled_convolution.cl", "-D COURSE_POISON_LOCAL");
  std::ostringstream report;
  course::ExerciseCheck check(dc, ".", course_tests::scratch_folder("03-kernels"), report);
  cl::Kernel strided(program, "tiled_convolution"), four_loads(program, "tiled_convolution_four_loads");
  int cases = 0;
  for (int radius : {0, 1, 4, 8, 16}) {
    CAPTURE(radius);
    course::conv_check_run(check, strided, {101, 37, 16, 16, radius, course::ConvCheckCase::kRandom}, 3u + radius,
                           tile_size03);
    course::conv_check_run(check, strided, {29, 1, 32, 2, radius, course::ConvCheckCase::kBox}, 5u + radius,
                           tile_size03);
    cases += 2;
    // The four-load scheme needs groups at least 2R wide and tall: 32x32 at radius 16, which
    // many GPUs refuse (the H100's driver allows this kernel 256 work-items).
    const std::size_t side = std::max<std::size_t>(8, 2 * radius);
    if (side * side > four_loads.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device)) continue;
    course::conv_check_run(check, four_loads, {67, 53, side, side, radius, course::ConvCheckCase::kRandom}, 9u + radius,
                           tile_size03);
    ++cases;
  }
  INFO(report.str());
  CHECK(check.failed() == 0);
  CHECK(check.passed() == cases);
}

TEST_CASE("the four-load scheme leaves holes in the tile when work-groups are narrower than 2R") {
  const course::DeviceContext& dc = device03();
  cl::Program program =
      course::build_course_program(dc, "kernels/03_local_memory_tiling/tiled_convolution.cl", "-D COURSE_POISON_LOCAL");
  cl::Kernel four_loads(program, "tiled_convolution_four_loads");
  std::ostringstream report;
  course::ExerciseCheck check(dc, ".", course_tests::scratch_folder("03-holes"), report);
  course::conv_check_run(check, four_loads, {40, 40, 4, 4, 3, course::ConvCheckCase::kBox}, 1u, tile_size03);
  CHECK(check.failed() == 1);
  CHECK(report.str().find("NaN") != std::string::npos);
}

TEST_CASE("lesson 03 writes --output at the input's size, each pixel within one level of the reference") {
  const fs::path out = course_tests::scratch_folder("03-contract") / "blurred.png";
  const std::string command = std::string(COURSE_BUILD_DIR) + "/lessons/lesson_03 --size 53x1 --radius 16 --sigma 5 " +
                              "--repeat 1 --output " + out.string() + " --output-dir " + out.parent_path().string() +
                              " > " + (out.parent_path() / "log.txt").string() + " 2>&1";
  REQUIRE(std::system(command.c_str()) == 0);
  const course::GrayImage got = course::load_gray(out);
  const std::vector<float> g = course::gaussian_weights(16, 5.0);
  const course::GrayImage expected =
      course::correlate_2d(course::synthetic_gray(53, 1), course::outer_product(g, g), 16);
  REQUIRE(got.width == 53);
  REQUIRE(got.height == 1);
  const course::Comparison c = course::compare_images(got.pixels, expected.pixels, 53, 1, 1.0);
  INFO(c.describe());
  CHECK(c.ok());
}
