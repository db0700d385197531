// ./course check NN: runs exercise NN's verification cases on the learner's kernels.
// The test suite runs the same cases on solutions/ (must pass) and on exercises/ as shipped
// (must fail), so every exercise is known to catch wrong kernels.
#include "checker.hpp"
#include "course.hpp"

#include <iostream>

int main(int argc, char** argv) {
  try {
    course::Options options("./course check NN", "Checks your kernels for exercise NN against the CPU reference.");
    options.value("from", "DIR", "folder holding the exercise folders", (course::project_root() / "exercises").string());
    options.value("report-dir", "DIR", "where diff images of failed cases go", "out/check");
    options.value("expect", "pass|fail", "for the test suite: succeed when the check passes (pass) or fails (fail)");
    options.value("exercise", "NN", "the exercise number (also accepted as the first plain argument)");
    options.example("./course check 01", "check your exercises/01_platform_setup/ kernels");
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a.size() <= 2 && !a.empty() && std::isdigit(static_cast<unsigned char>(a[0]))) {
        args.push_back("--exercise");
        if (a.size() == 1) a = "0" + a;
      }
      args.push_back(a);
    }
    options.parse(args);
    if (!options.given("exercise")) throw course::UsageError("which exercise? e.g. ./course check 01");
    const std::string number = options.text("exercise");
    const std::string expect = options.given("expect") ? options.choice("expect", {"pass", "fail"}) : "";

    course::ExerciseInfo exercise;
    std::string known;
    for (const auto& e : course::registered_exercises()) {
      known += " " + e.number;
      if (e.number == number) exercise = e;
    }
    if (!exercise.run) throw course::UsageError("there is no exercise " + number + "; the exercises are:" + known);

    const auto folder = std::filesystem::path(options.text("from")) / exercise.folder;
    if (!std::filesystem::is_directory(folder))
      throw course::InputError("the exercise folder '" + folder.string() + "' does not exist");
    const course::DeviceContext dc = course::open_device(options.text("device"));
    std::cout << "Exercise " << number << ": " << exercise.title << "\n"
              << "  kernels: " << folder.string() << "\n  device:  " << course::describe(dc.entry) << "\n\n";

    // Every buffer a check allocates gets guard bands, not only the outputs it guards by hand.
    course::enable_guard_bands();
    course::ExerciseCheck check(dc, folder, std::filesystem::path(options.text("report-dir")) / exercise.folder, std::cout);
    try {
      exercise.run(check);
    } catch (const course::KernelBuildError&) {
      // Already reported as a failed case with its build log.
    }
    if (const std::string damage = course::damaged_guard_bands(); !damage.empty())
      check.fail("every buffer's guard bands", damage);
    if (course::guard_bands_requested())
      for (const std::string& launch : course::guarded_launches()) std::cout << "  guarded launch: " << launch << "\n";
    const bool all_pass = check.failed() == 0 && check.passed() > 0;
    std::cout << "\n" << check.passed() << " passed, " << check.failed() << " failed\n";
    if (expect == "fail") {
      if (all_pass) std::cout << "expected the shipped exercise to fail, but every case passed: its gaps are not gaps.\n";
      return all_pass ? course::kExitVerificationFailed : course::kExitOk;
    }
    if (all_pass && expect.empty()) std::cout << "Well done: every case passes. `./course list` shows your progress.\n";
    if (!all_pass && expect.empty()) std::cout << "Not yet: fix the first failing case above; `./course hint " << number << "` helps.\n";
    return all_pass ? course::kExitOk : course::kExitVerificationFailed;
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
