#include "guarded_buffer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "guard_damage.hpp"
#include "never_written.hpp"

namespace course {
namespace {
bool guards_on = true;
std::vector<GuardedBuffer::Numbered> numbered;

// The top 16 bits of `buffer`'s address on the device: a kernel stores its argument's address.
std::uint64_t address_number(const DeviceContext& dc, const cl::Buffer& buffer) {
  static const char* const source =
      "__kernel void address_of(__global const uchar* b, __global ulong* out) { out[0] = (ulong)b; }";
  static cl::Program program;
  static cl_context built_for = nullptr;
  if (built_for != dc.context()) program = cl::Program(dc.context, source), program.build(), built_for = dc.context();
  cl::Kernel kernel(program, "address_of");
  cl::Buffer out(dc.context, CL_MEM_WRITE_ONLY, sizeof(cl_ulong));
  kernel.setArg(0, buffer), kernel.setArg(1, out);
  dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1));
  cl_ulong address = 0;
  dc.queue.enqueueReadBuffer(out, CL_TRUE, 0, sizeof address, &address);
  return address >> 48;
}
}  // namespace

std::vector<GuardedBuffer::Numbered> GuardedBuffer::unguarded_buffers() { return numbered; }

void GuardedBuffer::use_guards(bool on) { guards_on = on; }

GuardedBuffer::GuardedBuffer(const DeviceContext& dc, std::size_t count)
    : GuardedBuffer(dc, count, sizeof(float), CL_MEM_READ_WRITE, 0) {}

GuardedBuffer::GuardedBuffer(const DeviceContext& dc, std::size_t count, std::size_t element_bytes, cl_mem_flags access,
                             cl_mem_flags extra)
    : queue_(dc.queue), count_(count), element_(element_bytes) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  if (!guards_on) {
    guard_ = 0;
    whole_ = inner_ = cl::Buffer(dc.context, access | extra, std::max<std::size_t>(count_, 1) * element_);
    fill(0, count_, &nan);
    try {
      numbered.push_back({address_number(dc, inner_), count_ * element_, inner_()});
    } catch (const cl::Error&) {
      // Without its number, a report says the buffer's size no more.
    }
    return;
  }
  // Sub-buffer origins must be aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN (given in bits).
  const std::size_t align = std::max<std::size_t>(dc.device.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8, 4);
  // A kernel with no bounds check writes as far as the NDRange's overhang past the image, which
  // can be more than the image itself for thin images: the guards are as long as the buffer plus
  // 16 Ki elements, so such writes land in a guard rather than in someone else's memory.
  const std::size_t guard_bytes = (count + 16384) * element_;
  guard_ = (guard_bytes + align - 1) / align * align / element_;
  const std::size_t total = count_ + 2 * guard_;
  whole_ = cl::Buffer(dc.context, CL_MEM_READ_WRITE | extra, total * element_);
  fill(0, total, &kGuardSentinel);
  cl_buffer_region region{guard_ * element_, std::max<std::size_t>(count_, 1) * element_};
  inner_ = whole_.createSubBuffer(access, CL_BUFFER_CREATE_TYPE_REGION, &region);
  // The inside starts as NaN, so a pixel the kernel never writes shows up as "got nan".
  fill(guard_, count_, &nan);
}

void GuardedBuffer::fill(std::size_t first, std::size_t count, const void* pattern) {
  if (!count) return;
  std::vector<unsigned char> bytes(count * element_);
  fill_pattern(bytes.data(), bytes.size(), pattern);
  queue_.enqueueWriteBuffer(whole_, CL_TRUE, first * element_, bytes.size(), bytes.data());
}

void GuardedBuffer::write(const std::vector<float>& values) {
  const std::size_t bytes = std::min(values.size() * sizeof(float), count_ * element_);
  if (bytes) queue_.enqueueWriteBuffer(inner_, CL_TRUE, 0, bytes, values.data());
}

std::vector<float> GuardedBuffer::read() const {
  std::vector<float> out(count_ * element_ / sizeof(float));
  if (!out.empty()) queue_.enqueueReadBuffer(inner_, CL_TRUE, 0, out.size() * sizeof(float), out.data());
  return out;
}

std::string GuardedBuffer::damaged_guards(const std::string& advice) const {
  if (guard_ == 0) return "";
  std::vector<unsigned char> all((count_ + 2 * guard_) * element_);
  queue_.enqueueReadBuffer(whole_, CL_TRUE, 0, all.size(), all.data());
  return describe_guard_damage(all.data(), count_, guard_, element_, advice);
}

std::vector<float> pixel_bytes_as_values(const std::vector<float>& raw) {
  std::vector<float> values(raw.size() * 4);
  for (std::size_t i = 0; i < raw.size(); ++i) {
    std::uint8_t bytes[4];
    std::memcpy(bytes, &raw[i], 4);
    for (int c = 0; c < 4; ++c) values[i * 4 + c] = bytes[c];
  }
  return values;
}

WrittenPast written_past_image(std::vector<float>& got, std::size_t count, const std::string& advice) {
  WrittenPast past;
  const auto first = got.begin() + static_cast<std::ptrdiff_t>(std::min(count, got.size()));
  const auto written = std::find_if(first, got.end(), [](float v) { return !std::isnan(v); });
  if (written != got.end()) {
    past.cause = "The kernel wrote past the image's last pixel. " + advice;
    past.where = "first written past it: index " + std::to_string(written - got.begin()) + " of an image of " +
                 std::to_string(count) + (count == 1 ? " pixel" : " pixels");
  }
  got.resize(std::min(count, got.size()));
  return past;
}

std::vector<float> ConvolutionBuffers::run(const DeviceContext& dc, const cl::Kernel& kernel, const cl::NDRange& global,
                                           const cl::NDRange& local) {
  output.write(std::vector<float>(output.bytes() / sizeof(float), never_written()));
  dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local);
  dc.queue.finish();
  return output.read();
}

}  // namespace course
