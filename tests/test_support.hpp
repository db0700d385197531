// What several test files share.
#pragma once

#include <filesystem>
#include <functional>
#include <iostream>
#include <string>

#include "checker.hpp"
#include "program.hpp"

namespace course_tests {

/// Tests of the exercises' checks run them on solutions/. A tree without that folder (the course
/// handed out without its answers) skips them: ctest reports them as skipped.
inline bool skipped_without_solutions() {
  if (std::filesystem::is_directory(course::project_root() / "solutions")) return false;
  std::cout << "skipped: this tree has no solutions/ folder\n";
  return true;
}

/// A folder under the system's temporary folder, emptied, named after `name` and this checkout
/// (two checkouts running their tests at once on one machine do not write over each other).
std::filesystem::path scratch_folder(const std::string& name);

/// Exercise `number`'s registered check run on the kernel files of `folder`: how many cases
/// failed (a kernel that does not compile counts as one more, a check that passed nothing as one),
/// or -1 when the device lacks what the check needs and the check skips.
int failed_cases(const std::string& number, const std::filesystem::path& folder);

/// A copy of exercise `number`'s solution folder, in a scratch folder called `name`, with the
/// first `from` in `file` replaced by `to` (the text must be there).
std::filesystem::path mutant(const std::string& number, const std::string& name, const std::string& file,
                             const std::string& from, const std::string& to);

/// failed_cases() of the mutant above (named "mutant").
inline int failures_of_mutant(const std::string& number, const std::string& file, const std::string& from,
                              const std::string& to) {
  return failed_cases(number, mutant(number, "mutant", file, from, to));
}

/// The cause the report names for the first failing case when `cases` (a few of exercise
/// `number`'s cases, quicker than the whole check) run on a copy of its solution with the first
/// `from` in `file` replaced by `to`; "" when every case passes or none names a cause.
std::string first_cause_of_mutant(const std::string& number, const std::string& file, const std::string& from,
                                  const std::string& to, const std::function<void(course::ExerciseCheck&)>& cases);

}  // namespace course_tests
