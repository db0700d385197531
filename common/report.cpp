#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "program.hpp"
#include "timing.hpp"

namespace course {

CopyBandwidth measure_copy_bandwidth(const DeviceContext& dc, std::size_t bytes) {
  static std::map<std::pair<cl_device_id, std::size_t>, CopyBandwidth> measured;
  const std::size_t count = (bytes + 15) / 16;
  const auto key = std::make_pair(dc.device(), count);
  if (auto it = measured.find(key); it != measured.end()) return it->second;
  cl::Program program = build_course_program(dc, "kernels/common/copy.cl");
  cl::Kernel copy(program, "copy_float4");
  cl::Buffer in(dc.context, CL_MEM_READ_ONLY, count * 16), out(dc.context, CL_MEM_WRITE_ONLY, count * 16);
  dc.queue.enqueueFillBuffer(in, 0.0f, 0, count * 16);
  copy.setArg(0, in);
  copy.setArg(1, out);
  copy.setArg(2, static_cast<int>(count));
  // 64 work-items a group, or fewer where the device or the kernel allows fewer.
  const std::size_t local = std::min<std::size_t>(64, copy.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device));
  const std::size_t global = (count + local - 1) / local * local;
  cl::CommandQueue queue = dc.queue;
  const Timing t = time_events(queue, [&] {
    cl::Event e;
    queue.enqueueNDRangeKernel(copy, cl::NullRange, cl::NDRange(global), cl::NDRange(local), nullptr, &e);
    return std::vector<cl::Event>{e};
  });
  auto gbps = [&](double ms) { return ms > 0 ? 2.0 * count * 16 / (ms * 1e6) : 0; };
  CopyBandwidth result(gbps(t.device_ms));
  result.min_gbps = gbps(t.max_ms), result.max_gbps = gbps(t.min_ms), result.runs = t.runs;
  measured[key] = result;
  return result;
}

ResultsTable::ResultsTable(std::string title, CopyBandwidth copy) : title_(std::move(title)), copy_(copy) {}

bool ResultsTable::all_verified() const {
  return !rows_.empty() && std::all_of(rows_.begin(), rows_.end(), [](const ResultRow& r) { return r.verified; });
}

namespace {
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

void ResultsTable::print(std::ostream& out) const {
  const std::vector<std::string> head = {"variant",   "kernel ms", "end-to-end ms", "MPix/s",  "GB/s",
                                         "% of copy", "max error", "speed-up",      "verified"};
  const double copy_gbps = copy_.gbps;
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> notes;
  std::string crossed;  // rows whose kernel time exceeds their end-to-end time
  std::vector<std::pair<std::string, std::vector<std::string>>> baselines;  // baseline -> its rows
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
      if (it == baselines.end()) it = baselines.insert(baselines.end(), {b->variant, {}});
      it->second.push_back(r.variant);
    }
    if (r.end_to_end_ms >= 0 && r.kernel_ms > r.end_to_end_ms) crossed += (crossed.empty() ? "" : ", ") + r.variant;
    cells.push_back({r.variant, milliseconds(r.kernel_ms), r.end_to_end_ms < 0 ? "-" : milliseconds(r.end_to_end_ms),
                     r.kernel_ms > 0 ? fixed(r.pixels / (r.kernel_ms * 1e3), 1) : "-",
                     r.bytes > 0 ? fixed(gbps, 1) : "-",
                     copy_gbps > 0 && r.bytes > 0 ? fixed(100 * gbps / copy_gbps, 0) + "%" : "-",
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
  std::size_t total = 0;
  for (auto w : width) total += w + 2;
  out << "  " << std::string(total - 2, '-') << "\n";
  for (const auto& row : cells) line(row);
  out << std::left;
  // The notes: indented by four spaces, so that tools reading the table see where it ends.
  for (const auto& [base, rows] : baselines) {
    std::string list;
    for (const auto& v : rows) list += (list.empty() ? "" : ", ") + v;
    out << "    speed-up = kernel ms of " << base << " / kernel ms of the row, for: " << list << "\n";
  }
  if (copy_gbps > 0 && copy_.runs > 1 && copy_.min_gbps > 0) {
    const double swing = copy_.max_gbps / copy_.min_gbps;
    out << "    % of copy: against the median of " << copy_.runs << " copy runs, which ranged from "
        << fixed(copy_.min_gbps, 1) << " to " << fixed(copy_.max_gbps, 1) << " GB/s"
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
