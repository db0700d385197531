// What several test files share.
#pragma once

#include <filesystem>
#include <iostream>

#include "program.hpp"

namespace course_tests {

/// Tests of the exercises' checks run them on solutions/. A tree without that folder (the course
/// handed out without its answers) skips them: ctest reports them as skipped.
inline bool skipped_without_solutions() {
  if (std::filesystem::is_directory(course::project_root() / "solutions")) return false;
  std::cout << "skipped: this tree has no solutions/ folder\n";
  return true;
}

}  // namespace course_tests
