#include "check_speed.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <sstream>

#include "errors.hpp"
#include "program.hpp"
#include "report.hpp"
#include "timing.hpp"

namespace {

// The launches of a case being timed. The check's cases enqueue their kernels themselves, so the
// check program stands between them and the OpenCL library: its own clEnqueueNDRangeKernel
// (below) passes every call on and, while `recording` is set, keeps each launch's event.
std::mutex launches_mutex;
bool recording = false;
std::vector<cl_event> launches;

}  // namespace

extern "C" CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel,
                                                                  cl_uint dims, const size_t* offset,
                                                                  const size_t* global, const size_t* local,
                                                                  cl_uint waits, const cl_event* wait_list,
                                                                  cl_event* event) {
  using Enqueue = decltype(&clEnqueueNDRangeKernel);
  static const auto next = reinterpret_cast<Enqueue>(dlsym(RTLD_NEXT, "clEnqueueNDRangeKernel"));
  if (!next) return CL_INVALID_OPERATION;
  std::lock_guard<std::mutex> lock(launches_mutex);
  if (!recording) return next(queue, kernel, dims, offset, global, local, waits, wait_list, event);
  cl_event own = nullptr;
  const cl_int status = next(queue, kernel, dims, offset, global, local, waits, wait_list, event ? event : &own);
  if (status == CL_SUCCESS) {
    if (event) clRetainEvent(*event);
    launches.push_back(event ? *event : own);
  }
  return status;
}

namespace course {
namespace {

// Runs case `number` of the exercise on the files of `folder` once; returns the device time of
// its kernel launches in ms (negative when it launched none or failed).
double time_case(const ExerciseCheck& model, const ExerciseInfo& exercise, const std::filesystem::path& folder,
                 int number) {
  std::ostringstream ignored;
  ExerciseCheck check(model.device(), folder, std::filesystem::temp_directory_path() / "course-speed", ignored, false);
  check.run_only_case(number);
  {
    std::lock_guard<std::mutex> lock(launches_mutex);
    recording = true;
    launches.clear();
  }
  try {
    exercise.run(check);
  } catch (const std::exception&) {
  }
  std::vector<cl_event> events;
  {
    std::lock_guard<std::mutex> lock(launches_mutex);
    recording = false;
    events.swap(launches);
  }
  double ms = 0;
  for (cl_event e : events) {
    cl::Event event(e);  // takes over the reference
    try {
      event.wait();
      ms += event_ms(event);
    } catch (const std::exception&) {
      ms = -1e30;
    }
  }
  if (check.failed() > 0 || events.empty()) return -1;
  return ms;
}

std::string milliseconds(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, ms >= 10 ? "%.1f ms" : ms >= 0.1 ? "%.2f ms" : "%.3f ms", ms);
  return text;
}

}  // namespace

std::string compare_speed(const ExerciseCheck& check, const ExerciseInfo& exercise,
                          const std::filesystem::path& folder) {
  const std::filesystem::path reference = project_root() / "solutions" / exercise.folder;
  std::error_code ec;
  if (!std::filesystem::is_directory(reference, ec) ||
      std::filesystem::equivalent(reference, folder, ec))
    return "";
  const int number = check.largest_case();
  if (number == 0) return "";
  // A warm-up each, then five runs taking turns, so that a burst of other work slows both.
  std::vector<double> yours, theirs;
  for (int run = 0; run < 6; ++run) {
    const double a = time_case(check, exercise, folder, number);
    const double b = time_case(check, exercise, reference, number);
    if (a < 0 || b < 0) return "";
    if (run > 0) yours.push_back(a), theirs.push_back(b);
  }
  const double mine = median(yours), ref = median(theirs);
  // Too short to time, as the lessons' tables mark it: no conclusion rests on that.
  Roofline timer;
  timer.timer_ns = static_cast<double>(check.device().device.getInfo<CL_DEVICE_PROFILING_TIMER_RESOLUTION>());
  if (std::max(mine, ref) < timer.shortest_ms())
    return "Speed: the largest case, case " + std::to_string(number) + ", takes " + milliseconds(mine) +
           " (the reference " + milliseconds(ref) + "), under the " + milliseconds(timer.shortest_ms()) +
           " a time needs to mean something on this device: the check cannot judge the speed.";
  const auto [my_low, my_high] = std::minmax_element(yours.begin(), yours.end());
  const auto [ref_low, ref_high] = std::minmax_element(theirs.begin(), theirs.end());
  const bool noise = *my_low <= *ref_high && *ref_low <= *my_high;
  std::ostringstream line;
  line.precision(1);
  line << "Speed on case " << number << " (" << check.case_name(number) << "): yours " << milliseconds(mine)
       << ", the reference " << milliseconds(ref) << " (runs " << milliseconds(*my_low) << " to "
       << milliseconds(*my_high) << " and " << milliseconds(*ref_low) << " to " << milliseconds(*ref_high) << "), ";
  const double ratio = mine / std::max(ref, 1e-9);
  if (ratio >= 1.05)
    line << std::fixed << ratio << "x slower";
  else if (ratio <= 1 / 1.05)
    line << std::fixed << 1 / ratio << "x faster";
  else
    line << "the same";
  line << (noise ? "; within noise." : ".");
  return line.str();
}

}  // namespace course
