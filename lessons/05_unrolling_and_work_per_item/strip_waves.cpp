// Lesson 05's strip sweep and its wave model (strip_waves.hpp).
#include "strip_waves.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>
#include <string>

#include "one_change.hpp"
#include "record.hpp"

namespace course {

std::vector<std::size_t> parse_strips(const std::string& text) {
  std::vector<std::size_t> strips;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');) {
    const bool digits = !item.empty() && item.size() <= 5 && item.find_first_not_of("0123456789") == std::string::npos;
    if (!digits || std::stoul(item) < 1 || std::stoul(item) > 65536)
      throw UsageError("option '--strips' takes rows from 1 to 65536, comma-separated (not '" + item + "')");
    strips.push_back(std::stoul(item));
  }
  return strips;
}

std::size_t predict_strip_times(std::vector<StripPoint>& points, std::size_t resident) {
  if (points.empty() || resident == 0) return 0;
  const auto waves = [&](const StripPoint& p) { return double(p.groups) / double(resident); };
  std::size_t fit = 0;
  for (std::size_t i = 1; i < points.size(); ++i)
    if (waves(points[i]) > waves(points[fit])) fit = i;
  // Time = (whole waves) x (one group's rows) x (time per row of a group), that last fitted.
  const double per_row = points[fit].row.kernel_ms / (std::ceil(waves(points[fit])) * double(points[fit].rows));
  for (StripPoint& p : points) {
    p.predicted_ms = std::ceil(waves(p)) * double(p.rows) * per_row;
    p.no_tail_ms = waves(p) * double(p.rows) * per_row;
  }
  return fit;
}

std::size_t count_resident_groups(const DeviceContext& dc, const SeparableBuffers& buffers, int radius, int steps,
                                  std::size_t strip) {
  BlockedRung rung =
      single_pass_blocked_rung(dc, "single_pass_blocked", buffers, radius, steps, strip, " -D COUNT_LIVE");
  const cl_int zeros[2] = {0, 0};
  cl::Buffer live(dc.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zeros, const_cast<cl_int*>(zeros));
  rung.kernel.setArg(5, live);
  rung.enqueue();
  rung.enqueue();
  cl_int counts[2] = {0, 0};
  dc.queue.enqueueReadBuffer(live, CL_TRUE, 0, sizeof counts, counts);
  return static_cast<std::size_t>(std::max(counts[1], 0));
}

bool run_strip_sweep(const DeviceContext& dc, const SeparableBuffers& buffers, const GrayImage& reference, int radius,
                     int steps, const std::vector<std::size_t>& strips, int repeat, const Roofline& roof,
                     std::ostream& out) {
  std::vector<StripPoint> points;
  const SinglePassShape shape = single_pass_blocked_shape(dc, radius, steps);
  const std::size_t tile = shape.group[1] * steps;
  const std::size_t columns = (buffers.width + 4 * shape.group[0] - 1) / (4 * shape.group[0]);
  for (const std::size_t wanted : strips) {
    const std::size_t strip = round_up(wanted, tile);
    if (!points.empty() && points.back().strip == strip) continue;
    BlockedRung rung = single_pass_blocked_rung(dc, "single_pass_blocked", buffers, radius, steps, strip);
    StripPoint p;
    p.strip = strip;
    p.groups = columns * ((buffers.height + strip - 1) / strip);
    p.rows = 2 * std::min<std::size_t>(strip, buffers.height) + 2 * radius;  // strip + 2R read, strip written
    const VariantResult r =
        measure_variant(dc, buffers, nullptr, "strip " + std::to_string(strip), rung.enqueue, reference, repeat, 1);
    p.row = r.row;
    points.push_back(p);
  }
  if (points.empty()) return true;
  const std::size_t cus = dc.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
  const std::size_t resident = count_resident_groups(dc, buffers, radius, steps, points.front().strip);
  const std::size_t fit = predict_strip_times(points, resident);

  const std::string title = "Strip sweep: single_pass_blocked, " + std::to_string(shape.group[0]) + "x" +
                            std::to_string(shape.group[1]) + " groups, " + std::to_string(steps) + " rows a work-item";
  const std::string counted = "resident groups: " + std::to_string(resident) + " ran at once (" +
                              fixed(double(resident) / double(cus), 1) + " per compute unit, " + std::to_string(cus) +
                              " compute units), counted by the kernel itself (-D COUNT_LIVE)";
  const std::vector<std::string> head = {"strip",      "groups",      "waves", "predicted ms",
                                         "no-tail ms", "measured ms", "ratio", "verified"};
  std::vector<std::vector<std::string>> printed;
  std::vector<ResultRow> recorded;
  for (const StripPoint& p : points) {
    printed.push_back({std::to_string(p.strip), std::to_string(p.groups),
                       fixed(double(p.groups) / double(std::max<std::size_t>(resident, 1)), 2),
                       fixed(p.predicted_ms, 4), fixed(p.no_tail_ms, 4), fixed(p.row.kernel_ms, 4),
                       fixed(p.row.kernel_ms / p.predicted_ms, 2), p.row.verified ? "yes" : "NO"});
    recorded.push_back(p.row);
    recorded.back().variant = "strip_" + std::to_string(p.strip);
  }
  const std::vector<std::string> notes = {
      counted, "fit: strip " + std::to_string(points[fit].strip),
      "predicted ms: whole waves (groups / resident groups, rounded up) x a group's rows (2 x strip + 2R) x a time "
      "per row fitted to the strip named by fit (the one with the most waves); no-tail ms counts the last wave only as "
      "full as it is"};
  TextTable{title, head, printed, notes, {}, false, ""}.print(out);
  record_sweep(title, roof, recorded, head, printed, notes);
  return std::all_of(points.begin(), points.end(), [](const StripPoint& p) { return p.row.verified; });
}

}  // namespace course
