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
#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "compare.hpp"
#include "device.hpp"
#include "diff_picture.hpp"
#include "guarded_buffer.hpp"
#include "random_image.hpp"

namespace course {

/// @brief A common mistake of one exercise: what the reference computes when it makes that
/// mistake. When a case fails and the learner's output equals this one (within the case's
/// tolerance, NaN where it has NaN), the report names the mistake in its sentence.
struct Mistake {
  std::string name;                            ///< A few words: "weights transposed".
  std::string sentence;                        ///< The cause, in one sentence.
  std::function<std::vector<float>()> output;  ///< The reference's output with the mistake made.
  /// A NaN in `output` stands for any value: an output whose window reads memory the mistake
  /// leaves holding anything (outside the tile, another row's line).
  bool nan_is_any = false;
  /// The model may differ from the mistake's real output at a few values (a position within float
  /// rounding of a pixel edge goes one way in the model, either way on the device): a case where it
  /// misses at most two values, or a twentieth of them, is no evidence against it.
  bool approximate = false;
};

/// @brief A case's picture size.
struct CaseSize {
  int width, height;
};

/// @brief Which way a pass of a separable filter runs: along the rows (a row pass) or down the columns.
enum class Axis { rows, columns };

/// @brief One pass of a separable filter on the CPU, borders clamped: out(x, y) = sum over k of
/// w[k + R] * in at (x + k, y) for rows, (x, y + k) for columns. With a typical mistake: every
/// window moved `shift` pixels along the axis, or its last `short_by` taps left out.
std::vector<float> one_pass_reference(const GrayImage& in, const std::vector<float>& weights, int radius, Axis axis,
                                      int shift = 0, int short_by = 0);

/// @brief A mistake's output where some outputs read memory nobody wrote: `out` with NaN (any
/// value) at each output whose place within its block of `period` along the axis (a span of a
/// row, a block of rows) `hole` names.
std::vector<float> with_holes(std::vector<float> out, const GrayImage& in, Axis axis, int period,
                              const std::function<bool(int)>& hole);

/// @brief For with_holes: the places whose window (2 * radius + 1 elements from the place on, in
/// the block's tile or line) reads an element `written` says was never copied.
std::function<bool(int)> window_reads_unwritten(int radius, std::function<bool(int)> written);

/// @brief `out`, a mistake's output with NaN where it reads any value, where some value it does
/// state differs from `right` (beyond `tolerance`); otherwise nothing (no telling): a mistake
/// whose only difference from the right output is the values it leaves to anything shows nothing
/// of itself, and would match any output wrong there.
std::vector<float> where_values_show(std::vector<float> out, const std::vector<float>& right, double tolerance);

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
  /// A cause another case has already proved from the kernel's own text or tables (exercise 10's
  /// graph of waits), so a wrong output here is its consequence: named before anything the
  /// values suggest ("never written", poison), which would only describe what the race left.
  std::string proven_cause;
  /// Runs the learner's kernel again on the same input and returns its output: when the two runs
  /// differ, the cause named is a race (a value read before it was written).
  std::function<std::vector<float>()> rerun;
  /// The work-groups the case launched (0: not said). When every failing case of a local-memory
  /// exercise launched several and the cases with one passed, the report says so (and that the
  /// groups after the first work on the wrong part only where a failing case shows group (0, 0)'s
  /// outputs right: `tile` gives its block); the case that runs again under Oclgrind is a small one
  /// with several.
  std::size_t work_groups = 0;
  /// The block of outputs one work-group computes and the halo its tile adds (0: not said). When
  /// leftover poison shows and no race was found (or a mistake that leaves tile elements out
  /// matched), the report draws the first such group's tile with the elements nobody wrote marked.
  /// Output (u, v) of the block reads tile elements (step * u .. step * u + 2 * halo_x, likewise
  /// along y): step is 1 for a filter, 2 for a pyramid level (two inputs per output). Where only
  /// the last (or first) rows or columns of every block are wrong and nothing else names a cause,
  /// the report names the tile rows or columns their windows need, as a likely cause.
  struct Tile {
    int block_width = 0, block_height = 0, halo_x = 0, halo_y = 0, step = 1;
    /// The output is converted to integers, so the poison NaN comes out as 0 in every channel
    /// (a uchar4 pixel through convert_uchar4_sat): a wrong pixel that is 0 in every channel is
    /// poison, once the exercise's own diagnosis has named no other cause.
    bool poison_is_zero = false;
  } tile;
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
  /// @brief Whether every case is printed in full (`--verbose`).
  bool verbose() const { return verbose_; }

  /// @brief The device, context and queue.
  const DeviceContext& device() const { return dc_; }
  /// @brief Builds a kernel file of the folder under test. A compile error is reported with its
  /// log (file name and line numbers) and thrown as KernelBuildError, which ends the check.
  cl::Program build(const std::string& file, const std::string& options = "");

  /// @brief Records a case: passes when `got` is within `tolerance` of `expected`; otherwise
  /// names the cause when it can (one of `details.mistakes`, a value read from a guard band, the
  /// right picture moved or transposed, a tile read before it was written, values off by one
  /// level or all scaled and offset alike, the one part of every group's block that is wrong),
  /// shows how many values are wrong, the first few as `(x, y) got ... expected ...`, and writes a
  /// diff picture. Returns whether it passed.
  bool expect_image(const std::string& name, const std::vector<float>& got, const std::vector<float>& expected,
                    int width, int height, double tolerance, int channels = 1, const CaseDetails& details = {});
  /// @brief Records a case that passed, with an optional note.
  void pass(const std::string& name, const std::string& note = "");
  /// @brief Whether the compiled `kernel` allows `items` work-items in a group on this device;
  /// when it does not, the case passes as skipped (a check on a smaller device).
  bool group_fits(const std::string& name, const cl::Kernel& kernel, std::size_t items);
  /// @brief Records a case that failed, with the reason shown under it (its first line is the
  /// case's summary in the short report).
  void fail(const std::string& name, const std::string& reason);
  /// @brief Records a failed case whose cause is known: `cause` is one sentence, `numbers` the
  /// evidence under it, `picture` the diff picture's path ("" for none). A barrier mistake read
  /// from the kernel's text replaces `cause` (the outputs may show only its consequences).
  void fail(const std::string& name, const std::string& cause, const std::string& numbers, const std::string& picture);
  /// @brief Records a failed case whose output is not an image, judged by the exercise's own
  /// models of typical slips as expect_image() judges `CaseDetails::mistakes`: `tried` names the
  /// models whose output differs from the right one here, `matched` those that give exactly the
  /// learner's (name, sentence). Where `cause` is "" the first match is the cause; the other cases
  /// then confirm it, tell tied matches apart, or show it a coincidence of a small case.
  void fail_by_models(const std::string& name, const std::string& cause, const std::string& numbers,
                      std::vector<std::string> tried, std::vector<std::pair<std::string, std::string>> matched);
  /// @brief Runs `body` as one case: an OpenCL error or an exception inside it fails the case
  /// with the error's name instead of stopping the check (build errors still stop it).
  void run_case(const std::string& name, const std::function<void()>& body);

  /// @brief Prints the short report: the first failing case in full, the others grouped by cause
  /// ("41 more cases, the same cause"), within `max_lines` lines (verbose mode printed every case
  /// as it went). When only cases with several work-groups failed and the first has no cause yet,
  /// that is its cause. Where the first names no cause and its values agree with the line that a
  /// later case's values follow (scaled_values(): the first's may all be clipped), that line is
  /// named, with the case that shows it. Returns the rows printed: more than `max_lines` only where the first
  /// failing case alone takes more.
  int finish(int max_lines = 48);

  /// @brief Runs only case `number` (counted from 1 in the order run_case() is called), skipping
  /// the others: the check program under Oclgrind runs one case.
  void run_only_case(int number) { only_case_ = number; }
  /// @brief For the process watching this one (check_main.cpp): each case's number is written to
  /// `fd` as it starts, and 0 as it ends, so that a crash names the case it stopped.
  void announce_cases_to(int fd) { announce_fd_ = fd; }
  /// @brief Cases that crashed an earlier run of the check, by number, with the signal's name:
  /// each is reported failed without running. In verbose mode the cases before `printed_until`
  /// are not printed again (that run printed them).
  void skip_crashed(std::map<int, std::string> crashed, int printed_until) {
    crashed_ = std::move(crashed), printed_until_ = printed_until;
  }
  /// @brief The case to run again under Oclgrind: the smallest failing case with several
  /// work-groups (one that read a guard band's value first, so that Oclgrind finds the read; a
  /// failing one first), else the smallest that passed; 0 when there is none.
  int oclgrind_case() const;
  /// @brief The passed case that compared the most values (what the speed comparison times); 0
  /// when there is none.
  int largest_case() const;
  /// @brief The name of case `number`.
  std::string case_name(int number) const;
  /// @brief Whether case `number` ran and every check it made passed (its outputs were right).
  bool case_passed(int number) const;
  /// @brief Records what Oclgrind found running case `number`: `cause` ("" for nothing) becomes
  /// the cause of that case and of every failing case whose own evidence names no other; with
  /// every case passed, a cause fails the check as one more case. Returns false when that case
  /// failed with a cause of its own, which its report keeps (the finding is then said apart).
  bool oclgrind_result(int number, const std::string& cause);
  /// @brief Wraps the report's sentences for a terminal `columns` wide (default 96).
  void set_width(int columns) { width_ = std::max(40, std::min(columns, 100)); }
  /// @brief The number of cases run_case() started.
  int cases() const { return cases_started_; }
  /// @brief The cause named for the first failing case ("" when none was named).
  const std::string& first_cause() const { return first_cause_; }
  /// @brief The diff picture of the first failing case ("" when it has none).
  const std::string& first_picture() const { return first_picture_; }

  /// @brief Cases that passed and failed, each run_case() counted once however many checks it
  /// recorded (a case that stops at its first failing check records fewer), and each check made
  /// outside a case once: the same counts from run to run.
  std::pair<int, int> case_counts() const;
  /// @brief The name of the first failing case ("" when none failed).
  std::string first_failed_case() const {
    for (const Record& r : records_)
      if (!r.passed) return r.name;
    return "";
  }
  /// @brief Whether one of the exercise's typical mistakes reproduced the first failing case's
  /// output exactly, each value (its cause is then known; a mistake whose windows read memory
  /// holding anything matches any value there, which is weaker; outputs never written say where,
  /// not which line).
  bool first_failure_reproduced() const;
  /// @brief A small change found to make every case pass (change_search.hpp), in one sentence:
  /// finish() gives it as the first failing case's cause where that case has none, only a guess
  /// from its output, a mistake that matched it only where memory holding anything was read, or
  /// outputs never written (which say where, not which line).
  void set_found_change(std::string sentence) { found_change_ = std::move(sentence); }
  /// @brief Whether finish() gave the found change as the first failing case's cause.
  bool found_change_shown() const { return found_change_shown_; }
  /// @brief The failing case that compared the fewest values (the quickest to run again); the
  /// first failing case where none compared values; 0 when none failed.
  int smallest_failing_case() const;
  /// @brief Whether `mistake` failed to reproduce most failing cases that tried it: where it
  /// matched, the slips coincided (a picture one pixel wide), and the match is no proof.
  bool coincidence(const std::string& mistake) const;
  /// @brief The first failing case's reason in one line: its named cause, else the first line of
  /// its evidence, and where that line ends in ':' ("the kernel does not compile:") the first line
  /// of what follows that names an error ("" when none failed).
  std::string first_failure_reason() const;

  /// @brief Checks passed so far.
  int passed() const { return passed_; }
  /// @brief Checks failed so far.
  int failed() const { return failed_; }

 private:
  const DeviceContext& dc_;
  std::filesystem::path folder_, report_dir_;
  std::ostream& out_;
  struct Record {
    std::string name;
    bool passed = false;
    std::string note, cause, numbers, picture;  // a passed case's note; a failed case's report
    std::size_t work_groups = 0;                // 0: not known
    std::size_t values = 0;                     // values compared (0: not an image case)
    int case_number = 0;                        // the run_case() it belongs to (0: none)
    bool reads_any = false;                     // its mistake reads memory holding anything
    bool raced = false;                         // its output showed a value read before it was written
    bool guessed = false;                       // its cause is a guess from the output, not proof
    bool outside = false;                       // it read outside a buffer (a guard band's value)
    std::string mistake;                        // the exercise's mistake that reproduced its output ("": none)
    std::vector<std::string> tried;             // the exercise's mistakes that could tell on it
    std::vector<std::pair<std::string, std::string>> matched;  // those that reproduced it: name, sentence
    bool poison = false;                        // leftover poison (NaN) in its output
    std::string tile;                           // its first poisoned group's tile, drawn ("": none)
    std::string group;                          // its cause as grouped with others ("": the cause itself)
    std::string block_part;                     // the part of every group's block that is wrong ("": none such)
    int first_block = -1;                       // group (0, 0)'s outputs: 1 all right, 0 some wrong, -1 not known
    ScaleFit scale;                             // the line its values follow, where that is its cause
    std::vector<float> got, expected;           // the first failing case's values, where it has no cause
    double tolerance = 0;
  };
  std::string found_change_;                   // set_found_change()
  bool found_change_shown_ = false;            // finish() gave it as the first failing case's cause
  std::string text_of(const Record& r) const;  // the case in full, each line indented
  void record(Record r);
  struct Diagnosis {
    std::string cause;
    bool raced = false, guessed = false, poison = false;
    bool outside = false;  // a value made from a guard band: a read outside a buffer
    bool mistake = false;  // the cause is one of the exercise's mistakes, reproduced exactly
    bool reads_any = false;  // that mistake's windows read memory holding anything (runs may differ)
    std::string mistake_name;
    std::vector<std::string> tried;
    std::vector<std::pair<std::string, std::string>> matched;
    ScaleFit scale;  // the line the values follow, where that is the cause
  };
  Diagnosis diagnose(const std::vector<float>& got, const std::vector<float>& expected, int width, int height,
                     double tolerance, int channels, const CaseDetails& details) const;
  std::string several_groups_only(bool& backed) const;
  void settle_causes();  // one cause per failure, decided from all the evidence
  std::vector<std::string> grouped_lines(const Record* first, std::size_t width) const;

  bool verbose_, poisoned_local_ = false;
  int passed_ = 0, failed_ = 0, pictures_ = 0;
  int only_case_ = 0, cases_started_ = 0, current_case_ = 0, width_ = 96;
  int announce_fd_ = -1, printed_until_ = 0;
  std::map<int, std::string> crashed_;  // cases that crashed an earlier run: signal name
  std::vector<Record> records_;
  std::string first_cause_, first_picture_, barrier_mistake_;
  std::string oclgrind_cause_;  // what Oclgrind proved ("" for nothing found or not run)
  bool oclgrind_ran_ = false;   // Oclgrind ran a case and its log was read
  int oclgrind_case_ = 0;       // the case it ran
};

/// @brief One exercise as the checker knows it.
struct ExerciseInfo {
  std::string number;                       ///< "01".
  std::string folder;                       ///< "01_platform_setup": exercises/ and solutions/ subfolder.
  std::string title;                        ///< What the learner writes, in a few words.
  std::function<void(ExerciseCheck&)> run;  ///< Runs every case.
  /// Whether a case runs again under Oclgrind: not where the learner's kernel only hands the host
  /// a table (exercise 10), which has no race or access for Oclgrind to find.
  bool oclgrind = true;
};

/// @brief `text` wrapped at word boundaries into lines of at most `width` characters (a word
/// longer than that gets a line of its own).
std::string wrap_words(const std::string& text, std::size_t width);

/// @brief The lines `text` takes on a terminal `columns` wide: one for each of its lines, more
/// for a line that wraps (0 for no text).
int screen_lines(const std::string& text, std::size_t columns);

/// @brief "1 output", "2 outputs": `n` and `word`, plural unless n is 1 (for case names).
std::string plural(std::size_t n, const std::string& word);

/// @brief Adds an exercise to the registry (used through COURSE_EXERCISE); returns its count.
int register_exercise(ExerciseInfo info);

/// @brief Every registered exercise, sorted by number.
std::vector<ExerciseInfo> registered_exercises();

}  // namespace course

/// @brief Registers `function` (a `void(course::ExerciseCheck&)`) as the check of exercise `number`.
#define COURSE_EXERCISE(number, folder, title, function) \
  static const int course_exercise_registered_ = ::course::register_exercise({number, folder, title, function})
