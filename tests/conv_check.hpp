/// @file conv_check.hpp
/// @brief Checker cases for square-window convolution kernels with the lessons' argument order
/// (the tests of lessons 02 and 03 run the lessons' own kernels through them): random images of
/// awkward sizes, every radius up to a limit, box, Gaussian and random weights, several
/// work-group shapes. The exercises of lessons 02 and 03 have cases of their own in their check.cpp.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <string>
#include <vector>

#include "checker.hpp"

namespace course {

/// @brief One case: image size, work-group shape, filter.
struct ConvCheckCase {
  int width = 1;            ///< Image width.
  int height = 1;           ///< Image height.
  std::size_t local_x = 1;  ///< Work-group width asked for (made legal before the launch).
  std::size_t local_y = 1;  ///< Work-group height.
  int radius = 0;           ///< Filter radius.
  /// @brief Gaussian (with a sigma chosen per case), box, or random weights that are not
  /// symmetric, so a flipped or transposed weight index shows.
  enum Weights { kGaussian, kBox, kRandom } weights = kGaussian;
};

/// @brief Cases for radii 0..max_radius, each radius with Gaussian, box and random weights, cycling through sizes no
/// work-group divides (1x1, 1xN, Nx1, primes) and work-group shapes (square, flat, tall, one-wide).
std::vector<ConvCheckCase> conv_check_cases(int max_radius);

/// @brief Runs a convolution kernel with the argument order (input, weights, output, width,
/// height, radius[, __local tile]) on one case and records it in `check`.
///
/// The input and output are GuardedBuffers (a read past the image returns the sentinel, a write
/// past it damages a guard or the NaN slack the output buffer has after the image); the output
/// starts as NaN. When `tile_floats` is given it is
/// called with the legal work-group shape and the radius, and its answer sizes the __local
/// argument 6. The result must be within `tolerance` of correlate_2d() with clamped borders.
void conv_check_run(ExerciseCheck& check, cl::Kernel& kernel, const ConvCheckCase& c, unsigned seed,
                    std::size_t (*tile_floats)(std::size_t local_x, std::size_t local_y, int radius) = nullptr,
                    double tolerance = 0.02);

}  // namespace course
