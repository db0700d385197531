/// @file kernel_resources.hpp
/// @brief What a kernel takes from a compute unit: lesson 06 shows it for each median variant,
/// lesson 07 for its occupancy experiments.
#pragma once

#include <cstddef>
#include <string>

#include "device.hpp"

namespace course {

/// @brief What a kernel takes from a compute unit, as the driver and (on NVIDIA) its compiler say.
struct KernelResources {
  std::string name;               ///< The kernel function.
  std::size_t private_bytes = 0;  ///< CL_KERNEL_PRIVATE_MEM_SIZE: per work-item.
  std::size_t local_bytes = 0;    ///< CL_KERNEL_LOCAL_MEM_SIZE: declared in the kernel, per work-group.
  std::size_t max_group = 0;      ///< CL_KERNEL_WORK_GROUP_SIZE.
  int registers = -1;             ///< Per work-item; -1 where the driver does not say.
  int spill_bytes = -1;           ///< Bytes spilled to memory (stores) per work-item; -1: not said.
  std::string compiler_report;    ///< NVIDIA's -cl-nv-verbose lines for this kernel, each indented.
};

/// @brief Builds `file` (relative to the project root) with `options`, plus `-cl-nv-verbose` on
/// NVIDIA, whose compiler then writes registers and spills into the build log, and reads what
/// kernel `name` takes.
KernelResources kernel_resources(const DeviceContext& dc, const std::string& file, const std::string& options,
                                 const std::string& name);

}  // namespace course
