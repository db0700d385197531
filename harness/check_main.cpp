// The main() of every exercise's check program (build/bin/check_NN): runs the cases that the
// exercise's check.cpp registered on the kernels of one folder. `./course check NN` runs it on
// the learner's exercises/NN_name/; the test suite runs the same cases on solutions/ (must pass)
// and on exercises/ as shipped (must fail), so every exercise is known to catch wrong kernels.
//
// An exercise with C++ files (lesson 07's header) has two check programs, one compiled with
// exercises/, one with solutions/ (COURSE_CHECK_BUILT_FROM names which): each checks only the
// folder its C++ was compiled from.
#include <cstdio>
#include <fstream>
#include <iostream>

#include "checker.hpp"
#include "course.hpp"

namespace {

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (c == '\n') out += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20) {
      char code[8];
      std::snprintf(code, sizeof code, "\\u%04x", c);
      out += code;
    } else out += c;
  }
  return out + "\"";
}

// --result FILE: the check's outcome for `./course grade`, as JSON with one field a line. Written
// once the device is open (as not finished, so a check stopped for its time limit still names its
// device) and again at the end; each time whole, through a temporary file.
void write_result(const std::string& file, const course::ExerciseInfo& exercise, const std::string& device,
                  const course::ExerciseCheck* check, bool finished) {
  if (file.empty()) return;
  const int passed = check ? check->passed() : 0, failed = check ? check->failed() : 0;
  {
    std::ofstream out(file + ".tmp");
    out << "{\n  \"number\": " << json_string(exercise.number) << ",\n  \"name\": " << json_string(exercise.folder)
        << ",\n  \"title\": " << json_string(exercise.title) << ",\n  \"finished\": " << (finished ? "true" : "false")
        << ",\n  \"passed\": " << (finished && failed == 0 && passed > 0 ? "true" : "false")
        << ",\n  \"cases_passed\": " << passed << ",\n  \"cases_total\": " << passed + failed
        << ",\n  \"first_failing_case\": " << json_string(check ? check->first_failed_case() : "")
        << ",\n  \"cause\": " << json_string(check ? check->first_failure_reason() : "")
        << ",\n  \"device\": " << json_string(device) << "\n}\n";
    if (!out) throw course::InputError("cannot write the check's result to '" + file + ".tmp'");
  }
  std::filesystem::rename(file + ".tmp", file);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::vector<course::ExerciseInfo> exercises = course::registered_exercises();
    if (exercises.size() != 1) throw std::logic_error("a check program holds exactly one exercise");
    const course::ExerciseInfo& exercise = exercises.front();
#ifdef COURSE_CHECK_BUILT_FROM
    const std::string built_from = COURSE_CHECK_BUILT_FROM;
#else
    const std::string built_from = "exercises";
#endif
    course::Options options("./course check " + exercise.number,
                            "Checks your work for exercise " + exercise.number + " against the CPU reference.");
    options.value("from", "DIR", "folder holding the exercise folders", (course::project_root() / built_from).string());
    options.value("report-dir", "DIR", "where diff images of failed cases go", "out/check");
    options.flag("verbose", "show every case in full (the report otherwise fits a screen)");
    options.value("result", "FILE", "write the outcome as JSON to FILE (for ./course grade)");
    options.value("expect", "pass|fail", "for the test suite: succeed when the check passes (pass) or fails (fail)");
    options.example("./course check " + exercise.number, "check your exercises/" + exercise.folder + "/");
    options.parse(argc, argv);
    const std::string expect = options.given("expect") ? options.choice("expect", {"pass", "fail"}) : "";

    const auto folder = std::filesystem::path(options.text("from")) / exercise.folder;
    if (!std::filesystem::is_directory(folder))
      throw course::InputError("the exercise folder '" + folder.string() + "' does not exist");
#ifdef COURSE_CHECK_BUILT_FROM
    if (std::filesystem::path(options.text("from")).filename() != built_from)
      throw course::UsageError("this check program was compiled with the C++ files of " + built_from + "/" +
                               exercise.folder + "/; it checks only that folder");
#endif
    const course::DeviceContext dc = course::open_device(options.text("device"));
    const std::string result_file = options.given("result") ? options.text("result") : "";
    write_result(result_file, exercise, course::describe(dc.entry), nullptr, false);
    std::cout << "Exercise " << exercise.number << ": " << exercise.title << "\n"
              << "  files:  " << folder.string() << "\n  device: " << course::describe(dc.entry) << "\n\n";

    // Only this run's pictures: the folder is emptied first.
    const auto report_dir = std::filesystem::path(options.text("report-dir")) / exercise.folder;
    std::error_code ignored;
    std::filesystem::remove_all(report_dir, ignored);
    course::ExerciseCheck check(dc, folder, report_dir, std::cout, options.given("verbose"));
    bool build_failed = false;
    try {
      exercise.run(check);
    } catch (const course::KernelBuildError&) {
      build_failed = true;  // already reported as a failed case with its build log
    }
    check.finish();
    write_result(result_file, exercise, course::describe(dc.entry), &check, true);
    const bool all_pass = check.failed() == 0 && check.passed() > 0;
    // The last line: the counts, and the one command that shows the first failing case's picture.
    std::cout << "\n" << check.passed() << " passed, " << check.failed() << " failed.";
    if (expect == "fail") {
      std::cout << "\n";
      if (all_pass)
        std::cout << "expected the shipped exercise to fail, but every case passed: its gaps are not gaps.\n";
      return all_pass ? course::kExitVerificationFailed : course::kExitOk;
    }
    if (all_pass && expect.empty()) std::cout << " Well done: every case passes.";
    if (!all_pass && expect.empty()) {
      if (!check.first_picture().empty())
        std::cout << " First failing case's picture: xdg-open " << check.first_picture();
      else
        std::cout << " Fix the first failing case above; `./course hint " << exercise.number << "` helps.";
    }
    std::cout << "\n";
    if (build_failed && expect.empty()) return course::kExitOpenCL;
    return all_pass ? course::kExitOk : course::kExitVerificationFailed;
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
