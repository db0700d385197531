// Lesson 07: warps, divergence, latency hiding, occupancy and the work-group size, measured.
// Four sweeps turn the hardware model into numbers: the SIMD width and what a branch that splits
// inside it costs; how many work-items per compute unit hide memory latency; how local memory per
// work-group limits that; and which work-group shapes are legal and fast. Look at the ratio
// columns, where each line of the plots (<output-dir>/*.svg) levels off, and the "skipped" rows.
#include <iostream>

#include "course.hpp"
#include "lesson07.hpp"

namespace {

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
  std::cout << "SIMD width: " << width << " (from " << source << ")\n";
  if (sub_group > 0)
    std::cout << "  sub-group size for 256 work-items: " << sub_group << "\n";
  else
    std::cout << "  (no sub-groups on this device)\n";
  std::cout << "  CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: "
            << probe.getWorkGroupInfo<CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE>(dc.device) << "\n";
  return width;
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
    options.value("warp", "N", "SIMD width to lay the warp-uniform kernel out for (default: the device's)");
    options.example("./course run 07", "short sweeps on the default device");
    options.example("./course run 07 --device gpu --full --output-dir out/07_gpu", "the long sweeps on a GPU");
    options.parse(argc, argv);
    if (options.given("quick") && options.given("full")) throw course::UsageError("choose one of --quick and --full");
    lesson07::Setup setup;
    setup.full = options.given("full");
    setup.repeat = options.integer("repeat", 1, 1000);
    setup.output_dir = options.text("output-dir");
    const course::FilterSpec filter = course::read_filter(options, 8);

    // Step 1: the device, its limits, and its SIMD width.
    const course::DeviceContext dc = course::open_device(options.text("device"));
    course::GrayImage image = course::input_gray(options, dc);
    setup.dc = &dc;
    std::cout << "Device: " << course::describe(dc.entry) << ", " << dc.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>()
              << " compute units, " << (dc.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>() >> 10)
              << " KiB local memory per work-group\n";
    cl::Program probe_program =
        course::build_course_program(dc, "kernels/07_warps_and_occupancy/dependent_loads.cl", "-D ARITH=0");
    cl::Kernel probe(probe_program, "dependent_loads");
    setup.warp = report_simd_width(dc, probe);
    if (options.given("warp")) setup.warp = options.integer("warp", 1, 1024);
    if (setup.warp < 1) setup.warp = 1;
    course::ResultsTable table("Lesson 07 on " + course::describe(dc.entry) + (setup.full ? " (full)" : " (quick)"),
                               course::measure_copy_bandwidth(dc, image.pixels.size() * sizeof(float)));

    // Step 2: divergence. Same output, same arithmetic per element; only which work-items
    // share a branch differs.
    bool ok = lesson07::run_divergence(setup, image, table);

    // Step 3: latency hiding. Dependent loads with ARITH multiply-adds after each, swept over
    // the work-items each compute unit has to switch between.
    ok = lesson07::run_latency_hiding(setup, table) && ok;

    // Step 4: occupancy. The same kernel, more local memory per work-group: fewer groups fit.
    ok = lesson07::run_occupancy(setup, table) && ok;

    // Step 5: work-group sizes. Every shape is checked against the limits before launch, and
    // the one the program uses is chosen from the limits at run time.
    ok = lesson07::run_work_group_sweep(setup, image, filter, table) && ok;

    // Step 6: the report. Every point of every sweep was compared with the CPU.
    std::cout << "\n";
    table.print(std::cout);
    std::cout << "Tables (.md, .csv), plots (.svg) and images are in " << setup.output_dir << "\n";
    return ((ok && table.all_verified()) ? course::kExitOk : course::kExitVerificationFailed);
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
