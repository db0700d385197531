// Experiment 1: divergence. The same tone curves, applied by a kernel whose branch splits inside
// every SIMD group and by one whose branch splits only between groups, for 1 to 32 classes.
#include <algorithm>
#include <iostream>
#include <numeric>

#include "lesson07.hpp"
#include "plot_svg.hpp"

namespace lesson07 {

bool run_divergence(const Setup& s, const course::GrayImage& image, course::ResultsTable& table) {
  const course::DeviceContext& dc = *s.dc;
  // Long curves on a GPU keep even the one-class run bound by arithmetic rather than by memory.
  const int steps = s.full ? 256 : 64;
  std::vector<int> ways_list = {1, 2, 4, 8, 16, 32};
  if (s.full) ways_list.push_back(64);
  const int count = static_cast<int>(image.pixels.size());
  const std::size_t bytes = image.pixels.size() * sizeof(float);
  cl::Buffer input(dc.context, image.pixels.begin(), image.pixels.end(), true);
  cl::Buffer output(dc.context, CL_MEM_READ_WRITE, bytes);

  SweepTable sweep{"Divergence: " + std::to_string(count) + " elements, " + std::to_string(steps) +
                       " dependent multiply-adds per curve, SIMD width " + std::to_string(s.warp),
                   {"classes", "inside-warp ms", "between-warps ms", "inside / 1 class", "between / 1 class",
                    "predicted inside", "verified"},
                   {}};
  course::PlotSeries inside{"inside warps", {}, {}}, between{"between warps", {}, {}},
      predicted{"predicted inside", {}, {}};
  bool all_ok = true;
  double inside_one_class = 0, between_one_class = 0;
  for (const int ways : ways_list) {
    const std::string defines =
        "-D WAYS=" + std::to_string(ways) + " -D WARP=" + std::to_string(s.warp) + " -D STEPS=" + std::to_string(steps);
    cl::Program program = course::build_course_program(dc, "kernels/07_warps_and_occupancy/divergence.cl", defines);
    const std::vector<float> expected = class_curves_reference(image.pixels, ways, steps);
    double ms[2] = {0, 0};
    bool ok[2] = {false, false};
    const char* names[2] = {"branch_inside_warp", "branch_between_warps"};
    for (int variant = 0; variant < 2; ++variant) {
      cl::Kernel kernel(program, names[variant]);
      // Work-groups of whole SIMD groups (so that "a warp" is WARP consecutive work-items), as
      // many as the kernel allows up to 256.
      const std::size_t limit =
          std::min<std::size_t>(256, kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device));
      const std::size_t local = limit >= std::size_t(s.warp) ? limit / s.warp * s.warp : limit;
      // The re-dealt kernel covers elements a whole round of WARP * WAYS work-items at a time.
      const std::size_t span = variant == 0 ? 1 : std::size_t(s.warp) * ways;
      const std::size_t global = course::round_up(count, std::lcm(local, span));
      kernel.setArg(0, input);
      kernel.setArg(1, output);
      kernel.setArg(2, count);
      std::vector<float> nan(image.pixels.size(), std::nanf(""));
      dc.queue.enqueueWriteBuffer(output, CL_TRUE, 0, bytes, nan.data());
      cl::CommandQueue queue = dc.queue;
      const course::Timing t = course::time_events(
          queue,
          [&] {
            cl::Event e;
            queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global), cl::NDRange(local), nullptr, &e);
            return std::vector<cl::Event>{e};
          },
          s.repeat);
      std::vector<float> got(image.pixels.size());
      dc.queue.enqueueReadBuffer(output, CL_TRUE, 0, bytes, got.data());
      const course::Comparison c = course::compare_images(got, expected, image.width, image.height, 1e-3);
      ms[variant] = t.device_ms;
      ok[variant] = c.ok();
      if (!c.ok()) std::cout << "  " << names[variant] << ", " << ways << " classes: " << c.describe() << "\n";
      if (ways == ways_list.back() || ways == 4) {
        course::ResultRow row{
            std::string(variant == 0 ? "divergent, " : "warp-uniform, ") + std::to_string(ways) + " classes",
            t.device_ms,
            -1,
            double(count),
            2.0 * bytes,
            c.max_abs_error,
            c.ok()};
        table.add(row);
      }
      if (variant == 1 && ways == 4)
        course::save_png(std::filesystem::path(s.output_dir) / "07_class_curves_4.png",
                         course::GrayImage{image.width, image.height, got});
    }
    if (ways == 1) inside_one_class = ms[0], between_one_class = ms[1];
    const double serial = std::min(ways, s.warp);
    sweep.rows.push_back({std::to_string(ways), fixed(ms[0], 3), fixed(ms[1], 3), fixed(ms[0] / inside_one_class, 2),
                          fixed(ms[1] / between_one_class, 2), fixed(serial, 0), ok[0] && ok[1] ? "yes" : "NO"});
    inside.x.push_back(ways), inside.y.push_back(ms[0]);
    between.x.push_back(ways), between.y.push_back(ms[1]);
    predicted.x.push_back(ways), predicted.y.push_back(inside_one_class * serial);
    all_ok = all_ok && ok[0] && ok[1];
  }
  sweep.print();
  sweep.save(s.output_dir, "divergence");
  course::save_svg(std::filesystem::path(s.output_dir) / "divergence.svg", {"Divergence: kernel time against classes",
                                                                            "classes (different branches)",
                                                                            "kernel ms",
                                                                            true,
                                                                            true,
                                                                            {inside, between, predicted}});
  return all_ok;
}

}  // namespace lesson07
