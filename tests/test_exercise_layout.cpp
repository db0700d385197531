// The exercise layout rules: every exercise has a solution with the same files, the two differ
// only inside the gap markers, every exercise has a checker and a task text.
#include <doctest/doctest.h>

#include "checker.hpp"
#include "course.hpp"

#include <filesystem>
#include <regex>
#include <set>

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
