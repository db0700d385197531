// What a kernel costs a compute unit (course::kernel_resources(): private and local memory from
// the driver, registers from NVIDIA's compiler report), how many work-groups the compute unit's own limits let it hold,
// and the residency experiment that counts them on NVIDIA GPUs.
#include <algorithm>
#include <iostream>
#include <map>

#include "lesson07.hpp"

namespace lesson07 {

bool is_nvidia(const cl::Device& device) {
  return device.getInfo<CL_DEVICE_VENDOR_ID>() == 0x10de ||
         device.getInfo<CL_DEVICE_VENDOR>().find("NVIDIA") != std::string::npos;
}

ComputeUnitLimits limits_for_compute_capability(int major, int minor) {
  // Per-SM limits from the CUDA C++ Programming Guide's table of compute capabilities: resident
  // warps, resident blocks, shared memory per SM (KiB); since 8.0 the driver also keeps 1 KiB of
  // every block's shared memory for itself.
  struct Row {
    int warps, groups, local_kib, reserved_kib;
  };
  static const std::map<int, Row> table = {{70, {64, 32, 96, 0}},  {75, {32, 16, 64, 0}},   {80, {64, 32, 164, 1}},
                                           {86, {48, 16, 100, 1}}, {87, {48, 16, 164, 1}},  {89, {48, 24, 100, 1}},
                                           {90, {64, 32, 228, 1}}, {100, {64, 32, 228, 1}}, {120, {48, 32, 100, 1}}};
  ComputeUnitLimits limits;
  const auto row = table.find(major * 10 + minor);
  if (row == table.end()) return limits;
  limits.known = true;
  limits.source =
      "compute capability " + std::to_string(major) + "." + std::to_string(minor) + ", CUDA C++ Programming Guide";
  limits.max_items = row->second.warps * 32;
  limits.max_groups = row->second.groups;
  limits.local_bytes = std::size_t(row->second.local_kib) * 1024;
  limits.reserved_per_group = std::size_t(row->second.reserved_kib) * 1024;
  limits.registers = 65536;
  return limits;
}

ComputeUnitLimits compute_unit_limits(const cl::Device& device) {
  if (!is_nvidia(device)) return {};
  // cl_nv_device_attribute_query: CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV and _MINOR_NV.
  cl_uint major = 0, minor = 0;
  if (clGetDeviceInfo(device(), 0x4000, sizeof major, &major, nullptr) != CL_SUCCESS ||
      clGetDeviceInfo(device(), 0x4001, sizeof minor, &minor, nullptr) != CL_SUCCESS)
    return {};
  return limits_for_compute_capability(static_cast<int>(major), static_cast<int>(minor));
}

Residency resident_groups(const ComputeUnitLimits& limits, std::size_t items_per_group, std::size_t local_bytes,
                          int registers_per_item) {
  Residency r;
  if (!limits.known || items_per_group == 0) return r;
  const std::size_t warps = (items_per_group + 31) / 32;
  r.groups = limits.max_groups, r.limited_by = "groups per compute unit";
  auto tighter = [&](std::size_t groups, const char* why) {
    if (static_cast<int>(groups) < r.groups) r.groups = static_cast<int>(groups), r.limited_by = why;
  };
  tighter(limits.max_items / (warps * 32), "work-items per compute unit");
  if (local_bytes > 0) tighter(limits.local_bytes / (local_bytes + limits.reserved_per_group), "local memory");
  if (registers_per_item > 0) {
    // Registers are handed out per warp in blocks of 256.
    const std::size_t per_warp = (std::size_t(registers_per_item) * 32 + 255) / 256 * 256;
    tighter(limits.registers / per_warp / warps, "registers");
  }
  return r;
}

int most_resident(const std::vector<GroupRecord>& records) {
  // Per compute unit, walk the starts (+1) and ends (-1) in time order; an end at the same time
  // as a start comes first, so a group that starts as another ends is not counted twice.
  std::map<unsigned, std::vector<std::pair<std::uint64_t, int>>> events;
  for (const GroupRecord& g : records) {
    events[g.compute_unit].push_back({g.start, +1});
    events[g.compute_unit].push_back({g.end, -1});
  }
  int most = 0;
  for (auto& [unit, list] : events) {
    std::sort(list.begin(), list.end());
    int now = 0;
    for (const auto& e : list) most = std::max(most, now += e.second);
  }
  return most;
}

void print_kernel_resources(const std::vector<course::KernelResources>& kernels, const cl::Device& device,
                            const std::string& output_dir) {
  SweepTable t{
      "What each kernel takes from a compute unit (per work-item: private memory; per work-group: local "
      "memory declared in the kernel)",
      {"kernel", "registers", "private bytes", "local bytes", "CL_KERNEL_WORK_GROUP_SIZE"},
      {}};
  for (const auto& k : kernels)
    t.rows.push_back({k.name, k.registers >= 0 ? std::to_string(k.registers) : "-", std::to_string(k.private_bytes),
                      std::to_string(k.local_bytes), std::to_string(k.max_group)});
  // The registers go first from a narrow table: NVIDIA's compiler report below gives them too.
  t.drop_order = {1, 2, 3};
  if (!is_nvidia(device))
    t.notes.push_back("registers: this driver reports none (NVIDIA's does, with -cl-nv-verbose); private bytes are "
                      "what the driver reports as CL_KERNEL_PRIVATE_MEM_SIZE");
  t.print(output_dir, "kernel_resources");
  if (is_nvidia(device)) {
    std::cout << "  NVIDIA's compiler report (-cl-nv-verbose):\n";
    for (const auto& k : kernels) std::cout << k.compiler_report;
  }
}

}  // namespace lesson07
