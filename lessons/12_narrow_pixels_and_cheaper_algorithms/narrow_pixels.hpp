/// @file narrow_pixels.hpp
/// @brief Lesson 12: lesson 05's float4 kernels with narrow pixels in memory (float4_helpers.h's PIXELS_U8
/// and PIXELS_F16): 8-bit levels or 16-bit halves in and out, float arithmetic inside. The two
/// passes (float4_passes.cl) and the blocked single pass (single_pass_blocked.cl) run beside a
/// copy of the same pixels, each verified against the CPU reference of the stored input.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "course.hpp"
#include "separable_host.hpp"

namespace course {

/// @brief "f32", "u8" or "f16" as --type takes it; throws UsageError for any other.
PixelType pixel_type(const std::string& name);
/// @brief The type's name as --type and the rows' names show it.
std::string pixel_name(PixelType type);

/// @brief The nearest half to `value` (ties to even), as bits; and back.
std::uint16_t to_half(float value);
float from_half(std::uint16_t bits);

/// @brief Runs the narrow ladder for `type` (u8 or f16) on `image`: "copy_<type>" (the copy of
/// the same pixels, the speed limit of this storage), "float4_passes_<type>" and
/// "single_pass_blocked_<type>", each timed and verified (u8: within one level of the reference
/// rounded; f16: within 0.25), added to `table`. Returns the fastest verified result as levels.
GrayImage run_narrow_ladder(const DeviceContext& dc, const GrayImage& image, const FilterSpec& filter, PixelType type,
                            int steps, int repeat, ResultsTable& table, const std::filesystem::path& pictures);

}  // namespace course
