/// @file guarded_buffer.hpp
/// @brief Guard bands: proof that a kernel never writes outside the buffers it was given.
///
/// A guarded buffer is a sub-buffer in the middle of a larger allocation whose two ends hold a
/// sentinel value. After the kernels ran, any end that no longer holds the sentinel shows that
/// a kernel wrote before the start or past the end of its buffer, and where.
///
/// The exercise checker guards every buffer it hands a learner's kernel (GuardedBuffer). The
/// lessons allocate plain `cl::Buffer`s; the guard layer (guard_layer.cpp, preloaded when
/// `COURSE_GUARD_BANDS=1`) gives those guard bands without the lessons knowing.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "device.hpp"

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
  /// outside its buffer, ending with `advice` (what to check) when given.
  std::string damaged_guards(const std::string& advice = "") const;

  /// @brief Whether buffers made from now on have guards (the default). The check under
  /// Oclgrind turns them off: Oclgrind sees an access past a buffer's end only when the buffer
  /// ends there, not in the middle of a larger allocation.
  static void use_guards(bool on);
  /// @brief The buffers made without guards so far, each with the number Oclgrind's addresses
  /// give it (their top 16 bits) and its size in bytes: what a report of an access outside a
  /// buffer needs to say the buffer's size. Each number is found by a kernel that stores its
  /// argument's address; on a device other than Oclgrind's the numbers mean nothing.
  struct Numbered {
    std::uint64_t number;
    std::size_t bytes;
    const void* memory;  ///< The buffer's handle (cl_mem), as a kernel argument is set to it.
  };
  static std::vector<Numbered> unguarded_buffers();

 private:
  void fill(std::size_t first, std::size_t count, const void* pattern);

  cl::CommandQueue queue_;
  std::size_t count_, element_, guard_;
  cl::Buffer whole_, inner_;
};

/// @brief One convolution case's guarded buffers: the image's pixels in, its weights, and an
/// output of the image's size plus `slack` floats (room for the writes of a kernel without a
/// bounds check, see written_past_image()). Both inputs are written; the output holds NaN.
struct ConvolutionBuffers {
  ConvolutionBuffers(const DeviceContext& dc, const std::vector<float>& pixels, const std::vector<float>& weights,
                     std::size_t slack = 0)
      : input(dc, pixels.size()), taps(dc, weights.size()), output(dc, pixels.size() + slack) {
    input.write(pixels);
    taps.write(weights);
  }
  GuardedBuffer input;   ///< The image, `pixels.size()` floats.
  GuardedBuffer taps;    ///< The weights.
  GuardedBuffer output;  ///< The image's size, then the slack.

  /// @brief One run of a case: the whole output (slack too) marked never written (never_written.hpp),
  /// `kernel` (its arguments set) launched over `global` in groups of `local` and waited for, the
  /// output read back. A case runs it once, and again when its report looks for a race.
  std::vector<float> run(const DeviceContext& dc, const cl::Kernel& kernel, const cl::NDRange& global,
                         const cl::NDRange& local);
};

/// @brief Sets `kernel`'s arguments 0, 1, 2, ... to `args`, in order.
template <typename... Args>
void set_args(cl::Kernel& kernel, const Args&... args) {
  cl_uint index = 0;
  (kernel.setArg(index++, args), ...);
}

/// @brief The bytes of `raw` (floats read back from a buffer a kernel wrote uchar4 pixels into,
/// one pixel a float) as one value each: four values a float, in memory order.
std::vector<float> pixel_bytes_as_values(const std::vector<float>& raw);

/// @brief What a kernel wrote after the image's last pixel (see written_past_image()).
struct WrittenPast {
  std::string cause;  ///< "The kernel wrote past the image's last pixel." and the advice; "" when it did not.
  std::string where;  ///< The first value written there: its index and the image's size.
};

/// @brief Whether any float of `got` (an output read back) after the image's first `count`
/// pixels no longer holds NaN: then the cause (the same sentence for every case, ending with
/// `advice`, what to check) and where. Either way `got` keeps only its first `count` floats.
WrittenPast written_past_image(std::vector<float>& got, std::size_t count, const std::string& advice);

}  // namespace course
