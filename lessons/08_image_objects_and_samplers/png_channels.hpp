/// @file png_channels.hpp
/// @brief Writing an RGBA picture back with the channels its input file had (lessons 08 and 09).
#pragma once

#include <filesystem>

#include "image.hpp"

namespace course {

/// @brief Saves an RGBA8 image as a PNG with `channels` channels: 1 keeps R, 2 keeps R and A,
/// 3 keeps RGB, 4 keeps all (same guarantees as save_png()).
void save_png_channels(const std::filesystem::path& path, const RgbaImage& image, int channels);

}  // namespace course
