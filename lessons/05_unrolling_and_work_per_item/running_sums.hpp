/// @file running_sums.hpp
/// @brief Lesson 05's box filter by running sums (kernels/05_unrolling_and_work_per_item/
/// running_sums.cl): its two passes' build and launch, and which rungs run past radius 16.
#pragma once

#include <string>
#include <vector>

#include "course.hpp"

namespace course {

/// @brief The radius the running sums and the box sweep go up to; the other rungs stop at 16.
constexpr int kRunningSumsMaxRadius = 64;

/// @brief The rungs lesson 05 runs at a radius above 16 (a box filter only): the runtime-radius
/// passes, the float4 passes and the running sums. The compile-time 2D kernels would unroll
/// (2R+1)^2 taps.
const std::vector<std::string>& wide_radius_variants();

/// @brief The running sums' row and column passes, walking `segment` pixels a work-item in chunks
/// of `chunk` steps (the row pass: groups of `chunk` rows staging `chunk` x `chunk` tiles).
struct RunningSums {
  cl::Kernel rows, columns;
  int segment = 512;
  int chunk = 32;
};

/// @brief Builds running_sums.cl for segments of `segment` pixels (any length from 1).
RunningSums build_running_sums(const DeviceContext& dc, int segment = 512, BuildStats* stats = nullptr);

/// @brief Enqueues the row pass (`input` to `intermediate`, groups of `chunk` rows) and the column
/// pass (to `output`, groups of 64 columns) of a `width` x `height` box filter of `radius`.
std::vector<cl::Event> launch_running_sums(const DeviceContext& dc, RunningSums& passes, const cl::Buffer& input,
                                           const cl::Buffer& intermediate, const cl::Buffer& output, int width,
                                           int height, int radius);

}  // namespace course
