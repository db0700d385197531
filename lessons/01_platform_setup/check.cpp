// Exercise 01's cases: the invert kernel on random images whose sizes no work-group divides,
// with guard bands around the output to catch writes outside the image.
#include "checker.hpp"
#include "course.hpp"

#include <string>

namespace {

void check_invert(course::ExerciseCheck& check) {
  const course::DeviceContext& dc = check.device();
  cl::Program program = check.build("invert.cl");
  cl::Kernel invert(program, "invert");
  const std::size_t kernel_max = invert.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);

  struct Case {
    int width, height, local_x, local_y;
  };
  const Case cases[] = {{1, 1, 1, 1},   {1, 23, 4, 4},   {29, 1, 8, 2},     {37, 29, 8, 8},
                        {97, 61, 16, 4}, {256, 3, 16, 16}, {131, 67, 32, 1}, {5, 211, 1, 32}};
  std::uint32_t seed = 1;
  for (const Case& c : cases) {
    const std::size_t lx = std::min<std::size_t>(c.local_x, kernel_max);
    const std::size_t ly = std::max<std::size_t>(1, std::min<std::size_t>(c.local_y, kernel_max / lx));
    const std::string name = std::to_string(c.width) + "x" + std::to_string(c.height) + " image, " +
                             std::to_string(lx) + "x" + std::to_string(ly) + " work-groups";
    check.run_case(name, [&] {
      const course::GrayImage image = course::random_gray(c.width, c.height, seed++);
      course::GuardedBuffer input(dc, image.pixels.size()), output(dc, image.pixels.size());
      input.write(image.pixels);
      invert.setArg(0, input.buffer());
      invert.setArg(1, output.buffer());
      invert.setArg(2, c.width);
      invert.setArg(3, c.height);
      dc.queue.enqueueNDRangeKernel(invert, cl::NullRange, cl::NDRange(course::round_up(c.width, lx), course::round_up(c.height, ly)), cl::NDRange(lx, ly));
      dc.queue.finish();
      if (const std::string damage = output.damaged_guards(); !damage.empty()) return check.fail(name, damage);
      std::vector<float> expected(image.pixels.size());
      for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = 255.0f - image.pixels[i];
      check.expect_image(name, output.read(), expected, c.width, c.height, 0.0);
    });
  }
}

}  // namespace

COURSE_EXERCISE("01", "01_platform_setup", "the invert kernel: global ids, bounds check, row-major index", check_invert);
