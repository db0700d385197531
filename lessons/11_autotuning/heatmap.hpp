// Lesson 11: the search as a picture. Rows are outputs per work-item, columns work-group shapes;
// each cell is coloured by the best share of copy bandwidth any verified candidate reached there
// (over the other axes: variant, vector width). Dark blue is slow, yellow fast, gray untried or
// illegal; the winner's cell has a white frame.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <vector>

#include "tuner.hpp"

namespace lesson11 {

/// Prints the grid as text (percent of copy per cell, "-" where nothing verified) and writes it as
/// a PNG; `copy_gbps` is the device's copy bandwidth.
void heatmap(std::ostream& out, const std::filesystem::path& png, const tuning::Family& family,
             const std::vector<tuning::Measurement>& list, double copy_gbps);

}  // namespace lesson11
