/// @file filter.hpp
/// @brief The filter options of the convolution lessons: `--filter`, `--radius`, `--sigma`.
#pragma once

#include "options.hpp"

#include <string>
#include <vector>

namespace course {

/// @brief A separable filter as the convolution lessons apply it (as a correlation).
struct FilterSpec {
  std::string kind;            ///< "gaussian" or "box".
  int radius = 0;              ///< Taps reach from -radius to +radius: 2R+1 per dimension.
  double sigma = 0;            ///< Gaussian width in pixels (unused for box).
  std::vector<float> weights;  ///< The 2R+1 one-dimensional weights, summing to 1.

  /// @brief The (2R+1)^2 two-dimensional weights, w(i, j) = g(i) g(j), row-major.
  std::vector<float> weights_2d() const;
  /// @brief "gaussian r=3 sigma=1.5" or "box r=3".
  std::string describe() const;
};

/// @brief Adds `--filter gaussian|box`, `--radius R` and `--sigma S` with the given defaults.
void add_filter_options(Options& options, int default_radius = 3, double default_sigma = 0,
                        const std::string& default_kind = "gaussian");

/// @brief Reads the filter options; radius must be in [0, max_radius], sigma > 0 (default R/2,
/// at least 0.5). Throws UsageError naming the option and the allowed range.
FilterSpec read_filter(const Options& options, int max_radius = 16);

}  // namespace course
