// Experiment 5: sub-groups. A row filter whose window comes from global memory, from local
// memory, and from the registers of the sub-group through shuffles, where the device offers them
// (cl_khr_subgroup_shuffle); elsewhere one line says the shuffle rung is skipped.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

#include "lesson07.hpp"

namespace lesson07 {
namespace {

// A device's list of names with versions (OpenCL 3.0): its OpenCL C versions or features. Empty
// where the query does not exist (a driver older than 3.0 answers CL_INVALID_VALUE).
std::vector<cl_name_version> name_versions(const cl::Device& device, cl_device_info query) {
  std::size_t bytes = 0;
  if (clGetDeviceInfo(device(), query, 0, nullptr, &bytes) != CL_SUCCESS || bytes == 0) return {};
  std::vector<cl_name_version> list(bytes / sizeof(cl_name_version));
  if (clGetDeviceInfo(device(), query, bytes, list.data(), nullptr) != CL_SUCCESS) return {};
  return list;
}

bool has(const std::vector<std::string>& list, const std::string& name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

}  // namespace

SubGroupSupport sub_group_support(const std::vector<std::string>& extensions,
                                  const std::vector<std::string>& c_features, bool opencl_c_3) {
  SubGroupSupport s;
  // Sub-groups came as an extension (cl_khr_subgroups, OpenCL 2.0) and became an optional
  // feature of OpenCL C 3.0; a 3.0 device may offer them as the feature only (Mesa's rusticl does).
  const bool feature = opencl_c_3 && has(c_features, "__opencl_c_subgroups");
  if (!has(extensions, "cl_khr_subgroup_shuffle")) {
    s.missing = "sub-group shuffles (cl_khr_subgroup_shuffle)";
  } else if (!has(extensions, "cl_khr_subgroups") && !feature) {
    s.missing = "sub-groups (cl_khr_subgroups, or OpenCL C 3.0's __opencl_c_subgroups)";
  } else {
    s.shuffles = true;
    // The sub-group built-ins exist from OpenCL C 2.0 on: ask for the newest C the device takes.
    s.build_options = opencl_c_3 ? "-cl-std=CL3.0" : "-cl-std=CL2.0";
  }
  return s;
}

SubGroupSupport sub_group_support(const cl::Device& device) {
  std::vector<std::string> extensions, features;
  std::istringstream words(device.getInfo<CL_DEVICE_EXTENSIONS>());
  for (std::string word; words >> word;) extensions.push_back(word);
  for (const cl_name_version& f : name_versions(device, CL_DEVICE_OPENCL_C_FEATURES)) features.push_back(f.name);
  bool opencl_c_3 = false;
  for (const cl_name_version& v : name_versions(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS))
    opencl_c_3 = opencl_c_3 || CL_VERSION_MAJOR(v.version) >= 3;
  return sub_group_support(extensions, features, opencl_c_3);
}

std::string sub_group_skip_line(const SubGroupSupport& support) {
  return "sub-group rung skipped: this device offers no " + support.missing;
}

bool run_sub_group_rung(const Setup& s, const course::GrayImage& image, const course::FilterSpec& filter,
                        course::ResultsTable& table) {
  const course::DeviceContext& dc = *s.dc;
  const int width = image.width, height = image.height, r = filter.radius;
  const std::string radius = "-D RADIUS=" + std::to_string(r);
  const SubGroupSupport support = sub_group_support(dc.device);
  cl::Program program = course::build_course_program(dc, "kernels/07_warps_and_occupancy/row_filter.cl", radius);
  std::vector<std::pair<std::string, cl::Kernel>> kernels = {{"global loads", cl::Kernel(program, "row_filter_global")},
                                                             {"local memory", cl::Kernel(program, "row_filter_local")}};
  if (support.shuffles) {
    cl::Program shuffle = course::build_course_program(dc, "kernels/07_warps_and_occupancy/row_filter_shuffle.cl",
                                                       radius + " " + support.build_options);
    kernels.push_back({"sub-group shuffles", cl::Kernel(shuffle, "row_filter_shuffle")});
  }
  // One group width for all three, so that only where the window comes from differs: 128
  // work-items of one row, or what the most limited kernel allows.
  std::size_t group = 128;
  for (const auto& [name, kernel] : kernels)
    group = std::min(group, kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device));
  // The sub-group size the device picks for this group width (the kernel reads its own).
  std::size_t lanes = 0;
  if (support.shuffles &&
      clGetKernelSubGroupInfo(kernels.back().second(), dc.device(), CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                              sizeof group, &group, sizeof lanes, &lanes, nullptr) != CL_SUCCESS)
    lanes = 0;

  // The reference: the row pass of the separable filter, with a column pass that keeps the pixel.
  std::vector<float> keep(2 * r + 1, 0.0f);
  keep[r] = 1.0f;
  const course::GrayImage expected = course::correlate_separable(image, filter.weights, keep);
  const std::size_t bytes = image.pixels.size() * sizeof(float);
  cl::Buffer input(dc.context, image.pixels.begin(), image.pixels.end(), true);
  cl::Buffer output(dc.context, CL_MEM_READ_WRITE, bytes);
  cl::Buffer weights(dc.context, filter.weights.begin(), filter.weights.end(), true);

  SweepTable sweep{"Row filter, " + filter.describe() + ", " + std::to_string(width) + "x" + std::to_string(height) +
                       ", work-groups of " + std::to_string(group) +
                       (lanes > 0 ? ", sub-groups of " + std::to_string(lanes) : ""),
                   {"window from", "kernel ms", "MPix/s", "global reads per pixel", "verified"},
                   {}};
  // Reads of global memory per output pixel: the whole window; the line and its halo, shared by
  // the group; two per lane (more where sub-groups are narrower than the window).
  const std::string reads[3] = {std::to_string(2 * r + 1), fixed(double(group + 2 * r) / group, 2),
                                lanes == 0 || lanes >= std::size_t(2 * r) ? "2" : "more than 2"};
  bool all_ok = true;
  for (std::size_t v = 0; v < kernels.size(); ++v) {
    const std::string& name = kernels[v].first;
    cl::Kernel& kernel = kernels[v].second;
    kernel.setArg(0, input);
    kernel.setArg(1, output);
    kernel.setArg(2, weights);
    kernel.setArg(3, width);
    kernel.setArg(4, height);
    if (name == "local memory") kernel.setArg(5, cl::Local((group + 2 * r) * sizeof(float)));
    cl::CommandQueue queue = dc.queue;
    course::poison_output(queue, output, bytes, course::PixelType::f32);  // every output starts as NaN
    table.running("row filter, " + name);
    const course::Timing t = course::time_events(
        queue,
        [&] {
          cl::Event e;
          queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(course::round_up(width, group), height),
                                     cl::NDRange(group, 1), nullptr, &e);
          return std::vector<cl::Event>{e};
        },
        s.repeat);
    std::vector<float> got(image.pixels.size());
    dc.queue.enqueueReadBuffer(output, CL_TRUE, 0, bytes, got.data());
    course::RowWork work;
    work.variant = "row filter, " + name;
    work.pixels = double(width) * height;
    work.bytes = 2.0 * bytes;
    work.flops = 2.0 * (2 * r + 1) * width * height;
    work.baseline = v == 0 ? "-" : "row filter, global loads";
    const course::ResultRow row = course::result_row(
        work, t, -1, course::compare_images(got, expected.pixels, width, height, 1e-3), std::cout);
    table.add(row);
    sweep.rows.push_back({name, fixed(t.device_ms, 3), fixed(double(width) * height / (t.device_ms * 1e3), 1), reads[v],
                          row.verified ? "yes" : "NO"});
    all_ok = all_ok && row.verified;
  }
  table.end_progress();
  sweep.print(s.output_dir, "sub_group_row_filter");
  if (!support.shuffles) std::cout << course::wrap(sub_group_skip_line(support));
  sweep.save(s.output_dir, "sub_group_row_filter");
  return all_ok;
}

}  // namespace lesson07
