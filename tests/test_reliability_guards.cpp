// Kernels never touch memory outside their buffers: lesson 01's kernel, as the lesson ships it
// and as the exercise's solution, on buffers with guard bands, at sizes no work-group divides.
#include <doctest/doctest.h>

#include "checker.hpp"
#include "course.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace {

// Runs `invert` on a random width x height picture with every output and input guarded, and
// returns what the guards say ("" when untouched) after checking every pixel.
std::string run_invert_guarded(const course::DeviceContext& dc, cl::Kernel& invert, int width, int height,
                               std::size_t local_x, std::size_t local_y) {
  const course::GrayImage image = course::random_gray(width, height, static_cast<std::uint32_t>(width * 31 + height));
  course::GuardedBuffer input(dc, image.pixels.size()), output(dc, image.pixels.size());
  input.write(image.pixels);
  invert.setArg(0, input.buffer());
  invert.setArg(1, output.buffer());
  invert.setArg(2, width);
  invert.setArg(3, height);
  dc.queue.enqueueNDRangeKernel(invert, cl::NullRange,
                                cl::NDRange(course::round_up(width, local_x), course::round_up(height, local_y)),
                                cl::NDRange(local_x, local_y));
  dc.queue.finish();
  const std::vector<float> got = output.read();
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != 255.0f - image.pixels[i]) return "pixel " + std::to_string(i) + " is wrong";
  return input.damaged_guards() + output.damaged_guards();
}

}  // namespace

TEST_CASE("lesson 01's kernels write nothing outside their buffers at sizes no work-group divides") {
  // Exercise 01's kernel is another one (a crop of an RGB picture); its check guards its buffers.
  const course::DeviceContext dc = course::open_device("");
  for (const char* file : {"kernels/01_platform_setup/invert.cl"}) {
    CAPTURE(file);
    cl::Program program = course::build_course_program(dc, file);
    cl::Kernel invert(program, "invert");
    const std::size_t most = invert.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
    struct Shape {
      int width, height;
      std::size_t local_x, local_y;
    };
    for (const Shape& s : {Shape{1, 1, 16, 16}, Shape{1, 97, 8, 8}, Shape{97, 1, 32, 2}, Shape{131, 67, 16, 16},
                           Shape{61, 37, 1, 64}, Shape{509, 3, 64, 4}}) {
      const std::size_t lx = std::min(s.local_x, most), ly = std::max<std::size_t>(1, std::min(s.local_y, most / lx));
      CAPTURE(s.width);
      CAPTURE(s.height);
      CAPTURE(lx);
      CAPTURE(ly);
      CHECK(run_invert_guarded(dc, invert, s.width, s.height, lx, ly) == "");
    }
  }
}

TEST_CASE("the guard bands report a kernel that writes one row past the image") {
  // The same kernel without its bounds check on the last row: the guards must notice.
  const course::DeviceContext dc = course::open_device("");
  const std::string source =
      "__kernel void invert(__global const float* in, __global float* out, const int width, const int height) {\n"
      "  const int x = get_global_id(0), y = get_global_id(1);\n"
      "  if (x >= width || y > height) return;\n"  // off by one: y == height writes past the end
      "  out[y * width + x] = 255.0f - (y < height ? in[y * width + x] : 0.0f);\n"
      "}\n";
  cl::Program program(dc.context, source);
  program.build(std::vector<cl::Device>{dc.device});
  cl::Kernel invert(program, "invert");
  course::GuardedBuffer input(dc, 13 * 7), output(dc, 13 * 7);
  invert.setArg(0, input.buffer());
  invert.setArg(1, output.buffer());
  invert.setArg(2, 13);
  invert.setArg(3, 7);
  dc.queue.enqueueNDRangeKernel(invert, cl::NullRange, cl::NDRange(16, 8), cl::NDRange(8, 4));
  dc.queue.finish();
  const std::string damage = output.damaged_guards();
  CHECK(damage.find("the kernel wrote outside its buffer of 91 floats") != std::string::npos);
  CHECK(damage.find("13 values past its end (first at index 91)") != std::string::npos);
}
