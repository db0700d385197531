#include "heatmap.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <string>

#include "image.hpp"
#include "report.hpp"

namespace lesson11 {
namespace {

// A blue-green-yellow ramp for t in [0, 1].
void colour(double t, std::uint8_t* rgb) {
  const double stops[][3] = {{40, 30, 110}, {30, 140, 140}, {120, 200, 70}, {250, 230, 40}};
  t = std::clamp(t, 0.0, 1.0) * 3;
  const int i = std::min(2, static_cast<int>(t));
  const double f = t - i;
  for (int c = 0; c < 3; ++c) rgb[c] = static_cast<std::uint8_t>(stops[i][c] * (1 - f) + stops[i + 1][c] * f);
}

}  // namespace

void heatmap(std::ostream& out, const std::filesystem::path& png, const tuning::Family& family,
             const std::vector<tuning::Measurement>& list, double copy_gbps) {
  const tuning::Space& s = family.space;
  const int ax = s.axis("group_x"), ay = s.axis("group_y"), ao = s.axis("outputs");
  const int nx = static_cast<int>(s.axes[ax].values.size()), ny = static_cast<int>(s.axes[ay].values.size());
  const int columns = nx * ny, rows = static_cast<int>(s.axes[ao].values.size());
  std::vector<double> share(static_cast<std::size_t>(columns * rows), -1);
  const tuning::Measurement* best = tuning::Tuner::fastest(list);
  int best_cell = -1;
  for (const tuning::Measurement& m : list) {
    if (!m.usable() || m.kernel_ms <= 0) continue;
    const int cell = m.point[ao] * columns + m.point[ax] * ny + m.point[ay];
    const double percent = 100.0 * family.bytes_moved(m.point) / (m.kernel_ms * 1e6) / copy_gbps;
    share[cell] = std::max(share[cell], percent);
    if (&m == best) best_cell = cell;
  }
  const double top = std::max(1.0, *std::max_element(share.begin(), share.end()));

  // The text grid.
  out << course::wrap("% of copy bandwidth, best over the other parameters (rows: outputs per work-item; columns: "
                      "work-group shape)")
      << "  " << std::setw(8) << "outputs";
  for (int c = 0; c < columns; ++c)
    out << std::setw(8)
        << (std::to_string(s.axes[ax].values[c / ny]) + "x" + std::to_string(s.axes[ay].values[c % ny]));
  out << "\n";
  for (int r = 0; r < rows; ++r) {
    out << "  " << std::setw(8) << s.axes[ao].values[r];
    for (int c = 0; c < columns; ++c) {
      const double v = share[r * columns + c];
      out << std::setw(8) << (v < 0 ? std::string("-") : std::to_string(static_cast<int>(std::lround(v))));
    }
    out << "\n";
  }

  // The picture: 32 x 32 pixels a cell, one pixel of gap.
  const int cell = 32;
  course::RgbaImage image{columns * cell, rows * cell, {}};
  image.pixels.assign(static_cast<std::size_t>(image.width) * image.height * 4, 255);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c) {
      const double v = share[r * columns + c];
      std::uint8_t rgb[3] = {90, 90, 90};
      if (v >= 0) colour(v / top, rgb);
      const bool winner = r * columns + c == best_cell;
      for (int y = 0; y < cell; ++y)
        for (int x = 0; x < cell; ++x) {
          std::uint8_t* p = &image.pixels[(static_cast<std::size_t>(r * cell + y) * image.width + c * cell + x) * 4];
          const bool gap = x == cell - 1 || y == cell - 1;
          const bool frame = winner && (x < 3 || y < 3 || x >= cell - 4 || y >= cell - 4);
          for (int k = 0; k < 3; ++k) p[k] = gap ? 0 : frame ? 255 : rgb[k];
        }
    }
  course::save_png(png, image);
}

}  // namespace lesson11
