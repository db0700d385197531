/// @file measure.hpp
/// @brief One variant measured into a row of the results table: what it does, by name (its
/// pixels, bytes, flops, the copy it divides by, its baseline), its timed runs and its comparison
/// with the CPU reference. Every lesson's rows are made here, and every output it reads back is
/// poisoned the same way first.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "compare.hpp"
#include "device.hpp"
#include "image.hpp"
#include "report.hpp"
#include "timing.hpp"

namespace course {

/// @brief What one variant does, for its row: the figures the MPix/s, GB/s and roofline columns
/// divide, and what the row is compared with.
struct RowWork {
  std::string variant;              ///< Name, as `--variant` takes it.
  double pixels = 0;                ///< Output pixels.
  double bytes = 0;                 ///< Least bytes the operation must move (in + out per pass).
  double flops = 0;                 ///< Floating-point operations (a multiply-add is 2).
  PixelType copy = PixelType::f32;  ///< The pixels it stores: "% of copy" divides by their copy.
  std::string baseline = "";        ///< As ResultRow::baseline: empty for the table's first row.
  double local_loads = 0;           ///< As ResultRow::local_loads: loads from local memory (0: none declared).
  int local_load_bytes = 4;         ///< Bytes of each: 4 (floats) or 16 (float4s).
};

/// @brief The row of `work`: its kernel time (the median) and spread from `kernel`, the
/// end-to-end time (< 0: not measured), the largest difference and the verdict from `check`.
/// When it did not verify, says how on `out`: "  VARIANT differs from the CPU reference: ...".
ResultRow result_row(const RowWork& work, const Timing& kernel, double end_to_end_ms, const Comparison& check,
                     std::ostream& out);

/// @brief The row of `work` from a verdict reached elsewhere (lesson 11's tuner compares each
/// candidate itself): `max_error` and `verified` instead of a comparison; nothing printed.
ResultRow result_row(const RowWork& work, const Timing& kernel, double end_to_end_ms, double max_error, bool verified);

/// @brief A Timing from separate kernel times (the kernel's own events in a round trip): their
/// median, fastest, slowest and count.
Timing timing_of(const std::vector<double>& kernel_ms);

/// @brief Fills the first `bytes` of `output` with a value no correct kernel writes, so that a
/// pixel a variant skips cannot keep what an earlier one left there: NaN for floats and halves
/// (compare_images() counts NaN as wrong); for 8-bit levels, which have no NaN, 255.
void poison_output(const cl::CommandQueue& queue, const cl::Buffer& output, std::size_t bytes, PixelType pixels);

/// @brief One variant of a filter from a float picture to a float picture, measured: its row,
/// the picture it wrote, and its timing (each command's median in Timing::command_ms).
struct ImageRun {
  ResultRow row;    ///< The row for the table.
  GrayImage image;  ///< The output read back.
  Timing kernel;    ///< The timed runs of `launch`.
};

/// @brief Poisons `output` (poison_output()), times `launch` (which enqueues the variant's
/// kernels and returns their events) with time_events(), then, when `picture` is given, end to
/// end with time_end_to_end() (`picture` up into `input`, the kernels, `output` down), otherwise
/// reads `output` back; compares the result with `reference` within `tolerance` gray levels and
/// makes the row with result_row().
ImageRun measure_image(const DeviceContext& dc, const RowWork& work, const std::function<std::vector<cl::Event>()>& launch,
                       const cl::Buffer& input, const GrayImage* picture, const cl::Buffer& output,
                       const GrayImage& reference, double tolerance, int repeat, std::ostream& out);

}  // namespace course
