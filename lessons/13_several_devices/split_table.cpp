#include "split_table.hpp"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "record.hpp"
#include "text_table.hpp"

namespace lesson13 {
namespace {

// The least bytes a step's kernels move per pixel: in and out of the row pass and of the column
// pass, a float each.
constexpr double kKernelBytesPerPixel = 4 * sizeof(float);

// "*+" from marks found in any order.
std::string ordered(const std::string& marks) {
  return std::string(marks.find('*') != std::string::npos ? "*" : "") +
         (marks.find('+') != std::string::npos ? "+" : "");
}

}  // namespace

void print_split_table(const std::string& title, const std::vector<Measured>& measured,
                       const std::vector<Worker>& workers, int width, const std::filesystem::path& dir) {
  const std::size_t n = workers.size();
  // What each device's marks are judged by: its last-level cache and its timer.
  std::vector<course::Roofline> limits;
  for (const Worker& w : workers) limits.push_back(course::cache_and_timer(w.dc));
  std::vector<bool> short_on(n), cached_on(n);

  // Each run's row, its fields as --record writes them.
  std::vector<course::ResultRow> totals;
  for (const Measured& m : measured) {
    course::ResultRow r;
    r.variant = m.run.name;
    r.kernel_ms = m.run.kernel_ms();
    r.min_ms = m.run.fastest_ms, r.max_ms = m.run.slowest_ms, r.runs = m.run.runs;
    for (const DeviceLoad& d : m.run.devices) {
      r.end_to_end_ms = std::max(r.end_to_end_ms, d.events_ms);
      r.pixels += double(d.rows) * width * m.steps;
    }
    r.bytes = kKernelBytesPerPixel * r.pixels;
    r.max_error = m.max_error, r.verified = m.verified;
    r.baseline = m.against >= 0 ? measured[m.against].run.name : "-";
    totals.push_back(r);
  }

  course::TextTable table;
  table.title = title;
  table.head = {"variant",   "kernel ms", "rows",     "idle ms", "MB moved",
                "events ms", "wall ms",   "speed-up", "eff.",    "ok"};
  table.drop_order = {4, 2, 5, 8};
  std::vector<course::ResultRow> rows;  // one per printed row
  std::vector<std::string> spread_notes;
  for (std::size_t i = 0; i < measured.size(); ++i) {
    const Measured& m = measured[i];
    const course::ResultRow& total = totals[i];
    // One row per device that computed rows, each judged by its own device's limits.
    std::vector<course::ResultRow> parts;
    std::vector<std::vector<std::string>> part_cells;
    std::string marks;
    for (std::size_t k = 0; k < n; ++k) {
      const DeviceLoad& d = m.run.devices[k];
      if (d.rows == 0) continue;
      course::ResultRow r;
      r.variant = m.run.name + ": " + workers[k].name;
      r.kernel_ms = d.kernel_ms, r.min_ms = r.max_ms = d.kernel_ms, r.runs = 1;
      r.end_to_end_ms = d.events_ms;
      r.pixels = double(d.rows) * width * m.steps, r.bytes = kKernelBytesPerPixel * r.pixels;
      r.max_error = m.max_error, r.verified = m.verified, r.baseline = "-";
      const std::string own = course::time_marks(limits[k], r.kernel_ms, r.bytes);
      short_on[k] = short_on[k] || own.find('*') != std::string::npos;
      cached_on[k] = cached_on[k] || own.find('+') != std::string::npos;
      marks += own;
      parts.push_back(r);
      part_cells.push_back({"- " + workers[k].name, fixed(d.kernel_ms, 3) + own, std::to_string(d.rows),
                            fixed(std::max(0.0, m.run.wall_ms - d.kernel_ms), 2), fixed(d.bytes / 1e6, 2),
                            fixed(d.events_ms, 3), "", "", "", ""});
    }
    // The run's row: its slowest device's kernel time, marked when any device's time is.
    std::string speedup, efficiency;
    if (m.against >= 0 && total.kernel_ms > 0) {
      const course::ResultRow& base = totals[m.against];
      const double times = base.kernel_ms / total.kernel_ms;
      speedup = fixed(times, 2) + "x", efficiency = fixed(100 * times / n, 0) + "%";
      if (std::size_t(m.against) != i && course::within_spread(total, base)) {
        speedup += "~";
        spread_notes.push_back(course::spread_note(total, base));
      }
    }
    const std::string ok = m.verified ? "yes" : "NO";
    if (m.alone) {  // one device: its row is the run's
      std::vector<std::string> cells = part_cells.at(0);
      cells[0] = m.run.name, cells[6] = fixed(m.run.wall_ms, 2), cells[7] = speedup, cells[8] = efficiency,
      cells[9] = ok;
      table.rows.push_back(cells);
      rows.push_back(total);
      continue;
    }
    table.rows.push_back({m.run.name, fixed(total.kernel_ms, 3) + ordered(marks),
                          std::to_string(int(total.pixels / width / m.steps)), "", "", fixed(total.end_to_end_ms, 3),
                          fixed(m.run.wall_ms, 2), speedup, efficiency, ok});
    rows.push_back(total);
    table.rows.insert(table.rows.end(), part_cells.begin(), part_cells.end());
    rows.insert(rows.end(), parts.begin(), parts.end());
  }

  // The notes: the marks (once for devices judged alike), what the columns mean, the spreads.
  for (std::size_t k = 0; k < n; ++k)
    for (const std::string& note : course::mark_notes(limits[k], short_on[k], cached_on[k]))
      if (std::find(table.notes.begin(), table.notes.end(), note) == table.notes.end()) table.notes.push_back(note);
  table.notes.push_back(
      "speed-up: the best single device's kernel time over the run's (its slowest device's); "
      "eff. = speed-up / devices; idle: wall time a device ran no kernel");
  table.notes.push_back(
      "events ms: a device's commands (uploads, kernels, halos, downloads) summed from their "
      "events, a run's its slowest device's; wall ms: the host's clock, first upload to the "
      "result gathered");
  table.notes.push_back("iterated rows compare with the best device alone doing the same steps");
  table.notes.insert(table.notes.end(), spread_notes.begin(), spread_notes.end());
  table.print(std::cout, dir / "results.txt");
  course::record_table(table.title, limits.front(), rows, table.head, table.rows, table.notes);
}

}  // namespace lesson13
