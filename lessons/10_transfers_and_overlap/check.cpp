// Exercise 10's cases: the event waits of a double-buffered frame stream. The learner's table is
// read by running its list_frame_waits kernel; then (1) every pair of commands that share a
// buffer must be ordered by a queue or a chain of waits, for two and for three queues, (2) the
// waits must not take away overlap the buffers allow, and (3) real streams of random frames run
// with exactly those waits must give every frame right.
#include <algorithm>
#include <cctype>
#include <sstream>
#include <string>

#include "checker.hpp"
#include "course.hpp"
#include "transfer_pipeline.hpp"

namespace {

using Step = course::FrameStep;

std::string units(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

course::FrameSchedule read_learner_waits(course::ExerciseCheck& check) {
  const course::DeviceContext& dc = check.device();
  cl::Program program = check.build("double_buffering.cl");
  cl::Kernel list(program, "list_frame_waits");
  const int capacity = 64;
  cl::Buffer table(dc.context, CL_MEM_WRITE_ONLY, sizeof(int) * (1 + 3 * capacity));
  list.setArg(0, table);
  list.setArg(1, capacity);
  dc.queue.enqueueNDRangeKernel(list, cl::NullRange, cl::NDRange(1), cl::NDRange(1));
  std::vector<int> values(1 + 3 * capacity);
  dc.queue.enqueueReadBuffer(table, CL_TRUE, 0, values.size() * sizeof(int), values.data());
  course::FrameSchedule schedule;
  for (int w = 0; w < values[0]; ++w) {
    const int command = values[1 + 3 * w], waited = values[2 + 3 * w], back = values[3 + 3 * w];
    if (command < 0 || command > 3 || waited < 0 || waited > 3)
      throw std::runtime_error("wait " + std::to_string(w + 1) +
                               " names a command that is not UPLOAD, ROW, COLUMN or DOWNLOAD");
    if (back < 0)
      throw std::runtime_error("wait " + std::to_string(w + 1) + " waits for frame i+" + std::to_string(-back) +
                               ": a command can only wait for events that already exist");
    schedule.waits[command].push_back({Step(waited), back});
  }
  return schedule;
}

void check_double_buffering(course::ExerciseCheck& check) {
  course::FrameSchedule schedule;
  bool readable = false;
  check.run_case("read the table of waits", [&] {
    schedule = read_learner_waits(check);
    readable = true;
    check.pass(
        "read the table of waits", "your waits: " + [&] {
          std::string s = schedule.describe();
          for (char& c : s)
            if (c == '\n') c = ';';
          return s;
        }());
  });
  if (!readable) return;

  // (1) Safety, decided from the dependency graph: no timing luck involved.
  std::string hazard_cause;  // the first one found: what wrong frames on the device then most likely show
  for (int queues : {2, 3}) {
    const std::string name = "no two commands of a " + std::to_string(queues) + "-queue stream race for a buffer";
    std::vector<std::string> hazards = course::schedule_hazards(schedule, 8, queues);
    // A wait for a command the host enqueues later (or for itself) is a wrong wait, not a missing
    // one: it comes first, and says so.
    const auto wrong_wait = [](const std::string& h) {
      return h.find("enqueues after it") != std::string::npos || h.find("waits for itself") != std::string::npos;
    };
    std::stable_partition(hazards.begin(), hazards.end(), wrong_wait);
    if (hazards.empty())
      check.pass(name);
    else {
      // The first problem is the cause; the others, if any, are listed under it.
      std::string others;
      for (std::size_t k = 1; k < hazards.size(); ++k) others += (k > 1 ? "\n" : "") + hazards[k];
      const std::string cause = wrong_wait(hazards[0])
                                    ? "A wait names a command that does not exist yet: " + hazards[0] +
                                          ". Wait for an earlier frame's command instead (the host enqueues "
                                          "upload(t), row(t-1), column(t-1), download(t-2) in round t)."
                                    : "A wait is missing: " + hazards[0] + ".";
      if (hazard_cause.empty()) hazard_cause = cause;
      check.fail(name, cause, others.empty() ? "" : "also:\n" + others, "");
    }
  }

  // (2) Overlap: with transfer-bound, kernel-bound and balanced costs, the stream must finish
  // as early as the needed waits allow; an extra wait that serialises the queues shows here.
  const std::array<double, 4> costs[] = {{1, 1, 1, 1}, {3, 1, 1, 3}, {1, 3, 3, 1}, {2, 1, 1, 1}, {1, 1, 1, 2}};
  for (int queues : {2, 3}) {
    const course::FrameSchedule needed = course::derive_waits(queues);  // the lesson's waits
    const std::string name = "the waits keep the " + std::to_string(queues) + " queues overlapping";
    std::string reason;
    for (const auto& cost : costs) {
      const double best = course::modelled_stream_time(needed, 12, queues, cost);
      const double yours = course::modelled_stream_time(schedule, 12, queues, cost);
      if (yours <= best + 1e-9 || !reason.empty()) continue;
      reason = "with upload, row, column, download costing " + std::to_string(int(cost[0])) + ", " +
               std::to_string(int(cost[1])) + ", " + std::to_string(int(cost[2])) + ", " +
               std::to_string(int(cost[3])) + " units, 12 frames take " + units(yours) + " units instead of " +
               units(best) + ": some wait is stronger than any buffer needs";
      // Name the waits for a command that shares no buffer with the waiting one: nothing it
      // protects, only overlap lost (frame 4 stands for frame i; slots are i % 2).
      const int i = 4;
      const auto shares_buffer = [i](int step, const course::FrameWait& w) {
        bool shared = false;
        for (const course::BufferAccess& a : course::accesses({Step(step), i}))
          for (const course::BufferAccess& b : course::accesses({w.step, i - w.frames_back}))
            shared = shared || (a.buffer == b.buffer && (a.writes || b.writes));
        return shared;
      };
      for (int step = 0; step < 4; ++step)
        for (const course::FrameWait& w : schedule.waits[step]) {
          if (shares_buffer(step, w)) continue;
          const auto mine = course::accesses({Step(step), i});
          const auto theirs = course::accesses({w.step, i - w.frames_back});
          const auto relative = [i](const course::BufferAccess& a, int frame) {
            if (!std::isdigit(static_cast<unsigned char>(a.buffer.back()))) return "the " + a.buffer;
            const int back = i - frame;
            return a.buffer.substr(0, a.buffer.size() - 1) + (back ? "(i-" + std::to_string(back) + ")" : "i") + " % 2";
          };
          const auto list = [&relative](const std::vector<course::BufferAccess>& all, int frame) {
            std::string text;
            for (std::size_t k = 0; k < all.size(); ++k)
              text += (k ? k + 1 == all.size() ? " and " : ", " : "") + relative(all[k], frame);
            return text;
          };
          const std::string waiting = std::string(course::step_name(Step(step))) + "(i)";
          const std::string waited = std::string(course::step_name(w.step)) + "(i" +
                                     (w.frames_back ? "-" + std::to_string(w.frames_back) : "") + ")";
          reason += "\n    " + waiting + " waits for " + waited + ", which uses " + list(theirs, i - w.frames_back) +
                    ": " + waiting + " does not need that wait, it uses only " + list(mine, i) + ".";
        }
      // Name the waits whose removal alone gives time back without making anything unsafe.
      for (int step = 0; step < 4; ++step)
        for (std::size_t k = 0; k < schedule.waits[step].size(); ++k) {
          course::FrameSchedule without = schedule;
          without.waits[step].erase(without.waits[step].begin() + long(k));
          if (shares_buffer(step, schedule.waits[step][k]) &&
              course::modelled_stream_time(without, 12, queues, cost) < yours - 1e-9 &&
              course::schedule_hazards(without, 8, queues) == course::schedule_hazards(schedule, 8, queues)) {
            const course::FrameWait& w = schedule.waits[step][k];
            reason += "\n    this one costs overlap: " + std::string(course::step_name(Step(step))) + "(i) after " +
                      course::step_name(w.step) + "(i" + (w.frames_back ? "-" + std::to_string(w.frames_back) : "") +
                      ")";
          }
        }
    }
    if (reason.empty())
      check.pass(name);
    else
      check.fail(name, reason);
  }

  // (3) Real streams on the device with exactly these waits, every frame compared.
  struct Case {
    int queues, frames, width, height, radius;
  };
  const Case cases[] = {{2, 8, 67, 41, 3}, {3, 6, 131, 37, 8}, {2, 3, 1, 1, 2}, {2, 5, 1, 29, 4}};
  std::uint32_t seed = 100;
  for (const Case& c : cases) {
    const std::string stream = std::to_string(c.queues) + " queues, " + std::to_string(c.frames) + " frames of " +
                               std::to_string(c.width) + "x" + std::to_string(c.height) + ", radius " +
                               std::to_string(c.radius);
    check.run_case(stream, [&] {
      const std::vector<float> weights = course::gaussian_weights(c.radius, 0.5 + c.radius / 2.0);
      const course::SeparablePasses passes =
          course::build_separable_passes(check.device(), weights, false, "-D COURSE_POISON_LOCAL");
      const std::size_t pixels = std::size_t(c.width) * c.height;
      std::vector<float> in(pixels * c.frames), out(pixels * c.frames, -1.0f);
      std::vector<course::GrayImage> frames;
      for (int f = 0; f < c.frames; ++f) {
        frames.push_back(course::random_gray(c.width, c.height, seed++));
        std::copy(frames[f].pixels.begin(), frames[f].pixels.end(), in.begin() + f * pixels);
      }
      course::run_frame_stream(check.device(), passes, schedule, c.queues, in.data(), out.data(), c.frames, c.width,
                               c.height);
      for (int f = 0; f < c.frames; ++f) {
        const std::vector<float> got(out.begin() + f * pixels, out.begin() + (f + 1) * pixels);
        // A race the graph of waits proved is the cause of any wrong frame, whatever the race
        // left in it (a frame read before its upload can look never written).
        course::CaseDetails details;
        details.proven_cause = hazard_cause;
        check.expect_image(stream + ": frame " + std::to_string(f), got,
                           course::correlate_separable(frames[f], weights, weights).pixels, c.width, c.height,
                           1e-3, 1, details);
      }
    });
  }
}

}  // namespace

// Its kernel only hands the host the table of waits: nothing for Oclgrind to look at.
static const int course_exercise_registered_ = course::register_exercise(
    {"10", "10_transfers_and_overlap", "the event waits of a double-buffered stream of frames", check_double_buffering,
     false});
