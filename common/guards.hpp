/// @file guards.hpp
/// @brief Guard bands: proof that a kernel never writes outside the buffers it was given.
///
/// A guarded buffer is a sub-buffer in the middle of a larger allocation whose two ends hold a
/// sentinel value. After the kernels ran, any end that no longer holds the sentinel shows that
/// a kernel wrote before the start or past the end of its buffer, and where.
///
/// The exercise checker guards every output it hands a learner's kernel (GuardedBuffer). The
/// lessons allocate their buffers through make_buffer() and launch through enqueue_kernel():
/// normally these are plain OpenCL calls, but with `COURSE_GUARD_BANDS=1` in the environment
/// every buffer gets guard bands, every launch is recorded, and lesson_exit() checks all the
/// guards before the lesson ends. The tests run every lesson that way.
#pragma once

#include "device.hpp"

#include <CL/opencl.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace course {

/// @brief A buffer with guard bands before and after it, each filled with a sentinel, so that a
/// kernel writing outside its buffer is caught. Kernels get a sub-buffer that covers exactly
/// `count` elements of `element_bytes` each.
class GuardedBuffer {
 public:
  /// @brief Allocates `count` floats plus the guards; the guards hold the sentinel, the inside NaN.
  GuardedBuffer(const DeviceContext& dc, std::size_t count);
  /// @brief The general form: `count` elements of `element_bytes` (1 or 4), the sub-buffer made
  /// with `access` (CL_MEM_READ_ONLY, ...), the whole allocation with `extra` flags added
  /// (for example CL_MEM_ALLOC_HOST_PTR).
  GuardedBuffer(const DeviceContext& dc, std::size_t count, std::size_t element_bytes, cl_mem_flags access,
                cl_mem_flags extra);
  /// @brief The part a kernel may touch.
  const cl::Buffer& buffer() const { return inner_; }
  /// @brief The size of that part in bytes.
  std::size_t bytes() const { return count_ * element_; }
  /// @brief Copies `values` (at most count floats) into the inner part.
  void write(const std::vector<float>& values);
  /// @brief Reads the inner part back as floats.
  std::vector<float> read() const;
  /// @brief "" when both guards are intact, else a sentence saying where the kernel wrote
  /// outside its buffer.
  std::string damaged_guards() const;

 private:
  void fill(std::size_t first, std::size_t count, const void* pattern);

  cl::CommandQueue queue_;
  std::size_t count_, element_, guard_;
  cl::Buffer whole_, inner_;
};

/// @brief True when buffers get guard bands: `COURSE_GUARD_BANDS` is set to anything but "" or
/// "0", or enable_guard_bands() was called.
bool guard_bands_on();

/// @brief True when `COURSE_GUARD_BANDS` asks for guard bands (set to anything but "" or "0"),
/// whether or not enable_guard_bands() was called.
bool guard_bands_requested();

/// @brief Turns guard bands on for the rest of the process (the exercise checker does).
void enable_guard_bands();

/// @brief Throws InputError naming the picture (see input_description()) when `bytes` is more
/// than the device allocates at once (CL_DEVICE_MAX_MEM_ALLOC_SIZE).
void require_allocatable(const DeviceContext& dc, std::size_t bytes);

/// @brief A buffer for a lesson's kernels: `cl::Buffer(dc.context, flags, bytes, host)`, or,
/// with guard bands on, a guarded sub-buffer of the same size and access holding the same data.
/// A buffer that uses the host's own memory (CL_MEM_USE_HOST_PTR) cannot be guarded and is
/// counted as such in the report. A buffer larger than the device allocates at once throws
/// (require_allocatable()).
cl::Buffer make_buffer(const DeviceContext& dc, cl_mem_flags flags, std::size_t bytes, const void* host = nullptr);

/// @brief `queue.enqueueNDRangeKernel(kernel, NullRange, global, local, waits, done)`; with guard
/// bands on it also records which kernel of which file ran.
void enqueue_kernel(const cl::CommandQueue& queue, const cl::Kernel& kernel, const cl::NDRange& global,
                    const cl::NDRange& local, const std::vector<cl::Event>* waits = nullptr, cl::Event* done = nullptr);

/// @brief Remembers which file a program was built from, so that launches name it.
void note_program_file(const cl::Program& program, const std::string& file);

/// @brief The kernels launched through enqueue_kernel() with guard bands on, each once, as
/// `file:kernel` (e.g. `kernels/01_platform_setup/invert.cl:invert`).
std::vector<std::string> guarded_launches();

/// @brief Checks the guards of every buffer make_buffer() guarded; "" when all are intact.
std::string damaged_guard_bands();

/// @brief The exit status of a lesson whose results were (or were not) `verified`. With guard
/// bands on it first checks every guard and prints what was guarded and launched; a damaged
/// guard prints which buffer and fails the lesson (exit 1) even when the results matched.
int lesson_exit(bool verified);

}  // namespace course
