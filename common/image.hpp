/// @file image.hpp
/// @brief Loading pictures (PNG, JPEG, BMP, PGM, through stb), saving PNGs, making test images.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace course {

/// @brief A single-channel image of floats, row by row, gray levels in [0, 255].
struct GrayImage {
  int width = 0;              ///< Pixels per row.
  int height = 0;             ///< Rows.
  std::vector<float> pixels;  ///< width * height values, row-major.

  /// @brief The pixel at (x, y), no bounds check.
  float at(int x, int y) const { return pixels[static_cast<std::size_t>(y) * width + x]; }
};

/// @brief An RGBA image with 8 bits per channel, 4 bytes per pixel, row by row.
struct RgbaImage {
  int width = 0;                     ///< Pixels per row.
  int height = 0;                    ///< Rows.
  std::vector<std::uint8_t> pixels;  ///< width * height * 4 bytes: R, G, B, A.
};

/// @brief The largest image (in pixels) the course accepts: 2^28, i.e. 16384 x 16384.
constexpr std::int64_t kMaxImagePixels = std::int64_t(1) << 28;

/// @brief Loads any image stb reads and turns it gray with luma 0.299 R + 0.587 G + 0.114 B.
/// Throws InputError naming the file and the reason (missing, not an image, truncated, too big).
GrayImage load_gray(const std::filesystem::path& path);

/// @brief Loads any image stb reads as RGBA8 (gray becomes R = G = B, alpha 255 when absent).
RgbaImage load_rgba(const std::filesystem::path& path);

/// @brief The gray image of an RGBA image, by the same luma weights as load_gray().
GrayImage to_gray(const RgbaImage& image);

/// @brief Saves a gray image as an 8-bit PNG, each value rounded to the nearest level and
/// clamped to [0, 255]. Writes a temporary file beside `path` and renames it when complete, so a
/// failure never leaves half a file; creates missing parent folders. Throws InputError.
void save_png(const std::filesystem::path& path, const GrayImage& image);

/// @brief Saves an RGBA8 image as a PNG (same guarantees as the gray one).
void save_png(const std::filesystem::path& path, const RgbaImage& image);

/// @brief Saves `width` x `height` pixels of 1 to 4 interleaved 8-bit channels (gray, gray +
/// alpha, RGB, RGBA) as a PNG, with the same guarantees as the other save_png() overloads.
void save_png(const std::filesystem::path& path, int width, int height, int channels, const std::uint8_t* data);

/// @brief The channels stored in an image file: 1 gray, 2 gray + alpha, 3 RGB, 4 RGBA, so that a
/// colour pipeline can write back as many as it read. Throws InputError when it is no image.
int image_file_channels(const std::filesystem::path& path);

/// @brief A smooth test picture with edges and fine detail, for `--size WxH` runs.
GrayImage synthetic_gray(int width, int height);

/// @brief The same picture as synthetic_gray() in colour.
RgbaImage synthetic_rgba(int width, int height);

}  // namespace course
