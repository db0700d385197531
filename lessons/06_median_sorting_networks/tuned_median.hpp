/// @file tuned_median.hpp
/// @brief Lesson 11's winner for one of lesson 06's medians, run with lesson 06's own host code:
/// the parameters come from the cache of tuned winners (tuning_cache.hpp), the kernel and its
/// launch from median_filters.hpp, so a cached winner is never trusted, only its parameters are.
#pragma once

#include <iosfwd>
#include <optional>

#include "course.hpp"

namespace course {

/// @brief The winner lesson 11 stored for the `window` x `window` median of float or, when
/// `eight_bit`, 8-bit pixels (it tunes the 3x3 and 5x5 ones) on this device, driver and image
/// size, run on `image` and compared with `reference`, as the row "tuned <variant> <group>,
/// <outputs> outputs, vector <lanes>"; nothing when none is stored or it cannot run here. Prints
/// one line saying which, or which `./course run 11` finds one.
std::optional<ResultRow> run_tuned_median(const DeviceContext& dc, const GrayImage& image, const GrayImage& reference,
                                          int window, bool eight_bit, int repeat, std::ostream& out);

}  // namespace course
