/// @file report.hpp
/// @brief The results table every lesson prints, and the roofline (copy bandwidth and arithmetic
/// rate) it is measured against.
#pragma once

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "device.hpp"
#include "text_table.hpp"
#include "timing.hpp"

namespace course {

/// @brief One variant's measured and verified result, written `{name, kernel ms, end-to-end ms,
/// pixels, bytes, max error, verified}`; the flops, the spread and the baseline are set apart.
struct ResultRow {
  std::string variant;        ///< Name, as `--variant` takes it.
  double kernel_ms = 0;       ///< Median kernel time from event profiling.
  double end_to_end_ms = -1;  ///< Upload + kernels + download (event profiling); < 0 when not measured.
  double pixels = 0;          ///< Output pixels, for MPix/s.
  double bytes = 0;           ///< Least bytes the operation must move (in + out per pass), for GB/s.
  double max_error = 0;       ///< Largest difference from the CPU reference.
  bool verified = false;      ///< True when every value is within the lesson's tolerance.
  double flops = 0;           ///< Floating-point operations the kernel does (a multiply-add is 2), for the roofline.
  double min_ms = 0;          ///< Fastest timed run's kernel time (0: not recorded).
  double max_ms = 0;          ///< Slowest timed run's kernel time.
  int runs = 0;               ///< Timed runs behind kernel_ms, min_ms and max_ms.
  /// The row whose kernel time "speed-up" divides by this row's: empty for the table's first
  /// row, "-" for none.
  std::string baseline = "";

  /// @brief Takes the spread of `t` (fastest, slowest, runs) for the noise notes.
  ResultRow& spread(const Timing& t) {
    min_ms = t.min_ms, max_ms = t.max_ms, runs = t.runs;
    return *this;
  }
};

/// @brief The roofline: a device's two ceilings, both measured (never datasheet numbers), the
/// least time they allow a kernel that moves `bytes` and does `flops`, and the limits under which
/// a row's time says nothing about memory (see measure_roofline()).
struct Roofline {
  double copy_gbps = 0;    ///< Copy bandwidth, GB/s of bytes read plus written: median of the runs.
  double gflops = 0;       ///< Multiply-add rate, 10^9 floating-point operations a second (2 per fma); 0: unknown.
  double min_gbps = 0;     ///< Slowest copy run (0: not recorded).
  double max_gbps = 0;     ///< Fastest copy run.
  int runs = 0;            ///< Timed copy runs behind the figures.
  double copy_bytes = 0;   ///< Size of each of the copy's two buffers (0: not recorded).
  double copy_ms = 0;      ///< The copy's median time.
  double cache_bytes = 0;  ///< Last-level cache taken for the device: a row moving no more fits in it (0: unknown).
  double reported_cache_bytes = 0;  ///< CL_DEVICE_GLOBAL_MEM_CACHE_SIZE as the driver reports it.
  double timer_ns = 0;              ///< CL_DEVICE_PROFILING_TIMER_RESOLUTION.
  /// @brief Known ceilings (lesson 09's tables pass 0: no copy column).
  Roofline(double copy = 0, double rate = 0) : copy_gbps(copy), gflops(rate) {}  // NOLINT(google-explicit-constructor)

  /// @brief Operations per byte where the ceilings meet: below it memory limits a kernel, above it arithmetic.
  double ridge() const { return copy_gbps > 0 ? gflops / copy_gbps : 0; }
  /// @brief The least time for `bytes` moved and `flops` done: the larger of the two times.
  double bound_ms(double bytes, double flops) const {
    return std::max(copy_gbps > 0 ? bytes / (copy_gbps * 1e6) : 0, gflops > 0 ? flops / (gflops * 1e6) : 0);
  }
  /// @brief The shortest kernel time a conclusion may rest on: 20 us, or 100 timer ticks when
  /// that is longer. Below it launch, ramp-up, tail and the timer's step weigh in.
  double shortest_ms() const { return std::max(0.020, 100 * timer_ns * 1e-6); }
};

/// @brief Operations per byte moved: the roofline's arithmetic intensity.
inline double arithmetic_intensity(double flops, double bytes) {
  return bytes > 0 ? flops / bytes : 0;
}

/// @brief The last-level cache a GPU is taken to have when its driver reports less: 128 MiB,
/// above the L2 of an H100 (50 MB) or a B200 (126 MB) and the Infinity Cache of RDNA 2 and 3
/// (up to 128 MB), which NVIDIA's and AMD's drivers leave out of CL_DEVICE_GLOBAL_MEM_CACHE_SIZE.
constexpr double documented_gpu_cache_bytes = 128.0 * 1024 * 1024;

/// @brief The device's roofline, measured once per device in a process. The copy bandwidth (the
/// yardstick every table divides by) comes from a float4 copy between two buffers of 4x the
/// last-level cache each (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, or documented_gpu_cache_bytes on a GPU
/// reporting less), within what the device allocates, doubled until one copy lasts 300 timer
/// ticks: median of 5 runs after a warm-up, with the fastest and slowest run. The multiply-add
/// rate comes from kernels/common/fma_peak.cl (enough work-items to fill every compute unit,
/// median of 3 runs). $COURSE_COPY_MIB sets the buffer size instead (the tests' quick runs).
Roofline measure_roofline(const DeviceContext& dc);

/// @brief Collects rows and prints them as the course's results table.
class ResultsTable {
 public:
  /// @param title printed above the table.
  /// @param roof the device's roofline (measure_roofline()) for the "% of copy" column (0 to
  /// leave it out) and the roofline columns.
  ResultsTable(std::string title, Roofline roof) : title_(std::move(title)), roof_(roof) {}
  ~ResultsTable() { end_progress(); }

  /// @brief Says on stderr that `variant` starts (call it just before measuring it): on a terminal
  /// one line, "  running NAME ...", that end_progress(), add(), print() and the next one clear;
  /// elsewhere nothing. $COURSE_PROGRESS (lines, terminal or off) overrides.
  void running(const std::string& variant);
  /// @brief Clears the line running() showed, before the lesson prints something else.
  void end_progress() const;
  /// @brief Adds a row.
  void add(const ResultRow& row);
  /// @brief Prints the table: variant, kernel ms, end-to-end ms, MPix/s, GB/s, % of copy, flop/B
  /// (arithmetic intensity), roofline ms (Roofline::bound_ms()), max error, speed-up over the
  /// row's baseline (the first row unless the row names another), and whether it verified.
  /// A kernel time marked `*` is shorter than Roofline::shortest_ms(), `+` a row whose bytes fit
  /// the last-level cache. Lines after it (indented by four spaces, wrapped at 80 columns) say
  /// what the marks mean, name the baselines, and say where a speed-up is within the spread of the
  /// timed runs ("~"), where a kernel time exceeds its end-to-end time, and how the copy was measured.
  /// A table wider than 80 columns keeps its first columns on `out` (the variant, kernel ms,
  /// speed-up and verified last to go) and is written whole to `full_table` when one is given;
  /// $COURSE_TABLE=full prints it whole on `out` (the bench reads that).
  void print(std::ostream& out, const std::filesystem::path& full_table = {}) const;
  /// @brief True when there is at least one row and every row verified.
  bool all_verified() const {
    return !rows_.empty() && std::all_of(rows_.begin(), rows_.end(), [](const ResultRow& r) { return r.verified; });
  }
  /// @brief The rows so far.
  const std::vector<ResultRow>& rows() const { return rows_; }
  /// @brief The title given.
  const std::string& title() const { return title_; }
  /// @brief The roofline the table measures against.
  const Roofline& roof() const { return roof_; }

 private:
  std::string title_;
  Roofline roof_;
  std::vector<ResultRow> rows_;
  mutable bool progress_shown_ = false;  // a progress line waits on the terminal to be cleared
};

}  // namespace course
