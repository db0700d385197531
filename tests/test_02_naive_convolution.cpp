// Lesson 02's kernels and the convolution helpers: the naive variants against the reference,
// the work-group shape chooser, and the exercise check catching plausible wrong kernels.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "checker.hpp"
#include "conv_check.hpp"
#include "conv_lesson.hpp"
#include "course.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

const course::DeviceContext& device02() {
  static const course::DeviceContext dc = course::open_device("");
  return dc;
}

}  // namespace

TEST_CASE("every naive variant matches the reference on odd-sized images for radii up to 16") {
  const course::DeviceContext& dc = device02();
  cl::Program program = course::build_course_program(dc, "kernels/02_naive_convolution/naive_convolution.cl");
  std::ostringstream report;
  course::ExerciseCheck check(dc, ".", course_tests::scratch_folder("02-variants"), report);
  for (const char* name :
       {"naive_convolution", "naive_convolution_constant_weights", "naive_convolution_unclamped_interior"}) {
    cl::Kernel kernel(program, name);
    for (int radius : {0, 1, 5, 16}) {
      CAPTURE(name);
      CAPTURE(radius);
      course::conv_check_run(check, kernel, {37, 23, 16, 16, radius, course::ConvCheckCase::kRandom}, 7u + radius);
      course::conv_check_run(check, kernel, {1, 19, 8, 4, radius, course::ConvCheckCase::kGaussian}, 11u + radius);
      course::conv_check_run(check, kernel, {101, 77, 8, 8, radius, course::ConvCheckCase::kBox}, 13u + radius);
    }
  }
  INFO(report.str());
  CHECK(check.failed() == 0);
  CHECK(check.passed() == 36);
}

TEST_CASE("the swapped-axes variant gives the same image as the naive one") {
  const course::DeviceContext& dc = device02();
  cl::Program program = course::build_course_program(dc, "kernels/02_naive_convolution/naive_convolution.cl");
  const course::GrayImage image = course::random_gray(45, 27, 5);
  const course::FilterSpec filter{"box", 3, 0, course::box_weights(3)};
  const course::ConvBuffers buffers(dc, image, filter.weights_2d());
  auto run = [&](const char* name, std::size_t gx, std::size_t gy) {
    cl::Kernel kernel(program, name);
    kernel.setArg(0, buffers.input);
    kernel.setArg(1, buffers.weights);
    kernel.setArg(2, buffers.output);
    kernel.setArg(3, image.width);
    kernel.setArg(4, image.height);
    kernel.setArg(5, filter.radius);
    dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(gx, gy), cl::NDRange(1, 1));
    std::vector<float> out(image.pixels.size());
    dc.queue.enqueueReadBuffer(buffers.output, CL_TRUE, 0, buffers.bytes, out.data());
    return out;
  };
  CHECK(run("naive_convolution", 45, 27) == run("naive_convolution_swapped_axes", 27, 45));
}

TEST_CASE("the work-group shape chooser stays within the kernel's and the device's limits") {
  const course::DeviceContext& dc = device02();
  cl::Program program = course::build_course_program(dc, "kernels/02_naive_convolution/naive_convolution.cl");
  cl::Kernel kernel(program, "naive_convolution");
  const std::size_t kernel_max = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
  const auto item_max = dc.device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  for (auto [x, y] : {std::pair<std::size_t, std::size_t>{16, 16}, {4096, 4096}, {1, 100000}, {3, 5}, {0, 0}}) {
    CAPTURE(x);
    CAPTURE(y);
    const cl::NDRange local = course::fit_work_group(dc, kernel, x, y);
    CHECK(local[0] >= 1);
    CHECK(local[1] >= 1);
    CHECK(local[0] * local[1] <= kernel_max);
    CHECK(local[0] <= item_max[0]);
    CHECK(local[1] <= item_max[1]);
  }
  CHECK(course::fit_work_group(dc, kernel, 3, 5)[0] == 3);
}

TEST_CASE("lesson 02 writes --output at the input's size, each pixel within one level of the reference") {
  const fs::path out = course_tests::scratch_folder("02-contract") / "blurred.png";
  const std::string command = std::string(COURSE_BUILD_DIR) +
                              "/lessons/lesson_02 --size 37x23 --filter box --radius 16 " + "--repeat 1 --output " +
                              out.string() + " --output-dir " + out.parent_path().string() + " > " +
                              (out.parent_path() / "log.txt").string() + " 2>&1";
  REQUIRE(std::system(command.c_str()) == 0);
  const course::GrayImage got = course::load_gray(out);
  const course::GrayImage expected = course::correlate_2d(
      course::synthetic_gray(37, 23), course::outer_product(course::box_weights(16), course::box_weights(16)), 16);
  REQUIRE(got.width == 37);
  REQUIRE(got.height == 23);
  const course::Comparison c = course::compare_images(got.pixels, expected.pixels, 37, 23, 1.0);
  INFO(c.describe());
  CHECK(c.ok());
}
