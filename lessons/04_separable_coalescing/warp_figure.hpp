/// @file warp_figure.hpp
/// @brief Lesson 04's picture of coalescing, drawn from --trace: one warp-wide load of several
/// variants side by side, each float the warp reads placed in its 32-byte sector and 128-byte line.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace course {

/// @brief One panel: a variant's warp-wide load, as the addresses (in floats) its work-items read.
struct WarpLoad {
  std::string variant;         ///< The variant's name, the panel's title.
  std::string kernel;          ///< The kernel and source line the load comes from.
  std::vector<int> addresses;  ///< One address per work-item of the warp, in floats.
};

/// @brief The SVG text of the panels side by side: one row per 128-byte line the load touches
/// (the first eight; a note says how many more), its four 32-byte sectors shaded where the warp
/// asks for them, a dark cell per float read; under each panel, its sectors and lines.
std::string warp_loads_svg(const std::vector<WarpLoad>& loads);

/// @brief Writes warp_loads_svg(loads) to `path` (through a temporary file, so a failed write
/// leaves no half picture). Throws InputError when the file cannot be written.
void save_warp_loads_svg(const std::filesystem::path& path, const std::vector<WarpLoad>& loads);

}  // namespace course
