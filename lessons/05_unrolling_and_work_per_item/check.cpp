// Exercise 05's cases: the multi-output column pass for every radius from 0 to 16 (each one a
// new build, since the radius is a compile-time constant), several outputs-per-work-item counts
// (including ones that divide no image height), Gaussian, box and lopsided weights, random images of odd
// sizes, several work-group shapes, and guard bands around the output.
#include <string>
#include <vector>

#include "checker.hpp"
#include "course.hpp"
#include "separable_host.hpp"

namespace {

void check_column_pass_steps(course::ExerciseCheck& check) {
  const course::DeviceContext& dc = check.device();
  struct Size {
    int w, h;
  };
  const Size sizes[] = {{131, 67}, {1, 29}, {37, 1}, {61, 43}, {1, 1}, {17, 101}, {64, 3}};
  const int steps_choices[] = {4, 1, 8, 3, 5};
  const std::size_t groups[][2] = {{16, 4}, {8, 8}, {32, 1}, {1, 16}, {5, 3}, {64, 2}};
  std::uint32_t seed = 50;
  for (int radius = 0; radius <= 16; ++radius) {
    const int steps = steps_choices[radius % 5];
    const Size size = sizes[radius % 7];
    // Lopsided weights catch a window read the wrong way round, which symmetric ones hide.
    const std::string kind = radius % 3 == 0 ? "gaussian" : radius % 3 == 1 ? "box" : "lopsided";
    const std::vector<float> weights = kind == "gaussian"
                                           ? course::gaussian_weights(radius, std::max(0.5, radius / 2.0))
                                       : kind == "box" ? course::box_weights(radius)
                                                       : course::lopsided_weights(radius);
    cl::Program program =
        check.build("column_pass_steps.cl", "-D COURSE_POISON_LOCAL -D RADIUS=" + std::to_string(radius) +
                                                " -D STEPS=" + std::to_string(steps));
    cl::Kernel kernel(program, "column_pass_steps");
    const std::size_t kernel_max = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
    const std::size_t lx = std::min(groups[radius % 6][0], kernel_max);
    const std::size_t ly = std::max<std::size_t>(1, std::min(groups[radius % 6][1], kernel_max / lx));
    const std::string name = kind + " r=" + std::to_string(radius) + ", " + std::to_string(steps) +
                             " outputs per work-item, " + std::to_string(size.w) + "x" + std::to_string(size.h) +
                             " image, " + std::to_string(lx) + "x" + std::to_string(ly) + " work-groups";
    check.run_case(name, [&] {
      const course::GrayImage image = course::random_gray(size.w, size.h, seed++);
      course::GuardedBuffer input(dc, image.pixels.size()), output(dc, image.pixels.size());
      input.write(image.pixels);
      cl::Buffer taps(dc.context, weights.begin(), weights.end(), true);
      kernel.setArg(0, input.buffer());
      kernel.setArg(1, output.buffer());
      kernel.setArg(2, taps);
      kernel.setArg(3, size.w);
      kernel.setArg(4, size.h);
      const std::size_t rows_of_work_items = (size.h + steps - 1) / steps;
      dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(course::round_up(size.w, lx), course::round_up(rows_of_work_items, ly)), cl::NDRange(lx, ly));
      dc.queue.finish();
      if (const std::string damage = output.damaged_guards(); !damage.empty()) return check.fail(name, damage);
      const course::GrayImage expected = course::correlate_separable(image, {1.0f}, weights);
      check.expect_image(name, output.read(), expected.pixels, size.w, size.h, 2e-3);
    });
  }
}

}  // namespace

COURSE_EXERCISE("05", "05_unrolling_and_work_per_item", "several outputs per work-item, with a compile-time radius",
                check_column_pass_steps);
