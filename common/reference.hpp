/// @file reference.hpp
/// @brief Plain CPU implementations that every device result is checked against.
///
/// Written for clarity, not speed: each is the definition of the operation, with borders
/// clamped to the nearest edge pixel (OpenCV's BORDER_REPLICATE). Only their rows are shared
/// out over the cores (parallel_rows()), so that a big picture is verified in seconds.
#pragma once

#include "image.hpp"
#include "parallel_rows.hpp"

#include <functional>
#include <vector>

namespace course {

/// @brief 2R+1 Gaussian weights g(i) = exp(-i^2 / (2 sigma^2)), i = -R..R, normalised to sum 1.
std::vector<float> gaussian_weights(int radius, double sigma);

/// @brief 2R+1 equal weights summing to 1.
std::vector<float> box_weights(int radius);

/// @brief The (2R+1)^2 weights w(i, j) = row[i] * column[j], row-major (j is the row index).
std::vector<float> outer_product(const std::vector<float>& row, const std::vector<float>& column);

/// @brief 2D correlation: out(x, y) = sum over i, j in [-R, R] of w(i, j) * in(clamp(x+i), clamp(y+j)),
/// with `weights` holding (2R+1)^2 values row-major, w(i, j) at [(j + R) * (2R + 1) + (i + R)].
/// Sums in double, so it is a precise yardstick for float kernels. `threads` as in parallel_rows().
GrayImage correlate_2d(const GrayImage& in, const std::vector<float>& weights, int radius, unsigned threads = 0);

/// @brief Separable correlation: rows with `row_weights`, then columns with `column_weights`
/// (each 2R+1 long), borders clamped in both passes. Equal to correlate_2d() with the outer product.
GrayImage correlate_separable(const GrayImage& in, const std::vector<float>& row_weights,
                              const std::vector<float>& column_weights, unsigned threads = 0);

}  // namespace course
