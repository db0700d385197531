/// @file change_search.hpp
/// @brief The checker's search for one small change that makes every case pass.
///
/// Where a check fails and no typical mistake of the exercise reproduces the learner's output
/// exactly, the checker tries the small slips learners make, one at a time, on the code they
/// wrote (the lines between a kernel file's `>>> GAP` and `<<< GAP` markers): another work-item
/// id (global, local, group), the other axis of a name (x and y, width and height, COL_W and
/// COL_H), a number one more or one less, another comparison or sign, a term too many, a term the
/// file uses elsewhere left out, a declaration on the wrong side of a loop's head, another loop's
/// variable (j for i), two names of one bracket swapped, brackets left out or put in. The lines the
/// failing case points at come first (where Oclgrind saw an access outside an array, else the lines
/// that store the outputs), with the loops around them and the lines that set the names they use;
/// there an integer variable of the file may also be added as a term (`y0 + r` for `r`, `x - x0`
/// for `x`). Each changed file runs the smallest failing case in a program of
/// its own (the check started again with `--only-case N`, on Oclgrind where it is installed); a
/// change that passes it runs every case on the check's device. The first change with which every
/// case passes is reported, with up to two more on its line that do too (a tile made larger than
/// it needs passes as well as the term it lacks): evidence, not a guess, that the slip is there.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace course {

/// @brief One small change to one line of a kernel file.
struct SmallChange {
  std::string file;    ///< The kernel file's name in its folder.
  int line = 0;        ///< Counted from 1.
  std::string text;    ///< The line as the learner wrote it, trimmed.
  std::string context;  ///< The smallest bracketed expression around the change (else `text`).
  int occurrence = 0;   ///< Which `from` of `context` changes, counted from 1, where it holds several.
  std::string from;    ///< What the change replaces ("" for an insertion).
  std::string anchor;  ///< An insertion's neighbour: the operand it follows, or the name it precedes.
  bool before = false;  ///< The insertion goes before `anchor` (a factor), else after it.
  /// A statement moved, not changed: into the loop that follows it (1), out of the loop it opens
  /// (-1); 0 for none.
  int moved = 0;
  int tier = 0;        ///< How likely a slip it is: 0 the most likely (another work-item id).
  /// On a line the failing case points at (or one that sets a name it uses, or the loop or branch
  /// around it): tried before the changes of the other lines.
  bool focus = false;
  std::string to;      ///< What it puts there ("" for a deletion).
  std::string source;  ///< The whole file with the change made.
};

/// @brief The small changes to try on `source` (the text of kernel file `file`), most likely
/// first: on the lines inside the gaps that hold no `/* replace` note (a shipped placeholder, whose
/// fix is the exercise's answer, not a slip), or on every line when the file has no gaps. Comments and preprocessor
/// lines are left alone. `focus`: the lines (counted from 1) that the failing case points at, where Oclgrind saw an
/// access outside an array; their changes, with those of the lines that set the names they use
/// and of the loops and branches around them, come first, and there an integer variable of the
/// file may also be added or taken off as a term (`y0 + r` for `r`, `x - x0` for `x`).
std::vector<SmallChange> small_changes(const std::string& file, const std::string& source,
                                       const std::vector<int>& focus = {});

/// @brief What the search found.
struct ChangeSearch {
  bool found = false;
  SmallChange change;
  std::vector<SmallChange> also;  ///< Other changes on its line with which every case passes (two at most).
  int tried = 0;          ///< Changes run.
  int candidates = 0;     ///< The kernel files' changes, all of them.
  bool out_of_time = false;
};

/// @brief How the search runs a changed kernel: `check` is the check program and its arguments
/// (without `--from`), `device` the arguments that choose the check's device ({} for its
/// default); `oclgrind` the launcher that runs the one case on Oclgrind's simulated device ("":
/// on the check's device). Oclgrind compiles no machine code, so a case starts there in a fraction
/// of the time a CPU device's compiler takes; every case then runs on the check's own device.
struct ChangeRunner {
  std::vector<std::string> check, device;
  std::string oclgrind;
};

/// @brief Tries the small changes to the kernel files of `folder`, at most `seconds` of wall
/// time with `parallel` programs at once: each runs the check with `--from` a copy of the folder's
/// parent holding the change and `--only-case` `only_case`, then, where that passes, with
/// `--expect pass` for every case. `focus`: the kernel files' lines the failing case points at
/// (the file's name, the line counted from 1), whose changes are tried first.
ChangeSearch search_one_change(const ChangeRunner& runner, const std::filesystem::path& folder, int only_case,
                               double seconds, int parallel,
                               const std::vector<std::pair<std::string, int>>& focus = {});

/// @brief The report's sentence for a change found, with the others on its line; "" for none.
std::string change_sentence(const ChangeSearch& search);

/// @brief Whether the search runs: not when COURSE_CHANGE_SEARCH is 0 (the test suite's runs, and
/// `./course grade`), and its time limit in seconds (COURSE_CHANGE_SEARCH, 60 by default).
double change_search_seconds();

}  // namespace course
