#include "measure_roofline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "errors.hpp"
#include "program.hpp"
#include "timing.hpp"

namespace course {
namespace {
// The work-items of a group time_kernel() launches: 64, or fewer where `kernel` allows fewer.
std::size_t group_size(const DeviceContext& dc, const cl::Kernel& kernel) {
  return std::min<std::size_t>(64, kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device));
}

// The median of `repeat` runs of `kernel` over `items` work-items (a whole number of groups),
// in groups of `group` work-items (0: group_size()).
Timing time_kernel(const DeviceContext& dc, cl::Kernel& kernel, std::size_t items, int repeat, int warmup = 1,
                   std::size_t group = 0) {
  const std::size_t local = group ? group : group_size(dc, kernel);
  cl::CommandQueue queue = dc.queue;
  return time_events(
      queue,
      [&] {
        cl::Event e;
        queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange((items + local - 1) / local * local),
                                   cl::NDRange(local), nullptr, &e);
        return std::vector<cl::Event>{e};
      },
      repeat, warmup);
}

// The rate a second of one of kernels/common's peak kernels, `name` of `file`, whose arguments
// are (output, rounds, `extra`...), each work-item doing `per_round` operations a round, over
// enough work-items for every compute unit to hold many groups; few rounds on a CPU, where a
// second of it proves nothing more. (Under run_once(), one group of one round: the kernel runs,
// the figure means nothing.) 0 when the device's timer gave the kernel no time.
double measure_peak(const DeviceContext& dc, const std::string& file, const char* name, double per_round,
                    const std::function<void(cl::Kernel&, int group)>& extra) {
  static std::map<std::pair<cl_device_id, std::string>, double> measured;
  const auto key = std::make_pair(dc.device(), std::string(name));
  if (auto it = measured.find(key); it != measured.end()) return it->second;
  const bool cpu = (dc.entry.type & CL_DEVICE_TYPE_CPU) != 0;
  const std::size_t items = run_once() ? 64 : 64 * dc.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>() * (cpu ? 16 : 256);
  const int rounds = run_once() ? 1 : cpu ? 512 : 4096;
  cl::Kernel kernel(build_course_program(dc, file), name);
  cl::Buffer out(dc.context, CL_MEM_WRITE_ONLY, items * sizeof(float));
  kernel.setArg(0, out), kernel.setArg(1, rounds);
  extra(kernel, static_cast<int>(group_size(dc, kernel)));
  const double ms = time_kernel(dc, kernel, items, 3).device_ms;
  return measured[key] = ms > 0 ? per_round * rounds * double(items) / (ms * 1e6) : 0;
}

constexpr double kMiB = 1024.0 * 1024;
constexpr double kProbeBytes = 16 * kMiB;  // the copy's first probe
constexpr double kLongestCopyMs = 40;      // the longest one copy grows to, on a slow device
// The timed copy runs: as many as fit this many milliseconds of copying, within these bounds.
constexpr double kCopyRunsMs = 200;
constexpr int kFewestCopyRuns = 3, kMostCopyRuns = 10;

DeviceMemory device_memory(const DeviceContext& dc) {
  DeviceMemory m;
  m.reported_cache_bytes = static_cast<double>(dc.device.getInfo<CL_DEVICE_GLOBAL_MEM_CACHE_SIZE>());
  m.gpu = (dc.entry.type & CL_DEVICE_TYPE_GPU) != 0;
  m.max_alloc_bytes = static_cast<double>(dc.device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>());
  m.global_bytes = static_cast<double>(dc.device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>());
  return m;
}
}  // namespace

CopySize copy_size(const DeviceMemory& device, const char* copy_mib) {
  CopySize size;
  size.cache_bytes = device.reported_cache_bytes > 0 ? device.reported_cache_bytes
                     : device.gpu                    ? documented_gpu_cache_bytes
                                                     : documented_cache_bytes;
  if (device.gpu) size.cache_bytes = std::max(size.cache_bytes, documented_gpu_cache_bytes);
  // Two buffers, each within one allocation and an eighth of the device's memory, and within
  // 4 GiB: a work-item's index is an int, a billion and more four-byte vectors.
  double most = std::min(device.max_alloc_bytes, 4096 * kMiB);
  if (device.global_bytes > 0) most = std::min(most, device.global_bytes / 8);
  if (most < 16)
    throw DeviceLimitError("the device allocates " + fixed(most, 0) +
                           " bytes at most: too few for the copy that measures its bandwidth");
  double bytes = 4 * size.cache_bytes;
  if (copy_mib && *copy_mib) {
    char* end = nullptr;
    const double mib = std::strtod(copy_mib, &end);
    if (end == copy_mib || *end || !(mib > 0) || !std::isfinite(mib))
      throw UsageError("COURSE_COPY_MIB is the size of the copy's buffers in MiB, a number above 0 like 64, not '" +
                       std::string(copy_mib) + "'");
    bytes = mib * kMiB, size.given = true;
  }
  size.buffer_bytes = std::max(16.0, std::floor(std::min(bytes, most) / 16) * 16);
  return size;
}

CopyYardstick measure_copy(const DeviceContext& dc, PixelType pixels) {
  static std::map<std::pair<cl_device_id, PixelType>, CopyYardstick> measured;
  const auto key = std::make_pair(dc.device(), pixels);
  if (auto it = measured.find(key); it != measured.end()) return it->second;
  const CopySize size = copy_size(device_memory(dc), std::getenv("COURSE_COPY_MIB"));
  const double timer_ns = static_cast<double>(dc.device.getInfo<CL_DEVICE_PROFILING_TIMER_RESOLUTION>());
  const std::size_t vector = 16;  // bytes one work-item copies, whatever the pixels (copy.cl)
  // One group of vectors, once, under run_once(); else the whole buffers at most.
  const std::size_t most = run_once() ? 64 * vector : static_cast<std::size_t>(size.buffer_bytes) / vector * vector;
  cl::Kernel copy(build_course_program(dc, "kernels/common/copy.cl"), copy_kernel_name(pixels));
  // Both buffers once, at the most the copy may use: the probe and the timed runs copy prefixes
  // of the same two buffers, nothing is freed or allocated between them.
  cl::Buffer in(dc.context, CL_MEM_READ_ONLY, most), out(dc.context, CL_MEM_WRITE_ONLY, most);
  std::size_t filled = 0;
  // Copies the first `bytes` of `in` to `out` in groups of `group` work-items (0: 64): `warmup`
  // runs, then `runs` timed ones.
  const auto run = [&](std::size_t bytes, int runs, int warmup, std::size_t group = 0) {
    // Input written before it is read: a CPU device reads pages never written as one page of zeros.
    if (bytes > filled) dc.queue.enqueueFillBuffer(in, 1.0f, filled, bytes - filled), filled = bytes;
    copy.setArg(0, in), copy.setArg(1, out), copy.setArg(2, static_cast<int>(bytes / vector));
    return time_kernel(dc, copy, bytes / vector, runs, warmup, group);
  };
  // The probe: a 16 MiB prefix, then the copy grown to the size that lasts 40 ms on a slow device
  // (PoCL on two cores; a GPU copies its whole buffers) and at least 300 timer ticks. Each size's
  // speed is its fastest of 3 runs: one run slowed by other work would leave the copy small.
  std::size_t bytes = most;
  if (!size.given && !run_once()) {
    const auto whole = [&](double b) { return std::max(vector, static_cast<std::size_t>(b) / vector * vector); };
    bytes = whole(std::min<double>(most, kProbeBytes));
    for (int round = 0; round < 4; ++round) {
      const double per_ms = bytes / std::max(run(bytes, 3, round == 0).min_ms, 1e-6);  // bytes copied a ms
      const std::size_t next = whole(std::min<double>(most, std::max({std::min<double>(most, kLongestCopyMs * per_ms),
                                                                      300 * timer_ns * 1e-6 * per_ms, kProbeBytes})));
      if (next >= 0.8 * bytes && next <= 1.25 * bytes) break;
      bytes = next;
    }
  }
  // In the same buffers, a warm-up (timed once, to choose how many runs fit the time given to
  // the copy), then the timed runs: the fastest is the yardstick, as BabelStream reports it. On a
  // GPU in groups of 64 work-items and of 256, the faster kept: on an H200 groups of 64 copied
  // about a fifth slower than groups of 128, 256, 512 or 1024 (2 x 512 MiB: 3.35 TB/s against 4.2
  // for each of the others), for a reason not measured (the 32 groups an SM holds are, in groups
  // of 64, its whole 2048 work-items). A CPU runs a group as a loop: one shape.
  const double one_ms = run(bytes, 1, 0).device_ms;
  const int runs = std::clamp(static_cast<int>(kCopyRunsMs / std::max(one_ms, 1e-6)), kFewestCopyRuns, kMostCopyRuns);
  const std::size_t most_items = copy.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
  const bool cpu = (dc.entry.type & CL_DEVICE_TYPE_CPU) != 0;
  Timing t;
  std::size_t group = 0;
  for (const std::size_t shape : {std::size_t{64}, std::size_t{256}}) {
    const std::size_t items = std::min(shape, most_items);
    if (items == group || (shape > 64 && (cpu || run_once()))) continue;
    const Timing timed = run(bytes, runs, shape > 64 ? 1 : 0, items);
    if (group == 0 || timed.min_ms < t.min_ms) t = timed, group = items;
  }
  const auto gbps = [&](double ms) { return ms > 0 ? 2.0 * bytes / (ms * 1e6) : 0; };
  CopyYardstick c;
  c.gbps = gbps(t.min_ms), c.median_gbps = gbps(t.device_ms), c.slowest_gbps = gbps(t.max_ms);
  c.runs = t.runs, c.buffer_bytes = static_cast<double>(bytes), c.ms = t.min_ms;
  c.group = static_cast<int>(group);
  return measured[key] = c;
}

Roofline cache_and_timer(const DeviceContext& dc) {
  Roofline result;
  const DeviceMemory memory = device_memory(dc);
  result.reported_cache_bytes = memory.reported_cache_bytes;
  result.cache_bytes = copy_size(memory, std::getenv("COURSE_COPY_MIB")).cache_bytes;
  result.timer_ns = static_cast<double>(dc.device.getInfo<CL_DEVICE_PROFILING_TIMER_RESOLUTION>());
  return result;
}

Roofline measure_roofline(const DeviceContext& dc) {
  static std::map<cl_device_id, Roofline> measured;
  if (auto it = measured.find(dc.device()); it != measured.end()) return it->second;
  Roofline result = cache_and_timer(dc);
  // 4 chains of float8 multiply-adds a work-item and round, 2 operations each.
  result.gflops = measure_peak(dc, "kernels/common/fma_peak.cl", "fma_peak", 2.0 * 4 * 8,
                               [](cl::Kernel& k, int) { k.setArg(2, 0.999f), k.setArg(3, 0.001f); });
  // 8 chains of loads a work-item and round; the kernel's tile is laid out for the group's size.
  const auto group = [](cl::Kernel& k, int size) { k.setArg(2, size); };
  result.local_gloads = measure_peak(dc, "kernels/common/local_load_peak.cl", "local_load_float", 8, group);
  result.local4_gloads = measure_peak(dc, "kernels/common/local_load_peak.cl", "local_load_float4", 8, group);
  result.copy = measure_copy(dc, PixelType::f32);
  // The device is kept for the process's life, never released: a copy held in the static map
  // above would release its context and queue after the OpenCL runtime is gone at exit, and
  // Oclgrind's runtime aborts on that.
  const DeviceContext* kept = new DeviceContext(dc);
  result.measure_narrow_copy = [kept](PixelType pixels) { return measure_copy(*kept, pixels); };
  return measured[dc.device()] = result;
}

}  // namespace course
