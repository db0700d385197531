/// @file checker.hpp
/// @brief The exercise checker: verification cases that `./course check` and the tests share.
///
/// Each lesson with an exercise has a `check.cpp` that registers one function with
/// COURSE_EXERCISE. The function builds the kernel files of the folder it is given (the
/// learner's `exercises/NN_name/` or `solutions/NN_name/`), runs them on hard cases (random
/// data, sizes no work-group divides, several work-groups, poisoned local memory, guard bands
/// around buffers) and reports each case through ExerciseCheck.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "compare.hpp"
#include "device.hpp"
#include "guarded_buffer.hpp"

namespace course {

/// @brief A common mistake of one exercise: what the reference computes when it makes that
/// mistake. When a case fails and the learner's output equals this one (within the case's
/// tolerance, NaN where it has NaN), the report names the mistake in its sentence.
struct Mistake {
  std::string name;                            ///< A few words: "weights transposed".
  std::string sentence;                        ///< The cause, in one sentence.
  std::function<std::vector<float>()> output;  ///< The reference's output with the mistake made.
};

/// @brief What a case can add to its report when it fails.
struct CaseDetails {
  /// Any part may be left out: `{mistakes}`, `{mistakes, explain_first}`, or all three.
  CaseDetails(std::vector<Mistake> mistakes = {}, std::function<std::string(const Mismatch&)> explain_first = {},
              std::function<std::string(const std::vector<float>& got)> diagnose = {})
      : mistakes(std::move(mistakes)), explain_first(std::move(explain_first)), diagnose(std::move(diagnose)) {}
  /// The exercise's common mistakes for this case, tried in order; the first whose output
  /// matches the learner's names the cause.
  std::vector<Mistake> mistakes;
  /// Lines shown under the first wrong value (a median's window, a warp's source position).
  std::function<std::string(const Mismatch&)> explain_first;
  /// The exercise's own diagnosis, tried when no mistake matched and no value came from a guard
  /// band or unset memory: one sentence, or "" for none.
  std::function<std::string(const std::vector<float>& got)> diagnose;
  /// Runs the learner's kernel again on the same input and returns its output: when the two runs
  /// differ, the cause named is a race (a value read before it was written).
  std::function<std::vector<float>()> rerun;
  /// The work-groups the case launched (0: not said). When every failing case of a local-memory
  /// exercise launched several and the cases with one passed, the report says so.
  std::size_t work_groups = 0;
};

/// @brief What one run of an exercise's cases is given, and where it reports.
class ExerciseCheck {
 public:
  /// @param dc the device to run on.
  /// @param folder the folder holding the kernel files under test.
  /// @param report_dir where diff images of failed cases go.
  /// @param out where the report is printed.
  /// @param verbose print every case in full as it runs; otherwise finish() prints a report
  /// that fits a screen (the first failing case in full, every other case on one line).
  ExerciseCheck(const DeviceContext& dc, std::filesystem::path folder, std::filesystem::path report_dir,
                std::ostream& out, bool verbose = true);

  /// @brief The device, context and queue.
  const DeviceContext& device() const { return dc_; }
  /// @brief Builds a kernel file of the folder under test. A compile error is reported with its
  /// log (file name and line numbers) and thrown as KernelBuildError, which ends the check.
  cl::Program build(const std::string& file, const std::string& options = "");

  /// @brief Records a case: passes when `got` is within `tolerance` of `expected`; otherwise
  /// names the cause when it can (one of `details.mistakes`, a value read from a guard band, a
  /// tile read before it was written), shows how many values are wrong, the first few as
  /// `(x, y) got ... expected ...`, and writes a diff picture. Returns whether it passed.
  bool expect_image(const std::string& name, const std::vector<float>& got, const std::vector<float>& expected,
                    int width, int height, double tolerance, int channels = 1, const CaseDetails& details = {});
  /// @brief Records a case that passed, with an optional note.
  void pass(const std::string& name, const std::string& note = "");
  /// @brief Records a case that failed, with the reason shown under it (its first line is the
  /// case's summary in the short report).
  void fail(const std::string& name, const std::string& reason);
  /// @brief Records a failed case whose cause is known: `cause` is one sentence, `numbers` the
  /// evidence under it, `picture` the diff picture's path ("" for none).
  void fail(const std::string& name, const std::string& cause, const std::string& numbers, const std::string& picture);
  /// @brief Runs `body` as one case: an OpenCL error or an exception inside it fails the case
  /// with the error's name instead of stopping the check (build errors still stop it).
  void run_case(const std::string& name, const std::function<void()>& body);

  /// @brief Prints the short report: the first failing case in full, the others one line each,
  /// within `max_lines` lines (verbose mode printed every case as it went). When only cases with
  /// several work-groups failed and the first has no cause yet, that is its cause.
  void finish(int max_lines = 48);
  /// @brief The cause named for the first failing case ("" when none was named).
  const std::string& first_cause() const { return first_cause_; }
  /// @brief The diff picture of the first failing case ("" when it has none).
  const std::string& first_picture() const { return first_picture_; }

  /// @brief The name of the first failing case ("" when none failed).
  std::string first_failed_case() const {
    for (const Record& r : records_)
      if (!r.passed) return r.name;
    return "";
  }
  /// @brief The first failing case's reason in one line: its named cause, else the first line of
  /// its evidence ("" when none failed).
  std::string first_failure_reason() const {
    for (const Record& r : records_)
      if (!r.passed) return r.cause.empty() ? r.numbers.substr(0, r.numbers.find('\n')) : r.cause;
    return "";
  }

  /// @brief Cases passed so far.
  int passed() const { return passed_; }
  /// @brief Cases failed so far.
  int failed() const { return failed_; }

 private:
  const DeviceContext& dc_;
  std::filesystem::path folder_, report_dir_;
  std::ostream& out_;
  struct Record {
    std::string name;
    bool passed = false;
    std::string note, cause, numbers, picture;  // a passed case's note; a failed case's report
    std::string summary;                        // a failed case in one line
    std::size_t work_groups = 0;                // 0: not known
    bool raced = false;                         // its output showed a value read before it was written
  };
  static std::string text_of(const Record& r);  // the case in full, each line indented
  void record(Record r);
  std::string diagnose(const std::vector<float>& got, const std::vector<float>& expected, int width, int height,
                       double tolerance, int channels, const CaseDetails& details, bool& raced) const;
  std::string several_groups_only() const;

  bool verbose_, poisoned_local_ = false;
  int passed_ = 0, failed_ = 0, pictures_ = 0;
  std::vector<Record> records_;
  std::string first_cause_, first_picture_, barrier_mistake_;
};

/// @brief One exercise as the checker knows it.
struct ExerciseInfo {
  std::string number;                       ///< "01".
  std::string folder;                       ///< "01_platform_setup": exercises/ and solutions/ subfolder.
  std::string title;                        ///< What the learner writes, in a few words.
  std::function<void(ExerciseCheck&)> run;  ///< Runs every case.
};

/// @brief Adds an exercise to the registry (used through COURSE_EXERCISE); returns its count.
int register_exercise(ExerciseInfo info);

/// @brief Every registered exercise, sorted by number.
std::vector<ExerciseInfo> registered_exercises();

}  // namespace course

/// @brief Registers `function` (a `void(course::ExerciseCheck&)`) as the check of exercise `number`.
#define COURSE_EXERCISE(number, folder, title, function) \
  static const int course_exercise_registered_ = ::course::register_exercise({number, folder, title, function})
