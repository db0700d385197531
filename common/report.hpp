/// @file report.hpp
/// @brief The results table every lesson prints, and the copy bandwidth it is measured against.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "device.hpp"
#include "timing.hpp"

namespace course {

/// @brief One variant's measured and verified result, written {name, kernel ms, end-to-end ms,
/// pixels, bytes, max error, verified}; the spread and the baseline are set apart.
struct ResultRow {
  std::string variant;        ///< Name, as `--variant` takes it.
  double kernel_ms = 0;       ///< Median kernel time from event profiling.
  double end_to_end_ms = -1;  ///< Upload + kernels + download (event profiling); < 0 when not measured.
  double pixels = 0;          ///< Output pixels, for MPix/s.
  double bytes = 0;           ///< Least bytes the operation must move (in + out per pass), for GB/s.
  double max_error = 0;       ///< Largest difference from the CPU reference.
  bool verified = false;      ///< True when every value is within the lesson's tolerance.
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

/// @brief A device's copy bandwidth (GB/s): the median and the range of the timed runs.
struct CopyBandwidth {
  double gbps = 0;      ///< Median over the runs.
  double min_gbps = 0;  ///< Slowest run (0: not recorded).
  double max_gbps = 0;  ///< Fastest run.
  int runs = 0;         ///< Timed runs behind the figures.
  /// @brief A figure without a range (lesson 09's tables pass 0: no copy column).
  CopyBandwidth(double median = 0) : gbps(median) {}  // NOLINT(google-explicit-constructor)
  /// @brief The median, where a plain number is wanted.
  operator double() const { return gbps; }  // NOLINT(google-explicit-constructor)
};

/// @brief Device copy bandwidth in GB/s (10^9 bytes per second), counting bytes read plus
/// written, measured with a float4 copy kernel over `bytes` bytes (median of 5 runs after a
/// warm-up, with the fastest and slowest run). Measured once per device and size in a process.
CopyBandwidth measure_copy_bandwidth(const DeviceContext& dc, std::size_t bytes);

/// @brief Collects rows and prints them as the course's results table.
class ResultsTable {
 public:
  /// @param title printed above the table.
  /// @param copy the device's copy bandwidth for the "% of copy" column (0 to leave it out).
  ResultsTable(std::string title, CopyBandwidth copy);

  /// @brief Adds a row.
  void add(const ResultRow& row) { rows_.push_back(row); }
  /// @brief Prints the table: variant, kernel ms, end-to-end ms, MPix/s, GB/s, % of copy,
  /// max error, speed-up over the row's baseline (the first row unless the row names another),
  /// and whether the row verified. Lines after the table (indented by four spaces) name the
  /// baselines, and say where a speed-up is within the spread of the timed runs ("~"), where a
  /// kernel time exceeds its end-to-end time, and how steady the copy bandwidth was.
  void print(std::ostream& out) const;
  /// @brief True when there is at least one row and every row verified.
  bool all_verified() const;
  /// @brief The rows so far.
  const std::vector<ResultRow>& rows() const { return rows_; }

 private:
  std::string title_;
  CopyBandwidth copy_;
  std::vector<ResultRow> rows_;
};

}  // namespace course
