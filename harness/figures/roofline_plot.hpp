/// @file roofline_plot.hpp
/// @brief The roofline as a picture: a ladder's kernels placed under the device's two ceilings.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "report.hpp"

namespace course {

/// @brief An SVG document (900 x 440 user units), both axes logarithmic: arithmetic intensity
/// (flop/B) across, GFLOP/s achieved up. The roofline is the copy bandwidth times the intensity
/// up to the ridge, then the multiply-add rate; each verified row with flops is a numbered dot at
/// (flops / bytes, flops / kernel time), named in a legend with the share of the roofline it
/// reached: a dot's distance under the line is what its kernel leaves on the table.
std::string render_roofline_svg(const std::string& title, const Roofline& roof, const std::vector<ResultRow>& rows);

/// @brief Writes render_roofline_svg() to `path` through a temporary file renamed when complete,
/// creating missing folders. Throws InputError when the file cannot be written.
void save_roofline_svg(const std::filesystem::path& path, const std::string& title, const Roofline& roof,
                       const std::vector<ResultRow>& rows);

}  // namespace course
