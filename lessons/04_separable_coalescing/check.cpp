// Exercise 04's cases: the coalesced column pass against the CPU reference, for every radius the
// kernel allows (0..16), Gaussian, box and lopsided weights, random images whose sizes no work-group
// divides, several work-group shapes, local memory poisoned with NaN, guard bands around output.
#include <string>
#include <vector>

#include "checker.hpp"
#include "course.hpp"
#include "separable_host.hpp"

namespace {

void check_column_pass(course::ExerciseCheck& check) {
  const course::DeviceContext& dc = check.device();
  struct Shape {
    int w, h;
  };
  const Shape shapes[] = {{32, 16}, {16, 8}, {8, 4}, {64, 2}, {3, 5}};
  struct Size {
    int w, h;
  };
  const Size sizes[] = {{131, 63}, {1, 29}, {37, 1}, {61, 43}, {1, 1}, {17, 101}, {160, 3}, {97, 61}};
  std::uint32_t seed = 40;
  for (int radius = 0; radius <= 16; ++radius) {
    const Shape shape = shapes[radius % 5];
    const Size size = sizes[radius % 8];
    // Lopsided weights catch a window read the wrong way round, which symmetric ones hide.
    const std::string kind = radius % 3 == 0 ? "gaussian" : radius % 3 == 1 ? "box" : "lopsided";
    const std::vector<float> weights = kind == "gaussian"
                                           ? course::gaussian_weights(radius, std::max(0.5, radius / 2.0))
                                       : kind == "box" ? course::box_weights(radius)
                                                       : course::lopsided_weights(radius);
    const std::string name = kind + " r=" + std::to_string(radius) + ", " + std::to_string(size.w) + "x" +
                             std::to_string(size.h) + " image, " + std::to_string(shape.w) + "x" +
                             std::to_string(shape.h) + " work-groups";
    cl::Program program =
        check.build("column_pass_coalesced.cl", "-D COURSE_POISON_LOCAL -D COL_W=" + std::to_string(shape.w) +
                                                    " -D COL_H=" + std::to_string(shape.h));
    check.run_case(name, [&] {
      cl::Kernel kernel(program, "column_pass_coalesced");
      if (kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device) < std::size_t(shape.w * shape.h))
        return check.pass(name, "skipped: the device allows fewer work-items per group");
      const course::GrayImage image = course::random_gray(size.w, size.h, seed++);
      const std::size_t count = image.pixels.size();
      course::GuardedBuffer input(dc, count), output(dc, count);
      input.write(image.pixels);
      cl::Buffer taps(dc.context, weights.begin(), weights.end(), true);
      kernel.setArg(0, input.buffer());
      kernel.setArg(1, output.buffer());
      kernel.setArg(2, taps);
      kernel.setArg(3, size.w);
      kernel.setArg(4, size.h);
      kernel.setArg(5, radius);
      dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(course::round_up(size.w, shape.w), course::round_up(size.h, shape.h)), cl::NDRange(shape.w, shape.h));
      dc.queue.finish();
      if (const std::string damage = output.damaged_guards(); !damage.empty()) return check.fail(name, damage);
      const course::GrayImage expected = course::correlate_separable(image, {1.0f}, weights);
      check.expect_image(name, output.read(), expected.pixels, size.w, size.h, 2e-3);
    });
  }
}

}  // namespace

COURSE_EXERCISE("04", "04_separable_coalescing",
                "the coalesced column pass: loading the tile with its halo, and the barrier", check_column_pass);
