#include "transfer_pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "errors.hpp"
#include "lesson.hpp"
#include "program.hpp"
#include "timing.hpp"

namespace course {
namespace {

const char* kPassesFile = "kernels/10_transfers_and_overlap/separable_passes.cl";

// Shrinks a wished work-group shape until the device accepts it and its local tile fits, then
// builds; if the compiled kernel allows fewer work-items (registers), shrinks and rebuilds.
cl::Kernel build_pass(const DeviceContext& dc, const char* name, std::size_t w, std::size_t h, int radius, bool rows,
                      const std::string& options, cl::NDRange* shape) {
  const auto item_sizes = dc.device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  const std::size_t device_max = dc.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  const std::size_t local_bytes = dc.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
  auto tile_bytes = [&] { return sizeof(float) * (rows ? h * (w + 2 * radius) : (h + 2 * radius) * w); };
  auto shrink = [&] {
    if (h > 1)
      h /= 2;
    else if (w > 1)
      w /= 2;
    else
      throw InputError(std::string("no work-group shape fits ") + name + " on this device");
  };
  std::size_t kernel_max = device_max;
  for (;;) {
    while (w * h > std::min(device_max, kernel_max) || w > item_sizes[0] || h > item_sizes[1] ||
           tile_bytes() > local_bytes)
      shrink();
    const std::string all = options + " -D RADIUS=" + std::to_string(radius) + " -D GROUP_W=" + std::to_string(w) +
                            " -D GROUP_H=" + std::to_string(h);
    cl::Kernel kernel(build_course_program(dc, kPassesFile, all), name);
    kernel_max = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
    if (w * h <= kernel_max) {
      *shape = cl::NDRange(w, h);
      return kernel;
    }
  }
}

cl::NDRange global_for(const cl::NDRange& group, int width, int height) {
  return cl::NDRange(round_up(width, group[0]), round_up(height, group[1]));
}

using Access = BufferAccess;

}  // namespace

std::vector<BufferAccess> accesses(const StreamCommand& c) {
  const std::string slot = std::to_string(c.frame % 2);
  switch (c.step) {
    case FrameStep::upload:
      return {{"input buffer " + slot, true}};
    case FrameStep::row:
      return {{"input buffer " + slot, false}, {"row buffer", true}};
    case FrameStep::column:
      return {{"row buffer", false}, {"output buffer " + slot, true}};
    case FrameStep::download:
      return {{"output buffer " + slot, false}};
  }
  return {};
}

namespace {

std::string command_text(FrameStep step, int frames_back) {
  std::string s = std::string(step_name(step)) + "(i";
  if (frames_back > 0) s += "-" + std::to_string(frames_back);
  return s + ")";
}

// The same thing for a command seen from the later command at frame i (for general messages).
std::string relative_text(const StreamCommand& c, int i) {
  return command_text(c.step, i - c.frame);
}

}  // namespace

SeparablePasses build_separable_passes(const DeviceContext& dc, const std::vector<float>& weights, bool eight_bit,
                                       const std::string& extra_options) {
  if (weights.empty() || weights.size() % 2 == 0 || weights.size() > 33)
    throw std::invalid_argument("build_separable_passes needs 2R+1 weights with R <= 16");
  SeparablePasses p;
  p.radius = static_cast<int>(weights.size() / 2);
  p.eight_bit = eight_bit;
  const std::string options = extra_options + (eight_bit ? " -D EIGHT_BIT" : "");
  p.rows = build_pass(dc, "convolve_rows", 32, 8, p.radius, true, options, &p.row_group);
  p.columns = build_pass(dc, "convolve_columns", 32, 16, p.radius, false, options, &p.column_group);
  p.weights = cl::Buffer(dc.context, weights.begin(), weights.end(), true);
  return p;
}

cl::Event enqueue_rows(const cl::CommandQueue& queue, const SeparablePasses& passes, const cl::Buffer& input,
                       const cl::Buffer& rows_out, int width, int height, const std::vector<cl::Event>& waits) {
  // Kernel objects hold their arguments, so one kernel shared by queues is set and enqueued in
  // one go: clEnqueueNDRangeKernel captures the arguments at the call.
  cl::Kernel k = passes.rows;
  k.setArg(0, input);
  k.setArg(1, rows_out);
  k.setArg(2, passes.weights);
  k.setArg(3, width);
  k.setArg(4, height);
  cl::Event done;
  queue.enqueueNDRangeKernel(k, cl::NullRange, global_for(passes.row_group, width, height), passes.row_group,
                             waits.empty() ? nullptr : &waits, &done);
  return done;
}

cl::Event enqueue_columns(const cl::CommandQueue& queue, const SeparablePasses& passes, const cl::Buffer& rows_in,
                          const cl::Buffer& output, int width, int height, const std::vector<cl::Event>& waits) {
  cl::Kernel k = passes.columns;
  k.setArg(0, rows_in);
  k.setArg(1, output);
  k.setArg(2, passes.weights);
  k.setArg(3, width);
  k.setArg(4, height);
  cl::Event done;
  queue.enqueueNDRangeKernel(k, cl::NullRange, global_for(passes.column_group, width, height), passes.column_group,
                             waits.empty() ? nullptr : &waits, &done);
  return done;
}

const char* step_name(FrameStep step) {
  switch (step) {
    case FrameStep::upload:
      return "upload";
    case FrameStep::row:
      return "row";
    case FrameStep::column:
      return "column";
    case FrameStep::download:
      return "download";
  }
  return "?";
}

std::string FrameSchedule::describe() const {
  std::ostringstream out;
  for (int s = 0; s < 4; ++s) {
    out << command_text(static_cast<FrameStep>(s), 0) << " after";
    if (waits[s].empty()) out << " nothing";
    for (std::size_t k = 0; k < waits[s].size(); ++k)
      out << (k ? ", " : " ") << command_text(waits[s][k].step, waits[s][k].frames_back);
    out << "\n";
  }
  return out.str();
}

int queue_of(FrameStep step, int queue_count) {
  if (queue_count <= 1) return 0;
  if (step == FrameStep::row || step == FrameStep::column) return 1;
  if (queue_count == 2) return 0;
  return step == FrameStep::upload ? 0 : 2;
}

std::vector<StreamCommand> stream_enqueue_order(int frames) {
  std::vector<StreamCommand> order;
  for (int t = 0; t < frames + 2; ++t) {
    if (t < frames) order.push_back({FrameStep::upload, t});
    if (t >= 1 && t - 1 < frames) {
      order.push_back({FrameStep::row, t - 1});
      order.push_back({FrameStep::column, t - 1});
    }
    if (t >= 2) order.push_back({FrameStep::download, t - 2});
  }
  return order;
}

namespace {

// Positions in the enqueue order of the commands each command waits for (by the schedule and by
// its queue's order). Problems with waits (later commands, itself) go to `problems`.
std::vector<std::vector<int>> predecessors(const FrameSchedule& schedule, const std::vector<StreamCommand>& order,
                                           int queue_count, std::set<std::string>* problems) {
  std::map<std::pair<int, int>, int> position;
  for (std::size_t p = 0; p < order.size(); ++p)
    position[{static_cast<int>(order[p].step), order[p].frame}] = static_cast<int>(p);
  std::vector<std::vector<int>> before(order.size());
  std::map<int, int> last_on_queue;
  for (std::size_t p = 0; p < order.size(); ++p) {
    const StreamCommand& c = order[p];
    const int q = queue_of(c.step, queue_count);
    if (auto it = last_on_queue.find(q); it != last_on_queue.end()) before[p].push_back(it->second);
    last_on_queue[q] = static_cast<int>(p);
    for (const FrameWait& w : schedule.waits[static_cast<int>(c.step)]) {
      const int frame = c.frame - w.frames_back;
      if (frame < 0) continue;  // the first frames have nothing to wait for
      // A wait for a frame past the end of the stream (frames_back < 0) names a command that
      // is never enqueued before this one either.
      const auto found = position.find({static_cast<int>(w.step), frame});
      const int waited = found == position.end() ? static_cast<int>(order.size()) : found->second;
      if (waited == static_cast<int>(p)) {
        if (problems) problems->insert(command_text(c.step, 0) + " waits for itself: it would never start");
      } else if (waited > static_cast<int>(p)) {
        if (problems)
          problems->insert(command_text(c.step, 0) + " waits for " + command_text(w.step, w.frames_back) +
                           ", which the host enqueues after it: a command can only wait for an event that "
                           "already exists");
      } else {
        before[p].push_back(waited);
      }
    }
  }
  return before;
}

}  // namespace

std::vector<std::string> schedule_hazards(const FrameSchedule& schedule, int frames, int queue_count) {
  const std::vector<StreamCommand> order = stream_enqueue_order(frames);
  std::set<std::string> problems;
  const auto before = predecessors(schedule, order, queue_count, &problems);
  // ordered[b][a]: command a certainly ends before command b starts.
  const std::size_t n = order.size();
  std::vector<std::vector<bool>> ordered(n, std::vector<bool>(n, false));
  for (std::size_t b = 0; b < n; ++b)
    for (int a : before[b]) {
      ordered[b][a] = true;
      for (std::size_t k = 0; k < n; ++k)
        if (ordered[a][k]) ordered[b][k] = true;
    }
  // Each unordered pair is reported once per kind, at the nearest frame distance: when
  // row(i) races upload(i), it also races upload(i-2), but the first is the one to fix.
  std::map<std::tuple<int, int, int>, std::pair<int, std::string>> races;
  for (std::size_t b = 0; b < n; ++b)
    for (std::size_t a = 0; a < b; ++a) {
      if (ordered[b][a]) continue;
      for (const Access& x : accesses(order[a]))
        for (const Access& y : accesses(order[b])) {
          if (x.buffer != y.buffer || (!x.writes && !y.writes)) continue;
          const int i = order[b].frame, distance = i - order[a].frame;
          const std::string later = relative_text(order[b], i), earlier = relative_text(order[a], i);
          const std::string kind = y.buffer.substr(0, y.buffer.find(" buffer"));
          std::string what;
          if (!x.writes)
            what = later + " can overwrite its " + kind + " buffer while " + earlier +
                   " may still be reading it (write after read)";
          else if (!y.writes)
            what = later + " can read its " + kind + " buffer before " + earlier +
                   " has finished writing it (read after write)";
          else
            what = later + " and " + earlier + " can write the same " + kind + " buffer at once (write after write)";
          const auto key = std::make_tuple(static_cast<int>(order[b].step), static_cast<int>(order[a].step),
                                           (x.writes ? 2 : 0) + (y.writes ? 1 : 0));
          auto it = races.find(key);
          if (it == races.end() || distance < it->second.first) races[key] = {distance, what};
        }
    }
  for (const auto& [key, race] : races) problems.insert(race.second);
  return {problems.begin(), problems.end()};
}

FrameSchedule derive_waits(int queue_count) {
  // Frame 4 of 10 stands for a frame i in the middle of a long stream: every command it could
  // conflict with (back to frame i-4) exists.
  const int frames = 10, i = 4;
  const std::vector<StreamCommand> order = stream_enqueue_order(frames);
  const auto conflict = [](const StreamCommand& a, const StreamCommand& b) {
    for (const Access& x : accesses(a))
      for (const Access& y : accesses(b))
        if (x.buffer == y.buffer && (x.writes || y.writes)) return true;
    return false;
  };
  FrameSchedule fewest;
  for (std::size_t p = 0; p < order.size(); ++p) {
    if (order[p].frame != i) continue;
    for (std::size_t q = 0; q < p; ++q)
      if (order[q].frame <= i && queue_of(order[q].step, queue_count) != queue_of(order[p].step, queue_count) &&
          conflict(order[q], order[p]))
        fewest.waits[static_cast<int>(order[p].step)].push_back({order[q].step, i - order[q].frame});
  }
  for (int back = i; back >= 0; --back)
    for (auto& waits : fewest.waits)
      for (std::size_t k = 0; k < waits.size();) {
        const FrameWait w = waits[k];
        if (w.frames_back != back) {
          ++k;
          continue;
        }
        waits.erase(waits.begin() + static_cast<long>(k));
        if (!schedule_hazards(fewest, frames, queue_count).empty())
          waits.insert(waits.begin() + static_cast<long>(k++), w);  // needed: keep it
      }
  return fewest;
}

double modelled_stream_time(const FrameSchedule& schedule, int frames, int queue_count,
                            const std::array<double, 4>& cost) {
  const std::vector<StreamCommand> order = stream_enqueue_order(frames);
  const auto before = predecessors(schedule, order, queue_count, nullptr);
  std::vector<double> end(order.size(), 0);
  double makespan = 0;
  for (std::size_t p = 0; p < order.size(); ++p) {
    double start = 0;
    for (int a : before[p]) start = std::max(start, end[a]);
    end[p] = start + cost[static_cast<int>(order[p].step)];
    makespan = std::max(makespan, end[p]);
  }
  return makespan;
}

namespace {

// Checks, before anything is enqueued, that every wait of `schedule` names a command the host
// has already enqueued when it needs it, so that a bad schedule throws with nothing in flight.
void require_waits_enqueued_first(const FrameSchedule& schedule, const std::vector<StreamCommand>& order, int frames) {
  std::vector<std::array<bool, 4>> enqueued(frames, {false, false, false, false});
  for (const StreamCommand& c : order) {
    for (const FrameWait& w : schedule.waits[static_cast<int>(c.step)]) {
      const int frame = c.frame - w.frames_back;
      if (frame < 0) continue;  // the first frames have nothing to wait for
      // A frame past the end (a wait for a later frame) is never enqueued before it either.
      if (frame >= frames || !enqueued[frame][static_cast<int>(w.step)])
        throw InputError(command_text(c.step, 0) + " waits for " + command_text(w.step, w.frames_back) +
                         ", which is not enqueued yet when frame " + std::to_string(c.frame) + " needs it");
    }
    enqueued[c.frame][static_cast<int>(c.step)] = true;
  }
}

}  // namespace

StreamRun run_frame_stream(const DeviceContext& dc, const SeparablePasses& passes, const FrameSchedule& schedule,
                           int queue_count, const float* frames_in, float* frames_out, int frames, int width,
                           int height) {
  if (passes.eight_bit) throw std::invalid_argument("run_frame_stream streams float frames");
  if (queue_count < 1) throw std::invalid_argument("run_frame_stream needs at least one queue");
  if (frames < 1 || width < 1 || height < 1)
    throw std::invalid_argument("run_frame_stream needs at least one frame of at least one pixel");
  const std::vector<StreamCommand> order = stream_enqueue_order(frames);
  require_waits_enqueued_first(schedule, order, frames);

  const std::size_t pixels = static_cast<std::size_t>(width) * height, bytes = pixels * sizeof(float);
  std::vector<cl::CommandQueue> queues;
  for (int q = 0; q < queue_count; ++q) queues.emplace_back(dc.context, dc.device, cl::QueueProperties::Profiling);
  const cl::Buffer input[2] = {cl::Buffer(dc.context, CL_MEM_READ_ONLY, bytes),
                               cl::Buffer(dc.context, CL_MEM_READ_ONLY, bytes)};
  const cl::Buffer output[2] = {cl::Buffer(dc.context, CL_MEM_WRITE_ONLY, bytes),
                                cl::Buffer(dc.context, CL_MEM_WRITE_ONLY, bytes)};
  const cl::Buffer between(dc.context, CL_MEM_READ_WRITE, bytes);

  StreamRun run;
  run.events.resize(frames);
  // From the first enqueue on, an exception (an OpenCL error) finishes every queue before the
  // caller's frames_in / frames_out can be freed.
  const FinishQueuesOnUnwind finish_on_unwind(queues);
  const auto start = std::chrono::steady_clock::now();
  for (const StreamCommand& c : order) {
    // Every wait was checked above: each names an event that already exists.
    std::vector<cl::Event> waits;
    for (const FrameWait& w : schedule.waits[static_cast<int>(c.step)]) {
      const int frame = c.frame - w.frames_back;
      if (frame >= 0) waits.push_back(run.events[frame][static_cast<int>(w.step)]);
    }
    const cl::CommandQueue& queue = queues[queue_of(c.step, queue_count)];
    const int slot = c.frame % 2;
    cl::Event& done = run.events[c.frame][static_cast<int>(c.step)];
    const std::vector<cl::Event>* wait_list = waits.empty() ? nullptr : &waits;
    switch (c.step) {
      case FrameStep::upload:
        queue.enqueueWriteBuffer(input[slot], CL_FALSE, 0, bytes, frames_in + c.frame * pixels, wait_list, &done);
        break;
      case FrameStep::row:
        done = enqueue_rows(queue, passes, input[slot], between, width, height, waits);
        break;
      case FrameStep::column:
        done = enqueue_columns(queue, passes, between, output[slot], width, height, waits);
        break;
      case FrameStep::download:
        queue.enqueueReadBuffer(output[slot], CL_FALSE, 0, bytes, frames_out + c.frame * pixels, wait_list, &done);
        break;
    }
    // Commands on one queue may wait for events of another; flushing lets each queue start
    // what it can now instead of when the host finally waits.
    queue.flush();
  }
  for (auto& q : queues) q.finish();
  run.wall_ms = ms_since(start);

  cl_ulong first = ~cl_ulong(0), last = 0;
  std::array<std::vector<double>, 4> durations;
  for (const auto& frame : run.events)
    for (int s = 0; s < 4; ++s) {
      first = std::min(first, frame[s].getProfilingInfo<CL_PROFILING_COMMAND_START>());
      last = std::max(last, frame[s].getProfilingInfo<CL_PROFILING_COMMAND_END>());
      durations[s].push_back(event_ms(frame[s]));
    }
  run.span_ms = last > first ? (last - first) * 1e-6 : 0;
  for (int s = 0; s < 4; ++s) run.median_ms[s] = median(durations[s]);
  return run;
}

}  // namespace course
