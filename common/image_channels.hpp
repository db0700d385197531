/// @file image_channels.hpp
/// @brief Keeping an image's channel count through a colour pipeline: the warp lesson reads any
/// picture as RGBA and writes back as many channels as the input file had.
#pragma once

#include <filesystem>

#include "image.hpp"

namespace course {

/// @brief The channels stored in an image file: 1 gray, 2 gray + alpha, 3 RGB, 4 RGBA.
/// Throws InputError when the file cannot be read as an image.
int image_file_channels(const std::filesystem::path& path);

/// @brief Saves an RGBA8 image as a PNG with `channels` channels: 1 keeps R, 2 keeps R and A,
/// 3 keeps RGB, 4 keeps all. Written to a temporary file first and renamed when complete.
void save_png_channels(const std::filesystem::path& path, const RgbaImage& image, int channels);

}  // namespace course
