/// @file measure_roofline.hpp
/// @brief How measure_roofline() (declared in common/report.hpp, where the results table uses the
/// Roofline) measures a device's ceilings, and the sizes of the copy yardstick's buffers.
///
/// The copy bandwidth (the yardstick every table divides by) comes from kernels/common/copy.cl's
/// float4 copy between two buffers allocated once at copy_size()'s size. A probe copies a 16 MiB
/// prefix of them and the copy grows, within them, to the size whose copy lasts 40 ms (on a slow
/// device, such as PoCL on two cores; on a GPU the whole buffers) and at least 300 timer ticks,
/// each size's speed the fastest of 3 runs. Then, in the same buffers, a warm-up and N timed runs
/// (10, or as many as 200 ms of copying holds, 3 at least): the fastest is the yardstick, as
/// BabelStream reports its copy, the median and the slowest its spread. The copies of 8-bit and
/// half pixels (four bytes or four halves a work-item) are measured the same way when a table
/// first asks for them (Roofline::copy_of()). The multiply-add rate comes from
/// kernels/common/fma_peak.cl and the local-memory load rates from kernels/common/local_load_peak.cl
/// (each: enough work-items to fill every compute unit, median of 3 runs after a warm-up; 0 when
/// the timer gave no time). $COURSE_COPY_MIB sets the buffer size and skips the probe (the tests'
/// quick runs). Each figure is measured once per device in a process.
#pragma once

#include "device.hpp"
#include "report.hpp"

namespace course {

/// @brief What a device says about its memory, as copy_size() needs it.
struct DeviceMemory {
  double reported_cache_bytes = 0;  ///< CL_DEVICE_GLOBAL_MEM_CACHE_SIZE (0: none reported).
  bool gpu = false;                 ///< CL_DEVICE_TYPE_GPU.
  double max_alloc_bytes = 0;       ///< CL_DEVICE_MAX_MEM_ALLOC_SIZE.
  double global_bytes = 0;          ///< CL_DEVICE_GLOBAL_MEM_SIZE (0: unknown, no limit from it).
};

/// @brief The sizes copy_size() chose.
struct CopySize {
  double cache_bytes = 0;   ///< The last-level cache taken for the device.
  double buffer_bytes = 0;  ///< Each of the copy's two buffers: the most a copy may use.
  bool given = false;       ///< $COURSE_COPY_MIB set buffer_bytes: no probing.
};

/// @brief The copy yardstick's sizes for `device`: the cache is the reported one, raised to
/// documented_gpu_cache_bytes on a GPU, documented_cache_bytes on any other device reporting
/// none; each buffer is 4x that cache, within one allocation, an eighth of the device's memory
/// and 4 GiB, a whole number of 16-byte float4s. `copy_mib` ($COURSE_COPY_MIB, nullptr or empty
/// when unset) sets the buffers' size in MiB instead, within the same limits. Throws UsageError
/// for a `copy_mib` that is not a number above 0, and DeviceLimitError when the device allocates
/// less than one float4.
CopySize copy_size(const DeviceMemory& device, const char* copy_mib);

/// @brief The copy of `pixels` on `dc`'s device, measured as measure_roofline() measures the
/// float copy, once per device and pixel type in a process.
CopyYardstick measure_copy(const DeviceContext& dc, PixelType pixels);

}  // namespace course
