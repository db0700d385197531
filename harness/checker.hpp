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
#include <cstddef>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "compare.hpp"
#include "device.hpp"
#include "guarded_buffer.hpp"

namespace course {

/// @brief What one run of an exercise's cases is given, and where it reports.
class ExerciseCheck {
 public:
  /// @param dc the device to run on.
  /// @param folder the folder holding the kernel files under test.
  /// @param report_dir where diff images of failed cases go.
  /// @param out where the report is printed.
  ExerciseCheck(const DeviceContext& dc, std::filesystem::path folder, std::filesystem::path report_dir,
                std::ostream& out);

  /// @brief The device, context and queue.
  const DeviceContext& device() const { return dc_; }
  /// @brief Builds a kernel file of the folder under test. A compile error is reported with its
  /// log (file name and line numbers) and thrown as KernelBuildError, which ends the check.
  cl::Program build(const std::string& file, const std::string& options = "");

  /// @brief Records a case: passes when `got` is within `tolerance` of `expected`; otherwise
  /// prints how many values are wrong, the first few as `(x, y) got ... expected ...` and writes
  /// a diff heat map. Returns whether it passed.
  bool expect_image(const std::string& name, const std::vector<float>& got, const std::vector<float>& expected,
                    int width, int height, double tolerance, int channels = 1);
  /// @brief Records a case that passed, with an optional note.
  void pass(const std::string& name, const std::string& note = "");
  /// @brief Records a case that failed, with the reason shown under it.
  void fail(const std::string& name, const std::string& reason);
  /// @brief Runs `body` as one case: an OpenCL error or an exception inside it fails the case
  /// with the error's name instead of stopping the check (build errors still stop it).
  void run_case(const std::string& name, const std::function<void()>& body);

  /// @brief Cases passed so far.
  int passed() const { return passed_; }
  /// @brief Cases failed so far.
  int failed() const { return failed_; }

 private:
  const DeviceContext& dc_;
  std::filesystem::path folder_, report_dir_;
  std::ostream& out_;
  int passed_ = 0, failed_ = 0;
  std::string current_case_;
};

/// @brief One exercise as the checker knows it.
struct ExerciseInfo {
  std::string number;                       ///< "01".
  std::string folder;                       ///< "01_platform_setup": exercises/ and solutions/ subfolder.
  std::string title;                        ///< What the learner writes, in a few words.
  std::function<void(ExerciseCheck&)> run;  ///< Runs every case.
};

/// @brief Adds an exercise to the registry (used through COURSE_EXERCISE); returns its count.
int register_exercise(ExerciseInfo info);

/// @brief Every registered exercise, sorted by number.
std::vector<ExerciseInfo> registered_exercises();

}  // namespace course

/// @brief Registers `function` (a `void(course::ExerciseCheck&)`) as the check of exercise `number`.
#define COURSE_EXERCISE(number, folder, title, function) \
  static const int course_exercise_registered_ = ::course::register_exercise({number, folder, title, function})
