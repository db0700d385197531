// Exercise 04's cases: the coalesced column pass whose block of outputs is BLOCK_H rows high in
// groups COL_H work-items high, against the CPU reference: blocks shorter than the group, as high,
// higher by a whole multiple and by a remainder; every radius the kernel allows (0..16);
// Gaussian, box and lopsided weights; random images whose sizes no work-group or block divides;
// local memory poisoned with NaN; guard bands around the output.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "checker.hpp"
#include "course.hpp"
#include "separable_host.hpp"

namespace {

// The column pass on the CPU: out(x, y) = sum over k of w[k + R] * in(x, y + k), rows clamped.
std::vector<float> column_pass_reference(const course::GrayImage& in, const std::vector<float>& weights, int radius) {
  std::vector<float> out(in.pixels.size());
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      double sum = 0;
      for (int k = -radius; k <= radius; ++k)
        sum += weights[k + radius] * in.at(x, std::clamp(y + k, 0, in.height - 1));
      out[static_cast<std::size_t>(y) * in.width + x] = static_cast<float>(sum);
    }
  return out;
}

// The typical mistakes: the weights read the wrong way round, and a tile one row short (the poison
// NaN of its missing last row reaches the last output row of every block).
std::vector<course::Mistake> column_mistakes(const course::GrayImage& in, const std::vector<float>& weights, int radius,
                                             int block_h) {
  return {
      {"weights flipped",
       "The window is read the wrong way round: output y takes weights[k + radius] * in(y + k), not weights[radius - "
       "k].",
       [&in, weights, radius] {
         return column_pass_reference(in, std::vector<float>(weights.rbegin(), weights.rend()), radius);
       }},
      {"tile one row short",
       "The tile is one row short: a block of BLOCK_H outputs reads BLOCK_H + 2 * radius rows, so the block's last "
       "output row reads a row never copied.",
       [&in, weights, radius, block_h] {
         std::vector<float> out = column_pass_reference(in, weights, radius);
         for (int y = block_h - 1; y < in.height; y += block_h)
           std::fill_n(out.begin() + static_cast<std::size_t>(y) * in.width, in.width, NAN);
         return out;
       }},
  };
}

void check_column_pass_block(course::ExerciseCheck& check) {
  const course::DeviceContext& dc = check.device();
  struct Layout {
    int col_w, col_h, block_h;
    std::vector<int> radii;
  };
  // Between them the layouts take every radius from 0 to 16 once, and the largest twice.
  const Layout layouts[] = {{32, 4, 16, {0, 5, 11}}, {16, 8, 3, {1, 6, 12}}, {8, 4, 13, {2, 7, 13, 16}},
                            {16, 16, 16, {3, 8}},    {3, 5, 11, {4, 9, 14}}, {64, 2, 1, {10, 16}},
                            {16, 8, 40, {15}}};
  struct Size {
    int w, h;
  };
  const Size sizes[] = {{131, 63}, {1, 29}, {37, 1}, {61, 43}, {1, 1}, {17, 101}, {160, 3}, {97, 61}};
  std::uint32_t seed = 40;
  int n = 0;
  for (const Layout& layout : layouts) {
    const std::string defines = " -D COL_W=" + std::to_string(layout.col_w) +
                                " -D COL_H=" + std::to_string(layout.col_h) +
                                " -D BLOCK_H=" + std::to_string(layout.block_h);
    cl::Program program = check.build("column_pass_block.cl", "-D COURSE_POISON_LOCAL" + defines);
    for (int radius : layout.radii) {
      const Size size = sizes[n % 8];
      // Lopsided weights catch a window read the wrong way round, which symmetric ones hide.
      const std::string kind = n % 3 == 0 ? "gaussian" : n % 3 == 1 ? "box" : "lopsided";
      ++n;
      const std::vector<float> weights = kind == "gaussian"
                                             ? course::gaussian_weights(radius, std::max(0.5, radius / 2.0))
                                         : kind == "box" ? course::box_weights(radius)
                                                         : course::lopsided_weights(radius);
      const std::string name = kind + " r=" + std::to_string(radius) + ", " + std::to_string(size.w) + "x" +
                               std::to_string(size.h) + " image, " + std::to_string(layout.col_w) + "x" +
                               std::to_string(layout.col_h) + " work-groups computing " + std::to_string(layout.col_w) +
                               "x" + std::to_string(layout.block_h) + " blocks";
      check.run_case(name, [&] {
        cl::Kernel kernel(program, "column_pass_block");
        if (kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device) <
            static_cast<std::size_t>(layout.col_w * layout.col_h))
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
        kernel.setArg(5, radius);
        // One group per BLOCK_H rows of the image, each COL_H work-items high.
        const std::size_t groups_down = (size.h + layout.block_h - 1) / layout.block_h;
        const std::size_t global_x = course::round_up(size.w, layout.col_w);
        // One run on an output of NaN (again when the report runs the kernel a second time).
        const auto run = [&] {
          output.write(std::vector<float>(count, NAN));
          dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global_x, groups_down * layout.col_h),
                                        cl::NDRange(layout.col_w, layout.col_h));
          dc.queue.finish();
          return output.read();
        };
        const std::vector<float> got = run();
        if (const std::string damage = output.damaged_guards(); !damage.empty()) return check.fail(name, damage);
        course::CaseDetails details(column_mistakes(image, weights, radius, layout.block_h));
        details.rerun = run;
        details.work_groups = global_x / layout.col_w * groups_down;
        check.expect_image(name, got, column_pass_reference(image, weights, radius), size.w, size.h, 2e-3, 1, details);
      });
    }
  }
}

}  // namespace

COURSE_EXERCISE("04", "04_separable_coalescing",
                "the coalesced column pass for blocks taller or shorter than the group: origin, tile, outputs",
                check_column_pass_block);
