// Exercise 11: two steps of a tuner for a tiled filter, tried on devices you may not have.
//
// The kernel is lesson 03's tiled convolution grown the way lesson 05 grows its kernels: a
// work-group of group_x x group_y work-items computes a tile of (group_x * vector) columns and
// (group_y * outputs) rows, and first loads that tile plus a halo of `radius` pixels on every
// side into local memory. The search space has four axes, named "group_x", "group_y",
// "outputs" and "vector" (see lessons/11_autotuning/search_space.hpp for Space, Point and
// neighbours()).
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "search_space.hpp"

namespace exercise11 {

/// What the host learns before compiling (clGetDeviceInfo) and from the compiled kernel
/// (clGetKernelWorkGroupInfo).
struct TileLimits {
  std::size_t device_max_work_group_size = 0;  // CL_DEVICE_MAX_WORK_GROUP_SIZE
  std::size_t max_item_size_x = 0;             // CL_DEVICE_MAX_WORK_ITEM_SIZES[0]
  std::size_t max_item_size_y = 0;             // CL_DEVICE_MAX_WORK_ITEM_SIZES[1]
  std::size_t kernel_work_group_size = 0;      // CL_KERNEL_WORK_GROUP_SIZE of the compiled kernel
  std::size_t local_mem_bytes = 0;             // CL_DEVICE_LOCAL_MEM_SIZE
  int radius = 0;                              // the filter's reach: the tile's halo
};

/// Why candidate `p` cannot be launched on this device, or "" when it can. A candidate is legal
/// when its group fits every work-item limit above and its tile of floats, halo included, fits
/// in local memory.
inline std::string why_illegal(const tuning::Space& space, const tuning::Point& p, const TileLimits& limits) {
  /* >>> GAP 1: check the candidate against every limit; return the reason it breaks one. */
  const std::size_t gx = space.value(p, "group_x"), gy = space.value(p, "group_y");
  const std::size_t cols = gx * space.value(p, "vector") + 2 * limits.radius;
  const std::size_t rows = gy * space.value(p, "outputs") + 2 * limits.radius;
  if (gx > limits.max_item_size_x) return "group_x " + std::to_string(gx) + " is over the device's item size";
  if (gy > limits.max_item_size_y) return "group_y " + std::to_string(gy) + " is over the device's item size";
  if (gx * gy > limits.device_max_work_group_size) return "more work-items than the device allows in a group";
  if (gx * gy > limits.kernel_work_group_size) return "more work-items than the compiled kernel allows";
  if (cols * rows * sizeof(float) > limits.local_mem_bytes)
    return "the tile with its halo needs " + std::to_string(cols * rows * sizeof(float)) + " bytes of local memory";
  return "";
  /* <<< GAP 1 */
}

/// One step of hill climbing from `here`: the legal neighbour (one axis, one step: neighbours())
/// with the lowest cost, if that cost is lower than the cost of `here`; otherwise `here`.
/// `cost` compiles and times a candidate: never call it for an illegal one.
inline tuning::Point climb_step(const tuning::Space& space, const tuning::Point& here, const TileLimits& limits,
                                const std::function<double(const tuning::Point&)>& cost) {
  /* >>> GAP 2: measure the legal neighbours and move to the best one if it beats `here`. */
  tuning::Point chosen = here;
  double lowest = cost(here);
  for (const tuning::Point& next : tuning::neighbours(space, here)) {
    if (!why_illegal(space, next, limits).empty()) continue;  // never timed
    const double t = cost(next);
    if (t < lowest) lowest = t, chosen = next;
  }
  return chosen;
  /* <<< GAP 2 */
}

}  // namespace exercise11
