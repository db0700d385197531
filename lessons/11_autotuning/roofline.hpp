/// @file roofline.hpp
/// @brief The roofline: the fastest a kernel can run on a device, from the bytes it must move and
/// the arithmetic it must do, against the device's measured copy bandwidth and arithmetic rate.
/// Lesson 11 introduces it; the lessons whose tables show each kernel's roofline bound link it.
#pragma once

#include <cstddef>
#include <string>

#include "device.hpp"

namespace course {

/// @brief A device's two ceilings, both measured (never datasheet numbers).
struct Roofline {
  double copy_gbps = 0;  ///< Copy bandwidth, bytes read plus written (measure_copy_bandwidth()).
  double gflops = 0;     ///< Multiply-add rate in 10^9 floating-point operations a second (2 per fma).

  /// @brief The operations per byte at which the two ceilings meet: kernels below it are limited
  /// by memory, above it by arithmetic.
  double ridge() const { return copy_gbps > 0 ? gflops / copy_gbps : 0; }
  /// @brief The least time for `bytes` moved and `flops` done: the larger of the two times.
  double bound_ms(double bytes, double flops) const;
  /// @brief "memory" or "arithmetic": which ceiling bound_ms() hits for this kernel.
  std::string limit(double bytes, double flops) const;
};

/// @brief Operations per byte moved (the roofline's arithmetic intensity).
inline double arithmetic_intensity(double flops, double bytes) {
  return bytes > 0 ? flops / bytes : 0;
}

/// @brief The device's multiply-add rate, measured with kernels/common/fma_peak.cl (enough
/// work-items to fill every compute unit, median of 3 runs). Measured once per device in a process.
double measure_gflops(const DeviceContext& dc);

/// @brief Both ceilings: the copy bandwidth over `bytes` bytes and measure_gflops().
Roofline measure_roofline(const DeviceContext& dc, std::size_t bytes);

}  // namespace course
