#include "test_support.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <sstream>
#include <vector>

#include "checker.hpp"
#include "device.hpp"
#include "errors.hpp"

namespace fs = std::filesystem;

namespace course_tests {

// One folder per name and process: ctest runs test cases of one program side by side, each in
// its own process, and two checks of one exercise must not clear each other's files.
fs::path scratch_folder(const std::string& name) {
  const std::string tag =
      std::to_string(std::hash<std::string>{}(course::project_root().string())) + "-" + std::to_string(getpid());
  const fs::path dir = fs::temp_directory_path() / ("course-tests-" + name + "-" + tag);
  fs::remove_all(dir);
  fs::create_directories(dir);
  // Removed again when the process ends, so that the temporary folder does not fill up.
  static struct Made {
    std::vector<fs::path> folders;
    ~Made() {
      std::error_code ec;
      for (const fs::path& folder : folders) fs::remove_all(folder, ec);
    }
  } made;
  made.folders.push_back(dir);
  return dir;
}

int failed_cases(const std::string& number, const fs::path& folder) {
  static const course::DeviceContext dc = course::open_device("");  // a check keeps a reference to it
  for (const course::ExerciseInfo& exercise : course::registered_exercises()) {
    if (exercise.number != number) continue;
    std::ostringstream log;
    course::ExerciseCheck check(dc, folder, scratch_folder("check-" + number), log);
    try {
      exercise.run(check);
    } catch (const course::KernelBuildError&) {
      return check.failed() + 1;
    } catch (const course::SkipLesson&) {
      return -1;
    }
    return check.passed() > 0 ? check.failed() : std::max(check.failed(), 1);
  }
  FAIL("exercise " << number << " is not registered");
  return -1;
}

fs::path mutant(const std::string& number, const std::string& name, const std::string& file, const std::string& from,
                const std::string& to) {
  fs::path solution;
  for (const fs::directory_entry& entry : fs::directory_iterator(course::project_root() / "solutions"))
    if (entry.path().filename().string().rfind(number + "_", 0) == 0) solution = entry.path();
  REQUIRE_MESSAGE(!solution.empty(), "no solutions/" << number << "_* folder");
  const fs::path folder = scratch_folder("mutant-" + number + "-" + name);
  for (const fs::directory_entry& entry : fs::directory_iterator(solution)) {
    if (!entry.is_regular_file()) continue;
    std::string text = course::read_text_file(entry.path());
    if (entry.path().filename() == file) {
      const std::size_t at = text.find(from);
      REQUIRE_MESSAGE(at != std::string::npos, "'" << from << "' is not in solutions/" << number << "_*/" << file);
      text.replace(at, from.size(), to);
    }
    std::ofstream(folder / entry.path().filename()) << text;
  }
  REQUIRE_MESSAGE(fs::exists(folder / file), file << " is not in solution " << number);
  return folder;
}

std::string first_cause_of_mutant(const std::string& number, const std::string& file, const std::string& from,
                                  const std::string& to, const std::function<void(course::ExerciseCheck&)>& cases) {
  static const course::DeviceContext dc = course::open_device("");  // a check keeps a reference to it
  const fs::path folder = mutant(number, "cause", file, from, to);
  std::ostringstream log;
  course::ExerciseCheck check(dc, folder, scratch_folder("cause-" + number), log, false);
  try {
    cases(check);
  } catch (const course::KernelBuildError&) {
    // The build error is the first failing case; its cause is empty.
  }
  check.finish();
  return check.failed() > 0 ? check.first_cause() : "";
}

}  // namespace course_tests
