/// @file transfer_pipeline.hpp
/// @brief Lesson 10's building blocks: the two passes of a separable filter ready to enqueue on
/// any queue, and a stream of frames over one, two or three command queues whose event
/// dependencies are data (a FrameSchedule) that can be checked for hazards before it runs.
#pragma once

#include <CL/opencl.hpp>
#include <array>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "device.hpp"

namespace course {

/// @brief The row and column kernels of kernels/10_transfers_and_overlap/separable_passes.cl,
/// built for one device with work-group shapes chosen from its limits.
struct SeparablePasses {
  cl::Kernel rows;           ///< convolve_rows: picture -> float rows.
  cl::Kernel columns;        ///< convolve_columns: float rows -> picture.
  cl::NDRange row_group;     ///< Work-group shape of the row pass.
  cl::NDRange column_group;  ///< Work-group shape of the column pass.
  cl::Buffer weights;        ///< The 2R+1 weights, read through __constant memory.
  int radius = 0;            ///< Filter radius R.
  bool eight_bit = false;    ///< True when the picture is 8-bit (uchar) rather than float.
};

/// @brief Builds both passes for `weights` (2R+1 values, R <= 16). Each work-group shape starts
/// from a wish (32x8 for rows, 32x16 for columns) and shrinks until the device, the kernel and
/// local memory allow it. `extra_options` are added to the build (e.g. "-D COURSE_POISON_LOCAL").
SeparablePasses build_separable_passes(const DeviceContext& dc, const std::vector<float>& weights, bool eight_bit,
                                       const std::string& extra_options = "");

/// @brief Enqueues the row pass on `queue` after `waits`; returns its event.
cl::Event enqueue_rows(const cl::CommandQueue& queue, const SeparablePasses& passes, const cl::Buffer& input,
                       const cl::Buffer& rows_out, int width, int height, const std::vector<cl::Event>& waits = {});

/// @brief Enqueues the column pass on `queue` after `waits`; returns its event.
cl::Event enqueue_columns(const cl::CommandQueue& queue, const SeparablePasses& passes, const cl::Buffer& rows_in,
                          const cl::Buffer& output, int width, int height, const std::vector<cl::Event>& waits = {});

/// @brief The four commands each frame of a stream goes through.
enum class FrameStep { upload = 0, row = 1, column = 2, download = 3 };

/// @brief "upload", "row", "column" or "download".
const char* step_name(FrameStep step);

/// @brief One wait: the command of frame i waits for `step` of frame i - `frames_back`.
struct FrameWait {
  FrameStep step = FrameStep::upload;  ///< The command waited for.
  int frames_back = 0;                 ///< 0 for the same frame, 2 for frame i - 2.
};

/// @brief The event dependencies of a frame stream: for each step, the commands it waits for.
struct FrameSchedule {
  std::array<std::vector<FrameWait>, 4> waits;  ///< Indexed by FrameStep.
  /// @brief One line per step, e.g. "row(i) after upload(i)".
  std::string describe() const;
};

/// @brief Which queue runs `step` with `queue_count` queues: 1 = everything on one queue;
/// 2 = transfers on queue 0, kernels on queue 1; 3 = uploads 0, kernels 1, downloads 2.
int queue_of(FrameStep step, int queue_count);

/// @brief One command of a stream, in the order the host enqueues it.
struct StreamCommand {
  FrameStep step = FrameStep::upload;  ///< What it does.
  int frame = 0;                       ///< Which frame.
};

/// @brief A buffer one command of a stream uses: "input buffer 0", "row buffer", "output buffer 1".
struct BufferAccess {
  std::string buffer;
  bool writes;
};

/// @brief What command `c` reads and writes: input and output buffers alternate between two
/// slots (frame % 2); the row buffer is one, used only by the kernels.
std::vector<BufferAccess> accesses(const StreamCommand& c);

/// @brief The enqueue order of a three-stage software pipeline: in round t the host enqueues
/// upload(t), then row(t-1) and column(t-1), then download(t-2) (those that exist).
std::vector<StreamCommand> stream_enqueue_order(int frames);

/// @brief Every way `schedule` is wrong for a stream of `frames` frames over `queue_count` in-order
/// queues with two input and two output buffers (slot i % 2) and one row buffer: a wait for a
/// command enqueued later, or two commands touching the same buffer (one writing) that nothing
/// orders. Each problem is one sentence; an empty list means the schedule is safe.
std::vector<std::string> schedule_hazards(const FrameSchedule& schedule, int frames, int queue_count);

/// @brief The fewest waits that keep a stream over `queue_count` queues safe, found by the two
/// rules instead of written out: every earlier command on another queue that touches a buffer
/// frame i's command touches, one of the two writing, is a wait (read after write, write after
/// read, write after write); then each wait that the others and queue order already imply is
/// dropped, the oldest first, as long as schedule_hazards() finds nothing.
FrameSchedule derive_waits(int queue_count);

/// @brief The stream's makespan if each step took `cost[step]` time units and every queue ran
/// in parallel with the others: how much overlap the schedule allows.
double modelled_stream_time(const FrameSchedule& schedule, int frames, int queue_count,
                            const std::array<double, 4>& cost);

/// @brief The events of a stream run and what they measured.
/// @brief Finishes the given queues when the scope it lives in is left by an exception, so that
/// no asynchronous read or write still uses host memory (or buffers) freed by the unwinding.
/// Declare it after that memory and after the queues; on a normal exit it does nothing.
class FinishQueuesOnUnwind {
 public:
  /// @param queues the queues whose commands use the memory (handles: copying them is cheap).
  explicit FinishQueuesOnUnwind(std::vector<cl::CommandQueue> queues) : queues_(std::move(queues)) {}
  FinishQueuesOnUnwind(const FinishQueuesOnUnwind&) = delete;
  FinishQueuesOnUnwind& operator=(const FinishQueuesOnUnwind&) = delete;
  /// @brief Calls clFinish (the C call: it never throws) on every queue while unwinding.
  ~FinishQueuesOnUnwind() {
    if (std::uncaught_exceptions() > exceptions_)
      for (const cl::CommandQueue& q : queues_)
        if (q()) clFinish(q());
  }

 private:
  std::vector<cl::CommandQueue> queues_;
  int exceptions_ = std::uncaught_exceptions();
};

struct StreamRun {
  std::vector<std::array<cl::Event, 4>> events;  ///< Per frame, indexed by FrameStep.
  double span_ms = 0;                            ///< First command's START to last command's END.
  double wall_ms = 0;  ///< Host clock: before the first command is enqueued to every queue's finish.
  std::array<double, 4> median_ms{};             ///< Median duration of each step over the frames.
};

/// @brief Filters `frames` float frames of width x height from `frames_in` (frame after frame)
/// into `frames_out` over `queue_count` new in-order profiling queues, with exactly the waits of
/// `schedule` (no other synchronisation until the end). Throws InputError when the schedule
/// waits for a command not enqueued yet; that is checked before anything is enqueued. If an
/// OpenCL call throws once commands are in flight, every queue is finished before the exception
/// leaves, so `frames_in` and `frames_out` may be freed as soon as it returns or throws.
/// Use pinned host memory for real overlap on GPUs.
StreamRun run_frame_stream(const DeviceContext& dc, const SeparablePasses& passes, const FrameSchedule& schedule,
                           int queue_count, const float* frames_in, float* frames_out, int frames, int width,
                           int height);

}  // namespace course
