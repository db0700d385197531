#include "roofline_plot.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

#include "svg_figure.hpp"

namespace course {
namespace {

// The drawing area inside the canvas; the margins hold the title, the labels and the ticks.
constexpr double kWidth = 900, kHeight = 440, kLeft = 80, kRight = 250, kTop = 50, kBottom = 60;

// A logarithmic axis over whole decades: the position of v between `from` and `to` pixels.
struct LogAxis {
  double low, high;  // decades, e.g. -1 and 3 for 0.1 to 1000
  double at(double v, double from, double to) const {
    return from + (std::log10(v) - low) / (high - low) * (to - from);
  }
};

}  // namespace

std::string render_roofline_svg(const std::string& title, const Roofline& roof, const std::vector<ResultRow>& rows) {
  struct Dot {
    std::string name;
    double intensity, gflops;
  };
  std::vector<Dot> dots;
  for (const ResultRow& r : rows)
    if (r.verified && r.flops > 0 && r.bytes > 0 && r.kernel_ms > 0)
      dots.push_back({r.variant, r.flops / r.bytes, r.flops / (r.kernel_ms * 1e6)});
  // Decades wide enough for every dot, the ridge and the ceiling.
  double x_lo = roof.ridge() / 10, x_hi = roof.ridge() * 10, y_lo = roof.gflops / 100, y_hi = roof.gflops * 2;
  for (const Dot& d : dots) {
    x_lo = std::min(x_lo, d.intensity / 2), x_hi = std::max(x_hi, d.intensity * 2);
    y_lo = std::min(y_lo, d.gflops / 2);
  }
  const LogAxis x{std::floor(std::log10(x_lo)), std::ceil(std::log10(x_hi))};
  const LogAxis y{std::floor(std::log10(y_lo)), std::ceil(std::log10(y_hi))};
  auto px = [&](double v) { return x.at(v, kLeft, kWidth - kRight); };
  auto py = [&](double v) { return y.at(v, kHeight - kBottom, kTop); };

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << kWidth / 2 << "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">" << svg_escaped(title)
      << "</text>\n";
  for (double d = x.low; d <= x.high; ++d)
    svg << "<line x1=\"" << px(std::pow(10, d)) << "\" y1=\"" << kTop << "\" x2=\"" << px(std::pow(10, d)) << "\" y2=\""
        << kHeight - kBottom << "\" stroke=\"#ddd\"/><text x=\"" << px(std::pow(10, d)) << "\" y=\""
        << kHeight - kBottom + 16 << "\" text-anchor=\"middle\">" << std::pow(10, d) << "</text>\n";
  for (double d = y.low; d <= y.high; ++d)
    svg << "<line x1=\"" << kLeft << "\" y1=\"" << py(std::pow(10, d)) << "\" x2=\"" << kWidth - kRight << "\" y2=\""
        << py(std::pow(10, d)) << "\" stroke=\"#ddd\"/><text x=\"" << kLeft - 6 << "\" y=\"" << py(std::pow(10, d)) + 4
        << "\" text-anchor=\"end\">" << std::pow(10, d) << "</text>\n";
  svg << "<text x=\"" << (kLeft + kWidth - kRight) / 2 << "\" y=\"" << kHeight - 20
      << "\" text-anchor=\"middle\">arithmetic intensity (floating-point operations per byte moved)</text>\n"
      << "<text transform=\"translate(20," << (kTop + kHeight - kBottom) / 2
      << ") rotate(-90)\" text-anchor=\"middle\">GFLOP/s</text>\n";
  // The roofline: memory-bound up to the ridge, arithmetic-bound after it.
  const double left = std::pow(10, x.low), right = std::pow(10, x.high);
  svg << "<polyline fill=\"none\" stroke=\"#0072B2\" stroke-width=\"2.5\" points=\"" << px(left) << ","
      << py(std::max(roof.copy.gbps * left, std::pow(10, y.low))) << " " << px(roof.ridge()) << "," << py(roof.gflops)
      << " " << px(right) << "," << py(roof.gflops) << "\"/>\n"
      << "<text x=\"" << px(right) - 4 << "\" y=\"" << py(roof.gflops) - 6 << "\" text-anchor=\"end\" fill=\"#0072B2\">"
      << std::lround(roof.gflops) << " GFLOP/s (fma_peak.cl)</text>\n"
      << "<text x=\"" << px(roof.ridge()) - 6 << "\" y=\"" << py(roof.gflops) + 16
      << "\" text-anchor=\"end\" fill=\"#0072B2\">" << std::lround(roof.copy.gbps) << " GB/s (copy)</text>\n";
  // The dots, numbered; the legend beside the plot names them and says how near each came to
  // its own bound (the roofline at its intensity). Kernels of the same intensity sit in one
  // column: their numbers are placed from the top down, each below the one before if they would
  // overlap, with a thin line back to a dot whose number had to move.
  std::vector<std::size_t> order(dots.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return dots[a].gflops > dots[b].gflops; });
  std::vector<std::pair<double, double>> placed;  // the numbers' positions so far
  for (const std::size_t i : order) {
    const double cx = px(dots[i].intensity), cy = py(dots[i].gflops);
    double ty = cy + 4;
    for (bool moved = true; moved;) {
      moved = false;
      for (const auto& [x0, y0] : placed)
        // Only a move down counts: y0 + 13 - y0 can round to just under 13, and without this
        // check the same number would "move" to where it is, for ever.
        if (std::abs(x0 - (cx + 7)) < 16 && std::abs(y0 - ty) < 13 && y0 + 13 > ty) ty = y0 + 13, moved = true;
    }
    placed.emplace_back(cx + 7, ty);
    const double bound = std::min(roof.gflops, roof.copy.gbps * dots[i].intensity);
    svg << "<circle cx=\"" << cx << "\" cy=\"" << cy << "\" r=\"4\" fill=\"#D55E00\"/>";
    if (ty - cy > 8)
      svg << "<line x1=\"" << cx + 3 << "\" y1=\"" << cy + 3 << "\" x2=\"" << cx + 7 << "\" y2=\"" << ty - 9
          << "\" stroke=\"#D55E00\" stroke-width=\"0.6\"/>";
    svg << "<text x=\"" << cx + 7 << "\" y=\"" << ty << "\" fill=\"#D55E00\">" << i + 1 << "</text>\n<text x=\""
        << kWidth - kRight + 14 << "\" y=\"" << kTop + 16 * i + 10 << "\">" << i + 1 << "  " << svg_escaped(dots[i].name)
        << " (" << std::lround(100 * dots[i].gflops / bound) << "%)</text>\n";
  }
  svg << "<text x=\"" << kWidth - kRight + 14 << "\" y=\"" << kTop + 16 * dots.size() + 18
      << "\" fill=\"#555\">(%: of the roofline at its intensity)</text>\n";
  svg << "</svg>\n";
  return svg.str();
}

void save_roofline_svg(const std::filesystem::path& path, const std::string& title, const Roofline& roof,
                       const std::vector<ResultRow>& rows) {
  save_svg_file(path, render_roofline_svg(title, roof, rows));
}

}  // namespace course
