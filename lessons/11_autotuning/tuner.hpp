// Lesson 11: the tuner. A search loop over a Space of launch parameters: each candidate is
// first checked against the device's and the kernel's limits (an illegal one is skipped with its
// reason and never launched), then compiled with its -D values, verified against the CPU
// reference and timed with events. Two strategies: every candidate (exhaustive), or a budget of
// candidates (random samples, then hill climbing from the best).
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "report.hpp"
#include "search_space.hpp"

namespace tuning {

/// What trying one candidate gave.
struct Measurement {
  Point point;
  std::string skipped;    // why it was not launched ("" when it ran)
  bool compiled = false;  // passed the limits known before compiling, so it cost a build
  bool verified = false;  // matched the CPU reference
  double max_error = 0;
  double kernel_ms = 0;  // median of the timed runs (event profiling)
  double build_ms = 0;   // compiling its -D values (0 when the program cache answered)
  double cost_ms = 0;    // host time spent on it: build, verify and time
  bool ran() const { return skipped.empty(); }
  bool usable() const { return ran() && verified; }
};

/// One kernel family on one device and image: its space, its legality rule and how to try a
/// candidate.
struct Family {
  std::string operation;  // e.g. "separable gaussian r=8": the cache key's operation
  Space space;
  Point shipped;     // the defaults the lessons ship, for --untuned and the comparison
  double bytes = 0;  // least bytes the operation moves (read once, write once)
  double flops = 0;  // arithmetic it must do
  /// Why a candidate cannot run on this device, from the device's and the kernel's limits known
  /// before compiling; "" when it may be tried.
  std::function<std::string(const Point&)> why_illegal;
  /// Compiles, checks the compiled kernel's own limit (CL_KERNEL_WORK_GROUP_SIZE), verifies and
  /// times one legal candidate.
  std::function<Measurement(const Point&)> measure;
  /// Bytes the candidate's kernels move, passes counted (for the share of copy bandwidth).
  std::function<double(const Point&)> bytes_moved;
};

/// Every candidate tried so far, so that no candidate is measured twice in one run.
class Tuner {
 public:
  explicit Tuner(Family& family) : family_(family) {}
  /// Prints one line per compiled candidate as it is measured (long searches show progress,
  /// and a search cut short keeps what it measured); nullptr for none.
  void set_progress(std::ostream* out) { progress_ = out; }
  /// The measurement of `p`: checked for legality, then measured, once.
  const Measurement& evaluate(const Point& p);
  /// Every candidate of the space, in order.
  std::vector<Measurement> exhaustive();
  /// At most `budget` compiled candidates: half of them random legal samples, the rest hill
  /// climbing from the fastest sample (move to the fastest neighbour while one is faster).
  std::vector<Measurement> budgeted(int budget, unsigned seed);
  /// The fastest verified measurement of a list; nullptr when none verified.
  static const Measurement* fastest(const std::vector<Measurement>& list);

 private:
  Family& family_;
  std::map<Point, Measurement> tried_;
  std::ostream* progress_ = nullptr;
};

/// The search table (course::TextTable: fitted to 80 columns, the whole table then written to
/// `full_table`): one row per compiled candidate (those the compiled kernel's limit ruled out with
/// their reason), the copy of `pixels` on `roof` giving the "% of copy" column; under it, how
/// many candidates were skipped before compiling, by reason, most common first. Recorded too
/// (`--record FILE`: after the results table), each row named by Space::name().
void print_search_table(std::ostream& out, const std::string& title, const Family& family,
                        const std::vector<Measurement>& list, const course::Roofline& roof,
                        course::PixelType pixels, const std::filesystem::path& full_table);

/// Host time spent on the launched candidates of a list.
double total_cost_ms(const std::vector<Measurement>& list);
/// How many candidates of a list were compiled (what a budget counts).
int compiled(const std::vector<Measurement>& list);

}  // namespace tuning
