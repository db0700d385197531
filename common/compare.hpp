/// @file compare.hpp
/// @brief Comparing a device result with its CPU reference, and showing where they differ.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace course {

/// @brief One pixel that differs by more than the tolerance.
struct Mismatch {
  int x = 0;               ///< Column.
  int y = 0;               ///< Row.
  int channel = 0;         ///< Channel (0 for gray images).
  float got = 0;           ///< The device's value.
  float expected = 0;      ///< The reference's value.
};

/// @brief How far a result is from its reference.
struct Comparison {
  double max_abs_error = 0;       ///< Largest |got - expected| (infinite when a value is NaN).
  std::size_t wrong = 0;          ///< Values off by more than the tolerance (NaN always counts).
  std::size_t total = 0;          ///< Values compared.
  double tolerance = 0;           ///< The tolerance used.
  std::vector<Mismatch> first;    ///< The first few mismatches in row order.

  /// @brief True when no value is off by more than the tolerance.
  bool ok() const { return wrong == 0; }
  /// @brief "max error 0.0001, all 1024 pixels within 0.001" or the count and first mismatches
  /// written `(x, y) got ... expected ...`.
  std::string describe(std::size_t lines = 5) const;
};

/// @brief Compares two images of `width` x `height` x `channels` values.
Comparison compare_images(const float* got, const float* expected, int width, int height, double tolerance,
                          int channels = 1);

/// @brief compare_images() for vectors, which must have the same size.
Comparison compare_images(const std::vector<float>& got, const std::vector<float>& expected, int width,
                          int height, double tolerance, int channels = 1);

}  // namespace course
