// The exercise layout rules: every exercise has a solution with the same files, the two differ
// only inside the gap markers, every exercise has a checker and a task text.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "course.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

// The files of a folder, but an exercise folder's README.md: the task, generated from the lesson's
// exercise.md (harness/tools/exercise_readme.py), not a file the learner writes.
std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().filename() != "README.md") out.insert(entry.path().filename().string());
  return out;
}

// The text with every gap's content removed: what must be identical in exercise and solution.
std::string without_gaps(const std::string& text, int* gaps) {
  static const std::regex gap(R"(/\* >>> GAP (\d+):[^\n]*\*/\n[\s\S]*?/\* <<< GAP \1 \*/)");
  *gaps = static_cast<int>(std::distance(std::sregex_iterator(text.begin(), text.end(), gap), std::sregex_iterator()));
  return std::regex_replace(text, gap, "<gap $1>");
}

// A line of code as the transfer rule compares it: without the indentation and without a
// trailing `//` comment.
std::string comparable(std::string line) {
  if (const auto comment = line.find("//"); comment != std::string::npos) line.erase(comment);
  const auto first = line.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return line.substr(first, line.find_last_not_of(" \t\r") + 1 - first);
}

// Whether a solution line is part of the answer: not a comment, a preprocessor line (`#pragma
// unroll`), a line of 7 characters or fewer, or only braces and keywords like `return;`.
bool is_answer_line(const std::string& line) {
  if (line.size() < 8 || line[0] == '#' || line.rfind("/*", 0) == 0 || line[0] == '*') return false;
  static const std::regex bare(R"([\s{}();]*(\b(return|break|continue|else)\b[\s{}();]*)*)");
  return !std::regex_match(line, bare);
}

// The answer lines of one solution file: the lines between its gap markers.
std::vector<std::string> answer_lines(const std::string& text) {
  static const std::regex gap(R"(/\* >>> GAP (\d+):[^\n]*\*/\n([\s\S]*?)/\* <<< GAP \1 \*/)");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), gap); it != std::sregex_iterator(); ++it) {
    std::istringstream body((*it)[2].str());
    for (std::string line; std::getline(body, line);)
      if (const std::string c = comparable(line); is_answer_line(c)) out.push_back(c);
  }
  return out;
}

std::vector<fs::path> exercise_folders() {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(course::project_root() / "exercises"))
    if (entry.is_directory()) out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

// One line of lessons/lessons.txt: `number | folder | exercise files | uses | test args | bench`.
struct ManifestLine {
  std::string number, folder;
  std::vector<std::string> exercise_files;
};

std::vector<ManifestLine> manifest() {
  std::vector<ManifestLine> lines;
  std::istringstream text(course::read_text_file(course::project_root() / "lessons" / "lessons.txt"));
  static const std::regex line_form(R"(^(\d\d) *\| *([^ |]+) *\|([^|]*)\|.*)");
  std::smatch m;
  for (std::string line; std::getline(text, line);) {
    if (!std::regex_match(line, m, line_form)) continue;
    ManifestLine entry{m[1], m[2], {}};
    std::istringstream files(m[3].str());
    for (std::string file; files >> file;) entry.exercise_files.push_back(file);
    lines.push_back(entry);
  }
  REQUIRE(lines.size() >= 10);
  return lines;
}

}  // namespace

TEST_CASE("every exercise has a solution with the same file names") {
  if (course_tests::skipped_without_solutions()) return;
  for (const fs::path& exercise : exercise_folders()) {
    CAPTURE(exercise);
    const fs::path solution = course::project_root() / "solutions" / exercise.filename();
    REQUIRE(fs::is_directory(solution));
    CHECK(names_in(exercise) == names_in(solution));
  }
}

TEST_CASE("solutions differ from their exercises only inside the marked gaps") {
  if (course_tests::skipped_without_solutions()) return;
  for (const fs::path& exercise : exercise_folders()) {
    for (const std::string& name : names_in(exercise)) {
      CAPTURE(exercise / name);
      const fs::path solution = course::project_root() / "solutions" / exercise.filename() / name;
      if (!fs::exists(solution)) continue;  // reported by the test above
      int gaps_in_exercise = 0, gaps_in_solution = 0;
      const std::string a = without_gaps(course::read_text_file(exercise / name), &gaps_in_exercise);
      const std::string b = without_gaps(course::read_text_file(solution), &gaps_in_solution);
      CHECK(gaps_in_exercise == gaps_in_solution);
      CHECK(a == b);
    }
  }
}

TEST_CASE("lessons.txt lists every lesson folder once, in order, with its exercise's files") {
  std::vector<std::string> folders;
  for (const auto& entry : fs::directory_iterator(course::project_root() / "lessons"))
    if (entry.is_directory()) folders.push_back(entry.path().filename().string());
  std::sort(folders.begin(), folders.end());
  std::vector<std::string> listed;
  for (const ManifestLine& lesson : manifest()) {
    CAPTURE(lesson.folder);
    listed.push_back(lesson.folder);
    CHECK(lesson.folder.substr(0, 2) == lesson.number);
    const fs::path exercise = course::project_root() / "exercises" / lesson.folder;
    if (lesson.exercise_files.empty()) {
      CHECK_FALSE(fs::exists(exercise));
      continue;
    }
    REQUIRE(fs::is_directory(exercise));
    CHECK(names_in(exercise) == std::set<std::string>(lesson.exercise_files.begin(), lesson.exercise_files.end()));
  }
  CHECK(listed == folders);
}

TEST_CASE("every exercise has gaps, a check and a task text with hints") {
  for (const ManifestLine& lesson : manifest()) {
    if (lesson.exercise_files.empty()) continue;
    CAPTURE(lesson.folder);
    const fs::path lesson_dir = course::project_root() / "lessons" / lesson.folder;
    CHECK(fs::exists(lesson_dir / "check.cpp"));
    int gaps = 0;
    for (const std::string& name : lesson.exercise_files) {
      int n = 0;
      without_gaps(course::read_text_file(course::project_root() / "exercises" / lesson.folder / name), &n);
      gaps += n;
    }
    CHECK(gaps > 0);
    REQUIRE(fs::exists(lesson_dir / "exercise.md"));
    CHECK(course::read_text_file(lesson_dir / "exercise.md").find("## Hint 1") != std::string::npos);
  }
}

TEST_CASE("the gap remover sees through a filled gap but not through changed surroundings") {
  int n = 0;
  const std::string shipped = "a\n/* >>> GAP 1: do it */\nx = 0;\n/* <<< GAP 1 */\nb\n";
  const std::string solved = "a\n/* >>> GAP 1: do it */\nx = y * 2;\nz = 1;\n/* <<< GAP 1 */\nb\n";
  const std::string tampered = "a\n/* >>> GAP 1: do it */\nx = y * 2;\n/* <<< GAP 1 */\nc\n";
  CHECK(without_gaps(shipped, &n) == without_gaps(solved, &n));
  CHECK(n == 1);
  CHECK(without_gaps(shipped, &n) != without_gaps(tampered, &n));
}

TEST_CASE("no exercise's answer ships in the lessons' own code") {
  if (course_tests::skipped_without_solutions()) return;
  // An exercise applies its lesson's technique to a new case: at most a third of its answer
  // lines (or a single line) may appear, as whole lines, in the code the course ships around it.
  std::set<std::string> shipped;
  for (const char* top : {"kernels", "lessons", "common", "harness"}) {
    const fs::path dir = course::project_root() / top;
    if (!fs::is_directory(dir)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file()) continue;
      std::istringstream text(course::read_text_file(entry.path()));
      for (std::string line; std::getline(text, line);) shipped.insert(comparable(line));
    }
  }
  for (const auto& entry : fs::directory_iterator(course::project_root() / "solutions")) {
    if (!entry.is_directory()) continue;
    std::vector<std::string> answers, found;
    for (const std::string& name : names_in(entry.path()))
      for (const std::string& line : answer_lines(course::read_text_file(entry.path() / name))) {
        answers.push_back(line);
        if (shipped.count(line)) found.push_back(line);
      }
    std::string listing;
    for (const std::string& line : found) listing += "\n    " + line;
    CAPTURE(entry.path().filename().string());
    INFO(found.size() << " of " << answers.size()
                      << " answer lines ship outside solutions/ and exercises/:" << listing);
    CHECK(!answers.empty());
    CHECK((found.size() <= 1 || 3 * found.size() <= answers.size()));
  }
}
