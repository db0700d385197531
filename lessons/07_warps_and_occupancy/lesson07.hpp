// Lesson 07's pieces: the CPU references of its kernels, the sweep table it prints and saves,
// and the five experiments main() runs in order.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "course.hpp"
#include "kernel_resources.hpp"  // common/filters/

namespace lesson07 {

/// The curve that divergence.cl applies to an element of class `curve`, step for step.
inline float apply_curve(float v, int curve, int steps) {
  const float pull = 0.25f * static_cast<float>(curve + 1);
  for (int step = 0; step < steps; ++step) v = std::fma(v, 0.96875f, pull);
  return v;
}

/// Every element i gets the curve of class i % ways.
inline std::vector<float> class_curves_reference(const std::vector<float>& input, int ways, int steps) {
  std::vector<float> out(input.size());
  for (std::size_t i = 0; i < input.size(); ++i) out[i] = apply_curve(input[i], static_cast<int>(i % ways), steps);
  return out;
}

/// What dependent_loads.cl computes for each of `items` work-items.
inline std::vector<float> dependent_loads_reference(const std::vector<float>& data, int items, int loads_per_item,
                                                    int arith) {
  std::vector<float> sums(items);
  for (int item = 0; item < items; ++item) {
    long index = item;
    float sum = 0;
    for (int load = 0; load < loads_per_item; ++load) {
      float v = data[index];
      for (int k = 0; k < arith; ++k) v = std::fma(v, 0.5f, 0.25f);
      sum += v;
      index += items + static_cast<int>(v);
    }
    sums[item] = sum;
  }
  return sums;
}

/// A sweep's results: printed as every lesson's tables are (course::TextTable: its header names
/// on two lines, then columns in `drop_order` left out, to fit 80 columns; the whole table then
/// written to <dir>/<stem>.txt), saved as Markdown and CSV for the docs, and recorded for the
/// pages (`--record FILE`) when `recorded` names its rows.
struct SweepTable {
  std::string title;
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::size_t> drop_order = {};  // columns, in the order they leave a narrow table
  std::vector<std::string> notes = {};       // lines under the table
  /// One per row, in order (sweep_row()): the name a page quotes it by (classes_32, items_1024)
  /// and what it measured; empty for a table that is not recorded.
  std::vector<course::ResultRow> recorded = {};

  /// Prints the table and, when `recorded` names its rows, adds it to the record
  /// (course::record_sweep(): after the lesson's results table) with `roof`.
  void print(const std::string& dir, const std::string& stem, const course::Roofline& roof = {}) const;
  /// Writes <dir>/<stem>.md and <dir>/<stem>.csv.
  void save(const std::string& dir, const std::string& stem) const;
};

/// A recorded sweep's row: its name, its kernel time (NaN, recorded as none, for a row of
/// several times or of none) and whether it verified.
course::ResultRow sweep_row(const std::string& name, double ms, bool verified);

using course::fixed;  // a number with `digits` decimals

/// What every experiment needs: the device, the sweep length, where outputs go.
struct Setup {
  const course::DeviceContext* dc = nullptr;
  bool full = false;  // the long sweeps (for a GPU); otherwise short ones for the tour
  bool once = false;  // each sweep at its first point, on little data (COURSE_RUN_ONCE: under a simulator)
  int repeat = 5;     // timed runs per point
  // Floats the latency and occupancy sweeps load: 2^21 (8 MiB), 2^25 with --full, or --sweep-mib
  std::size_t loads = std::size_t(1) << 21;
  int warp = 0;       // SIMD width used to lay out the warp-uniform kernel
  std::string output_dir;
};

/// Prints what each kernel takes (course::kernel_resources()) as a table, with NVIDIA's report.
void print_kernel_resources(const std::vector<course::KernelResources>& kernels, const cl::Device& device,
                            const std::string& output_dir);

/// A compute unit's own limits, where known (OpenCL reports only the per-group ones). Known for
/// NVIDIA GPUs by compute capability; `known` is false elsewhere.
struct ComputeUnitLimits {
  bool known = false;
  std::string source;
  std::size_t max_items = 0, max_groups = 0, local_bytes = 0, reserved_per_group = 0, registers = 0;
};
bool is_nvidia(const cl::Device& device);
ComputeUnitLimits compute_unit_limits(const cl::Device& device);
/// The table behind compute_unit_limits(): an NVIDIA GPU's per-SM limits by compute capability.
ComputeUnitLimits limits_for_compute_capability(int major, int minor);

/// How many groups of `items_per_group` work-items, each reserving `local_bytes` of local memory
/// and using `registers_per_item` registers (or -1: unknown), fit on one compute unit at once.
struct Residency {
  int groups = -1;  // -1: the limits are not known
  std::string limited_by;
};
Residency resident_groups(const ComputeUnitLimits& limits, std::size_t items_per_group, std::size_t local_bytes,
                          int registers_per_item);

/// One work-group's record from dependent_loads.cl built with -D RECORD_RESIDENCY: the compute unit that ran it, its
/// start and end.
struct GroupRecord {
  unsigned compute_unit = 0;
  std::uint64_t start = 0, end = 0;
};
/// The most work-groups that ran at the same time on any one compute unit.
int most_resident(const std::vector<GroupRecord>& records);

/// The build options that give tiled_convolution.cl a required work-group size of 32x32, and
/// whether the device allows groups of that shape at all (otherwise the lesson leaves it out).
inline constexpr const char* kRequired32x32 = " -D REQUIRED_X=32 -D REQUIRED_Y=32";
bool device_allows_32x32(const cl::Device& device);

/// Whether a device offers what row_filter_shuffle.cl needs: sub-group shuffles
/// (cl_khr_subgroup_shuffle) and sub-groups (cl_khr_subgroups, or OpenCL C 3.0's
/// __opencl_c_subgroups feature).
struct SubGroupSupport {
  bool shuffles = false;
  std::string missing;        // what the device lacks, e.g. "sub-group shuffles (cl_khr_subgroup_shuffle)"
  std::string build_options;  // the -cl-std the sub-group built-ins need
};
/// From the device's extensions, its OpenCL C features and whether it takes OpenCL C 3.0.
SubGroupSupport sub_group_support(const std::vector<std::string>& extensions,
                                  const std::vector<std::string>& c_features, bool opencl_c_3);
SubGroupSupport sub_group_support(const cl::Device& device);
/// The one line a device without them gets: "sub-group rung skipped: this device offers no ...".
std::string sub_group_skip_line(const SubGroupSupport& support);

/// Each experiment (divergence, in main.cpp, and the four below) prints its table, writes
/// <name>.md/.csv/.svg, adds its key rows to `table` (each row verified against the CPU) and
/// returns whether every point it measured verified.
bool run_latency_hiding(const Setup& setup, course::ResultsTable& table);
bool run_occupancy(const Setup& setup, course::ResultsTable& table);
bool run_work_group_sweep(const Setup& setup, const course::GrayImage& image, const course::FilterSpec& filter,
                          course::ResultsTable& table);
bool run_sub_group_rung(const Setup& setup, const course::GrayImage& image, const course::FilterSpec& filter,
                        course::ResultsTable& table);

}  // namespace lesson07
