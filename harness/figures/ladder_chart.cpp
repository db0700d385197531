#include "ladder_chart.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>

#include "svg_figure.hpp"
#include "text_table.hpp"

namespace course {
namespace {

constexpr int kWidth = 900, kTop = 62, kRow = 24, kBar = 14, kRight = 190;
const char* const kVerified = "#0072B2";  // Okabe-Ito blue
const char* const kWrong = "#D55E00";     // vermillion
const char* const kCopy = "#222222";
const char* const kRoof = "#E69F00";  // orange
const char* const kWhisker = "#999999";

// A time with three significant digits: 0.0761 ms, 1.23 ms, 968 ms.
std::string time_text(double ms) {
  std::ostringstream s;
  const int decimals = ms > 0 ? std::clamp(2 - static_cast<int>(std::floor(std::log10(ms))), 0, 5) : 2;
  s << std::fixed << std::setprecision(decimals) << ms << " ms";
  return s.str();
}

// Where a time lies across the plot: linear from 0, or logarithmic over whole decades.
struct TimeAxis {
  bool log = false;
  double low = 0, high = 1;  // ms, or decades when log
  int x0 = 0, width = 1;
  double at(double ms) const {
    const double f = log ? (std::log10(std::max(ms, std::pow(10, low))) - low) / (high - low) : ms / high;
    return x0 + std::clamp(f, 0.0, 1.0) * width;
  }
};

// A step of 1, 2 or 5 times a power of ten that cuts `span` into about five parts.
double nice_step(double span) {
  const double raw = span / 5, power = std::pow(10, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0})
    if (m * power >= raw) return m * power;
  return 10 * power;
}

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

}  // namespace

std::string ladder_svg(const std::string& title, const std::string& device, const Roofline& roof,
                       const std::vector<ResultRow>& rows) {
  // Each row against the copy of its own pixels (ResultRow::copy), each copy asked for once.
  std::map<PixelType, double> copy_gbps;
  for (const ResultRow& r : rows)
    if (roof.copy.gbps > 0 && r.bytes > 0 && !copy_gbps.count(r.copy)) copy_gbps[r.copy] = roof.copy_of(r.copy).gbps;
  auto copy_ms = [&](const ResultRow& r) {
    const double gbps = copy_gbps.count(r.copy) ? copy_gbps.at(r.copy) : 0;
    return gbps > 0 && r.bytes > 0 ? r.bytes / (gbps * 1e6) : 0;
  };
  auto roof_ms = [&](const ResultRow& r) {
    return copy_ms(r) > 0 ? roof.bound_ms(r.bytes, r.flops, copy_gbps.at(r.copy)) : 0;
  };
  // The table's marks, as each row's time carries them below.
  const auto too_short = [&](const ResultRow& r) { return r.kernel_ms < roof.shortest_ms(); };
  const auto cached = [&](const ResultRow& r) { return r.bytes > 0 && r.bytes <= roof.cache_bytes; };
  bool short_rows = false, cached_rows = false;
  for (const ResultRow& r : rows)
    if (r.kernel_ms > 0) short_rows |= too_short(r), cached_rows |= cached(r);
  // The scale: every bar, whisker and mark fits.
  double fastest = 0, slowest = 0;
  std::size_t longest_name = 8;
  for (const ResultRow& r : rows) {
    longest_name = std::max(longest_name, r.variant.size());
    for (const double t : {r.kernel_ms, r.max_ms, copy_ms(r), roof_ms(r)})
      if (t > 0) fastest = fastest > 0 ? std::min(fastest, t) : t, slowest = std::max(slowest, t);
  }
  TimeAxis axis;
  axis.x0 = 20 + static_cast<int>(std::min<std::size_t>(longest_name, 40) * 7) + 10;
  axis.width = kWidth - axis.x0 - kRight;
  axis.log = fastest > 0 && slowest > 30 * fastest;
  if (axis.log)
    axis.low = std::floor(std::log10(fastest)), axis.high = std::max(axis.low + 1, std::ceil(std::log10(slowest)));
  const double step = nice_step(slowest > 0 ? slowest : 1);
  if (!axis.log) axis.high = std::ceil((slowest > 0 ? slowest : 1) / step) * step;

  const int bottom = kTop + static_cast<int>(rows.size()) * kRow;
  bool roof_rows = false, copy_rows = false;
  std::ostringstream svg;
  // The marks' meaning gets a line of its own under the copy's: on one line they run past the width.
  const int height = bottom + 96 + (short_rows || cached_rows ? 16 : 0);
  svg << svg_opening(kWidth, height, title) << "<text x=\"20\" y=\"42\" font-size=\"12\" fill=\"#555\">on "
      << svg_escaped(device) << ": each variant's median kernel time (event profiling); shorter is faster</text>\n";
  // The grid and the axis under the bars.
  std::vector<double> ticks;
  if (axis.log)
    for (double d = axis.low; d <= axis.high; ++d) ticks.push_back(std::pow(10, d));
  else
    for (double t = 0; t <= axis.high + step / 2; t += step) ticks.push_back(t);
  for (const double t : ticks)
    svg << "<line x1=\"" << axis.at(t) << "\" y1=\"" << kTop - 6 << "\" x2=\"" << axis.at(t) << "\" y2=\"" << bottom
        << "\" stroke=\"#ddd\"/><text x=\"" << axis.at(t) << "\" y=\"" << bottom + 16
        << "\" font-size=\"11\" text-anchor=\"middle\">" << number(t) << "</text>\n";
  svg << "<text x=\"" << axis.x0 + axis.width / 2 << "\" y=\"" << bottom + 34
      << "\" font-size=\"12\" text-anchor=\"middle\">kernel time, ms" << (axis.log ? " (logarithmic scale)" : "")
      << "</text>\n";

  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ResultRow& r = rows[i];
    const int y = kTop + static_cast<int>(i) * kRow, mid = y + kBar / 2;
    std::string name = r.variant.size() > 40 ? r.variant.substr(0, 37) + "..." : r.variant;
    svg << "<text x=\"" << axis.x0 - 8 << "\" y=\"" << mid + 4 << "\" font-size=\"12\" text-anchor=\"end\">"
        << svg_escaped(name) << "</text>\n";
    if (r.kernel_ms <= 0) {
      svg << "<text x=\"" << axis.x0 + 4 << "\" y=\"" << mid + 4
          << "\" font-size=\"12\" fill=\"#555\">not timed</text>\n";
      continue;
    }
    const double end = axis.at(r.kernel_ms);
    svg << "<rect x=\"" << axis.x0 << "\" y=\"" << y << "\" width=\"" << std::max(1.0, end - axis.x0) << "\" height=\""
        << kBar << "\" fill=\"" << (r.verified ? kVerified : kWrong) << "\"/>\n";
    if (r.runs > 1 && r.max_ms > r.min_ms)  // the whisker, capped at both ends
      svg << "<path d=\"M" << axis.at(r.min_ms) << " " << mid - 3 << "v6M" << axis.at(r.min_ms) << " " << mid << "H"
          << axis.at(r.max_ms) << "M" << axis.at(r.max_ms) << " " << mid - 3 << "v6\" stroke=\"" << kWhisker
          << "\" fill=\"none\"/>\n";
    if (const double c = copy_ms(r); c > 0) {
      copy_rows = true;
      svg << "<line x1=\"" << axis.at(c) << "\" y1=\"" << y - 3 << "\" x2=\"" << axis.at(c) << "\" y2=\""
          << y + kBar + 3 << "\" stroke=\"" << kCopy << "\" stroke-width=\"2.5\"/>\n";
      if (const double b = roof_ms(r); b > 1.01 * c) {
        roof_rows = true;
        svg << "<line x1=\"" << axis.at(b) << "\" y1=\"" << y - 3 << "\" x2=\"" << axis.at(b) << "\" y2=\""
            << y + kBar + 3 << "\" stroke=\"" << kRoof << "\" stroke-width=\"2.5\"/>\n";
      }
    }
    // The time with the table's marks, then the verdict.
    const double text_x = std::max({end, axis.at(r.max_ms), axis.at(copy_ms(r)), axis.at(roof_ms(r))}) + 8;
    svg << "<text x=\"" << text_x << "\" y=\"" << mid + 4 << "\" font-size=\"12\">" << time_text(r.kernel_ms)
        << (too_short(r) ? "*" : "") << (cached(r) ? "+" : "") << "<tspan fill=\"" << (r.verified ? "#009E73" : kWrong)
        << "\" font-weight=\"bold\">" << (r.verified ? "  \u2713" : "  not verified") << "</tspan></text>\n";
  }

  // The legend and what the marks mean.
  int ly = bottom + 58;
  svg << svg_legend_entry(20, ly, kVerified, "verified against the CPU reference")
      << svg_legend_entry(280, ly, kWrong, "not verified");
  int lx = 400;
  auto line_entry = [&](const char* colour, const std::string& text) {
    svg << "<line x1=\"" << lx + 6 << "\" y1=\"" << ly - 12 << "\" x2=\"" << lx + 6 << "\" y2=\"" << ly + 2
        << "\" stroke=\"" << colour << "\" stroke-width=\"2.5\"/><text x=\"" << lx + 16 << "\" y=\"" << ly
        << "\" font-size=\"12\">" << svg_escaped(text) << "</text>\n";
    lx += 26 + static_cast<int>(text.size()) * 6;
  };
  svg << "<path d=\"M" << lx << " " << ly - 7 << "v6M" << lx << " " << ly - 4 << "h14M" << lx + 14 << " " << ly - 7
      << "v6\" stroke=\"" << kWhisker << "\" fill=\"none\"/><text x=\"" << lx + 20 << "\" y=\"" << ly
      << "\" font-size=\"12\">fastest to slowest run</text>\n";
  lx += 160;
  if (copy_rows) line_entry(kCopy, "a copy of its bytes");
  if (roof_rows) line_entry(kRoof, "its roofline (arithmetic)");
  std::ostringstream notes;
  if (copy_rows) {
    notes << "copy: the row's bytes at the measured bandwidth of a copy of its pixels (" << std::fixed
          << std::setprecision(1);
    for (auto it = copy_gbps.begin(); it != copy_gbps.end(); ++it)
      notes << (it == copy_gbps.begin() ? "" : ", ")
            << (it->first == PixelType::u8    ? "8-bit "
                : it->first == PixelType::f16 ? "half "
                                              : "float ")
            << it->second << " GB/s";
    notes << ")";
    if (roof_rows) notes << "; roofline: its flops at " << std::setprecision(0) << roof.gflops << " GFLOP/s";
  }
  std::string marks = short_rows ? "* too short to time" : "";
  if (cached_rows) marks += (short_rows ? "; " : "") + std::string("+ fits the last-level cache");
  const std::string copy_note = notes.str();
  ly += 22;
  for (const std::string& line : {copy_note, marks}) {
    if (line.empty()) continue;
    svg << "<text x=\"20\" y=\"" << ly << "\" font-size=\"12\" fill=\"#555\">" << svg_escaped(line) << "</text>\n";
    ly += 16;
  }
  svg << "</svg>\n";
  return svg.str();
}

void save_ladder_svg(const std::filesystem::path& path, const ResultsTable& table, const std::string& device,
                     std::ostream& out) {
  save_svg_file(path, ladder_svg(table.title(), device, table.roof(), table.rows()));
  out << wrap("the table as a bar chart: " + shown_path(path));  // a long folder takes a second line
}

}  // namespace course
