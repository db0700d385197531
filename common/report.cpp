#include "report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <utility>

namespace course {
namespace {
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
// "256.0 MiB".
std::string mebibytes(double bytes) {
  return fixed(bytes / (1024.0 * 1024.0), 1) + " MiB";
}
std::string range(const ResultRow& r) {
  return milliseconds(r.min_ms) + " to " + milliseconds(r.max_ms) + " ms";
}

TablePrinted table_printed;  // on_table_printed()'s
}  // namespace

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

std::string time_marks(const Roofline& roof, double kernel_ms, double bytes) {
  const bool too_short = kernel_ms > 0 && kernel_ms < roof.shortest_ms();
  const bool cached = bytes > 0 && bytes <= roof.cache_bytes;
  return std::string(too_short ? "*" : "") + (cached ? "+" : "");
}

std::vector<std::string> mark_notes(const Roofline& roof, bool short_rows, bool cached_rows) {
  std::vector<std::string> lines;
  if (short_rows)
    lines.push_back("* under " + milliseconds(roof.shortest_ms()) + " ms (20 us, or 100 ticks of the " +
                    fixed(roof.timer_ns, 0) +
                    " ns timer): launch, ramp-up and tail weigh in; no conclusion rests on it");
  if (cached_rows)
    lines.push_back("+ moves no more than the " + mebibytes(roof.cache_bytes) +
                    " taken as the last-level cache (the driver's figure; for a GPU at least 128 MiB, more than "
                    "most GPUs' caches): it may time the cache, not memory");
  return lines;
}

bool within_spread(const ResultRow& row, const ResultRow& base) {
  // A difference smaller than either row's spread over its timed runs says nothing.
  const double spread = std::max(row.max_ms - row.min_ms, base.max_ms - base.min_ms);
  return row.runs > 1 && base.runs > 1 && spread > std::abs(base.kernel_ms - row.kernel_ms);
}

std::string spread_note(const ResultRow& row, const ResultRow& base) {
  return "~ " + row.variant + " against " + base.variant + ": the difference is within the spread of the " +
         "timed runs (" + range(row) + " against " + range(base) + ", " + std::to_string(row.runs) + " runs each)";
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

std::map<PixelType, CopyYardstick> row_copies(const Roofline& roof, const std::vector<ResultRow>& rows) {
  // Each measured once (Roofline::copy_of()); a table without a float copy has none.
  std::map<PixelType, CopyYardstick> copies;
  for (const auto& r : rows)
    if (roof.copy.gbps > 0 && r.bytes > 0 && !copies.count(r.copy)) copies[r.copy] = roof.copy_of(r.copy);
  return copies;
}

std::map<PixelType, CopyYardstick> ResultsTable::copies() const { return row_copies(roof_, rows_); }

void ResultsTable::print(std::ostream& out, const std::filesystem::path& full_table) const {
  end_progress();
  std::vector<std::string> head = {"variant", "kernel ms",   "end-to-end ms", "MPix/s",   "GB/s",    "% of copy",
                                   "flop/B",  "roofline ms", "max error",     "speed-up", "verified"};
  // A table whose rows timed their whole trip on the host's clock too shows it beside the events'
  // time, and keeps the two longest after the kernel time when columns must go: it is about the trip.
  const bool wall = std::any_of(rows_.begin(), rows_.end(), [](const ResultRow& r) { return r.wall_ms >= 0; });
  if (wall) head.insert(head.begin() + 3, "wall ms");
  std::vector<std::size_t> drop_order = {6, 7, 3, 8, 2, 4, 5};
  if (wall) drop_order = {7, 8, 4, 9, 5, 6, 3, 2};
  const std::map<PixelType, CopyYardstick> copies = this->copies();
  std::map<PixelType, std::string> copy_rows;  // the rows dividing by each copy: "a, b"
  for (const auto& r : rows_)
    if (copies.count(r.copy) && r.bytes > 0) copy_rows[r.copy] += (copy_rows[r.copy].empty() ? "" : ", ") + r.variant;
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> notes;
  std::string crossed;                                         // rows whose kernel time exceeds their end-to-end time
  std::string defects;                                         // verified rows above 102% of their copy
  std::vector<std::pair<std::string, std::string>> baselines;  // a baseline, and the rows it serves: "a, b"
  bool short_rows = false, cached_rows = false;
  for (const auto& r : rows_) {
    const double gbps = r.kernel_ms > 0 ? r.bytes / (r.kernel_ms * 1e6) : 0;
    std::string speedup = "";
    if (const ResultRow* b = baseline_of(rows_, r); b && r.kernel_ms > 0 && b->kernel_ms > 0) {
      speedup = fixed(b->kernel_ms / r.kernel_ms, 2) + "x";
      if (within_spread(r, *b)) speedup += "~", notes.push_back(spread_note(r, *b));
      auto it = std::find_if(baselines.begin(), baselines.end(), [&](const auto& g) { return g.first == b->variant; });
      if (it == baselines.end()) it = baselines.insert(baselines.end(), {b->variant, ""});
      it->second += (it->second.empty() ? "" : ", ") + r.variant;
    }
    if (r.end_to_end_ms >= 0 && r.kernel_ms > r.end_to_end_ms) crossed += (crossed.empty() ? "" : ", ") + r.variant;
    // The marks: a time too short to time, bytes the last-level cache holds.
    const std::string marks = time_marks(roof_, r.kernel_ms, r.bytes);
    const bool cached = marks.find('+') != std::string::npos;
    short_rows |= marks.find('*') != std::string::npos, cached_rows |= cached;
    // A verified row from memory faster than a copy of its bytes: the copy read low, not a result.
    const double copy_gbps = copies.count(r.copy) ? copies.at(r.copy).gbps : 0;
    const double percent = copy_gbps > 0 ? 100 * gbps / copy_gbps : 0;
    const bool defect = r.verified && !cached && percent > 102;
    if (defect) defects += (defects.empty() ? "" : ", ") + r.variant;
    cells.push_back({r.variant, milliseconds(r.kernel_ms) + marks,
                     r.end_to_end_ms < 0 ? "-" : milliseconds(r.end_to_end_ms),
                     r.kernel_ms > 0 ? fixed(r.pixels / (r.kernel_ms * 1e3), 1) : "-",
                     r.bytes > 0 ? fixed(gbps, 1) : "-",
                     copy_gbps > 0 ? fixed(percent, 0) + "%" + (defect ? "!" : "") : "-",
                     r.flops > 0 && r.bytes > 0 ? fixed(arithmetic_intensity(r.flops, r.bytes), 2) : "-",
                     copy_gbps > 0 ? milliseconds(roof_.bound_ms(r, copy_gbps)) : "-",
                     error_text(r.max_error), speedup, r.verified ? "yes" : "NO"});
    if (wall) cells.back().insert(cells.back().begin() + 3, r.wall_ms < 0 ? "-" : milliseconds(r.wall_ms));
  }
  // The notes: indented by four spaces, so that tools reading the table see where it ends.
  std::vector<std::string> lines = mark_notes(roof_, short_rows, cached_rows);
  if (wall) lines.push_back("end-to-end ms adds up the trip's event times; wall ms reads the host's clock");
  if (!defects.empty())
    lines.push_back("! above 102% of its copy (" + defects + "): a kernel that reads and writes its bytes once is " +
                    "not expected to beat a copy of them, so the yardstick likely read low for this row, and no " +
                    "conclusion rests on it");
  for (const auto& [base, rows] : baselines)
    lines.push_back("speed-up = kernel ms of " + base + " / kernel ms of the row, for: " + rows);
  const bool local_rows = std::any_of(rows_.begin(), rows_.end(), [](const ResultRow& r) { return r.local_loads > 0; });
  if (!copies.empty() && roof_.gflops > 0)
    lines.push_back("roofline ms = the larger of bytes / the row's copy bandwidth and flops / " +
                    fixed(roof_.gflops, 0) + " GFLOP/s (fma_peak.cl); memory-bound below " + fixed(roof_.ridge(), 1) +
                    " flop/B" + (local_rows ? "; or a row's local-load floor where it is larger (below)" : ""));
  else if (!copies.empty())  // the device's timer gave fma_peak.cl no time: no arithmetic roof
    lines.push_back("roofline ms = bytes / the row's copy bandwidth: fma_peak.cl's time read 0 on this device, so "
                    "its arithmetic rate is unknown and the roof counts memory only");
  // Each row declaring local loads: how many an output, and the floor they set at the measured rate.
  for (const auto& r : rows_) {
    if (r.local_loads <= 0 || r.pixels <= 0) continue;
    const bool wide = r.local_load_bytes == 16;
    const double rate = wide ? roof_.local4_gloads : roof_.local_gloads;
    std::string line = "local loads of " + r.variant + ": " + fixed(r.local_loads / r.pixels, 2) +
                       (wide ? " float4s" : " floats") + " an output pixel; ";
    if (rate > 0) {
      const double copy_gbps = copies.count(r.copy) ? copies.at(r.copy).gbps : 0;
      line += "at " + fixed(rate, 1) + " G" + (wide ? " float4s" : " floats") +
              " a second (local_load_peak.cl) a floor of " +
              milliseconds(roof_.local_ms(r.local_loads, r.local_load_bytes)) +
              " ms; its bound: " + roof_.bound_name(r, copy_gbps);
    } else {
      line += "local_load_peak.cl's time read 0 on this device, so they set no floor";
    }
    lines.push_back(line);
  }
  // Which copy each group of rows divides by, how it was timed and how steady it was.
  double smallest_copy = 0;
  for (const auto& [pixels, c] : copies) {
    const std::string which =
        std::string("the ") + copy_label(pixels) + " copy (copy.cl's " + copy_kernel_name(pixels) + ")";
    std::string what = "% of copy" + (copies.size() > 1 ? " of " + copy_rows[pixels] : std::string()) + ": of " +
                       which + ", " + fixed(c.gbps, 1) + " GB/s";
    if (c.runs > 0)
      what += ", the fastest of " + std::to_string(c.runs) + " runs" +
              (c.buffer_bytes > 0 ? " of 2 x " + mebibytes(c.buffer_bytes) : "") + " after a warm-up" +
              (c.ms > 0 ? " (" + milliseconds(c.ms) + " ms)" : "") +
              (c.group > 0 ? ", groups of " + std::to_string(c.group) : "");
    if (c.runs > 1 && c.slowest_gbps > 0) {
      what += "; median " + fixed(c.median_gbps, 1) + ", slowest " + fixed(c.slowest_gbps, 1) + " GB/s";
      if (c.gbps / c.slowest_gbps > 1.5)
        what += " (a swing of " + fixed(c.gbps / c.slowest_gbps, 1) + "x: the device was busy, so these are rough)";
    }
    lines.push_back(what);
    if (c.buffer_bytes > 0)
      smallest_copy = smallest_copy > 0 ? std::min(smallest_copy, c.buffer_bytes) : c.buffer_bytes;
  }
  // A copy under 4x the cache is partly cached: on a slow device the copy stops growing where it
  // lasts 40 ms (harness/runs/measure_roofline.hpp), short of its buffers.
  if (smallest_copy > 0)
    lines.push_back(
        "copies: last-level cache " + mebibytes(roof_.cache_bytes) +
        (roof_.reported_cache_bytes <= 0 ? " (the course's size for a device whose driver reports none)"
         : roof_.cache_bytes > roof_.reported_cache_bytes
             ? " (the course's size for a GPU; the driver reports " + mebibytes(roof_.reported_cache_bytes) + ")"
             : " (as the driver reports)") +
        (smallest_copy < 4 * roof_.cache_bytes ? ", and a copy under 4x it: partly cached" : ""));
  if (!crossed.empty())
    lines.push_back("kernel ms above end-to-end ms (" + crossed + "): the two are medians of separate sets of runs, " +
                    "which cross on a device busy with other work; the gap is noise, not a negative copy time");
  lines.insert(lines.end(), notes.begin(), notes.end());

  const std::string copy_title =
      roof_.copy.gbps > 0 ? "  (device copy bandwidth: " + fixed(roof_.copy.gbps, 1) + " GB/s)" : "";
  TextTable table{title_ + copy_title, head, cells, lines, drop_order, false, title_};
  table.print(out, full_table);
  if (table_printed) table_printed(*this, head, cells, lines);  // `--record FILE`: the table as data
}

void on_table_printed(TablePrinted printed) { table_printed = std::move(printed); }

}  // namespace course
