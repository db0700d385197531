/// @file timing.hpp
/// @brief Timing kernels with OpenCL event profiling: median of several runs after a warm-up.
#pragma once

#include <CL/opencl.hpp>
#include <chrono>
#include <cstddef>
#include <functional>
#include <vector>

namespace course {

/// @brief What time_events() measured, in milliseconds.
struct Timing {
  double device_ms = 0;  ///< Median over the runs of the summed event durations (END - START).
  double min_ms = 0;     ///< Fastest run's summed event durations.
  double max_ms = 0;     ///< Slowest run's summed event durations.
  int runs = 0;          ///< How many runs were timed (after the warm-up).
  /// Each command's median duration over the runs, in the order the step returned their events
  /// (a two-pass filter: the row pass, then the column pass).
  std::vector<double> command_ms;
};

/// @brief True when COURSE_RUN_ONCE is set (not 0): every timed step runs once, with no warm-up,
/// and the roofline's yardsticks run on one work-group's worth. For running the lessons on a
/// simulated device (the test of every kernel under Oclgrind), where a time means nothing and each
/// run of a kernel costs seconds.
bool run_once();

/// @brief Milliseconds between an event's CL_PROFILING_COMMAND_START and _END.
double event_ms(const cl::Event& event);

/// @brief Times a step that enqueues one or more commands and returns their events.
///
/// Runs `enqueue` `warmup` times untimed (first launches pay for compilation and caches), then
/// `repeat` times; after each run waits for the queue and sums the events' device durations.
/// Under run_once(), one timed run and no warm-up.
/// The queue must have been created with profiling enabled (open_device() does that).
Timing time_events(cl::CommandQueue& queue, const std::function<std::vector<cl::Event>()>& enqueue, int repeat = 5,
                   int warmup = 1);

/// @brief The time a program with its picture in host memory waits for: `bytes_in` bytes from
/// `host_in` to `input`, the kernels that `launch` enqueues, then `bytes_out` bytes from `output`
/// back to `host_out`, all on `queue`. Timed like time_events(): the device time of every
/// command, summed, median of `repeat` runs after a warm-up. This is what every lesson's
/// "end-to-end ms" column shows.
Timing time_end_to_end(cl::CommandQueue& queue, const cl::Buffer& input, const void* host_in, std::size_t bytes_in,
                       const cl::Buffer& output, void* host_out, std::size_t bytes_out,
                       const std::function<std::vector<cl::Event>()>& launch, int repeat = 5);

/// @brief Milliseconds on the host's clock (std::chrono::steady_clock) since `start`: the time a
/// user waits, which holds what no event shows (the host's own work, launch gaps, waits).
double ms_since(std::chrono::steady_clock::time_point start);

/// @brief The median of a list of numbers (the mean of the middle two for an even count).
double median(std::vector<double> values);

}  // namespace course
