/// @file narrow_pixels.hpp
/// @brief Lesson 05's float4 kernels with narrow pixels in memory (float4_helpers.h's PIXELS_U8
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

/// @brief How the pixels are stored: 32-bit floats, 8-bit levels (0..255) or 16-bit halves.
enum class PixelType { f32, u8, f16 };

/// @brief "f32", "u8" or "f16" as --type takes it; throws UsageError for any other.
PixelType pixel_type(const std::string& name);
/// @brief Bytes a pixel takes in memory: 4, 1 or 2.
std::size_t pixel_bytes(PixelType type);
/// @brief The type's name as --type and the rows' names show it.
std::string pixel_name(PixelType type);

/// @brief The nearest half to `value` (ties to even), as bits; and back.
std::uint16_t to_half(float value);
float from_half(std::uint16_t bits);

/// @brief The group the vector and float4 passes run in: 16x1 on a CPU device (PoCL runs a group
/// as a loop on one core: small groups keep their rows in L1 and share out evenly over few
/// cores), 64x4 on a GPU (many work-items per group).
cl::NDRange vector_group(const DeviceContext& dc);

/// @brief The launch shape of a single-pass kernel on this device: a group, the rows its strips
/// hold and the -D values for them (GROUP_W, GROUP_H, STRIP).
struct SinglePassShape {
  cl::NDRange group;
  std::size_t strip = 0;
  std::string defines;
};

/// @brief single_pass_local's tile of 16 x 8 work-items on a GPU, 2 x 8 on a CPU, each `vec`
/// columns and `steps` rows, its height shrunk until its row-filtered rows fit local memory
/// (the defines: GROUP_W, GROUP_H; no strip).
SinglePassShape single_pass_local_shape(const DeviceContext& dc, int radius, int steps, int vec);

/// @brief The group (16x4 on a GPU, 8x1 on a CPU device, shrunk until the ring fits 32 KiB of
/// local memory) and strip (64 rows on a GPU, 512 on a CPU, whole tiles) single_pass_blocked
/// ships with for `radius` and `steps` rows a work-item.
SinglePassShape single_pass_blocked_shape(const DeviceContext& dc, int radius, int steps);

/// @brief Runs the narrow ladder for `type` (u8 or f16) on `image`: "copy_<type>" (the copy of
/// the same pixels, the speed limit of this storage), "float4_passes_<type>" and
/// "single_pass_blocked_<type>", each timed and verified (u8: within one level of the reference
/// rounded; f16: within 0.25), added to `table`. Returns the fastest verified result as levels.
GrayImage run_narrow_ladder(const DeviceContext& dc, const GrayImage& image, const FilterSpec& filter, PixelType type,
                            int steps, int repeat, ResultsTable& table, const std::filesystem::path& pictures);

}  // namespace course
