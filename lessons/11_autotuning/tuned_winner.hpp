// Lesson 11's winners, used where they were tuned for: lessons 05, 06 and 09 (and ./course bench,
// which runs them) look up the winner stored for this device, driver, operation and size class,
// and run it as one more row of their results table, verified against the CPU reference like
// every other variant: a cached winner is never trusted, only its parameters are.
#pragma once

#include <iosfwd>
#include <optional>

#include "course.hpp"
#include "transform_reference.hpp"

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

/// The same for lesson 06's `window` x `window` median of float or, when `eight_bit`, 8-bit
/// pixels (`image` holds 8-bit levels then); nothing, without a line, for a median lesson 11
/// does not tune (see median_op()).
std::optional<course::ResultRow> run_tuned_median(const course::DeviceContext& dc, const course::GrayImage& image,
                                                  const course::GrayImage& reference, int window, bool eight_bit,
                                                  int repeat, std::ostream& out);

/// The same for the bilinear warp of an RGBA8 `picture` by `m` into a picture of its size;
/// `reference` holds transform_bilinear()'s 4 floats per pixel.
std::optional<course::ResultRow> run_tuned_warp(const course::DeviceContext& dc, const course::RgbaImage& picture,
                                                const course::Transform& m, const std::vector<float>& reference,
                                                int repeat, std::ostream& out);

}  // namespace lesson11
