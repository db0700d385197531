/// @file errors.hpp
/// @brief The course's errors, its exit codes, and plain-words explanations of OpenCL errors.
#pragma once

#include <CL/opencl.hpp>

#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>

#include "input_error.hpp"  // InputError and UsageError, exit status 2

namespace course {

/// @brief Exit codes shared by every lesson and tool of the course.
enum ExitCode : int {
  kExitOk = 0,                  ///< Success, and the result matched its CPU reference.
  kExitVerificationFailed = 1,  ///< Ran, but the result did not match the reference.
  kExitUsage = 2,               ///< Bad option, bad input file or unknown device.
  kExitOpenCL = 3,              ///< The OpenCL runtime refused something (build, launch, ...).
  kExitInternal = 4,            ///< A bug in the course itself (never the student's input).
  kExitRecord = 5,              ///< `--record FILE` cannot be written (RecordError).
  kExitSkipped = 77,            ///< The device lacks what the lesson needs; nothing was run.
};

/// @brief A kernel file that does not compile; what() holds the build log with file lines.
struct KernelBuildError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// @brief The device cannot run what was asked of it: a work-group larger than it allows, a tile
/// larger than its local memory. Exit status 3, like any refusal of the OpenCL runtime.
struct DeviceLimitError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// @brief The record file cannot be written: a folder given as the file, a folder that cannot be
/// made, no permission (harness/runs/record.hpp writes it). Exit status kExitRecord.
struct RecordError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// @brief The device cannot run this lesson (for example it has no image support).
struct SkipLesson : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// @brief The name of an OpenCL error code, e.g. "CL_INVALID_WORK_GROUP_SIZE" for -54.
const char* cl_error_name(cl_int code);

/// @brief One or two sentences saying what an OpenCL error usually means and what to try.
std::string cl_error_advice(cl_int code);

/// @brief Prints a message a student understands for the exception (to std::cerr unless `out`
/// is given) and returns its exit code.
///
/// Lessons end `main` with `catch (...) { return course::explain_failure(std::current_exception()); }`:
/// the exception is re-thrown inside and matched by type, so no cause is hidden.
int explain_failure(std::exception_ptr error, std::ostream& out = std::cerr);

}  // namespace course
