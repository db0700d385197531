// Lesson 07: warps, divergence, latency hiding, occupancy and the work-group size, measured.
// Four sweeps turn the hardware model into numbers: the SIMD width and what a branch that splits
// inside it costs; how many work-items per compute unit hide memory latency; how local memory per
// work-group limits that; and which work-group shapes are legal and fast. A fifth experiment
// passes a row filter's window between the work-items of a sub-group (shuffles), where the
// device offers them. Look at the ratio columns, where each line of the plots
// (<output-dir>/*.svg) levels off, and the "skipped" rows.
#include <algorithm>
#include <iostream>
#include <numeric>

#include "course.hpp"
#include "lesson07.hpp"
#include "plot_svg.hpp"

namespace {

using lesson07::class_curves_reference;
using lesson07::fixed;
using lesson07::SweepTable;

// The SIMD width, from the most direct source the device offers (see the lesson's page).
int report_simd_width(const course::DeviceContext& dc, const cl::Kernel& probe) {
  std::string source;
  int width = course::simd_width(dc.device, &probe, &source);
  // Sub-groups (OpenCL 2.1+ or cl_khr_subgroups) expose the hardware's grouping directly, so
  // they beat the preferred multiple when NVIDIA's warp-size query is not there.
  cl_uint max_sub_groups = 0;
  std::size_t sub_group = 0;
  if (clGetDeviceInfo(dc.device(), CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof max_sub_groups, &max_sub_groups, nullptr) ==
          CL_SUCCESS &&
      max_sub_groups > 0) {
    const std::size_t local = 256;
    if (clGetKernelSubGroupInfo(probe(), dc.device(), CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, &local,
                                sizeof sub_group, &sub_group, nullptr) != CL_SUCCESS)
      sub_group = 0;
  }
  if (sub_group > 0 && source != "CL_DEVICE_WARP_SIZE_NV") {
    width = static_cast<int>(sub_group);
    source = "CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, for 256 work-items";
  }
  std::cout << course::wrap("SIMD width: " + std::to_string(width) + " (from " + source + ")");
  if (sub_group > 0)
    std::cout << "  sub-group size for 256 work-items: " << sub_group << "\n";
  else
    std::cout << "  (no sub-groups on this device)\n";
  std::cout << "  CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: "
            << probe.getWorkGroupInfo<CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE>(dc.device) << "\n";
  return width;
}

// Experiment 1: divergence. The same tone curves, applied by a kernel whose branch splits inside
// every SIMD group and by one whose branch splits only between groups, for 1 to 32 classes.
bool run_divergence(const lesson07::Setup& s, const course::GrayImage& image, course::ResultsTable& table) {
  const course::DeviceContext& dc = *s.dc;
  // Long curves on a GPU keep even the one-class run bound by arithmetic rather than by memory.
  const int steps = s.full ? 256 : 64;
  std::vector<int> ways_list = s.once ? std::vector<int>{1} : std::vector<int>{1, 2, 4, 8, 16, 32};
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
      table.running(std::string(names[variant]) + ", " + std::to_string(ways) + " classes");
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
      cl::CommandQueue queue = dc.queue;
      course::poison_output(queue, output, bytes, course::PixelType::f32);
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
      course::RowWork work;
      work.variant = std::string(variant == 0 ? "divergent, " : "warp-uniform, ") + std::to_string(ways) + " classes";
      work.pixels = double(count);
      work.bytes = 2.0 * bytes;
      work.flops = 2.0 * steps * count;  // the curve's multiply-adds, whichever work-item runs them
      // The warp-uniform kernel against the divergent one with the same classes.
      work.baseline = variant == 0 ? "-" : "divergent, " + std::to_string(ways) + " classes";
      const course::ResultRow row = course::result_row(
          work, t, -1, course::compare_images(got, expected, image.width, image.height, 1e-3), std::cout);
      ms[variant] = row.kernel_ms;
      ok[variant] = row.verified;
      if (ways == ways_list.back() || ways == 4) table.add(row);
      if (variant == 1 && ways == 4)
        course::save_png(std::filesystem::path(s.output_dir) / "07_class_curves_4.png",
                         course::GrayImage{image.width, image.height, got});
    }
    if (ways == 1) inside_one_class = ms[0], between_one_class = ms[1];
    const double serial = std::min(ways, s.warp);
    sweep.rows.push_back({std::to_string(ways), fixed(ms[0], 3), fixed(ms[1], 3), fixed(ms[0] / inside_one_class, 2),
                          fixed(ms[1] / between_one_class, 2), fixed(serial, 0), ok[0] && ok[1] ? "yes" : "NO"});
    sweep.recorded.push_back(lesson07::sweep_row("classes_" + std::to_string(ways), NAN, ok[0] && ok[1]));
    inside.x.push_back(ways), inside.y.push_back(ms[0]);
    between.x.push_back(ways), between.y.push_back(ms[1]);
    predicted.x.push_back(ways), predicted.y.push_back(inside_one_class * serial);
    all_ok = all_ok && ok[0] && ok[1];
  }
  table.end_progress();
  sweep.drop_order = {5, 1, 2};  // the prediction first, then the times the ratios come from
  sweep.print(s.output_dir, "divergence", table.roof());
  sweep.save(s.output_dir, "divergence");
  course::save_svg(std::filesystem::path(s.output_dir) / "divergence.svg", {"Divergence: kernel time against classes",
                                                                            "classes (different branches)",
                                                                            "kernel ms",
                                                                            true,
                                                                            true,
                                                                            {inside, between, predicted}});
  return all_ok;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    // Step 0: options. The default run is the short sweep (for the tour on a laptop); --full is
    // the long one, meant for a GPU.
    course::Options options("./course run 07",
                            "Warps, divergence, latency hiding, occupancy and work-group sizes, measured.");
    course::add_image_options(options, "07_warps_and_occupancy");
    course::add_filter_options(options, 3);
    options.flag("quick", "short sweeps (the default; kept for scripts)");
    options.flag("full", "long sweeps with large data: minutes on a CPU, seconds on a GPU");
    options.value("sweep-mib", "MiB", "data the latency and occupancy sweeps load (default 8, 128 with --full)");
    options.value("warp", "N", "SIMD width to lay the warp-uniform kernel out for (default: the device's)");
    options.example("./course run 07", "short sweeps on the default device");
    options.example("./course run 07 --device gpu --full --output-dir out/07_gpu", "the long sweeps on a GPU");
    options.parse(argc, argv);
    if (options.given("quick") && options.given("full")) throw course::UsageError("choose one of --quick and --full");
    lesson07::Setup setup;
    setup.full = options.given("full");
    setup.once = course::run_once();
    setup.repeat = options.integer("repeat", 1, 1000);
    setup.loads = std::size_t(1) << (setup.full ? 25 : setup.once ? 12 : 21);
    if (options.given("sweep-mib")) setup.loads = std::size_t(options.integer("sweep-mib", 8, 4096)) << 18;
    setup.output_dir = options.text("output-dir");
    const course::FilterSpec filter = course::read_filter(options, 8);

    // Step 1: the device, its limits, and its SIMD width.
    const course::DeviceContext dc = course::open_device(options.text("device"));
    course::GrayImage image = course::input_gray(options, dc);
    setup.dc = &dc;
    std::cout << course::wrap("Device: " + course::describe(dc.entry) + ", " +
                              std::to_string(dc.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>()) + " compute units, " +
                              std::to_string(dc.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>() >> 10) +
                              " KiB local memory per work-group");
    cl::Program probe_program =
        course::build_course_program(dc, "kernels/07_warps_and_occupancy/dependent_loads.cl", "-D ARITH=0");
    cl::Kernel probe(probe_program, "dependent_loads");
    setup.warp = report_simd_width(dc, probe);
    if (options.given("warp")) setup.warp = options.integer("warp", 1, 1024);
    if (setup.warp < 1) setup.warp = 1;
    // What each kernel takes from a compute unit: the numbers occupancy is computed from.
    const std::string steps = setup.full ? "256" : "64", folder = "kernels/07_warps_and_occupancy/";
    const std::string ways = "-D WAYS=32 -D WARP=" + std::to_string(setup.warp) + " -D STEPS=" + steps;
    const std::string radius = "-D RADIUS=" + std::to_string(filter.radius);
    std::vector<course::KernelResources> kernels = {
        course::kernel_resources(dc, folder + "divergence.cl", ways, "branch_inside_warp"),
        course::kernel_resources(dc, folder + "divergence.cl", ways, "branch_between_warps"),
        course::kernel_resources(dc, folder + "dependent_loads.cl", "-D ARITH=8", "dependent_loads"),
        course::kernel_resources(dc, folder + "tiled_convolution.cl", radius, "tiled_convolution")};
    // The tiled convolution again, built with a required work-group size of 32x32
    // (reqd_work_group_size): does the driver's own limit on work-items move with it?
    if (lesson07::device_allows_32x32(dc.device)) {
      kernels.push_back(course::kernel_resources(dc, folder + "tiled_convolution.cl", radius + lesson07::kRequired32x32,
                                                 "tiled_convolution"));
      kernels.back().name += ", reqd 32x32";
    }
    lesson07::print_kernel_resources(kernels, dc.device, setup.output_dir);
    course::ResultsTable table("Lesson 07 on " + course::describe(dc.entry) + (setup.full ? " (full)" : " (quick)"),
                               course::measure_roofline(dc));

    // Step 2: divergence. Same output, same arithmetic per element; only which work-items
    // share a branch differs.
    bool ok = run_divergence(setup, image, table);

    // Step 3: latency hiding. Dependent loads with ARITH multiply-adds after each, swept over
    // the work-items each compute unit has to switch between.
    ok = lesson07::run_latency_hiding(setup, table) && ok;

    // Step 4: occupancy. The same kernel, more local memory per work-group: fewer groups fit.
    ok = lesson07::run_occupancy(setup, table) && ok;

    // Step 5: work-group sizes. Every shape is checked against the limits before launch, and
    // the one the program uses is chosen from the limits at run time.
    ok = lesson07::run_work_group_sweep(setup, image, filter, table) && ok;

    // Step 6: sub-groups. A row filter's window from global memory, from local memory, and from
    // the sub-group's registers through shuffles, where the device offers them.
    ok = lesson07::run_sub_group_rung(setup, image, filter, table) && ok;

    // Step 7: the report. Every point of every sweep was compared with the CPU.
    std::cout << "\n";
    table.print(std::cout, std::filesystem::path(options.text("output-dir")) / "results.txt");
    std::cout << course::wrap("Tables (.md, .csv), plots (.svg) and images are in " + setup.output_dir);
    return ((ok && table.all_verified()) ? course::kExitOk : course::kExitVerificationFailed);
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
