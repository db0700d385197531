/// @file report.hpp
/// @brief The results table every lesson prints, and the roofline (copy bandwidth and arithmetic
/// rate) it is measured against.
#pragma once

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "device.hpp"
#include "text_table.hpp"
#include "timing.hpp"

namespace course {

/// @brief How pixels are stored in memory: 32-bit floats, 8-bit levels (0..255) or 16-bit halves.
/// A row of the results table divides by the copy of its own pixels (ResultRow::copy).
enum class PixelType { f32, u8, f16 };

/// @brief Bytes a pixel takes in memory: 4, 1 or 2.
constexpr std::size_t pixel_bytes(PixelType type) {
  return type == PixelType::u8 ? 1 : type == PixelType::f16 ? 2 : 4;
}

/// @brief How the notes and the record name the pixels of a copy: "float", "8-bit" or "half".
constexpr const char* copy_label(PixelType type) {
  return type == PixelType::u8 ? "8-bit" : type == PixelType::f16 ? "half" : "float";
}

/// @brief The kernel of kernels/common/copy.cl that copies `type`'s pixels, sixteen bytes a
/// work-item: copy_float4, copy_uchar16 or copy_ushort8.
constexpr const char* copy_kernel_name(PixelType type) {
  return type == PixelType::u8 ? "copy_uchar16" : type == PixelType::f16 ? "copy_ushort8" : "copy_float4";
}

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
  /// The trip end_to_end_ms times, on the host's clock (std::chrono::steady_clock): from before
  /// its first command is enqueued to the queue's finish, median of the same runs; < 0 when not
  /// measured. It holds what events do not show: a pageable copy's staging, launch gaps, waits.
  double wall_ms = -1;
  double flops = 0;           ///< Floating-point operations the kernel does (a multiply-add is 2), for the roofline.
  double min_ms = 0;          ///< Fastest timed run's kernel time (0: not recorded).
  double max_ms = 0;          ///< Slowest timed run's kernel time.
  int runs = 0;               ///< Timed runs behind kernel_ms, min_ms and max_ms.
  /// Loads the kernel makes from local memory, counted from its code (0: none declared), each
  /// of local_load_bytes: 4 (floats) or 16 (float4s). They give the row a local-load floor.
  double local_loads = 0;
  int local_load_bytes = 4;  ///< Bytes of each of local_loads: 4 or 16.
  /// The row whose kernel time "speed-up" divides by this row's: empty for the table's first
  /// row, "-" for none.
  std::string baseline = "";
  /// The copy whose bandwidth "% of copy" and "roofline ms" divide by: the copy of the pixels the
  /// row stores (8-bit rows by the 8-bit copy, half rows by the half copy).
  PixelType copy = PixelType::f32;

  /// @brief Takes the spread of `t` (fastest, slowest, runs) for the noise notes.
  ResultRow& spread(const Timing& t) {
    min_ms = t.min_ms, max_ms = t.max_ms, runs = t.runs;
    return *this;
  }
};

/// @brief One copy yardstick: a copy between two buffers, sixteen bytes a work-item (a float4,
/// sixteen bytes or eight halves), timed like BabelStream times its copy: a warm-up, then N runs, the
/// fastest taken as the bandwidth.
struct CopyYardstick {
  double gbps = 0;          ///< GB/s of bytes read plus written, the fastest run: the yardstick.
  double median_gbps = 0;   ///< The median run (0: not recorded).
  double slowest_gbps = 0;  ///< The slowest run (0: not recorded).
  int runs = 0;             ///< Timed runs after the warm-up (0: not recorded).
  double buffer_bytes = 0;  ///< Bytes of each of the two buffers copied (0: not recorded).
  double ms = 0;            ///< The fastest run's time.
  int group = 0;            ///< Work-items a group in the fastest runs' launches (0: not recorded).
};

/// @brief The roofline: a device's ceilings, all measured (never datasheet numbers), the least
/// time they allow a kernel that moves `bytes`, does `flops` and makes local loads, and the
/// limits under which a row's time says nothing about memory (see measure_roofline()).
struct Roofline {
  CopyYardstick copy;        ///< The float copy: the yardstick of rows of floats.
  double gflops = 0;         ///< Multiply-add rate, 10^9 floating-point operations a second (2 per fma); 0: unknown.
  double local_gloads = 0;   ///< Float loads from local memory, 10^9 a second (local_load_peak.cl); 0: unknown.
  double local4_gloads = 0;  ///< Float4 loads from local memory, 10^9 a second; 0: unknown.
  double cache_bytes = 0;    ///< Last-level cache taken for the device: a row moving no more fits in it (0: unknown).
  double reported_cache_bytes = 0;  ///< CL_DEVICE_GLOBAL_MEM_CACHE_SIZE as the driver reports it.
  double timer_ns = 0;              ///< CL_DEVICE_PROFILING_TIMER_RESOLUTION.
  /// Measures the copy of 8-bit or half pixels the first time a table asks for it (set by
  /// measure_roofline(), which keeps each one measured; empty: those copies are unknown).
  std::function<CopyYardstick(PixelType)> measure_narrow_copy;
  /// @brief Known ceilings (lesson 09's tables pass 0: no copy column).
  Roofline(double copy_gbps = 0, double rate = 0) : gflops(rate) {  // NOLINT(google-explicit-constructor)
    copy.gbps = copy_gbps;
  }

  /// @brief The copy rows of `pixels` divide by: `copy` for floats, else measure_narrow_copy's
  /// (all zero when unknown).
  CopyYardstick copy_of(PixelType pixels) const {
    if (pixels == PixelType::f32) return copy;
    return measure_narrow_copy ? measure_narrow_copy(pixels) : CopyYardstick{};
  }
  /// @brief Operations per byte where the ceilings meet: below it memory limits a kernel, above it arithmetic.
  double ridge() const { return copy.gbps > 0 ? gflops / copy.gbps : 0; }
  /// @brief The least time for `bytes` moved at `copy_gbps` (a copy_of()'s bandwidth; the float
  /// copy's when left out) and `flops` done: the larger of the two times.
  double bound_ms(double bytes, double flops, double copy_gbps) const {
    return std::max(copy_gbps > 0 ? bytes / (copy_gbps * 1e6) : 0, gflops > 0 ? flops / (gflops * 1e6) : 0);
  }
  /// @brief The least time at the float copy's bandwidth.
  double bound_ms(double bytes, double flops) const { return bound_ms(bytes, flops, copy.gbps); }
  /// @brief The local-load floor: `loads` loads of `load_bytes` (16: float4s, else floats) at the
  /// measured rate; 0 when the rate is unknown.
  double local_ms(double loads, int load_bytes) const {
    const double rate = load_bytes == 16 ? local4_gloads : local_gloads;
    return rate > 0 ? loads / (rate * 1e6) : 0;
  }
  /// @brief The least time for `row`: the largest of its memory floor at `copy_gbps`, its FMA
  /// floor and its local-load floor.
  double bound_ms(const ResultRow& row, double copy_gbps) const {
    return std::max(bound_ms(row.bytes, row.flops, copy_gbps), local_ms(row.local_loads, row.local_load_bytes));
  }
  /// @brief Which floor bound_ms() took for `row`: "memory", "FMAs" or "local loads" ("" for none).
  std::string bound_name(const ResultRow& row, double copy_gbps) const {
    const double memory = copy_gbps > 0 ? row.bytes / (copy_gbps * 1e6) : 0;
    const double fma = gflops > 0 ? row.flops / (gflops * 1e6) : 0;
    const double local = local_ms(row.local_loads, row.local_load_bytes);
    if (std::max({memory, fma, local}) <= 0) return "";
    return local > std::max(memory, fma) ? "local loads" : fma > memory ? "FMAs" : "memory";
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
/// (up to 128 MB), which NVIDIA's and AMD's drivers leave out of CL_DEVICE_GLOBAL_MEM_CACHE_SIZE;
/// below the 256 MB Infinity Cache of AMD's MI300X and MI300A, where a row that fits it goes unmarked.
constexpr double documented_gpu_cache_bytes = 128.0 * 1024 * 1024;

/// @brief The last-level cache any other device is taken to have when its driver reports none
/// (Mesa's rusticl on llvmpipe reports 0): 32 MiB, the L3 of a large desktop CPU.
constexpr double documented_cache_bytes = 32.0 * 1024 * 1024;

/// @brief The device's roofline, measured once per device in a process: the float copy's bandwidth
/// (kernels/common/copy.cl, the yardstick every table divides by), the multiply-add rate
/// (fma_peak.cl) and the local-memory load rates (local_load_peak.cl), and the copies of 8-bit and
/// half pixels when a table first asks for them (Roofline::copy_of()). How each is measured:
/// harness/runs/measure_roofline.hpp; the lessons link its definition (library course_runs).
Roofline measure_roofline(const DeviceContext& dc);

/// @brief What a row's marks need of `dc`'s device, measuring nothing: the last-level cache
/// taken for it (the driver's figure, raised to documented_gpu_cache_bytes on a GPU;
/// documented_cache_bytes on another device whose driver reports none) and its timer's
/// resolution; the ceilings are left 0. For a table that divides by no copy (lesson 13's);
/// measure_roofline() starts from it, and it is defined beside it.
Roofline cache_and_timer(const DeviceContext& dc);

/// @brief `v` with `digits` decimals, as the tables print their figures.
std::string fixed(double v, int digits);

/// @brief The marks of a row's kernel time, as every results table prints them after it: `*` when
/// `kernel_ms` is shorter than Roofline::shortest_ms(), `+` when `bytes` fit the last-level cache.
std::string time_marks(const Roofline& roof, double kernel_ms, double bytes);

/// @brief The notes under a table that say what its marks mean: for `*` when `short_rows`, for
/// `+` when `cached_rows`.
std::vector<std::string> mark_notes(const Roofline& roof, bool short_rows, bool cached_rows);

/// @brief Whether `row` and `base` differ by less than the spread of their timed runs (either's
/// fastest to slowest, both of more than one run): a speed-up between them is printed with `~`.
bool within_spread(const ResultRow& row, const ResultRow& base);

/// @brief The note under a table that says so, naming both rows and their ranges.
std::string spread_note(const ResultRow& row, const ResultRow& base);

/// @brief The copies `rows` divide by, each by the pixels it copies: the copy of each row's pixels
/// (ResultRow::copy) for rows that move bytes, none when `roof` has no float copy.
std::map<PixelType, CopyYardstick> row_copies(const Roofline& roof, const std::vector<ResultRow>& rows);

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
  /// @brief Prints the table: variant, kernel ms, end-to-end ms, wall ms (only when a row has a
  /// ResultRow::wall_ms, with a note saying what each of the two is), MPix/s, GB/s, % of copy (of
  /// the copy of the row's own pixels, ResultRow::copy), flop/B (arithmetic intensity), roofline ms
  /// (Roofline::bound_ms() of the row at that copy: a row declaring local loads gets its
  /// local-load floor too, and a note saying which floor bounds it), max error, speed-up over the
  /// row's baseline (the first row unless the row names another), and whether it verified.
  /// A kernel time marked `*` is shorter than Roofline::shortest_ms(), `+` a row whose bytes fit
  /// the last-level cache; a "% of copy" marked `!` is a verified row, not held by the cache,
  /// above 102% of its copy: a kernel that reads and writes its bytes once is not expected to beat
  /// a copy of them, so the yardstick likely read low for it, and no conclusion rests on it. Lines after it (indented by four
  /// spaces, wrapped at 80 columns) say what the marks mean, name the baselines, say where a
  /// speed-up is within the spread of the timed runs ("~") and where a kernel time exceeds its
  /// end-to-end time, and give each copy the rows divide by: its bandwidth (the fastest of its
  /// runs), its buffers, its median and slowest run, and which rows divide by it.
  /// A table wider than 80 columns keeps its first columns on `out` (the variant, kernel ms,
  /// speed-up and verified last to go; in a table with a wall column, end-to-end ms and wall ms
  /// next) and is written whole to `full_table` when one is given;
  /// $COURSE_TABLE=full prints it whole on `out`.
  void print(std::ostream& out, const std::filesystem::path& full_table = {}) const;
  /// @brief row_copies() of this table's rows.
  std::map<PixelType, CopyYardstick> copies() const;
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

/// @brief What ResultsTable::print() hands on of a table it printed: the table, and its head, cells
/// and notes as printed.
using TablePrinted = std::function<void(const ResultsTable& table, const std::vector<std::string>& head,
                                        const std::vector<std::vector<std::string>>& cells,
                                        const std::vector<std::string>& notes)>;

/// @brief Has ResultsTable::print() hand every table it prints to `printed`: `--record FILE`
/// (harness/runs/record.hpp) keeps it in the run's record, as data. None by default.
void on_table_printed(TablePrinted printed);

}  // namespace course
