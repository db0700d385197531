// Lesson 09's tests: the CPU warp reference against values worked out by hand, the matrix
// options, the device kernels against the reference, the lesson's own run, and the exercise's
// check against the solution, the shipped exercise and plausible wrong kernels.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "checker.hpp"
#include "course.hpp"
#include "test_support.hpp"
#include "warp_runs.hpp"
#include "transform_reference.hpp"

namespace {

course::Options transform_options(const std::vector<std::string>& args) {
  course::Options options("test", "test");
  options.value("affine", "A", "affine").value("homography", "H", "homography");
  options.parse(args);
  return options;
}

// Runs one lesson 09 kernel on an RGBA image and returns its output bytes as floats.
std::vector<float> run_transform_kernel(const course::DeviceContext& dc, const std::string& file,
                                        const std::string& name, const course::RgbaImage& in,
                                        const course::Transform& m, int out_w, int out_h, int pixels_per_item) {
  cl::Program program = course::build_warp_program(dc, file, m);
  cl::Kernel kernel(program, name.c_str());
  cl::Buffer output(dc.context, CL_MEM_WRITE_ONLY, std::size_t(out_w) * out_h * 4);
  cl::Buffer input_buffer;
  cl::Image2D input_image;
  int arg = 0;
  if (file == "image_warp.cl") {
    input_image =
        cl::Image2D(dc.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, cl::ImageFormat(CL_RGBA, CL_UNORM_INT8),
                    in.width, in.height, 0, const_cast<std::uint8_t*>(in.pixels.data()));
    kernel.setArg(arg++, input_image);
  } else {
    input_buffer = cl::Buffer(dc.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in.pixels.size(),
                              const_cast<std::uint8_t*>(in.pixels.data()));
    kernel.setArg(arg++, input_buffer);
  }
  kernel.setArg(arg++, in.width);
  kernel.setArg(arg++, in.height);
  kernel.setArg(arg++, output);
  kernel.setArg(arg++, out_w);
  kernel.setArg(arg++, out_h);
  for (int r = 0; r < 3; ++r)
    kernel.setArg(arg++, cl_float4{{float(m[3 * r]), float(m[3 * r + 1]), float(m[3 * r + 2]), 0.0f}});
  const int items_x = (out_w + pixels_per_item - 1) / pixels_per_item;
  dc.queue.enqueueNDRangeKernel(
      kernel, cl::NullRange, cl::NDRange(course::round_up(items_x, 8), course::round_up(out_h, 4)), cl::NDRange(8, 4));
  std::vector<std::uint8_t> bytes(std::size_t(out_w) * out_h * 4);
  dc.queue.enqueueReadBuffer(output, CL_TRUE, 0, bytes.size(), bytes.data());
  return std::vector<float>(bytes.begin(), bytes.end());
}

}  // namespace

TEST_CASE("the CPU warp reference returns the input under the identity map") {
  const course::GrayImage in = course::random_gray(13, 7, 3);
  const course::GrayImage out = course::transform_bilinear(in, course::affine_matrix({1, 0, 0, 0, 1, 0}), 13, 7);
  CHECK(out.pixels == in.pixels);
}

TEST_CASE("the CPU warp reference blends neighbours half and half at a half-pixel shift and is black outside") {
  const course::GrayImage in{2, 1, {10.0f, 30.0f}};
  const course::GrayImage out = course::transform_bilinear(in, course::affine_matrix({1, 0, 0.5, 0, 1, 0}), 3, 1);
  CHECK(out.pixels[0] == doctest::Approx(20));  // between the two pixels
  CHECK(out.pixels[1] == doctest::Approx(15));  // half of the last pixel, half black beyond it
  CHECK(out.pixels[2] == doctest::Approx(0));   // entirely outside
}

TEST_CASE("the CPU warp reference divides by the projective row of a homography") {
  const course::GrayImage in = course::random_gray(9, 9, 5);
  // Doubling every entry describes the same homography: the division cancels it.
  const course::Transform h = {1, 0.1, 1, 0.05, 0.9, 0.5, 0.01, 0.02, 1};
  course::Transform twice = h;
  for (double& v : twice) v *= 2;
  const course::GrayImage a = course::transform_bilinear(in, h, 9, 9), b = course::transform_bilinear(in, twice, 9, 9);
  for (std::size_t i = 0; i < a.pixels.size(); ++i) CHECK(a.pixels[i] == doctest::Approx(b.pixels[i]));
}

TEST_CASE("a warp matrix with the wrong count of numbers or a singular one is a usage error") {
  course::Transform m{};
  CHECK_THROWS_AS(course::read_transform(transform_options({"--affine", "1,0,0,0,1"}), m), course::UsageError);
  CHECK_THROWS_AS(course::read_transform(transform_options({"--homography", "1,0,0,0,1,0,0,0"}), m),
                  course::UsageError);
  CHECK_THROWS_AS(course::read_transform(transform_options({"--homography", "1,2,3,2,4,6,0,0,1"}), m),
                  course::UsageError);
  CHECK_THROWS_AS(course::read_transform(transform_options({"--affine", "1,2,0,2,4,0"}), m), course::UsageError);
  CHECK_THROWS_AS(
      course::read_transform(transform_options({"--affine", "1,0,0,0,1,0", "--homography", "1,0,0,0,1,0,0,0,1"}), m),
      course::UsageError);
  CHECK(course::read_transform(transform_options({"--homography", "1,0,0,0,1,0,0.001,0,1"}), m));
  CHECK_FALSE(course::is_affine(m));
  CHECK_FALSE(course::read_transform(transform_options({}), m));
}

TEST_CASE("the warp reference gives the same bits on every core as on one thread") {
  const course::RgbaImage in = course::random_rgba(37, 23, 13);
  const course::Transform m = {1, 0.1, 2, 0.05, 0.9, 1, 0.004, -0.003, 1};
  const std::vector<float> one = course::transform_bilinear(in, m, 41, 19, 1);
  for (const unsigned threads : {0u, 4u, 64u})
    CHECK(std::memcmp(course::transform_bilinear(in, m, 41, 19, threads).data(), one.data(),
                      one.size() * sizeof(float)) == 0);
}

TEST_CASE("the buffer warp kernels match the reference on odd-sized images under an affine map and a homography") {
  const course::DeviceContext dc = course::open_device("");
  const course::RgbaImage in = course::random_rgba(37, 23, 11);
  const course::Transform maps[] = {{0.9, -0.3, 6, 0.3, 0.9, -4, 0, 0, 1}, {1, 0.1, 2, 0.05, 0.9, 1, 0.004, -0.003, 1}};
  for (const auto& m : maps) {
    const std::vector<float> expected = course::transform_bilinear(in, m, 41, 19);
    for (const auto& [name, per_item] : {std::make_pair("warp_buffer", 1), std::make_pair("warp_buffer_x4", 4)}) {
      CAPTURE(name);
      const course::Comparison c = course::compare_images(
          run_transform_kernel(dc, "buffer_warp.cl", name, in, m, 41, 19, per_item), expected, 41, 19, 0.6, 4);
      CHECK_MESSAGE(c.ok(), c.describe());
    }
  }
}

TEST_CASE("the image-sampler warp kernels match the reference within two levels") {
  const course::DeviceContext dc = course::open_device("");
  if (!dc.device.getInfo<CL_DEVICE_IMAGE_SUPPORT>()) return;
  const course::RgbaImage in = course::random_rgba(29, 31, 12);
  const course::Transform m = {1.1, 0.2, -3, -0.1, 0.8, 2, 0.002, 0.003, 1};
  const std::vector<float> expected = course::transform_bilinear(in, m, 33, 27);
  for (const auto& [name, per_item] : {std::make_pair("warp_image", 1), std::make_pair("warp_image_x4", 4)}) {
    CAPTURE(name);
    const course::Comparison c = course::compare_images(
        run_transform_kernel(dc, "image_warp.cl", name, in, m, 33, 27, per_item), expected, 33, 27, 2.0, 4);
    CHECK_MESSAGE(c.ok(), c.describe());
  }
}

TEST_CASE("lesson 09 runs and verifies with the suite's small image") {
  const auto dir = std::filesystem::temp_directory_path() / "course-tests-09-run";
  const std::string command = std::string(COURSE_BUILD_DIR) +
                              "/lessons/lesson_09 --size 131x67 --repeat 2 --output-dir " + dir.string() +
                              " > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(std::filesystem::exists(dir / "A1.png"));
  CHECK(std::filesystem::exists(dir / "H2.png"));
}

TEST_CASE("exercise 09 passes its check with the solution and fails it as shipped") {
  if (course_tests::skipped_without_solutions()) return;
  CHECK(course_tests::failed_cases("09", course::project_root() / "solutions/09_affine_and_homography_warps") == 0);
  CHECK(course_tests::failed_cases("09", course::project_root() / "exercises/09_affine_and_homography_warps") > 0);
}

