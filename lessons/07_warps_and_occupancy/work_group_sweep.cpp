// Experiment 4: the work-group size. A tiled convolution launched with many shapes; shapes the
// device or kernel refuses are skipped with the reason, and a legal shape is chosen at run time.
#include <algorithm>
#include <iostream>
#include <map>

#include "lesson07.hpp"
#include "plot_svg.hpp"

namespace lesson07 {

bool device_allows_32x32(const cl::Device& device) {
  const auto items = device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  return device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>() >= 1024 && items.size() >= 2 && items[0] >= 32 &&
         items[1] >= 32;
}

bool run_work_group_sweep(const Setup& s, const course::GrayImage& image, const course::FilterSpec& filter,
                          course::ResultsTable& table) {
  const course::DeviceContext& dc = *s.dc;
  const int width = image.width, height = image.height, r = filter.radius;
  const std::string file = "kernels/07_warps_and_occupancy/tiled_convolution.cl",
                    radius = "-D RADIUS=" + std::to_string(r);
  cl::Program program = course::build_course_program(dc, file, radius);
  cl::Kernel plain(program, "tiled_convolution");

  // The limits, as the host must ask for them: the device's, then this kernel's on this device.
  const auto items = dc.device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  const std::size_t device_max = dc.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  const std::size_t plain_max = plain.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
  const std::size_t multiple = plain.getWorkGroupInfo<CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE>(dc.device);
  const std::size_t local_bytes =
      dc.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>() - plain.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(dc.device);
  // The same kernel built with a required work-group size of 32x32 (reqd_work_group_size): its
  // CL_KERNEL_WORK_GROUP_SIZE, beside the plain build's, says whether stating the size lifts the
  // driver's cap, and the sweep launches it in its one legal shape.
  cl::Kernel required;
  std::size_t required_max = 0;
  if (device_allows_32x32(dc.device)) {
    required = cl::Kernel(course::build_course_program(dc, file, radius + kRequired32x32), "tiled_convolution");
    required_max = required.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
  }
  std::cout << "\nWork-group limits for tiled_convolution (radius " << r << "):\n"
            << course::wrap("CL_DEVICE_MAX_WORK_GROUP_SIZE " + std::to_string(device_max) +
                                ", CL_DEVICE_MAX_WORK_ITEM_SIZES " + std::to_string(items[0]) + " x " +
                                std::to_string(items[1]) + " x " + std::to_string(items[2]),
                            80, "  ", "    ");
  std::string kernel_limits = "CL_KERNEL_WORK_GROUP_SIZE " + std::to_string(plain_max);
  if (required_max > 0) {
    // What the driver read of the attribute: the size the kernel was compiled for.
    const auto compiled = required.getWorkGroupInfo<CL_KERNEL_COMPILE_WORK_GROUP_SIZE>(dc.device);
    kernel_limits += " (built with reqd_work_group_size(32, 32, 1), compiled for " + std::to_string(compiled[0]) +
                     "x" + std::to_string(compiled[1]) + "x" + std::to_string(compiled[2]) + ": " +
                     std::to_string(required_max) + ")";
  }
  std::cout << course::wrap(kernel_limits, 80, "  ", "    ")
            << course::wrap("CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE " + std::to_string(multiple) +
                                ", local memory left for the tile " + std::to_string(local_bytes >> 10) + " KiB",
                            80, "  ", "    ");
  // The program's own choice, from those limits: 32x8 where allowed, smaller where not.
  const cl::NDRange fitted = course::fit_work_group(dc, plain, 32, 8);
  const struct { std::size_t x, y; } chosen{fitted[0], fitted[1]};
  std::cout << "  chosen at run time from the limits: " << chosen.x << "x" << chosen.y << "\n";

  struct Shape {
    std::size_t x, y;
    bool required;  // the build with reqd_work_group_size(32, 32, 1)
  };
  std::vector<std::pair<std::size_t, std::size_t>> shapes;
  if (s.full) {
    for (std::size_t x : {4, 8, 16, 32, 64, 128, 256, 512, 1024})
      for (std::size_t y : {1, 2, 4, 8, 16, 32, 64})
        if (x * y >= 16 && x * y <= 2048) shapes.push_back({x, y});
  } else if (!s.once) {  // (once: the program's own choice alone, below)
    // 128x64 is 8192 work-items, over PoCL's 4096 and a GPU's 1024 or 256: it shows a skipped row.
    shapes = {{8, 8}, {16, 4}, {16, 16}, {32, 4}, {32, 8}, {32, 32}, {64, 4}, {256, 1}, {64, 64}, {128, 64}};
  }
  if (std::find(shapes.begin(), shapes.end(), std::make_pair(chosen.x, chosen.y)) == shapes.end())
    shapes.push_back({chosen.x, chosen.y});
  std::sort(shapes.begin(), shapes.end(), [](auto a, auto b) {
    return a.first * a.second != b.first * b.second ? a.first * a.second < b.first * b.second : a.first < b.first;
  });

  const std::vector<float> weights = filter.weights_2d();
  const course::GrayImage expected = course::correlate_2d(image, weights, r);
  const std::size_t bytes = image.pixels.size() * sizeof(float);
  cl::Buffer input(dc.context, image.pixels.begin(), image.pixels.end(), true);
  cl::Buffer output(dc.context, CL_MEM_READ_WRITE, bytes);
  cl::Buffer weight_buffer(dc.context, weights.begin(), weights.end(), true);

  SweepTable sweep{"Work-group size: tiled convolution, " + filter.describe() + ", " + std::to_string(width) + "x" +
                       std::to_string(height),
                   {"shape", "work-items", "kernel ms", "MPix/s", "verified", "note"},
                   {}};
  std::map<std::size_t, course::PlotSeries> by_width;
  bool all_ok = true;
  course::ResultRow fastest, rule;
  std::string fastest_shape;
  std::vector<Shape> runs;
  for (const auto& [x, y] : shapes) runs.push_back({x, y, false});
  if (required_max > 0) runs.push_back({32, 32, true});
  for (const auto& [lx, ly, is_required] : runs) {
    const std::string shape = std::to_string(lx) + "x" + std::to_string(ly) + (is_required ? " reqd" : "");
    const std::string name = std::to_string(lx) + "x" + std::to_string(ly) + (is_required ? "_reqd" : "");  // recorded
    cl::Kernel& kernel = is_required ? required : plain;
    const std::size_t kernel_max = is_required ? required_max : plain_max;
    const std::size_t tile_bytes = (lx + 2 * r) * (ly + 2 * r) * sizeof(float);
    // The rules a launch must obey; breaking any is CL_INVALID_WORK_GROUP_SIZE (or
    // CL_OUT_OF_RESOURCES for local memory), so the sweep names the rule instead.
    std::string refused;
    if (lx > items[0] || ly > items[1])
      refused = "over CL_DEVICE_MAX_WORK_ITEM_SIZES";
    else if (lx * ly > device_max)
      refused = "over CL_DEVICE_MAX_WORK_GROUP_SIZE";
    else if (lx * ly > kernel_max)
      refused = "over CL_KERNEL_WORK_GROUP_SIZE";
    else if (tile_bytes > local_bytes)
      refused = "tile over the local memory";
    if (!refused.empty()) {
      sweep.rows.push_back({shape, std::to_string(lx * ly), "-", "-", "-", "skipped: " + refused});
      sweep.recorded.push_back(sweep_row(name, NAN, false));
      continue;
    }
    kernel.setArg(0, input);
    kernel.setArg(1, output);
    kernel.setArg(2, width);
    kernel.setArg(3, height);
    kernel.setArg(4, weight_buffer);
    kernel.setArg(5, cl::Local(tile_bytes));
    const cl::NDRange global(course::round_up(width, lx), course::round_up(height, ly));
    cl::CommandQueue queue = dc.queue;
    table.running("tiled convolution " + shape);
    course::Timing t;
    try {
      t = course::time_events(
          queue,
          [&] {
            cl::Event e;
            queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, cl::NDRange(lx, ly), nullptr, &e);
            return std::vector<cl::Event>{e};
          },
          s.repeat);
    } catch (const cl::Error& e) {
      // The limits above are what OpenCL promises; a runtime may still refuse (registers,
      // resources it does not report). That is worth a row, not the end of the sweep.
      sweep.rows.push_back({shape, std::to_string(lx * ly), "-", "-", "-",
                            std::string("refused at launch: ") + course::cl_error_name(e.err())});
      sweep.recorded.push_back(sweep_row(name, NAN, false));
      continue;
    }
    course::GrayImage got{width, height, std::vector<float>(image.pixels.size())};
    dc.queue.enqueueReadBuffer(output, CL_TRUE, 0, bytes, got.pixels.data());
    const course::Comparison c = course::compare_images(got.pixels, expected.pixels, width, height, 1e-3);
    const bool is_rule = !is_required && lx == chosen.x && ly == chosen.y;
    course::ResultRow row{"tiled convolution " + shape + (is_rule ? " (chosen)" : ""),
                          t.device_ms,
                          -1,
                          double(width) * height,
                          2.0 * bytes,
                          c.max_abs_error,
                          c.ok()};
    row.flops = 2.0 * (2 * filter.radius + 1) * (2 * filter.radius + 1) * width * height;
    row.spread(t).baseline = "-";
    if (is_rule) {
      rule = row;
      course::save_png(std::filesystem::path(s.output_dir) / "07_convolved.png", got);
    }
    if (fastest.variant.empty() || t.device_ms < fastest.kernel_ms) fastest = row, fastest_shape = shape;
    sweep.rows.push_back({shape, std::to_string(lx * ly), fixed(t.device_ms, 3),
                          fixed(double(width) * height / (t.device_ms * 1e3), 1), c.ok() ? "yes" : "NO",
                          is_rule       ? "chosen by the rule"
                          : is_required ? "built with reqd_work_group_size"
                                        : ""});
    sweep.recorded.push_back(sweep_row(name, t.device_ms, c.ok()).spread(t));
    sweep.recorded.back().bytes = 2.0 * bytes;
    all_ok = all_ok && c.ok();
    if (is_required) continue;  // the plot's lines are the plain build's
    auto& line = by_width[lx];
    line.name = std::to_string(lx) + " wide";
    line.x.push_back(double(lx * ly)), line.y.push_back(double(width) * height / (t.device_ms * 1e3));
  }
  for (auto& row : sweep.rows)
    if (row[0] == fastest_shape) row[5] += row[5].empty() ? "fastest" : ", fastest";
  table.end_progress();
  sweep.drop_order = {1, 3};  // the work-items (the shape's product) first, then MPix/s
  sweep.print(s.output_dir, "work_group_size", table.roof());
  sweep.save(s.output_dir, "work_group_size");
  course::LinePlot plot{"Work-group size: tiled convolution", "work-items per group", "MPix/s", true, true, {}};
  for (auto& [lx, line] : by_width) plot.series.push_back(line);
  course::save_svg(std::filesystem::path(s.output_dir) / "work_group_size.svg", plot);
  if (!rule.variant.empty()) table.add(rule);
  if (!fastest.variant.empty() && fastest.variant != rule.variant) {
    fastest.variant += " (fastest)";
    fastest.baseline = rule.variant;  // the fastest shape against the one the rule chose
    table.add(fastest);
  }
  return all_ok && !rule.variant.empty();
}

}  // namespace lesson07
