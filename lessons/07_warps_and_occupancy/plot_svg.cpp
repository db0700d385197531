#include "plot_svg.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "svg_figure.hpp"

namespace course {
namespace {

// The drawing area inside the 640 x 400 canvas; the margins hold labels, ticks and the legend.
constexpr double kWidth = 640, kHeight = 400;
constexpr double kLeft = 70, kRight = 160, kTop = 40, kBottom = 60;

// Colours that stay apart for readers with the common colour-vision deficiencies (Okabe-Ito).
const char* const kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"};

std::string number(double v) {
  std::ostringstream s;
  s << std::setprecision(4) << v;
  return s.str();
}

// A step of 1, 2 or 5 times a power of ten giving about five intervals over [lo, hi].
double nice_step(double lo, double hi) {
  const double raw = (hi - lo) / 5;
  if (!(raw > 0)) return 1;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * power >= raw) return m * power;
  return 10 * power;
}

}  // namespace

std::string render_svg(const LinePlot& plot) {
  // Data range over every finite point.
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo, y_lo = x_lo, y_hi = -x_lo;
  for (const auto& s : plot.series) {
    if (s.x.size() != s.y.size())
      throw std::invalid_argument("plot series '" + s.name + "' has x and y of different lengths");
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      if (plot.log2_x && !(s.x[i] > 0)) throw std::invalid_argument("a log2 x axis needs positive x values");
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      const double x = plot.log2_x ? std::log2(s.x[i]) : s.x[i];
      x_lo = std::min(x_lo, x), x_hi = std::max(x_hi, x);
      y_lo = std::min(y_lo, s.y[i]), y_hi = std::max(y_hi, s.y[i]);
    }
  }
  if (!(x_lo <= x_hi)) x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 1;  // nothing to draw: empty axes
  if (plot.y_from_zero) y_lo = std::min(0.0, y_lo);
  if (x_hi == x_lo) x_lo -= 1, x_hi += 1;
  if (y_hi == y_lo) y_hi = y_lo + 1;
  const double y_step = nice_step(y_lo, y_hi);
  y_lo = std::floor(y_lo / y_step) * y_step;
  y_hi = std::ceil(y_hi / y_step) * y_step;

  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto px = [&](double x) { return kLeft + (x - x_lo) / (x_hi - x_lo) * plot_w; };
  auto py = [&](double y) { return kTop + plot_h - (y - y_lo) / (y_hi - y_lo) * plot_h; };

  std::ostringstream svg;
  svg << std::fixed << std::setprecision(1);
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" viewBox=\"0 0 " << kWidth << " " << kHeight << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << kWidth / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" << svg_escaped(plot.title)
      << "</text>\n";

  // Grid and ticks: y at the nice step, x at every power of two (log axis) or a nice step.
  for (double y = y_lo; y <= y_hi + y_step / 2; y += y_step) {
    svg << "<line x1=\"" << kLeft << "\" y1=\"" << py(y) << "\" x2=\"" << kLeft + plot_w << "\" y2=\"" << py(y)
        << "\" stroke=\"#dddddd\"/>\n<text x=\"" << kLeft - 6 << "\" y=\"" << py(y) + 4 << "\" text-anchor=\"end\">"
        << number(y) << "</text>\n";
  }
  const double x_step = plot.log2_x ? std::max(1.0, std::ceil((x_hi - x_lo) / 10)) : nice_step(x_lo, x_hi);
  for (double x = std::ceil(x_lo / x_step) * x_step; x <= x_hi + 1e-9; x += x_step) {
    const std::string label = plot.log2_x ? number(std::exp2(x)) : number(x);
    svg << "<line x1=\"" << px(x) << "\" y1=\"" << kTop << "\" x2=\"" << px(x) << "\" y2=\"" << kTop + plot_h
        << "\" stroke=\"#eeeeee\"/>\n<text x=\"" << px(x) << "\" y=\"" << kTop + plot_h + 16
        << "\" text-anchor=\"middle\">" << label << "</text>\n";
  }
  svg << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << plot_w << "\" height=\"" << plot_h
      << "\" fill=\"none\" stroke=\"black\"/>\n"
      << "<text x=\"" << kLeft + plot_w / 2 << "\" y=\"" << kHeight - 18 << "\" text-anchor=\"middle\">"
      << svg_escaped(plot.x_label) << (plot.log2_x ? " (log scale)" : "") << "</text>\n"
      << "<text transform=\"translate(16," << kTop + plot_h / 2 << ") rotate(-90)\" text-anchor=\"middle\">"
      << svg_escaped(plot.y_label) << "</text>\n";

  // One polyline with round markers per series, and its legend entry on the right.
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    const auto& s = plot.series[k];
    const char* colour = kColours[k % (sizeof kColours / sizeof kColours[0])];
    std::ostringstream points;
    points << std::fixed << std::setprecision(1);
    std::ostringstream markers;
    markers << std::fixed << std::setprecision(1);
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      const double x = px(plot.log2_x ? std::log2(s.x[i]) : s.x[i]), y = py(s.y[i]);
      points << x << "," << y << " ";
      markers << "<circle cx=\"" << x << "\" cy=\"" << y << "\" r=\"3\" fill=\"" << colour << "\"/>\n";
    }
    svg << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\" points=\"" << points.str()
        << "\"/>\n"
        << markers.str();
    const double ly = kTop + 10 + 18.0 * static_cast<double>(k);
    svg << "<line x1=\"" << kLeft + plot_w + 12 << "\" y1=\"" << ly << "\" x2=\"" << kLeft + plot_w + 32 << "\" y2=\""
        << ly << "\" stroke=\"" << colour << "\" stroke-width=\"2\"/>\n<text x=\"" << kLeft + plot_w + 37 << "\" y=\""
        << ly + 4 << "\">" << svg_escaped(s.name) << "</text>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

void save_svg(const std::filesystem::path& path, const LinePlot& plot) {
  save_svg_file(path, render_svg(plot));
}

}  // namespace course
