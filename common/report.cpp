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

double measure_copy_bandwidth(const DeviceContext& dc, std::size_t bytes) {
  static std::map<std::pair<cl_device_id, std::size_t>, double> measured;
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
  const double gbps = t.device_ms > 0 ? 2.0 * count * 16 / (t.device_ms * 1e6) : 0;
  measured[key] = gbps;
  return gbps;
}

ResultsTable::ResultsTable(std::string title, double copy_gbps) : title_(std::move(title)), copy_gbps_(copy_gbps) {}

void ResultsTable::add(const ResultRow& row) {
  rows_.push_back(row);
}

bool ResultsTable::all_verified() const {
  if (rows_.empty()) return false;
  for (const auto& r : rows_)
    if (!r.verified) return false;
  return true;
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
}  // namespace

void ResultsTable::print(std::ostream& out) const {
  const std::vector<std::string> head = {"variant",   "kernel ms", "end-to-end ms", "MPix/s",  "GB/s",
                                         "% of copy", "max error", "speed-up",      "verified"};
  std::vector<std::vector<std::string>> cells;
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    const auto& r = rows_[i];
    const double gbps = r.kernel_ms > 0 ? r.bytes / (r.kernel_ms * 1e6) : 0;
    std::string speedup = "";
    if (i > 0 && r.kernel_ms > 0) speedup = fixed(rows_[i - 1].kernel_ms / r.kernel_ms, 2) + "x";
    cells.push_back({r.variant, milliseconds(r.kernel_ms), r.end_to_end_ms < 0 ? "-" : milliseconds(r.end_to_end_ms),
                     r.kernel_ms > 0 ? fixed(r.pixels / (r.kernel_ms * 1e3), 1) : "-",
                     r.bytes > 0 ? fixed(gbps, 1) : "-",
                     copy_gbps_ > 0 && r.bytes > 0 ? fixed(100 * gbps / copy_gbps_, 0) + "%" : "-",
                     error_text(r.max_error), speedup, r.verified ? "yes" : "NO"});
  }
  std::vector<std::size_t> width(head.size());
  for (std::size_t c = 0; c < head.size(); ++c) {
    width[c] = head[c].size();
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  out << "\n" << title_;
  if (copy_gbps_ > 0) out << "  (device copy bandwidth: " << fixed(copy_gbps_, 1) << " GB/s)";
  out << "\n";
  auto line = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c == 0)
        out << "  " << std::left << std::setw(static_cast<int>(width[c])) << row[c];
      else
        out << "  " << std::right << std::setw(static_cast<int>(width[c])) << row[c];
    }
    out << "\n";
  };
  line(head);
  std::size_t total = 0;
  for (auto w : width) total += w + 2;
  out << "  " << std::string(total - 2, '-') << "\n";
  for (const auto& row : cells) line(row);
  out << std::left;
}

}  // namespace course
