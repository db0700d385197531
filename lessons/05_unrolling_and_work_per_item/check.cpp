// Exercise 05's cases: the row pass with STEPS outputs per work-item spread ROW_W apart, for every
// radius from 0 to 16 (each one a new build, since the radius is a compile-time constant),
// several outputs-per-work-item counts (spans that divide no image width among them), several
// work-group shapes, Gaussian, box and lopsided weights, random images of odd sizes, local
// memory poisoned with NaN, and guard bands around the input, the weights and the output.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "checker.hpp"
#include "course.hpp"
#include "separable_host.hpp"

namespace {

// The row pass on the CPU: out(x, y) = sum over k of w[k + R] * in(x + k, y), columns clamped.
std::vector<float> row_pass_reference(const course::GrayImage& in, const std::vector<float>& weights, int radius) {
  std::vector<float> out(in.pixels.size());
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      double sum = 0;
      for (int k = -radius; k <= radius; ++k) sum += weights[k + radius] * in.at(std::clamp(x + k, 0, in.width - 1), y);
      out[static_cast<std::size_t>(y) * in.width + x] = static_cast<float>(sum);
    }
  return out;
}

// The typical mistakes: the weights read the wrong way round, and a line one value short (the
// poison NaN of its missing last value reaches the last output of every span).
std::vector<course::Mistake> row_mistakes(const course::GrayImage& in, const std::vector<float>& weights, int radius,
                                          int span) {
  return {
      {"weights flipped",
       "The window is read the wrong way round: output x takes weights[k + RADIUS] * in(x + k), not weights[RADIUS - "
       "k].",
       [&in, weights, radius] {
         return row_pass_reference(in, std::vector<float>(weights.rbegin(), weights.rend()), radius);
       }},
      {"line one value short",
       "The line is one value short: a span of ROW_W * STEPS outputs reads ROW_W * STEPS + 2 * RADIUS values, so the "
       "span's last output reads a value never copied.",
       [&in, weights, radius, span] {
         std::vector<float> out = row_pass_reference(in, weights, radius);
         for (int y = 0; y < in.height; ++y)
           for (int x = span - 1; x < in.width; x += span) out[static_cast<std::size_t>(y) * in.width + x] = NAN;
         return out;
       }},
  };
}

void check_row_pass_spread_steps(course::ExerciseCheck& check) {
  const course::DeviceContext& dc = check.device();
  struct Size {
    int w, h;
  };
  const Size sizes[] = {{131, 67}, {1, 29}, {37, 1}, {61, 43}, {1, 1}, {301, 7}, {17, 101}, {64, 3}};
  const int steps_choices[] = {4, 1, 8, 3, 5};
  const int groups[][2] = {{16, 4}, {8, 8}, {32, 1}, {1, 16}, {5, 3}, {64, 2}};
  std::uint32_t seed = 50;
  for (int radius = 0; radius <= 16; ++radius) {
    const int steps = steps_choices[radius % 5];
    const Size size = sizes[radius % 8];
    const int row_w = groups[radius % 6][0], row_h = groups[radius % 6][1];
    // Lopsided weights catch a window read the wrong way round, which symmetric ones hide.
    const std::string kind = radius % 3 == 0 ? "gaussian" : radius % 3 == 1 ? "box" : "lopsided";
    const std::vector<float> weights = kind == "gaussian"
                                           ? course::gaussian_weights(radius, std::max(0.5, radius / 2.0))
                                       : kind == "box" ? course::box_weights(radius)
                                                       : course::lopsided_weights(radius);
    const std::string name = kind + " r=" + std::to_string(radius) + ", " + std::to_string(steps) +
                             " outputs per work-item, " + std::to_string(size.w) + "x" + std::to_string(size.h) +
                             " image, " + std::to_string(row_w) + "x" + std::to_string(row_h) +
                             " work-groups (spans of " + std::to_string(row_w * steps) + " outputs)";
    cl::Program program = check.build("row_pass_spread_steps.cl",
                                      "-D COURSE_POISON_LOCAL -D RADIUS=" + std::to_string(radius) +
                                          " -D STEPS=" + std::to_string(steps) + " -D ROW_W=" + std::to_string(row_w) +
                                          " -D ROW_H=" + std::to_string(row_h));
    check.run_case(name, [&] {
      cl::Kernel kernel(program, "row_pass_spread_steps");
      if (kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device) < static_cast<std::size_t>(row_w * row_h))
        return check.pass(name, "skipped: the device allows fewer work-items per group");
      const course::GrayImage image = course::random_gray(size.w, size.h, seed++);
      const std::size_t count = image.pixels.size();
      course::GuardedBuffer input(dc, count), taps(dc, weights.size()), output(dc, count);
      input.write(image.pixels);
      taps.write(weights);
      kernel.setArg(0, input.buffer());
      kernel.setArg(1, output.buffer());
      kernel.setArg(2, taps.buffer());
      kernel.setArg(3, size.w);
      kernel.setArg(4, size.h);
      // One group per span of ROW_W * STEPS outputs along a row, each ROW_W work-items wide.
      const std::size_t spans = (size.w + row_w * steps - 1) / (row_w * steps);
      const std::size_t global_y = course::round_up(size.h, row_h);
      // One run on an output of NaN (again when the report runs the kernel a second time).
      const auto run = [&] {
        output.write(std::vector<float>(count, NAN));
        dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(spans * row_w, global_y),
                                      cl::NDRange(row_w, row_h));
        dc.queue.finish();
        return output.read();
      };
      const std::vector<float> got = run();
      if (const std::string damage = output.damaged_guards(); !damage.empty()) return check.fail(name, damage);
      course::CaseDetails details(row_mistakes(image, weights, radius, row_w * steps));
      details.rerun = run;
      details.work_groups = spans * (global_y / row_h);
      check.expect_image(name, got, row_pass_reference(image, weights, radius), size.w, size.h, 2e-3, 1, details);
    });
  }
}

}  // namespace

COURSE_EXERCISE("05", "05_unrolling_and_work_per_item",
                "several outputs per work-item, spread for coalesced stores, with a compile-time radius",
                check_row_pass_spread_steps);
