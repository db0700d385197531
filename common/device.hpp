/// @file device.hpp
/// @brief Finding OpenCL devices and choosing one from a `--device` SPEC.
#pragma once

#include <CL/opencl.hpp>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace course {

/// @brief One device of one platform, numbered across all platforms as `./course devices` shows.
struct DeviceEntry {
  int index = 0;              ///< Position in the list, counting across platforms from 0.
  cl::Platform platform;      ///< The platform (driver) the device belongs to.
  cl::Device device;          ///< The device itself.
  std::string platform_name;  ///< CL_PLATFORM_NAME.
  std::string device_name;    ///< CL_DEVICE_NAME.
  cl_device_type type = 0;    ///< CL_DEVICE_TYPE (CPU, GPU, accelerator).
};

/// @brief The device, its context and an in-order queue with profiling, ready for a lesson.
struct DeviceContext {
  DeviceEntry entry;       ///< Which device this is.
  cl::Device device;       ///< The device.
  cl::Context context;     ///< A context holding only this device.
  cl::CommandQueue queue;  ///< In-order queue with CL_QUEUE_PROFILING_ENABLE.
};

/// @brief Every device of every platform. Throws InputError when no platform lists a device,
/// naming the platforms that list none (Mesa's rusticl does so until RUSTICL_ENABLE is set).
std::vector<DeviceEntry> list_devices();

/// @brief "CPU", "GPU", "accelerator" or "other".
std::string device_type_name(cl_device_type type);

/// @brief Chooses a device: `spec` if not empty, else $COURSE_DEVICE (not under Oclgrind, whose
/// device is then the only one), else the first GPU, else the first CPU. SPEC is an index, a
/// case-insensitive part of the platform or device name, or `cpu` / `gpu`. Throws InputError listing the devices when SPEC matches nothing.
DeviceEntry select_device(const std::string& spec);

/// @brief select_device() plus a context and a profiling queue on that device.
DeviceContext open_device(const std::string& spec);

/// @brief Has open_device() hand every device it opens to `opened`: `--record FILE`
/// (harness/runs/record.hpp) names it in the run's record. None by default.
void on_device_opened(std::function<void(const DeviceContext&)> opened);

/// @brief The platforms that list no device, with what to do (rusticl's RUSTICL_ENABLE): one line
/// each, "" when every platform has devices.
std::string platforms_without_devices();

/// @brief One line naming the device and its platform, e.g. "pthread-skylake (Portable ..., CPU)".
std::string describe(const DeviceEntry& entry);

/// @brief The largest work-group shape not bigger than `wanted_x` x `wanted_y` that the device
/// allows (CL_DEVICE_MAX_WORK_ITEM_SIZES, CL_DEVICE_MAX_WORK_GROUP_SIZE) with at most `max_items`
/// work-items (pass the kernel's CL_KERNEL_WORK_GROUP_SIZE). Halves the longer side first, the
/// height on a tie (rows are contiguous in memory): 16x16 stays 16x16 where allowed, else 16x8,
/// then 8x8; 64x4 becomes 32x4. A 1D shape (wanted_y = 1) comes back as a 1D NDRange.
cl::NDRange fit_work_group(const cl::Device& device, std::size_t max_items, std::size_t wanted_x,
                           std::size_t wanted_y = 1);

/// @brief fit_work_group() for a kernel: at most CL_KERNEL_WORK_GROUP_SIZE work-items.
cl::NDRange fit_work_group(const DeviceContext& dc, const cl::Kernel& kernel, std::size_t wanted_x,
                           std::size_t wanted_y = 1);

/// @brief The SIMD width the hardware executes work-items in, with where it came from:
/// CL_DEVICE_WARP_SIZE_NV where that extension exists, else the preferred work-group size
/// multiple of `kernel` (when given), else 0.
int simd_width(const cl::Device& device, const cl::Kernel* kernel, std::string* source = nullptr);

}  // namespace course
