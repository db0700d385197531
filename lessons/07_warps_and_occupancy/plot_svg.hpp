/// @file plot_svg.hpp
/// @brief A small line-plot writer for the lessons' sweeps: SVG text, no library.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace course {

/// @brief One line of a plot: points (x[i], y[i]) joined in order, with a legend entry.
struct PlotSeries {
  std::string name;       ///< Legend text.
  std::vector<double> x;  ///< X values, same count as y.
  std::vector<double> y;  ///< Y values; non-finite points are left out of the line.
};

/// @brief A line plot: axes, grid, ticks, one polyline and marker set per series, a legend.
struct LinePlot {
  std::string title;               ///< Printed above the plot.
  std::string x_label;             ///< Under the x axis.
  std::string y_label;             ///< Beside the y axis.
  bool log2_x = false;             ///< X axis in powers of two (sweeps over sizes).
  bool y_from_zero = true;         ///< Start the y axis at 0 rather than at the smallest value.
  std::vector<PlotSeries> series;  ///< The lines.
};

/// @brief The plot as a complete SVG document (640 x 400 user units). Text is XML-escaped.
/// Throws std::invalid_argument when a series has different x and y counts, or when `log2_x`
/// is set and an x value is not positive.
std::string render_svg(const LinePlot& plot);

/// @brief Writes render_svg() to `path`, through a temporary file renamed when complete;
/// creates missing folders. Throws InputError when the file cannot be written.
void save_svg(const std::filesystem::path& path, const LinePlot& plot);

}  // namespace course
