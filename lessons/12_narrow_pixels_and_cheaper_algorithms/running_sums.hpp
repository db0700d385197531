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

/// @brief How the row pass crosses a row (running_sums.cl says why each): each work-item walking
/// its segment through global memory (lesson 12's running_sums, a CPU's layout), groups of `chunk`
/// rows walking `chunk` x `chunk` tiles staged in local memory (running_sums_tiled), a group a
/// row scanning tiles of it in parallel (running_sums_scan), or that scan loading each tile while
/// it scans the one before (running_sums_prefetch); `ring` is that last row pass with a column pass
/// that keeps each window's pixels in local memory (running_sums_ring).
enum class RowLayout { walk, tiled, scan, prefetch, ring };

/// @brief Whether `layout` scans its rows (running_sums_scan, _prefetch, _ring): a group a row.
inline bool scans(RowLayout layout) {
  return layout == RowLayout::scan || layout == RowLayout::prefetch || layout == RowLayout::ring;
}

/// @brief The scan's shape: `group` work-items a row (a power of two), each adding `items` steps
/// (1 to 32) in turn, so that a tile holds `group` x `items` steps.
struct ScanShape {
  int group = 128;
  int items = 8;
};

/// @brief Why the scanned row pass cannot take `shape` on this device ("" when it can): a group
/// that is not a power of two or exceeds the device's work-group size, steps outside 1..32, or a
/// tile larger than the device's local memory.
std::string scan_shape_problem(const DeviceContext& dc, const ScanShape& shape);

/// @brief The running sums' row and column passes: the column pass walks `segment` pixels a
/// work-item, chunked (every access coalesced; chunks of `chunk` steps) unless the row pass walks,
/// and the row pass is laid out as `layout` says.
struct RunningSums {
  cl::Kernel rows, columns;
  int segment = 512;
  RowLayout layout = RowLayout::walk;
  int chunk = 32;
  ScanShape scan;  ///< The scanned row pass's group and steps a work-item.
};

/// @brief Builds running_sums.cl for segments of `segment` pixels (any length from 1) with the
/// row pass `layout` (a scan of the shape `scan`, which scan_shape_problem() must accept).
RunningSums build_running_sums(const DeviceContext& dc, int segment, RowLayout layout, ScanShape scan = {},
                               BuildStats* stats = nullptr);

/// @brief The floats the passes of `passes` read from local memory for a `width` x `height`
/// picture at `radius`, counted from running_sums.cl (the walk reads none; see the function for
/// the tiled and scanned rows and the ring's columns): they give a row of the results table its
/// local-load floor.
double local_loads(const RunningSums& passes, int width, int height, int radius);

/// @brief Enqueues the row pass (`input` to `intermediate`) and the column pass (to `output`) of
/// a `width` x `height` box filter of `radius`: groups of `chunk` rows for the tiled row pass,
/// `scan.group` work-items a row for the scan, 64 neighbouring lines otherwise.
std::vector<cl::Event> launch_running_sums(const DeviceContext& dc, RunningSums& passes, const cl::Buffer& input,
                                           const cl::Buffer& intermediate, const cl::Buffer& output, int width,
                                           int height, int radius);

}  // namespace course
