// Lesson 13: the runs of the splits drawn from their events, one band per split and one lane
// per device, as lesson 10 draws its streams: where a lane is empty, that device sat idle.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "band_run.hpp"

namespace lesson13 {

// Writes the SVG: uploads blue, row passes light green, column passes dark green, downloads
// orange, halo exchanges purple; each split on its own time scale, its wall time at its right.
void save_timeline_svg(const std::filesystem::path& path, const std::vector<SplitRun>& runs,
                       const std::vector<std::string>& device_names);

}  // namespace lesson13
