#include "source_figure.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "svg_figure.hpp"

namespace course {

std::string sources_svg(const std::vector<WarpPicture>& warps) {
  constexpr int kPanelW = 440, kPanelH = 340, kView = 400, kTop = 50;
  const char* const kMarks[] = {"#D55E00", "#E69F00", "#009E73", "#CC79A7", "#0072B2"};
  const int columns = warps.size() > 1 ? 2 : 1, rows = (static_cast<int>(warps.size()) + 1) / 2;
  std::ostringstream svg;
  for (std::size_t k = 0; k < warps.size(); ++k) {
    const WarpPicture& w = warps[k];
    // The output's grid lines (7 across, 7 down), walked in small steps and carried back to the
    // input; a homography's line breaks where it crosses the horizon (its divisor changes sign).
    std::vector<std::vector<std::pair<double, double>>> lines;
    std::vector<std::pair<double, double>> border;  // the sources of the output's edge, for the view
    const int kLines = 6, kSteps = 96;
    for (int along = 0; along < 2; ++along)
      for (int i = 0; i <= kLines; ++i) {
        lines.emplace_back();
        for (int j = 0; j <= kSteps; ++j) {
          const double t = j / double(kSteps), u = i / double(kLines);
          const double x = (w.width - 1) * (along ? t : u), y = (w.height - 1) * (along ? u : t);
          double sx = 0, sy = 0;
          const double divisor = w.matrix[6] * x + w.matrix[7] * y + w.matrix[8];
          if (divisor <= 0 || !source_position(w.matrix, x, y, sx, sy)) {
            if (!lines.back().empty()) lines.emplace_back();
            continue;
          }
          lines.back().emplace_back(sx, sy);
          if (i == 0 || i == kLines) border.emplace_back(sx, sy);
        }
      }
    // The view: the input and the sampled region, within one and a half input sizes around it.
    double x0 = 0, y0 = 0, x1 = w.width, y1 = w.height;
    for (const auto& [sx, sy] : border)
      x0 = std::min(x0, sx), y0 = std::min(y0, sy), x1 = std::max(x1, sx), y1 = std::max(y1, sy);
    x0 = std::max(x0, -1.5 * w.width), y0 = std::max(y0, -1.5 * w.height);
    x1 = std::min(x1, 2.5 * w.width), y1 = std::min(y1, 2.5 * w.height);
    const double scale = std::min((kView - 20) / (x1 - x0), (kPanelH - 110) / (y1 - y0));
    const double left = 20 + (k % 2) * kPanelW + 10, top = kTop + (k / 2) * kPanelH + 40;
    auto px = [&](double x) { return left + (x - x0) * scale; };
    auto py = [&](double y) { return top + (y - y0) * scale; };
    svg << "<text x=\"" << left - 10 << "\" y=\"" << top - 22 << "\" font-weight=\"bold\">" << svg_escaped(w.name)
        << "</text><text x=\"" << left + 30 << "\" y=\"" << top - 22 << "\" font-size=\"11\" fill=\"#555\">"
        << svg_escaped(describe(w.matrix)) << ", " << w.width << "x" << w.height << "</text>\n"
        << "<rect x=\"" << px(x0) << "\" y=\"" << py(y0) << "\" width=\"" << (x1 - x0) * scale << "\" height=\""
        << (y1 - y0) * scale << "\" fill=\"#222\"/>\n"
        << svg_embedded_picture(px(0), py(0), w.width * scale, w.height * scale, w.input);
    svg << "<clipPath id=\"view" << k << "\"><rect x=\"" << px(x0) << "\" y=\"" << py(y0) << "\" width=\""
        << (x1 - x0) * scale << "\" height=\"" << (y1 - y0) * scale << "\"/></clipPath><g clip-path=\"url(#view" << k
        << ")\" fill=\"none\" stroke=\"#56B4E9\">\n";
    for (std::size_t l = 0; l < lines.size(); ++l) {
      if (lines[l].size() < 2) continue;
      svg << "<polyline stroke-width=\"1.5\" points=\"";
      for (const auto& [sx, sy] : lines[l]) svg << px(sx) << "," << py(sy) << " ";
      svg << "\"/>\n";
    }
    svg << "</g>\n";
    // Five output pixels: the corners and the centre, each at its source position.
    const double marks[5][2] = {{0, 0},
                                {w.width - 1.0, 0},
                                {0, w.height - 1.0},
                                {w.width - 1.0, w.height - 1.0},
                                {w.width / 2.0, w.height / 2.0}};
    for (int m = 0; m < 5; ++m) {
      double sx = 0, sy = 0;
      if (!source_position(w.matrix, marks[m][0], marks[m][1], sx, sy)) continue;
      const bool shown = sx >= x0 && sx <= x1 && sy >= y0 && sy <= y1;
      svg << "<text x=\"" << left - 10 + (m % 2) * 205 << "\" y=\"" << top + kPanelH - 88 + (m / 2) * 15
          << "\" font-size=\"11\"><tspan fill=\"" << kMarks[m] << "\" font-weight=\"bold\">\u25CF</tspan> ("
          << std::lround(marks[m][0]) << ", " << std::lround(marks[m][1]) << ") \u2190 (" << std::lround(sx) << ", "
          << std::lround(sy) << ")" << (shown ? "" : " off view") << "</text>\n";
      if (shown)
        svg << "<circle cx=\"" << px(sx) << "\" cy=\"" << py(sy) << "\" r=\"5\" fill=\"" << kMarks[m]
            << "\" stroke=\"white\" stroke-width=\"1.5\"/>\n";
    }
  }
  const int height = kTop + rows * kPanelH + 40, width = 20 + columns * kPanelW;
  const std::string legend =
      "<path d=\"M20 " + std::to_string(height - 24) + "h14M27 " + std::to_string(height - 31) +
      "v14\" stroke=\"#56B4E9\" stroke-width=\"2\"/><text x=\"42\" y=\"" + std::to_string(height - 20) +
      "\" font-size=\"12\">the output's grid lines (every sixth of it) carried back through the matrix; dark: "
      "outside the input, sampled as black</text>\n";
  return svg_opening(width, height, "Where output pixels come from: each warp drawn over its input") +
         "<text x=\"20\" y=\"40\" font-size=\"12\" fill=\"#555\">a dot: an output pixel (x, y) \u2190 the source "
         "position the matrix gives it, where the kernel samples the input bilinearly</text>\n" +
         svg.str() + legend + "</svg>\n";
}

}  // namespace course
