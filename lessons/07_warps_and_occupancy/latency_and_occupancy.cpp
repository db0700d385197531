// Experiments 2 and 3: latency hiding (work-items per compute unit against arithmetic per load)
// and occupancy (local memory per work-group against throughput), both with dependent_loads.cl.
#include <algorithm>
#include <iostream>
#include <random>

#include "lesson07.hpp"
#include "plot_svg.hpp"

namespace lesson07 {
namespace {

struct LoadRun {
  double ms = 0, gbps = 0, max_error = 0;
  course::Timing timing;  // the spread of the timed runs behind ms
  int checked = 0;        // work-items compared with the CPU
  bool ok = false;
};

// The largest power of two <= limit that divides n: a work-group size that is always legal for
// a kernel allowing `limit` work-items and a global size of n.
std::size_t power_of_two_divisor(std::size_t n, std::size_t limit) {
  std::size_t local = 1;
  while (local * 2 <= limit && n % (local * 2) == 0) local *= 2;
  return local;
}

LoadRun run_dependent_loads(const Setup& s, cl::Kernel& kernel, const cl::Buffer& data, const std::vector<float>& host,
                            int items, std::size_t local, std::size_t reserved_bytes, int arith) {
  const course::DeviceContext& dc = *s.dc;
  const int loads_per_item = static_cast<int>(host.size() / items);
  cl::Buffer sums(dc.context, CL_MEM_WRITE_ONLY, items * sizeof(float));
  kernel.setArg(0, data);
  kernel.setArg(1, sums);
  kernel.setArg(2, loads_per_item);
  kernel.setArg(3, cl::Local(reserved_bytes));
  kernel.setArg(4, static_cast<int>(reserved_bytes / sizeof(float)));
  cl::CommandQueue queue = dc.queue;
  const course::Timing t = course::time_events(
      queue,
      [&] {
        cl::Event e;
        queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(items), cl::NDRange(local), nullptr, &e);
        return std::vector<cl::Event>{e};
      },
      s.repeat);
  std::vector<float> got(items);
  dc.queue.enqueueReadBuffer(sums, CL_TRUE, 0, items * sizeof(float), got.data());

  // The CPU follows every work-item's chain when that is cheap; on big runs every k-th one, so
  // that checking costs about 2^20 loads per point.
  LoadRun run;
  const long budget = 1L << 20;
  const int stride = static_cast<int>(std::max<long>(1, long(items) * loads_per_item / budget));
  for (int item = 0; item < items; item += stride) {
    long index = item;
    float sum = 0;
    for (int load = 0; load < loads_per_item; ++load) {
      float v = host[index];
      for (int k = 0; k < arith; ++k) v = std::fma(v, 0.5f, 0.25f);
      sum += v;
      index += items + static_cast<int>(v);
    }
    run.max_error = std::max<double>(run.max_error, std::abs(double(got[item]) - sum));
    if (!(std::abs(got[item] - sum) <= 1e-4 * std::max(1.0f, std::abs(sum)))) run.max_error = INFINITY;
    ++run.checked;
  }
  run.ok = std::isfinite(run.max_error);
  run.timing = t;
  run.ms = t.device_ms;
  run.gbps = double(items) * loads_per_item * sizeof(float) / (t.device_ms * 1e6);
  return run;
}

std::vector<float> random_fractions(std::size_t n) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(0.0f, 0.999f);  // < 1, so (int)v is 0 in the kernel
  std::vector<float> v(n);
  for (auto& x : v) x = uniform(rng);
  return v;
}

// Runs dependent_loads.cl, built with -D RECORD_RESIDENCY, once with `reserved_bytes` of local memory per group and
// returns the most groups that ran at the same time on one compute unit.
int measure_residency(const Setup& s, cl::Kernel& recorder, const cl::Buffer& data, const std::vector<float>& host,
                      int items, std::size_t local, std::size_t reserved_bytes) {
  const course::DeviceContext& dc = *s.dc;
  const std::size_t groups = items / local;
  cl::Buffer sums(dc.context, CL_MEM_WRITE_ONLY, items * sizeof(float));
  cl::Buffer records(dc.context, CL_MEM_WRITE_ONLY, groups * 3 * sizeof(cl_ulong));
  recorder.setArg(0, data);
  recorder.setArg(1, sums);
  recorder.setArg(2, static_cast<int>(host.size() / items));
  recorder.setArg(3, cl::Local(reserved_bytes));
  recorder.setArg(4, static_cast<int>(reserved_bytes / sizeof(float)));
  recorder.setArg(5, records);
  dc.queue.enqueueNDRangeKernel(recorder, cl::NullRange, cl::NDRange(items), cl::NDRange(local));
  std::vector<cl_ulong> raw(groups * 3);
  dc.queue.enqueueReadBuffer(records, CL_TRUE, 0, raw.size() * sizeof(cl_ulong), raw.data());
  std::vector<GroupRecord> list(groups);
  for (std::size_t g = 0; g < groups; ++g)
    list[g] = {static_cast<unsigned>(raw[3 * g]), raw[3 * g + 1], raw[3 * g + 2]};
  return most_resident(list);
}

}  // namespace

bool run_latency_hiding(const Setup& s, course::ResultsTable& table) {
  const course::DeviceContext& dc = *s.dc;
  const int cus = static_cast<int>(dc.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>());
  const std::vector<int> per_cu = s.full   ? std::vector<int>{32, 64, 128, 256, 512, 1024, 2048, 4096}
                                  : s.once ? std::vector<int>{32}
                                           : std::vector<int>{32, 128, 512, 2048};
  std::vector<int> arith_list = s.full   ? std::vector<int>{0, 2, 8, 16, 32, 64, 128}
                                : s.once ? std::vector<int>{0}
                                         : std::vector<int>{0, 8, 32};
  // Loads in flight per work-item for each line: one (a dependent chain), and a last line with
  // ARITH=0 and four loads issued before the first is used (instruction-level parallelism).
  std::vector<int> in_flight(arith_list.size(), 1);
  arith_list.push_back(0), in_flight.push_back(4);
  auto line_name = [&](std::size_t a) {
    return "ARITH=" + std::to_string(arith_list[a]) +
           (in_flight[a] > 1 ? ", " + std::to_string(in_flight[a]) + " loads in flight" : "");
  };
  const std::vector<float> host = random_fractions(s.loads);
  cl::Buffer data(dc.context, host.begin(), host.end(), true);

  SweepTable sweep{"Latency hiding: " + std::to_string(host.size()) + " dependent loads over " + std::to_string(cus) +
                       " compute units; GB/s of loaded data",
                   {"work-items per CU"},
                   {}};
  std::vector<course::PlotSeries> lines;
  for (std::size_t a = 0; a < arith_list.size(); ++a) {
    sweep.columns.push_back(line_name(a));
    lines.push_back({line_name(a), {}, {}});
  }
  std::vector<std::vector<std::string>> cells(per_cu.size());
  std::vector<bool> row_ok(per_cu.size(), true);
  std::vector<LoadRun> best(arith_list.size());
  bool all_ok = true;
  for (std::size_t a = 0; a < arith_list.size(); ++a) {
    cl::Program program = course::build_course_program(
        dc, "kernels/07_warps_and_occupancy/dependent_loads.cl",
        "-D ARITH=" + std::to_string(arith_list[a]) + " -D LOADS_IN_FLIGHT=" + std::to_string(in_flight[a]));
    cl::Kernel kernel(program, "dependent_loads");
    const std::size_t limit = std::min<std::size_t>(256, kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device));
    for (std::size_t p = 0; p < per_cu.size(); ++p) {
      const int items = cus * per_cu[p];
      // Groups no larger than the work-items per CU, so that every compute unit gets one.
      const std::size_t local = power_of_two_divisor(items, std::min<std::size_t>(limit, per_cu[p]));
      table.running("dependent loads, " + line_name(a) + ", " + std::to_string(per_cu[p]) + " work-items per CU");
      const LoadRun run =
          run_dependent_loads(s, kernel, data, host, items, local, local * sizeof(float), arith_list[a]);
      cells[p].push_back(fixed(run.gbps, 2) + (run.ok ? "" : " WRONG"));
      row_ok[p] = row_ok[p] && run.ok;
      lines[a].x.push_back(per_cu[p]), lines[a].y.push_back(run.gbps);
      if (run.gbps > best[a].gbps) best[a] = run;
      all_ok = all_ok && run.ok;
    }
    course::ResultRow row{"dependent loads, " + line_name(a) + " (best)",
                          best[a].ms,
                          -1,
                          double(host.size()),
                          double(host.size()) * sizeof(float),
                          best[a].max_error,
                          best[a].ok};
    row.flops = (2.0 * arith_list[a] + 1) * double(host.size());  // ARITH multiply-adds and a sum per load
    row.baseline = "-";  // different work per load: no ratio between these rows means anything
    table.add(row.spread(best[a].timing));
  }
  for (std::size_t p = 0; p < per_cu.size(); ++p) {
    sweep.rows.push_back({std::to_string(per_cu[p])});
    sweep.rows.back().insert(sweep.rows.back().end(), cells[p].begin(), cells[p].end());
    sweep.recorded.push_back(sweep_row("items_" + std::to_string(per_cu[p]), NAN, row_ok[p]));
  }
  // Where each line gets within 10% of its best: the work-items per CU that hide the latency.
  for (std::size_t a = 0; a < arith_list.size(); ++a) {
    int knee = per_cu.back();
    for (std::size_t p = 0; p < per_cu.size(); ++p)
      if (lines[a].y[p] >= 0.9 * best[a].gbps) {
        knee = per_cu[p];
        break;
      }
    sweep.notes.push_back(line_name(a) + ": within 10% of its best from " + std::to_string(knee) +
                          " work-items per compute unit (" + fixed(double(knee) / s.warp, 1) + " SIMD groups of " +
                          std::to_string(s.warp) + ")");
  }
  table.end_progress();
  sweep.print(s.output_dir, "latency_hiding", table.roof());
  sweep.save(s.output_dir, "latency_hiding");
  course::save_svg(
      std::filesystem::path(s.output_dir) / "latency_hiding.svg",
      {"Latency hiding: dependent loads", "work-items per compute unit", "GB/s loaded", true, true, lines});
  return all_ok;
}

bool run_occupancy(const Setup& s, course::ResultsTable& table) {
  const course::DeviceContext& dc = *s.dc;
  const int cus = static_cast<int>(dc.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>());
  const int arith = 8;
  const std::vector<float> host = random_fractions(s.loads);
  cl::Buffer data(dc.context, host.begin(), host.end(), true);
  cl::Program program = course::build_course_program(dc, "kernels/07_warps_and_occupancy/dependent_loads.cl",
                                                     "-D ARITH=" + std::to_string(arith));
  cl::Kernel kernel(program, "dependent_loads");
  const std::size_t limit = std::min<std::size_t>(256, kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device));
  const int items = cus * 2048;
  const std::size_t local = power_of_two_divisor(items, limit);
  const std::size_t device_local = dc.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
  const std::size_t available = device_local - kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(dc.device);
  std::vector<std::size_t> kib =
      s.full   ? std::vector<std::size_t>{1, 2, 4, 8, 12, 16, 20, 24, 28, 32, 40, 47, 48, 64, 128, 256}
      : s.once ? std::vector<std::size_t>{1}
               : std::vector<std::size_t>{1, 4, 16, 48};

  // How many groups fit at once comes from the compute unit's own limits, not from
  // CL_DEVICE_LOCAL_MEM_SIZE, which is only what one group may take.
  const ComputeUnitLimits limits = compute_unit_limits(dc.device);
  const course::KernelResources used = course::kernel_resources(dc, "kernels/07_warps_and_occupancy/dependent_loads.cl",
                                                                "-D ARITH=" + std::to_string(arith), "dependent_loads");
  const int groups_per_cu = static_cast<int>(items / local / cus);
  std::cout << "\n"
            << course::wrap("Occupancy limits per compute unit: " +
                            (limits.known ? std::to_string(limits.max_items) + " work-items, " +
                                                std::to_string(limits.max_groups) + " work-groups, " +
                                                std::to_string(limits.local_bytes >> 10) + " KiB of local memory (" +
                                                std::to_string(limits.reserved_per_group >> 10) +
                                                " KiB more per group for the driver), " +
                                                std::to_string(limits.registers) + " registers (" + limits.source + ")"
                                          : "not known for this device (OpenCL reports only the per-group limit, " +
                                                std::to_string(device_local >> 10) + " KiB of local memory)"));
  bool measure = is_nvidia(dc.device);
  cl::Kernel recorder;
  if (measure) {
    try {
      recorder = cl::Kernel(course::build_course_program(dc, "kernels/07_warps_and_occupancy/dependent_loads.cl",
                                                         "-D ARITH=" + std::to_string(arith) + " -D RECORD_RESIDENCY"),
                            "dependent_loads");
    } catch (const course::KernelBuildError& e) {
      // A driver that refuses the inline PTX costs the lesson this column only.
      measure = false;
      std::cout << "Residency measured: skipped, the driver did not compile the inline PTX:\n" << e.what() << "\n";
    }
  } else {
    std::cout << course::wrap("Residency measured: skipped on this device (it reads NVIDIA's %smid and "
                              "%globaltimer through inline PTX)");
  }

  SweepTable sweep{"Occupancy: " + std::to_string(items) + " work-items in groups of " + std::to_string(local) + " (" +
                       std::to_string(groups_per_cu) + " groups per compute unit), ARITH=" + std::to_string(arith) +
                       ", local memory reserved per work-group",
                   {"local KiB per group", "resident groups (limits)", "limited by", "resident groups (measured)",
                    "waves", "kernel ms", "GB/s", "verified"},
                   {}};
  course::PlotSeries line{"GB/s loaded", {}, {}};
  bool all_ok = true;
  LoadRun first, last;
  std::size_t last_kib = 0;
  for (const std::size_t k : kib) {
    const std::size_t bytes = std::max(k * 1024, local * sizeof(float));
    if (bytes > available) break;  // the device allows no more local memory per group
    LoadRun run;
    table.running("occupancy, " + std::to_string(k) + " KiB local");
    try {
      run = run_dependent_loads(s, kernel, data, host, items, local, bytes, arith);
    } catch (const cl::Error& e) {
      // A device may refuse a reservation it reported as allowed: say so and end the sweep.
      sweep.rows.push_back(
          {std::to_string(k), "-", "-", "-", "-", "-", "-", std::string("refused: ") + course::cl_error_name(e.err())});
      sweep.recorded.push_back(sweep_row("kib_" + std::to_string(k), NAN, false));
      break;
    }
    const Residency fit = resident_groups(limits, local, bytes + used.local_bytes, used.registers);
    int measured = -1;
    if (measure) measured = measure_residency(s, recorder, data, host, items, local, bytes);
    const int resident = measured > 0 ? measured : fit.groups;
    const std::string waves = resident > 0 ? std::to_string((groups_per_cu + resident - 1) / resident) : "-";
    sweep.rows.push_back({std::to_string(k), fit.groups > 0 ? std::to_string(fit.groups) : "-",
                          fit.groups > 0 ? fit.limited_by : "-", measured > 0 ? std::to_string(measured) : "-", waves,
                          fixed(run.ms, 3), fixed(run.gbps, 2), run.ok ? "yes" : "NO"});
    sweep.recorded.push_back(sweep_row("kib_" + std::to_string(k), run.ms, run.ok).spread(run.timing));
    sweep.recorded.back().bytes = double(host.size()) * sizeof(float);
    line.x.push_back(double(k)), line.y.push_back(run.gbps);
    if (line.x.size() == 1) first = run;
    last = run, last_kib = k;
    all_ok = all_ok && run.ok;
  }
  table.end_progress();
  sweep.drop_order = {2, 4, 1, 3};  // what limits the groups first (it is in the file), then the counts
  sweep.print(s.output_dir, "occupancy", table.roof());
  sweep.save(s.output_dir, "occupancy");
  course::save_svg(std::filesystem::path(s.output_dir) / "occupancy.svg", {"Occupancy: local memory per work-group",
                                                                           "KiB of local memory per work-group",
                                                                           "GB/s loaded",
                                                                           false,
                                                                           true,
                                                                           {line}});
  if (line.x.empty()) return false;  // not a single reservation could be launched
  const std::string least = "occupancy, " + std::to_string(kib.front()) + " KiB local";
  course::ResultRow row{least,           first.ms, -1, double(host.size()), double(host.size()) * sizeof(float),
                        first.max_error, first.ok};
  row.flops = (2.0 * arith + 1) * double(host.size());
  row.baseline = "-";
  table.add(row.spread(first.timing));
  if (line.x.size() > 1) {
    course::ResultRow most{"occupancy, " + std::to_string(last_kib) + " KiB local",
                           last.ms,
                           -1,
                           double(host.size()),
                           double(host.size()) * sizeof(float),
                           last.max_error,
                           last.ok};
    most.flops = row.flops;
    most.baseline = least;  // the most local memory against the least
    table.add(most.spread(last.timing));
  }
  return all_ok;
}

}  // namespace lesson07
