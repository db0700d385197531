/// @file report.hpp
/// @brief The results table every lesson prints, and the copy bandwidth it is measured against.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "device.hpp"

namespace course {

/// @brief One variant's measured and verified result.
struct ResultRow {
  std::string variant;        ///< Name, as `--variant` takes it.
  double kernel_ms = 0;       ///< Median kernel time from event profiling.
  double end_to_end_ms = -1;  ///< Upload + kernels + download (event profiling); < 0 when not measured.
  double pixels = 0;          ///< Output pixels, for MPix/s.
  double bytes = 0;           ///< Least bytes the operation must move (in + out per pass), for GB/s.
  double max_error = 0;       ///< Largest difference from the CPU reference.
  bool verified = false;      ///< True when every value is within the lesson's tolerance.
};

/// @brief Device copy bandwidth in GB/s (10^9 bytes per second), counting bytes read plus
/// written, measured with a float4 copy kernel over `bytes` bytes (median of 5 runs after a
/// warm-up). Measured once per device and size in a process.
double measure_copy_bandwidth(const DeviceContext& dc, std::size_t bytes);

/// @brief Collects rows and prints them as the course's results table.
class ResultsTable {
 public:
  /// @param title printed above the table.
  /// @param copy_gbps the device's copy bandwidth for the "% of copy" column (0 to leave it out).
  ResultsTable(std::string title, double copy_gbps);

  /// @brief Adds a row.
  void add(const ResultRow& row);
  /// @brief Prints the table: variant, kernel ms, end-to-end ms, MPix/s, GB/s, % of copy,
  /// max error, speed-up over the previous row, and whether the row verified.
  void print(std::ostream& out) const;
  /// @brief True when there is at least one row and every row verified.
  bool all_verified() const;
  /// @brief The rows so far.
  const std::vector<ResultRow>& rows() const { return rows_; }

 private:
  std::string title_;
  double copy_gbps_;
  std::vector<ResultRow> rows_;
};

}  // namespace course
