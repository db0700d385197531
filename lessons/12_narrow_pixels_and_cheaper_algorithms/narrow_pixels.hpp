/// @file narrow_pixels.hpp
/// @brief Lesson 12: lesson 05's float4 kernels with narrow pixels in memory (float4_helpers.h's PIXELS_U8
/// and PIXELS_F16): 8-bit levels or 16-bit halves in and out, float arithmetic inside. The two
/// passes (float4_passes.cl) and the blocked single pass (single_pass_blocked.cl) run beside a
/// copy of the same pixels, each verified against the CPU reference of the stored input; then
/// the single pass that converts each pixel once (single_pass_converted.cl).
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "course.hpp"
#include "one_change.hpp"
#include "separable_host.hpp"

namespace course {

/// @brief "f32", "u8" or "f16" as --type takes it; throws UsageError for any other.
PixelType pixel_type(const std::string& name);
/// @brief The type's name as --type and the rows' names show it.
std::string pixel_name(PixelType type);

/// @brief The nearest half to `value` (ties to even), as bits; and back.
std::uint16_t to_half(float value);
float from_half(std::uint16_t bits);

/// @brief The pixels of `image` as `type` stores them (bytes: levels rounded and saturated, the
/// nearest halves, or the floats), and in `stored` the floats they stand for; and back.
std::vector<unsigned char> store_pixels(const GrayImage& image, PixelType type, GrayImage& stored);
std::vector<float> load_pixels(const std::vector<unsigned char>& bytes, PixelType type);

/// @brief The result a separable filter of `weights` on `type` pixels must give: the reference
/// filter of the stored pixels (store_pixels()), rounded to levels for u8; within
/// narrow_tolerance(): one level for u8, 0.25 for f16, 0.01 for f32.
GrayImage narrow_reference(const GrayImage& stored, const std::vector<float>& weights, PixelType type);
double narrow_tolerance(PixelType type);

/// @brief The build options of lesson 05's float4 kernels, and of single_pass_converted.cl, for
/// `type` (f32: none), `radius`, `steps` rows a work-item and rows `width` pixels long.
std::string narrow_defines(PixelType type, int radius, int steps, int width);

/// @brief The group (16x4 on a GPU, 4x1 on a CPU device, shrunk until `staged` and the ring fit
/// 32 KiB of local memory) and strip (64 rows on a GPU, 512 on a CPU, whole tiles, or `strip`
/// rounded up to whole tiles when it is not 0) single_pass_converted.cl runs with.
SinglePassShape single_pass_converted_shape(const DeviceContext& dc, int radius, int steps, std::size_t strip = 0);

/// @brief The float4s single_pass_converted.cl reads from local memory an output pixel, counted from
/// its code: the row filter reads 2 CHUNKS + 2 staged float4s for 8 outputs of each of the
/// `strip` + 2 `radius` rows a strip row-filters; the column filter reads each of a work-item's
/// `steps` + 2 `radius` window rows once, one float4 a column, for `steps` float4s of output
/// (single_pass_blocked_local_loads()). At radius 8, 8 steps and 64-row strips 0.94 + 0.75.
constexpr double single_pass_converted_local_loads(int radius, int steps, int strip) {
  const int chunks = (radius + 3) / 4;
  return (2.0 * chunks + 2) / 8 * (strip + 2.0 * radius) / strip + single_pass_blocked_local_loads(radius, steps);
}

/// @brief The multiply-adds a single pass blocked as single_pass_blocked.cl and
/// single_pass_converted.cl are does an output pixel: 2 `radius` + 1 taps in the column filter,
/// and as many in the row filter for each of the `strip` + 2 `radius` rows a strip row-filters
/// (its 2R halo rows are filtered by the strips above and below too). 38.25 at radius 8 and
/// 64-row strips, against the 34 of two passes.
constexpr double single_pass_fmas(int radius, int strip) {
  return (2.0 * radius + 1) * (1 + (strip + 2.0 * radius) / strip);
}

/// @brief The pixels a single pass converts to floats an output pixel, counted from its code, for
/// the `strip` + 2 `radius` rows a strip filters: single_pass_blocked.cl converts the 2 CHUNKS + 1
/// float4s around a work-item's own for each row it filters, each pixel 5 times at radius 8;
/// single_pass_converted.cl converts each pixel it stages once, 8 `group_w` + 8 CHUNKS pixels of
/// a row for a group's 8 `group_w` outputs.
constexpr double single_pass_blocked_conversions(int radius, int strip) {
  return (2.0 * ((radius + 3) / 4) + 1) * (strip + 2.0 * radius) / strip;
}
constexpr double single_pass_converted_conversions(int radius, int strip, int group_w) {
  return (8.0 * group_w + 8 * ((radius + 3) / 4)) / (8.0 * group_w) * (strip + 2.0 * radius) / strip;
}

/// @brief Prints, for single_pass_blocked and single_pass_converted in the shapes they run in on
/// `dc`'s device, the multiply-adds, conversions and local float4 loads an output pixel.
void print_single_pass_work(const DeviceContext& dc, int radius, int steps, std::ostream& out);

/// @brief single_pass_converted.cl built for `type` in single_pass_converted_shape()'s shape, its
/// arguments set (`input` to `output`, images `width` x `height`), and the function that launches
/// it once: `strip` as single_pass_converted_shape() takes it, `extra` added to the build options.
/// Throws SkipLesson when the compiled kernel allows fewer work-items per group.
BlockedRung single_pass_converted_rung(const DeviceContext& dc, PixelType type, int radius, int steps, int width,
                                       int height, const cl::Buffer& input, const cl::Buffer& output,
                                       const cl::Buffer& weights, std::size_t strip = 0, const std::string& extra = "");

/// @brief Runs the narrow ladder for `type` (u8 or f16) on `image`: "copy_<type>" (the copy of
/// the same pixels, the speed limit of this storage), "float4_passes_<type>",
/// "single_pass_blocked_<type>", "single_pass_magic_u8" or "single_pass_halfbits_f16", and
/// "single_pass_converted_<type>",
/// each timed and verified (u8: within one level of the reference
/// rounded; f16: within 0.25), added to `table`. Returns the fastest verified result as levels.
GrayImage run_narrow_ladder(const DeviceContext& dc, const GrayImage& image, const FilterSpec& filter, PixelType type,
                            int steps, int repeat, ResultsTable& table, const std::filesystem::path& pictures);

}  // namespace course
