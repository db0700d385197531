/// @file running_sums.hpp
/// @brief Lesson 12's box filter by running sums (kernels/12_narrow_pixels_and_cheaper_algorithms/
/// running_sums.cl): its two passes' build and launch.
#pragma once

#include <string>
#include <vector>

#include "course.hpp"

namespace course {

/// @brief The radius the running sums and the box sweep go up to; lesson 05's rungs stop at 16.
constexpr int kRunningSumsMaxRadius = 64;

/// @brief The running sums' row and column passes, walking `segment` pixels a work-item: on a GPU
/// the tiled row pass and the chunked column pass (every access coalesced; groups of `chunk` rows
/// staging `chunk` x `chunk` tiles, chunks of `chunk` steps), on a CPU each work-item walking its
/// line through global memory (running_sums.cl says why each).
struct RunningSums {
  cl::Kernel rows, columns;
  int segment = 512;
  bool tiled = false;  ///< The GPU layout: running_rows_tiled and running_columns_chunked.
  int chunk = 32;
};

/// @brief Builds running_sums.cl for segments of `segment` pixels (any length from 1): the GPU's
/// tiled layout (lesson 12's running_sums_tiled) or, without `tiled`, the CPU's (running_sums).
RunningSums build_running_sums(const DeviceContext& dc, int segment, bool tiled, BuildStats* stats = nullptr);

/// @brief Enqueues the row pass (`input` to `intermediate`) and the column pass (to `output`) of
/// a `width` x `height` box filter of `radius`: groups of `chunk` rows for the tiled row pass,
/// 64 neighbouring lines otherwise.
std::vector<cl::Event> launch_running_sums(const DeviceContext& dc, RunningSums& passes, const cl::Buffer& input,
                                           const cl::Buffer& intermediate, const cl::Buffer& output, int width,
                                           int height, int radius);

}  // namespace course
