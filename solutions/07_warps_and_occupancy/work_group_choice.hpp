// Exercise 07, part b: choosing a legal work-group size at run time.
//
// A hard-coded 16x16 work-group is the classic reason an OpenCL program that works on one GPU
// fails elsewhere with CL_INVALID_WORK_GROUP_SIZE: some devices allow fewer work-items per
// group, and a kernel that uses many registers or much local memory may allow fewer than its
// device. The limits are known only at run time, so the host asks and chooses.
#pragma once

#include <algorithm>
#include <cstddef>

namespace lesson07 {

/// What the host learns from clGetDeviceInfo and clGetKernelWorkGroupInfo.
struct WorkGroupLimits {
  std::size_t device_max_work_group_size = 0;  // CL_DEVICE_MAX_WORK_GROUP_SIZE
  std::size_t max_item_size_x = 0;             // CL_DEVICE_MAX_WORK_ITEM_SIZES[0]
  std::size_t max_item_size_y = 0;             // CL_DEVICE_MAX_WORK_ITEM_SIZES[1]
  std::size_t kernel_work_group_size = 0;      // CL_KERNEL_WORK_GROUP_SIZE (this kernel, this device)
  std::size_t preferred_multiple = 1;          // CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE
};

/// A 2D work-group shape.
struct LocalSize {
  std::size_t x = 0;
  std::size_t y = 0;
};

/// Chooses a work-group shape for a width x height image (the host rounds the global size up to
/// whole groups and the kernel has a bounds check). The shape must be legal on the device:
/// x <= max_item_size_x, y <= max_item_size_y, x * y <= both work-group limits. It should aim
/// for about `target` work-items (a few SIMD groups), powers of two, wide rather than tall
/// (rows are contiguous in memory), and never much larger than the image: each side less than
/// twice the image's side, so that at least half of the group lands inside the image.
inline LocalSize choose_work_group_size(const WorkGroupLimits& limits, std::size_t width, std::size_t height,
                                        std::size_t target = 256) {
  /* >>> GAP 1: choose x and y from the limits and the image size. */
  const std::size_t limit =
      std::max<std::size_t>(1, std::min({limits.device_max_work_group_size, limits.kernel_work_group_size, target}));
  // Width first: double while the row still needs more work-items, up to a warp-like 32 wide.
  const std::size_t widest = std::max<std::size_t>(1, std::min({limit, limits.max_item_size_x, std::size_t(32)}));
  std::size_t x = 1;
  while (x * 2 <= widest && x < width) x *= 2;
  // Then height, with what the limit leaves.
  std::size_t y = 1;
  while (x * y * 2 <= limit && y * 2 <= limits.max_item_size_y && y < height) y *= 2;
  // A narrow image leaves room: widen again if the rows still need it (never past the image).
  while (x * 2 * y <= limit && x * 2 <= limits.max_item_size_x && x < width) x *= 2;
  return {x, y};
  /* <<< GAP 1 */
}

}  // namespace lesson07
