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

#include "checker.hpp"
#include "course.hpp"

namespace fs = std::filesystem;

namespace {

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file()) out.insert(entry.path().filename().string());
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

}  // namespace

TEST_CASE("every exercise has a solution with the same file names") {
  for (const fs::path& exercise : exercise_folders()) {
    CAPTURE(exercise);
    const fs::path solution = course::project_root() / "solutions" / exercise.filename();
    REQUIRE(fs::is_directory(solution));
    CHECK(names_in(exercise) == names_in(solution));
  }
}

TEST_CASE("solutions differ from their exercises only inside the marked gaps") {
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

TEST_CASE("every exercise has gaps, a registered check and a task text with hints") {
  std::set<std::string> registered;
  for (const auto& e : course::registered_exercises()) registered.insert(e.folder);
  for (const fs::path& exercise : exercise_folders()) {
    const std::string folder = exercise.filename().string();
    CAPTURE(folder);
    CHECK(registered.count(folder) == 1);
    int gaps = 0;
    for (const std::string& name : names_in(exercise)) {
      int n = 0;
      without_gaps(course::read_text_file(exercise / name), &n);
      gaps += n;
    }
    CHECK(gaps > 0);
    const fs::path task = course::project_root() / "lessons" / folder / "exercise.md";
    REQUIRE(fs::exists(task));
    CHECK(course::read_text_file(task).find("## Hint 1") != std::string::npos);
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

TEST_CASE("lessons that teach with their exercise's own kernel keep it identical to the solution") {
  // Lessons 08 and 09 run the very kernel their exercise asks for: those copies must not drift
  // apart.
  static const std::regex marker(R"([ \t]*/\* (>>>|<<<) GAP \d+[^\n]*\*/\n)");
  for (const std::string folder : {"08_image_objects_and_samplers", "09_affine_and_homography_warps"}) {
    const fs::path solutions = course::project_root() / "solutions" / folder;
    REQUIRE(fs::is_directory(solutions));
    for (const std::string& name : names_in(solutions)) {
      const fs::path kernel = course::project_root() / "kernels" / folder / name;
      REQUIRE(fs::exists(kernel));
      CAPTURE(kernel);
      CHECK(std::regex_replace(course::read_text_file(solutions / name), marker, "") ==
            course::read_text_file(kernel));
    }
  }
}

TEST_CASE("no exercise's answer ships in the lessons' own code") {
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
