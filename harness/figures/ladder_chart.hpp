/// @file ladder_chart.hpp
/// @brief A lesson's results table as a bar chart: one bar per variant, its median kernel time,
/// with the time a copy of its bytes takes and its roofline time marked on it.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "report.hpp"

namespace course {

/// @brief The SVG text of the chart: a bar per row, as long as its median kernel time (the range
/// of its timed runs as a whisker), its time written after it with the table's marks (`*` too
/// short to time, `+` fits the last-level cache) and whether it verified; on each row with bytes,
/// a mark where a copy of those bytes at the measured copy bandwidth ends, and one at its
/// roofline time when the arithmetic bound is the longer. A logarithmic axis when the slowest row
/// takes more than 30 times the fastest. `title` is the table's; `device` goes under it.
std::string ladder_svg(const std::string& title, const std::string& device, const Roofline& roof,
                       const std::vector<ResultRow>& rows);

/// @brief Writes ladder_svg() of `table` to `path` (whole or not at all) and names it on `out`.
/// Throws InputError when the file cannot be written.
void save_ladder_svg(const std::filesystem::path& path, const ResultsTable& table, const std::string& device,
                     std::ostream& out);

}  // namespace course
