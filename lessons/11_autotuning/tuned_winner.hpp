// Lesson 11's winners for lesson 05's blur, used where they were tuned for: lesson 05 (and ./course
// bench, which runs it) looks up the winner stored for this device, driver, operation and size
// class, and runs it as one more row of its results table, verified against the CPU reference like
// every other variant: a cached winner is never trusted, only its parameters are. (Lessons 06 and
// 09 run their winners with their own host code, through common/filters/tuning_cache.hpp.)
#pragma once

#include <iosfwd>
#include <optional>

#include "course.hpp"

namespace lesson11 {

/// The cached winner for the separable blur `filter` on `image` in the default cache file,
/// compiled, verified against `reference` and timed, as a table row "tuned <variant> <group>,
/// <outputs>, <vector>"; nothing when the cache has none for this device, driver and size class,
/// or when it is no longer legal here. Prints one line saying which, plus one for a cache entry
/// it ignores (corrupt, or tuned with another driver).
std::optional<course::ResultRow> run_tuned_separable(const course::DeviceContext& dc, const course::GrayImage& image,
                                                     const course::GrayImage& reference,
                                                     const course::FilterSpec& filter, int repeat, std::ostream& out);

/// The same for lesson 05's register-blocked 2D convolution (blocked_2d) of `filter`.
std::optional<course::ResultRow> run_tuned_conv2d(const course::DeviceContext& dc, const course::GrayImage& image,
                                                  const course::GrayImage& reference, const course::FilterSpec& filter,
                                                  int repeat, std::ostream& out);

}  // namespace lesson11
