#include "roofline.hpp"

#include <algorithm>
#include <map>

#include "program.hpp"
#include "report.hpp"
#include "timing.hpp"

namespace course {

double Roofline::bound_ms(double bytes, double flops) const {
  const double memory_ms = copy_gbps > 0 ? bytes / (copy_gbps * 1e6) : 0;
  const double arithmetic_ms = gflops > 0 ? flops / (gflops * 1e6) : 0;
  return std::max(memory_ms, arithmetic_ms);
}

std::string Roofline::limit(double bytes, double flops) const {
  return arithmetic_intensity(flops, bytes) > ridge() ? "arithmetic" : "memory";
}

double measure_gflops(const DeviceContext& dc) {
  static std::map<cl_device_id, double> measured;
  if (auto it = measured.find(dc.device()); it != measured.end()) return it->second;
  cl::Kernel kernel(build_course_program(dc, "kernels/common/fma_peak.cl"), "fma_peak");
  // Enough work-items for every compute unit to hold many groups; few rounds on a CPU, where
  // each work-item runs as a loop iteration and a second of arithmetic proves nothing more.
  const bool cpu = (dc.entry.type & CL_DEVICE_TYPE_CPU) != 0;
  const std::size_t units = dc.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
  const std::size_t local = std::min<std::size_t>(64, kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device));
  const std::size_t global = local * units * (cpu ? 16 : 256);
  const int rounds = cpu ? 512 : 4096, chains = 4 * 8;  // CHAINS float8 chains
  cl::Buffer out(dc.context, CL_MEM_WRITE_ONLY, global * sizeof(float));
  kernel.setArg(0, out);
  kernel.setArg(1, rounds);
  kernel.setArg(2, 0.999f);
  kernel.setArg(3, 0.001f);
  cl::CommandQueue queue = dc.queue;
  const Timing t = time_events(
      queue,
      [&] {
        cl::Event e;
        queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global), cl::NDRange(local), nullptr, &e);
        return std::vector<cl::Event>{e};
      },
      3);
  const double gflops = t.device_ms > 0 ? 2.0 * chains * rounds * double(global) / (t.device_ms * 1e6) : 0;
  measured[dc.device()] = gflops;
  return gflops;
}

Roofline measure_roofline(const DeviceContext& dc, std::size_t bytes) {
  return Roofline{measure_copy_bandwidth(dc, bytes), measure_gflops(dc)};
}

}  // namespace course
