/// @file one_change.hpp
/// @brief Lesson 05's rungs that lessons 11 and 12 also run, and those that change one thing
/// about another rung, so that the table says what that one thing is worth: the 2D kernel between
/// naive_2d and unrolled_2d, and single_pass_blocked with `restrict` or a required group size.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "course.hpp"
#include "separable_host.hpp"

namespace course {

/// @brief The build options of unrolled_2d.cl for `variant`: radius_fixed_2d (both loops kept
/// loops), columns_unrolled_2d (the loop over a row's columns unrolled), unrolled_2d (both) or
/// literal_weights_2d (both, and `weights_2d` written into the program as literals).
std::string unrolled_2d_defines(const std::string& variant, int radius, const std::vector<float>& weights_2d);

/// @brief The float4 kernels' -D RADIUS, STEPS, ALIGNED_ROWS (rows on 16-byte boundaries when
/// `width` is a multiple of 4: 16-byte loads) and -I float4_helpers.h's folder.
std::string float4_defines(int radius, int steps, int width);

/// @brief The vector and float4 passes' group: 16x1 on a CPU device (a group runs as a loop on one
/// core: small groups keep their rows in L1 and share out evenly), 64x4 on a GPU.
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
/// local memory) and strip (64 rows on a GPU, 512 on a CPU, or `strip` when it is not 0; whole
/// tiles) single_pass_blocked ships with for `radius` and `steps` rows a work-item.
SinglePassShape single_pass_blocked_shape(const DeviceContext& dc, int radius, int steps, std::size_t strip = 0);

/// @brief The float4s single_pass_blocked.cl reads from local memory an output pixel, counted from
/// its code: the column filter reads each of a work-item's `steps` + 2 `radius` window rows from
/// the ring once for `steps` float4s of output (the row filter reads global memory), whatever the
/// pixels stored (the ring holds floats): the rows' local-load floor (Roofline::local_ms()).
constexpr double single_pass_blocked_local_loads(int radius, int steps) {
  return (steps + 2.0 * radius) / (4.0 * steps);
}

/// @brief A rung's built kernels and the function that launches them once, returning their events.
struct BlockedRung {
  cl::Kernel kernel, second;  ///< `second`: a two-pass rung's column pass.
  std::function<std::vector<cl::Event>()> enqueue;
};

/// @brief float4_passes.cl's two passes (one aligned float4 a work-item, `steps` rows down in the
/// column pass) through `buffers.intermediate`, with `extra` added to the build options.
BlockedRung float4_passes_rung(const DeviceContext& dc, const SeparableBuffers& buffers, int radius, int steps,
                               const std::string& extra = "", BuildStats* stats = nullptr);

/// @brief single_pass_blocked.cl built for `variant` (single_pass_blocked, single_pass_restrict or
/// single_pass_reqd) in the shipped shape, or with strips of `strip` rows when it is not 0, its
/// arguments set to `buffers` (input to output); `extra` is added to the build options.
/// Throws SkipLesson when the compiled kernel allows fewer work-items per group than the shape.
BlockedRung single_pass_blocked_rung(const DeviceContext& dc, const std::string& variant,
                                     const SeparableBuffers& buffers, int radius, int steps, std::size_t strip = 0,
                                     const std::string& extra = "", BuildStats* stats = nullptr);

}  // namespace course
