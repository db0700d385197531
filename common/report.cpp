#include "report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <numeric>
#include <sstream>

#include "program.hpp"
#include "timing.hpp"

namespace course {
namespace {
// The median of `repeat` runs of `kernel` over `items` work-items, in groups of 64 or fewer.
Timing time_kernel(const DeviceContext& dc, cl::Kernel& kernel, std::size_t items, int repeat) {
  const std::size_t local = std::min<std::size_t>(64, kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device));
  cl::CommandQueue queue = dc.queue;
  return time_events(
      queue,
      [&] {
        cl::Event e;
        queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange((items + local - 1) / local * local),
                                   cl::NDRange(local), nullptr, &e);
        return std::vector<cl::Event>{e};
      },
      repeat);
}

double measure_gflops(const DeviceContext& dc) {
  static std::map<cl_device_id, double> measured;
  if (auto it = measured.find(dc.device()); it != measured.end()) return it->second;
  // Enough work-items for every compute unit to hold many groups, each running 4 chains of float8
  // multiply-adds; few rounds on a CPU, where a second of arithmetic proves nothing more.
  const bool cpu = (dc.entry.type & CL_DEVICE_TYPE_CPU) != 0;
  const std::size_t items = 64 * dc.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>() * (cpu ? 16 : 256);
  const int rounds = cpu ? 512 : 4096;
  cl::Kernel kernel(build_course_program(dc, "kernels/common/fma_peak.cl"), "fma_peak");
  cl::Buffer out(dc.context, CL_MEM_WRITE_ONLY, items * sizeof(float));
  kernel.setArg(0, out), kernel.setArg(1, rounds), kernel.setArg(2, 0.999f), kernel.setArg(3, 0.001f);
  const double ms = time_kernel(dc, kernel, items, 3).device_ms;
  return measured[dc.device()] = ms > 0 ? 2.0 * 4 * 8 * rounds * double(items) / (ms * 1e6) : 0;
}

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}
// Milliseconds with four significant digits (at most five decimals): 0.07612, 1.234, 968.2.
std::string milliseconds(double ms) {
  const int digits = ms > 0 ? std::clamp(3 - static_cast<int>(std::floor(std::log10(ms))), 0, 5) : 3;
  return fixed(ms, digits);
}
std::string error_text(double e) {
  if (e == 0) return "0";
  std::ostringstream s;
  s << std::setprecision(2) << e;
  return s.str();
}
// The row `r` compares with: its named baseline, else the first row; none for "-" or itself.
const ResultRow* baseline_of(const std::vector<ResultRow>& rows, const ResultRow& r) {
  if (r.baseline == "-") return nullptr;
  const std::string& name = r.baseline.empty() ? rows.front().variant : r.baseline;
  for (const auto& b : rows)
    if (b.variant == name && &b != &r) return &b;
  return nullptr;
}
std::string range(const ResultRow& r) {
  return milliseconds(r.min_ms) + " to " + milliseconds(r.max_ms) + " ms";
}
}  // namespace

Roofline measure_roofline(const DeviceContext& dc, std::size_t bytes) {
  static std::map<std::pair<cl_device_id, std::size_t>, Roofline> measured;
  const std::size_t count = (bytes + 15) / 16;
  const auto key = std::make_pair(dc.device(), count);
  if (auto it = measured.find(key); it != measured.end()) return it->second;
  cl::Kernel copy(build_course_program(dc, "kernels/common/copy.cl"), "copy_float4");
  cl::Buffer in(dc.context, CL_MEM_READ_ONLY, count * 16), out(dc.context, CL_MEM_WRITE_ONLY, count * 16);
  dc.queue.enqueueFillBuffer(in, 0.0f, 0, count * 16);
  copy.setArg(0, in), copy.setArg(1, out), copy.setArg(2, static_cast<int>(count));
  const Timing t = time_kernel(dc, copy, count, 5);
  auto gbps = [&](double ms) { return ms > 0 ? 2.0 * count * 16 / (ms * 1e6) : 0; };
  Roofline result(gbps(t.device_ms), measure_gflops(dc));
  result.min_gbps = gbps(t.max_ms), result.max_gbps = gbps(t.min_ms), result.runs = t.runs;
  return measured[key] = result;
}

void ResultsTable::running(const std::string& variant) {
  const char* setting = std::getenv("COURSE_PROGRESS");
  const std::string how = setting && *setting ? setting : isatty(2) ? "terminal" : "off";
  if (how != "lines" && how != "terminal") return;
  std::cout << std::flush;  // the lesson's own lines come first
  // On a terminal the line ends with the cursor back at its start, for the next line to write over.
  progress_shown_ = how == "terminal";
  std::cerr << (progress_shown_ ? "\r\033[K  running " : "  running ") << variant
            << (progress_shown_ ? " ...\r" : " ...\n") << std::flush;
}

void ResultsTable::end_progress() const {
  if (progress_shown_) std::cerr << "\r\033[K" << std::flush;
  progress_shown_ = false;
}

void ResultsTable::add(const ResultRow& row) {
  end_progress();
  rows_.push_back(row);
}

void ResultsTable::print(std::ostream& out) const {
  end_progress();
  const std::vector<std::string> head = {"variant", "kernel ms",   "end-to-end ms", "MPix/s",   "GB/s",    "% of copy",
                                         "flop/B",  "roofline ms", "max error",     "speed-up", "verified"};
  const double copy_gbps = roof_.copy_gbps;
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> notes;
  std::string crossed;  // rows whose kernel time exceeds their end-to-end time
  std::vector<std::pair<std::string, std::string>> baselines;  // a baseline, and the rows it serves: "a, b"
  for (const auto& r : rows_) {
    const double gbps = r.kernel_ms > 0 ? r.bytes / (r.kernel_ms * 1e6) : 0;
    std::string speedup = "";
    if (const ResultRow* b = baseline_of(rows_, r); b && r.kernel_ms > 0 && b->kernel_ms > 0) {
      speedup = fixed(b->kernel_ms / r.kernel_ms, 2) + "x";
      // A difference smaller than either row's spread over its timed runs says nothing.
      const double spread = std::max(r.max_ms - r.min_ms, b->max_ms - b->min_ms);
      if (r.runs > 1 && b->runs > 1 && spread > std::abs(b->kernel_ms - r.kernel_ms)) {
        speedup += "~";
        notes.push_back("~ " + r.variant + " against " + b->variant + ": the difference is within the spread of the " +
                        "timed runs (" + range(r) + " against " + range(*b) + ", " + std::to_string(r.runs) +
                        " runs each)");
      }
      auto it = std::find_if(baselines.begin(), baselines.end(), [&](const auto& g) { return g.first == b->variant; });
      if (it == baselines.end()) it = baselines.insert(baselines.end(), {b->variant, ""});
      it->second += (it->second.empty() ? "" : ", ") + r.variant;
    }
    if (r.end_to_end_ms >= 0 && r.kernel_ms > r.end_to_end_ms) crossed += (crossed.empty() ? "" : ", ") + r.variant;
    cells.push_back({r.variant, milliseconds(r.kernel_ms), r.end_to_end_ms < 0 ? "-" : milliseconds(r.end_to_end_ms),
                     r.kernel_ms > 0 ? fixed(r.pixels / (r.kernel_ms * 1e3), 1) : "-",
                     r.bytes > 0 ? fixed(gbps, 1) : "-",
                     copy_gbps > 0 && r.bytes > 0 ? fixed(100 * gbps / copy_gbps, 0) + "%" : "-",
                     r.flops > 0 && r.bytes > 0 ? fixed(arithmetic_intensity(r.flops, r.bytes), 2) : "-",
                     copy_gbps > 0 && r.bytes > 0 ? milliseconds(roof_.bound_ms(r.bytes, r.flops)) : "-",
                     error_text(r.max_error), speedup, r.verified ? "yes" : "NO"});
  }
  std::vector<std::size_t> width(head.size());
  for (std::size_t c = 0; c < head.size(); ++c) {
    width[c] = head[c].size();
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  out << "\n" << title_;
  if (copy_gbps > 0) out << "  (device copy bandwidth: " << fixed(copy_gbps, 1) << " GB/s)";
  out << "\n";
  auto line = [&](const std::vector<std::string>& row) {  // the variant left-aligned, the figures right
    for (std::size_t c = 0; c < row.size(); ++c)
      out << "  " << (c == 0 ? std::left : std::right) << std::setw(static_cast<int>(width[c])) << row[c];
    out << "\n";
  };
  line(head);
  const std::size_t total = std::accumulate(width.begin(), width.end(), 2 * (width.size() - 1));
  out << "  " << std::string(total, '-') << "\n";
  for (const auto& row : cells) line(row);
  out << std::left;
  // The notes: indented by four spaces, so that tools reading the table see where it ends.
  for (const auto& [base, rows] : baselines)
    out << "    speed-up = kernel ms of " << base << " / kernel ms of the row, for: " << rows << "\n";
  if (copy_gbps > 0)
    out << "    roofline ms = the larger of bytes / copy bandwidth and flops / " << fixed(roof_.gflops, 0)
        << " GFLOP/s (fma_peak.cl): the least time the row's work allows; flop/B is its arithmetic intensity, "
        << "memory-bound below " << fixed(roof_.ridge(), 1) << "\n";
  if (copy_gbps > 0 && roof_.runs > 1 && roof_.min_gbps > 0) {
    const double swing = roof_.max_gbps / roof_.min_gbps;
    out << "    % of copy: against the median of " << roof_.runs << " copy runs, which ranged from "
        << fixed(roof_.min_gbps, 1) << " to " << fixed(roof_.max_gbps, 1) << " GB/s"
        << (swing > 1.5 ? " (a swing of " + fixed(swing, 1) +
                              "x: the device was busy with other work, so take these percentages as rough)"
                        : "")
        << "\n";
  }
  if (!crossed.empty())
    out << "    kernel ms above end-to-end ms (" << crossed << "): the two are medians of separate sets of runs, "
        << "which cross on a device busy with other work; the gap is noise, not a negative copy time\n";
  for (const auto& n : notes) out << "    " << n << "\n";
}

}  // namespace course
