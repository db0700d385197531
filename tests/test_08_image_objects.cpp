// Lesson 08's tests: every blur kernel of the lesson against the CPU reference, with images and
// buffers, on a prime-sized picture that no work-group divides; the lesson's own run; and the
// exercise's check against the solution, the shipped exercise and plausible wrong kernels.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "checker.hpp"
#include "course.hpp"
#include "test_support.hpp"

namespace {

std::vector<float> reference_blur(const course::RgbaImage& in, const std::vector<float>& weights, int radius) {
  const std::size_t pixels = std::size_t(in.width) * in.height;
  std::vector<float> out(pixels * 4);
  for (int c = 0; c < 4; ++c) {
    course::GrayImage channel{in.width, in.height, std::vector<float>(pixels)};
    for (std::size_t i = 0; i < pixels; ++i) channel.pixels[i] = in.pixels[i * 4 + c];
    const course::GrayImage blurred = course::correlate_2d(channel, weights, radius);
    for (std::size_t i = 0; i < pixels; ++i) out[i * 4 + c] = blurred.pixels[i];
  }
  return out;
}

}  // namespace

TEST_CASE("every lesson 08 blur kernel matches the reference on a prime-sized picture") {
  const course::DeviceContext dc = course::open_device("");
  if (!dc.device.getInfo<CL_DEVICE_IMAGE_SUPPORT>()) return;
  const int width = 53, height = 31;
  const course::RgbaImage in = course::random_rgba(width, height, 8);
  struct Setup {
    int radius, group_w, group_h;
  };
  for (const Setup s : {Setup{1, 8, 4}, Setup{2, 16, 4}}) {
    const std::vector<float> weights =
        course::outer_product(course::gaussian_weights(s.radius, 1.0), course::gaussian_weights(s.radius, 0.7));
    const std::vector<float> expected = reference_blur(in, weights, s.radius);
    const std::string defines = "-D COURSE_POISON_LOCAL -D RADIUS=" + std::to_string(s.radius) +
                                " -D GROUP_W=" + std::to_string(s.group_w) + " -D GROUP_H=" + std::to_string(s.group_h);
    cl::Buffer weight_buffer(dc.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, weights.size() * sizeof(float),
                             const_cast<float*>(weights.data()));
    cl::Image2D image(dc.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, cl::ImageFormat(CL_RGBA, CL_UNORM_INT8),
                      width, height, 0, const_cast<std::uint8_t*>(in.pixels.data()));
    cl::Buffer buffer(dc.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in.pixels.size(),
                      const_cast<std::uint8_t*>(in.pixels.data()));
    cl::Buffer output(dc.context, CL_MEM_WRITE_ONLY, in.pixels.size());
    const std::pair<const char*, const char*> kernels[] = {
        {"image_blur.cl", "blur_image_direct"},          {"image_blur.cl", "blur_image_tile_one_loader"},
        {"image_blur.cl", "blur_image_tile_two_halves"}, {"cooperative_tile.cl", "blur_image_tile_cooperative"},
        {"buffer_blur.cl", "blur_buffer_direct"},        {"buffer_blur.cl", "blur_buffer_tiled"}};
    for (const auto& [file, name] : kernels) {
      // The two-halves load needs a work-item per pixel of the tile's top half.
      const int tile_w = s.group_w + 2 * s.radius, tile_h = s.group_h + 2 * s.radius;
      if (std::string(name) == "blur_image_tile_two_halves" && tile_w * ((tile_h + 1) / 2) > s.group_w * s.group_h)
        continue;
      CAPTURE(name);
      CAPTURE(s.radius);
      cl::Program program =
          course::build_course_program(dc, std::string("kernels/08_image_objects_and_samplers/") + file, defines);
      cl::Kernel kernel(program, name);
      if (std::string(file) == "buffer_blur.cl")
        kernel.setArg(0, buffer);
      else
        kernel.setArg(0, image);
      kernel.setArg(1, weight_buffer);
      kernel.setArg(2, output);
      kernel.setArg(3, width);
      kernel.setArg(4, height);
      dc.queue.enqueueNDRangeKernel(
          kernel, cl::NullRange, cl::NDRange(course::round_up(width, s.group_w), course::round_up(height, s.group_h)),
          cl::NDRange(s.group_w, s.group_h));
      std::vector<std::uint8_t> bytes(in.pixels.size());
      dc.queue.enqueueReadBuffer(output, CL_TRUE, 0, bytes.size(), bytes.data());
      const course::Comparison c =
          course::compare_images(std::vector<float>(bytes.begin(), bytes.end()), expected, width, height, 0.6, 4);
      CHECK_MESSAGE(c.ok(), c.describe());
    }
  }
}

TEST_CASE("lesson 08 runs and verifies with the suite's small image, or reports skipped") {
  const auto dir = std::filesystem::temp_directory_path() / "course-tests-08-run";
  const std::string command = std::string(COURSE_BUILD_DIR) +
                              "/lessons/lesson_08 --size 131x67 --repeat 2 --output-dir " + dir.string() +
                              " > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  if (WEXITSTATUS(status) == course::kExitSkipped) return;
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(std::filesystem::exists(dir / "blurred.png"));
  CHECK(std::filesystem::exists(dir / "detail.png"));
}

TEST_CASE("exercise 08 passes its check with the solution and fails it as shipped") {
  if (course_tests::skipped_without_solutions()) return;
  const int solution =
      course_tests::failed_cases("08", course::project_root() / "solutions/08_image_objects_and_samplers");
  if (solution < 0) return;  // no image support here
  CHECK(solution == 0);
  CHECK(course_tests::failed_cases("08", course::project_root() / "exercises/08_image_objects_and_samplers") > 0);
}

