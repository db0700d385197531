/// @file program.hpp
/// @brief Finding kernel files and building them into programs with readable build logs.
#pragma once

#include <CL/opencl.hpp>
#include <filesystem>
#include <functional>
#include <string>

#include "device.hpp"

namespace course {

/// @brief The project's root folder: $COURSE_ROOT if set, else the source folder CMake baked in.
std::filesystem::path project_root();

/// @brief Finds a file of the course, e.g. "kernels/02_naive_convolution/naive_convolution.cl".
///
/// Looks under $COURSE_KERNEL_DIR (when set), then under project_root(). Throws InputError
/// naming every path it tried when none exists, so a moved checkout is easy to diagnose.
std::filesystem::path locate_course_file(const std::string& relative_path);

/// @brief Reads a whole text file; throws InputError naming the file when it cannot.
std::string read_text_file(const std::filesystem::path& path);

/// @brief Runs `build` (a cl::Program::build call; one at a time, a process has one stderr) with
/// stderr caught into `said`, also when it throws: PoCL's compiler prints its own summary there
/// ("1 error generated."), which belongs inside the build log, not above the program's output.
void catch_compiler_output(std::string& said, const std::function<void()>& build);

/// @brief What building a program cost.
struct BuildStats {
  double milliseconds = 0;  ///< Wall time of clBuildProgram (0 when the cache answered).
  bool from_cache = false;  ///< True when an identical program had been built before.
};

/// @brief Builds a kernel file (a path from locate_course_file() or an absolute one) for the
/// device with the given compiler options (`-D RADIUS=3 ...`).
///
/// Every program starts with kernels/common/prelude.cl, whose `POISON_LOCAL(ptr, count)` fills
/// local memory with NaN when the options hold `-D COURSE_POISON_LOCAL`; a `#line` directive keeps
/// the compiler's line numbers those of the file. Programs are cached per (device, source text,
/// options), so building the same thing twice costs nothing.
/// Throws KernelBuildError with the log (and the compiler's own lines) on a compile error.
cl::Program build_program(const DeviceContext& dc, const std::filesystem::path& file, const std::string& options = "",
                          BuildStats* stats = nullptr);

/// @brief build_program() for a path relative to the project root (see locate_course_file()).
cl::Program build_course_program(const DeviceContext& dc, const std::string& relative_path,
                                 const std::string& options = "", BuildStats* stats = nullptr);

}  // namespace course
