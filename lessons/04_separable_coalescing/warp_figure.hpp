/// @file warp_figure.hpp
/// @brief Lesson 04's pictures, drawn from --trace: one warp-wide load of several variants side
/// by side, each float the warp reads placed in its 32-byte sector and 128-byte line; and one
/// warp-wide read of the column tile, the words it asks each of the 32 banks for.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "trace_access.hpp"

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

/// @brief The SVG text of the panels one above the other: for each of the 32 banks, a square per
/// different word the warp asks it for, coloured by the bank's conflict degree.
std::string bank_conflicts_svg(const std::vector<WarpLoad>& reads);

/// @brief The pictures of one --trace run, filled from the column passes as they are traced.
struct TraceFigures {
  std::vector<WarpLoad> loads;  ///< v1, v3 and v411: each column pass's first global read.
  std::vector<WarpLoad> banks;  ///< v411 and its transposed tiles: each column pass's first local read.

  /// @brief Takes the accesses a variant's column pass needs for the pictures.
  void add_column_pass(const std::string& variant, const std::string& kernel,
                       const std::vector<AccessSiteSummary>& sites);
  /// @brief Writes warp_sectors.svg and bank_conflicts.svg into `folder` when they have panels
  /// (through a temporary file, so a failed write leaves no half picture), a line each on `out`.
  /// Throws InputError when a file cannot be written.
  void save(const std::filesystem::path& folder, std::ostream& out) const;
};

}  // namespace course
