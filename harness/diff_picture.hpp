/// @file diff_picture.hpp
/// @brief The picture a failed check case leaves behind: what the kernel wrote, what the
/// reference expected and their difference side by side, scaled up so a person can read it.
#pragma once

#include <filesystem>
#include <vector>

namespace course {

/// @brief Writes a PNG of three panels, each labelled: GOT (the kernel's values), EXPECTED (the
/// reference's) and DIFFERENCE (black where equal, red where off by more than `tolerance`,
/// brighter the further off). Values are shown on the expected image's range; NaN is magenta and
/// a value far outside that range (a guard band's sentinel) cyan. Pixels are scaled up with
/// nearest-neighbour so that the short side is at least 256 pixels (the long side at most 2048).
void save_diff_picture(const std::filesystem::path& path, const std::vector<float>& got,
                       const std::vector<float>& expected, int width, int height, double tolerance, int channels = 1);

/// @brief The scale factor save_diff_picture() uses for a `width` x `height` image.
int diff_picture_scale(int width, int height);

}  // namespace course
