#include "checker.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>

#include "errors.hpp"
#include "program.hpp"

namespace course {
namespace {

std::map<std::string, ExerciseInfo>& registry() {
  static std::map<std::string, ExerciseInfo> exercises;
  return exercises;
}

std::string file_safe(std::string name) {
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

}  // namespace

int register_exercise(ExerciseInfo info) {
  registry()[info.number] = std::move(info);
  return static_cast<int>(registry().size());
}

std::vector<ExerciseInfo> registered_exercises() {
  std::vector<ExerciseInfo> out;
  for (const auto& [number, info] : registry()) out.push_back(info);
  return out;
}

ExerciseCheck::ExerciseCheck(const DeviceContext& dc, std::filesystem::path folder, std::filesystem::path report_dir,
                             std::ostream& out)
    : dc_(dc), folder_(std::move(folder)), report_dir_(std::move(report_dir)), out_(out) {}

cl::Program ExerciseCheck::build(const std::string& file, const std::string& options) {
  try {
    return build_program(dc_, folder_ / file, options);
  } catch (const KernelBuildError& e) {
    fail("compile " + file, "the kernel does not compile:\n" + std::string(e.what()));
    throw;
  }
}

bool ExerciseCheck::expect_image(const std::string& name, const std::vector<float>& got,
                                 const std::vector<float>& expected, int width, int height, double tolerance,
                                 int channels) {
  const Comparison c = compare_images(got, expected, width, height, tolerance, channels);
  if (c.ok()) {
    pass(name);
    return true;
  }
  std::string reason = c.describe(5);
  std::error_code ec;
  const auto diff = report_dir_ / (file_safe(name) + "-diff.png");
  try {
    save_diff_heatmap(diff, got, expected, width, height, tolerance, channels);
    reason += "\n    diff image: " + diff.string();
  } catch (const std::exception&) {
    // The report is still useful without its picture.
  }
  fail(name, reason);
  return false;
}

void ExerciseCheck::pass(const std::string& name, const std::string& note) {
  ++passed_;
  out_ << "  [pass] " << name << (note.empty() ? "" : "  (" + note + ")") << "\n";
}

void ExerciseCheck::fail(const std::string& name, const std::string& reason) {
  ++failed_;
  out_ << "  [FAIL] " << name << "\n    " << reason << "\n";
}

void ExerciseCheck::run_case(const std::string& name, const std::function<void()>& body) {
  try {
    body();
  } catch (const KernelBuildError&) {
    throw;
  } catch (const cl::Error& e) {
    fail(name,
         std::string("OpenCL error in ") + e.what() + ": " + cl_error_name(e.err()) + ". " + cl_error_advice(e.err()));
  } catch (const std::exception& e) {
    fail(name, e.what());
  }
}

}  // namespace course
