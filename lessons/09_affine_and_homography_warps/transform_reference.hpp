/// @file transform_reference.hpp
/// @brief CPU references for geometric warps: affine and homography maps sampled bilinearly.
///
/// The convention everywhere: a warp matrix maps an OUTPUT pixel (x, y) to the SOURCE position
/// it shows (OpenCV's WARP_INVERSE_MAP). Pixel centres sit at integer coordinates, and samples
/// outside the input count as 0 (OpenCV's BORDER_CONSTANT with black).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "image.hpp"
#include "options.hpp"

namespace course {

/// @brief A 3x3 matrix, row-major: source = (m0 x + m1 y + m2, m3 x + m4 y + m5) / (m6 x + m7 y + m8).
using Transform = std::array<double, 9>;

/// @brief The affine map (a11, a12, a13, a21, a22, a23) as a 3x3 matrix with last row (0, 0, 1).
Transform affine_matrix(const std::vector<double>& six);

/// @brief True when the last row is (0, 0, 1), so no division is needed.
bool is_affine(const Transform& m);

/// @brief True when the matrix maps the plane onto a line or a point (its determinant is 0 up
/// to rounding, relative to the size of its entries): such a warp cannot be inverted.
bool is_singular(const Transform& m);

/// @brief "2 1.5 -800 / 0 2 -300" style text, for messages and tables.
std::string describe(const Transform& m);

/// @brief The source position of output pixel (x, y). Returns false when the projective
/// divisor is 0 (the point maps to infinity), and the pixel is then black.
bool source_position(const Transform& m, double x, double y, double& sx, double& sy);

/// @brief The bilinear sample of one channel at (sx, sy): the four nearest pixel centres
/// weighted by their closeness, each one outside the image counting as 0.
double sample_bilinear(const float* pixels, int width, int height, int channels, int channel, double sx, double sy);

/// @brief Warps an image of `channels` interleaved float channels into an out_width x
/// out_height image (values unrounded, in double precision then stored as float). Its output
/// rows are shared out over `threads` std::threads (0: one per core, as course::parallel_rows()).
std::vector<float> transform_bilinear(const std::vector<float>& pixels, int width, int height, int channels,
                                      const Transform& m, int out_width, int out_height, unsigned threads = 0);

/// @brief transform_bilinear() for a gray image.
GrayImage transform_bilinear(const GrayImage& in, const Transform& m, int out_width, int out_height);

/// @brief transform_bilinear() for an RGBA8 image; the result holds 4 floats per pixel in [0, 255].
std::vector<float> transform_bilinear(const RgbaImage& in, const Transform& m, int out_width, int out_height,
                                      unsigned threads = 0);

/// @brief An RGBA8 image's bytes as floats (4 per pixel), the form the references compare in.
std::vector<float> rgba_to_floats(const RgbaImage& in);

/// @brief Rounds 4 floats per pixel to RGBA8 (nearest, clamped to [0, 255]).
RgbaImage floats_to_rgba(const std::vector<float>& values, int width, int height);

/// @brief Resizes by bilinear sampling with pixel centres aligned (no anti-aliasing), clamping at
/// the border: how the lessons bring an input to the size a preset was designed for.
RgbaImage resize_bilinear(const RgbaImage& in, int width, int height);

/// @brief Reads `--affine a11,...,a23` or `--homography h11,...,h33` when one was given.
/// Returns false when neither was. Throws UsageError when both are given, when the count of
/// numbers is wrong, or when the matrix is singular.
bool read_transform(const Options& options, Transform& m);

}  // namespace course
