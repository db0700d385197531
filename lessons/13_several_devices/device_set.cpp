#include "device_set.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "record.hpp"

namespace lesson13 {
namespace {

const char* kKernels = "kernels/04_separable_coalescing/v1_global.cl";

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) parts.push_back(part);
  return parts;
}

// `whole` cut into `count` sub-devices of equal compute units (CL_DEVICE_PARTITION_EQUALLY).
std::vector<cl::Device> partition(const course::DeviceEntry& whole, int count) {
  const auto units = whole.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
  const cl_device_partition_property properties[] = {CL_DEVICE_PARTITION_EQUALLY,
                                                     static_cast<cl_device_partition_property>(units / count), 0};
  std::vector<cl::Device> parts;
  cl::Device root = whole.device;
  root.createSubDevices(properties, &parts);
  parts.resize(count);  // 3 units cut by 1 make 3; a remainder would make one more
  return parts;
}

// Whether the driver cuts `entry` into sub-devices of equal compute units at all (clinfo:
// "Supported partition types"; PoCL does, Mesa's llvmpipe and Oclgrind do not).
bool partitions_equally(const course::DeviceEntry& entry) {
  const auto kinds = entry.device.getInfo<CL_DEVICE_PARTITION_PROPERTIES>();
  return std::find(kinds.begin(), kinds.end(), CL_DEVICE_PARTITION_EQUALLY) != kinds.end();
}

// Whether a device that partitions equally has the compute units for `count` parts, and if not, why.
std::string why_not_partitioned(const course::DeviceEntry& entry, int count) {
  const auto units = entry.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
  const auto most = std::min<cl_uint>(units, entry.device.getInfo<CL_DEVICE_PARTITION_MAX_SUB_DEVICES>());
  if (static_cast<cl_uint>(count) > most)
    return course::describe(entry) + " has " + std::to_string(units) + " compute units and makes at most " +
           std::to_string(most) + " sub-devices";
  return "";
}

// The devices --devices names, each once.
std::vector<course::DeviceEntry> named_devices(const std::string& devices) {
  std::vector<course::DeviceEntry> chosen;
  for (const std::string& spec : split_commas(devices)) {
    if (spec.empty()) throw course::UsageError("--devices '" + devices + "' has an empty name between commas");
    const course::DeviceEntry entry = course::select_device(spec);
    for (const auto& earlier : chosen)
      if (earlier.device() == entry.device())
        throw course::UsageError("--devices names [" + std::to_string(entry.index) + "] " + course::describe(entry) +
                                 " twice ('" + spec + "'): a device computes one band. To share one CPU, use "
                                 "--split-cpu K");
    chosen.push_back(entry);
  }
  return chosen;
}

}  // namespace

std::vector<Worker> open_workers(const std::string& devices, int split_cpu, const std::string& device,
                                 const std::vector<float>& weights) {
  if (!devices.empty() && split_cpu > 0) throw course::UsageError("give --devices or --split-cpu, not both");
  std::vector<course::DeviceEntry> entries;
  std::vector<std::string> names;
  const char* env = std::getenv("COURSE_DEVICE");
  const bool device_chosen = !device.empty() || (env && *env);
  if (!devices.empty()) {
    entries = named_devices(devices);
  } else if (split_cpu == 0 && !device_chosen) {
    for (const auto& d : course::list_devices())
      if (d.type & CL_DEVICE_TYPE_GPU) entries.push_back(d);
    if (entries.size() < 2) entries.clear();
  }
  if (!entries.empty()) {
    for (const auto& e : entries) names.push_back("[" + std::to_string(e.index) + "] " + e.device_name);
  } else {
    // One device cut in sub-devices: --split-cpu K of them, by default two where it can be cut.
    const course::DeviceEntry whole = course::select_device(device_chosen ? device : "cpu");
    const int count = split_cpu > 0 ? split_cpu : 2;
    const bool cuttable = partitions_equally(whole);
    const std::string why = cuttable ? why_not_partitioned(whole, count) : "";
    if (!why.empty() && split_cpu > 0) throw course::UsageError("--split-cpu " + std::to_string(count) + ": " + why);
    if (!cuttable && split_cpu > 0) {
      // Asked for K parts of a device its driver cannot cut (Mesa's llvmpipe): the bands run on
      // queues of the one device, with the same split, halos and check; only the speed-up of more
      // compute units is missing. (Not by default, which runs such a device alone: Oclgrind, for
      // one, runs one kernel at a time.)
      std::cout << course::describe(whole) << "\ncannot be partitioned: its " << count << " bands run on " << count
                << " queues of the one device\n(no speed-up to expect).\n";
      for (int k = 0; k < count; ++k) {
        entries.push_back(whole);
        names.push_back("queue " + std::to_string(k) + " of [" + std::to_string(whole.index) + "]");
      }
    } else if (!cuttable || !why.empty()) {
      std::cout << (why.empty() ? course::describe(whole) + " cannot be partitioned" : why)
                << ": the lesson runs on it alone.\n";
      entries.push_back(whole);
      names.push_back("[" + std::to_string(whole.index) + "] " + whole.device_name);
    } else {
      for (std::size_t k = 0; k < std::size_t(count); ++k) names.push_back("sub-device " + std::to_string(k) + " of [" + std::to_string(whole.index) + "]");
      for (const cl::Device& part : partition(whole, count)) {
        course::DeviceEntry e = whole;
        e.device = part;
        entries.push_back(e);
      }
    }
  }
  // One context per platform, holding all of that platform's chosen devices.
  std::vector<cl::Platform> platforms;
  std::vector<cl::Context> contexts;
  std::vector<Worker> workers;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    auto at = std::find(platforms.begin(), platforms.end(), entries[k].platform);
    if (at == platforms.end()) {
      std::vector<cl::Device> same;  // each device once, though queues of one device share it
      for (const auto& e : entries)
        if (e.platform() == entries[k].platform() &&
            std::none_of(same.begin(), same.end(), [&e](const cl::Device& d) { return d() == e.device(); }))
          same.push_back(e.device);
      platforms.push_back(entries[k].platform);
      contexts.emplace_back(same);
      at = platforms.end() - 1;
    }
    const cl::Context& context = contexts[at - platforms.begin()];
    workers.push_back(make_worker(course::DeviceContext{entries[k], entries[k].device, context,
                                                        cl::CommandQueue(context, entries[k].device,
                                                                         cl::QueueProperties::Profiling)},
                                  names[k], static_cast<int>(at - platforms.begin()), weights));
  }
  course::record_device(workers.front().dc);  // the device a --record file names: the first
  return workers;
}

Worker make_worker(const course::DeviceContext& dc, const std::string& name, int context_index,
                   const std::vector<float>& weights) {
  Worker w;
  w.name = name;
  w.dc = dc;
  w.context_index = context_index;
  w.transfers = cl::CommandQueue(dc.context, dc.device, cl::QueueProperties::Profiling);
  const std::string include =
      " -I " + course::locate_course_file("kernels/04_separable_coalescing/access_trace.h").parent_path().string();
  cl::Program program = course::build_course_program(w.dc, kKernels, include);
  w.row = cl::Kernel(program, "row_pass_v1");
  w.column = cl::Kernel(program, "column_pass_v1");
  w.weights = cl::Buffer(dc.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, weights.size() * sizeof(float),
                         const_cast<float*>(weights.data()));
  return w;
}

int context_count(const std::vector<Worker>& workers) {
  int most = 0;
  for (const Worker& w : workers) most = std::max(most, w.context_index + 1);
  return most;
}

}  // namespace lesson13
