#include "timing.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace course {

bool run_once() {
  const char* once = std::getenv("COURSE_RUN_ONCE");
  return once && *once && std::strcmp(once, "0") != 0;
}

double event_ms(const cl::Event& event) {
  const auto start = event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
  const auto end = event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
  return end > start ? static_cast<double>(end - start) * 1e-6 : 0.0;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

Timing time_events(cl::CommandQueue& queue, const std::function<std::vector<cl::Event>()>& enqueue, int repeat,
                   int warmup) {
  if (repeat < 1) throw std::invalid_argument("time_events needs at least one timed run");
  if (run_once()) repeat = 1, warmup = 0;
  for (int i = 0; i < warmup; ++i) {
    enqueue();
    queue.finish();
  }
  std::vector<double> device;
  std::vector<std::vector<double>> commands;  // [command][run]
  for (int i = 0; i < repeat; ++i) {
    const std::vector<cl::Event> events = enqueue();
    queue.finish();
    device.push_back(0.0);
    commands.resize(std::max(commands.size(), events.size()));
    for (std::size_t k = 0; k < events.size(); ++k) {
      device.back() += event_ms(events[k]);
      commands[k].push_back(event_ms(events[k]));
    }
  }
  Timing t{median(device), *std::min_element(device.begin(), device.end()),
           *std::max_element(device.begin(), device.end()), repeat, {}};
  for (const auto& runs : commands) t.command_ms.push_back(median(runs));
  return t;
}

Timing time_end_to_end(cl::CommandQueue& queue, const cl::Buffer& input, const void* host_in, std::size_t bytes_in,
                       const cl::Buffer& output, void* host_out, std::size_t bytes_out,
                       const std::function<std::vector<cl::Event>()>& launch, int repeat) {
  return time_events(
      queue,
      [&] {
        std::vector<cl::Event> events(1);
        queue.enqueueWriteBuffer(input, CL_FALSE, 0, bytes_in, host_in, nullptr, &events[0]);
        for (const cl::Event& e : launch()) events.push_back(e);
        events.emplace_back();
        queue.enqueueReadBuffer(output, CL_FALSE, 0, bytes_out, host_out, nullptr, &events.back());
        return events;
      },
      repeat);
}

}  // namespace course
