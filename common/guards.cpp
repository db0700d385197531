#include "guards.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>

#include "errors.hpp"
#include "lesson.hpp"

namespace course {
namespace {

// The sentinel in the guards: an unusual value that no filter of the course produces. Byte
// buffers hold its four bytes over and over.
constexpr float kSentinel = -12345.5f;

// What guard mode has seen: the guarded buffers, the buffers it could not guard, the file of
// every program, and the kernels launched (each once, in launch order).
struct GuardState {
  std::mutex mutex;
  bool forced = false;
  std::vector<std::shared_ptr<GuardedBuffer>> buffers;
  int unguarded = 0;
  std::map<cl_program, std::string> files;
  std::vector<std::string> launches;
};

GuardState& state() {
  static GuardState s;
  return s;
}

// `count` bytes of a 4-byte pattern, starting at a multiple of 4.
std::vector<unsigned char> repeated(const void* pattern, std::size_t count) {
  std::vector<unsigned char> bytes(count);
  for (std::size_t i = 0; i < count; ++i) bytes[i] = static_cast<const unsigned char*>(pattern)[i % 4];
  return bytes;
}

// "256.3 MiB".
std::string mib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", bytes / (1024.0 * 1024.0));
  return text;
}

}  // namespace

GuardedBuffer::GuardedBuffer(const DeviceContext& dc, std::size_t count)
    : GuardedBuffer(dc, count, sizeof(float), CL_MEM_READ_WRITE, 0) {}

GuardedBuffer::GuardedBuffer(const DeviceContext& dc, std::size_t count, std::size_t element_bytes, cl_mem_flags access,
                             cl_mem_flags extra)
    : queue_(dc.queue), count_(count), element_(element_bytes) {
  // Sub-buffer origins must be aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN (given in bits).
  const std::size_t align = std::max<std::size_t>(dc.device.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8, 4);
  // A kernel with no bounds check writes as far as the NDRange's overhang past the image, which
  // can be more than the image itself for thin images: the guards are as long as the buffer plus
  // 16 Ki elements, so such writes land in a guard rather than in someone else's memory.
  const std::size_t guard_bytes = (count + 16384) * element_;
  guard_ = (guard_bytes + align - 1) / align * align / element_;
  const std::size_t total = count_ + 2 * guard_;
  whole_ = cl::Buffer(dc.context, CL_MEM_READ_WRITE | extra, total * element_);
  fill(0, total, &kSentinel);
  cl_buffer_region region{guard_ * element_, std::max<std::size_t>(count_, 1) * element_};
  inner_ = whole_.createSubBuffer(access, CL_BUFFER_CREATE_TYPE_REGION, &region);
  // The inside starts as NaN, so a pixel the kernel never writes shows up as "got nan".
  const float nan = std::numeric_limits<float>::quiet_NaN();
  fill(guard_, count_, &nan);
}

void GuardedBuffer::fill(std::size_t first, std::size_t count, const void* pattern) {
  if (!count) return;
  const std::vector<unsigned char> bytes = repeated(pattern, count * element_);
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

std::string GuardedBuffer::damaged_guards() const {
  const std::size_t total = count_ + 2 * guard_;
  std::vector<unsigned char> all(total * element_);
  queue_.enqueueReadBuffer(whole_, CL_TRUE, 0, all.size(), all.data());
  const std::vector<unsigned char> expected = repeated(&kSentinel, all.size());
  const auto changed = [&](std::size_t element) {
    return std::memcmp(&all[element * element_], &expected[element * element_], element_) != 0;
  };
  std::size_t before = 0, after = 0, first_after = 0, last_before = 0;
  for (std::size_t i = 0; i < guard_; ++i)
    if (changed(i) && before++ == 0) last_before = guard_ - i;
  for (std::size_t i = 0; i < guard_; ++i)
    if (changed(guard_ + count_ + i) && after++ == 0) first_after = i;
  if (!before && !after) return "";
  const bool floats = element_ == sizeof(float);
  const auto amount = [&](std::size_t n) {
    return std::to_string(n) + (floats ? (n == 1 ? " value" : " values") : (n == 1 ? " byte" : " bytes"));
  };
  const std::string index = floats ? "index " : "byte ";
  std::string msg =
      "the kernel wrote outside its buffer of " + std::to_string(count_) + (floats ? " floats:" : " bytes:");
  if (before)
    msg += " " + amount(before) + " before its start (as far as " + index + "-" + std::to_string(last_before) + ")";
  if (after)
    msg += " " + amount(after) + " past its end (first at " + index + std::to_string(count_ + first_after) + ")";
  return msg + ". A bounds check (x < width && y < height) is missing or wrong.";
}

bool guard_bands_requested() {
  static const bool requested = [] {
    const char* env = std::getenv("COURSE_GUARD_BANDS");
    return env && *env && std::string(env) != "0";
  }();
  return requested;
}

bool guard_bands_on() {
  if (guard_bands_requested()) return true;
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().forced;
}

void enable_guard_bands() {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().forced = true;
}

void require_allocatable(const DeviceContext& dc, std::size_t bytes) {
  // Said in words before the driver answers CL_INVALID_BUFFER_SIZE: the picture is too large here.
  const cl_ulong most = dc.device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
  if (bytes > most)
    throw InputError("cannot use " + input_description() + ": it needs a buffer of " + mib(bytes) +
                     ", more than this device allocates at once (" + mib(most) +
                     ", CL_DEVICE_MAX_MEM_ALLOC_SIZE). Use a smaller picture or another --device.");
}

cl::Buffer make_buffer(const DeviceContext& dc, cl_mem_flags flags, std::size_t bytes, const void* host) {
  require_allocatable(dc, bytes);
  if (!guard_bands_on()) return cl::Buffer(dc.context, flags, bytes, const_cast<void*>(host));
  if (flags & CL_MEM_USE_HOST_PTR) {
    // The buffer is the host's own memory, which has no room for guards around it.
    std::lock_guard<std::mutex> lock(state().mutex);
    ++state().unguarded;
    return cl::Buffer(dc.context, flags, bytes, const_cast<void*>(host));
  }
  const cl_mem_flags access = flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY);
  auto guarded =
      std::make_shared<GuardedBuffer>(dc, bytes, 1, access ? access : CL_MEM_READ_WRITE, flags & CL_MEM_ALLOC_HOST_PTR);
  if ((flags & CL_MEM_COPY_HOST_PTR) && bytes) dc.queue.enqueueWriteBuffer(guarded->buffer(), CL_TRUE, 0, bytes, host);
  std::lock_guard<std::mutex> lock(state().mutex);
  state().buffers.push_back(guarded);
  return guarded->buffer();
}

void note_program_file(const cl::Program& program, const std::string& file) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().files[program()] = file;
}

void enqueue_kernel(const cl::CommandQueue& queue, const cl::Kernel& kernel, const cl::NDRange& global,
                    const cl::NDRange& local, const std::vector<cl::Event>* waits, cl::Event* done) {
  if (guard_bands_on()) {
    const cl::Program program = kernel.getInfo<CL_KERNEL_PROGRAM>();
    std::string name = kernel.getInfo<CL_KERNEL_FUNCTION_NAME>();
    name.erase(std::find(name.begin(), name.end(), '\0'), name.end());
    std::lock_guard<std::mutex> lock(state().mutex);
    const auto file = state().files.find(program());
    const std::string launch =
        (file == state().files.end() ? "(a program built from a string)" : file->second) + ":" + name;
    if (std::find(state().launches.begin(), state().launches.end(), launch) == state().launches.end())
      state().launches.push_back(launch);
  }
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, waits, done);
}

std::vector<std::string> guarded_launches() {
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().launches;
}

std::string damaged_guard_bands() {
  std::vector<std::shared_ptr<GuardedBuffer>> buffers;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    buffers = state().buffers;
  }
  std::string damage;
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    const std::string d = buffers[i]->damaged_guards();
    if (!d.empty())
      damage += (damage.empty() ? "" : "\n") + std::string("buffer ") + std::to_string(i + 1) + " of " +
                std::to_string(buffers.size()) + " (" + std::to_string(buffers[i]->bytes()) + " bytes): " + d;
  }
  return damage;
}

int lesson_exit(bool verified) {
  const int status = verified ? kExitOk : kExitVerificationFailed;
  if (!guard_bands_on()) return status;
  const std::string damage = damaged_guard_bands();
  std::size_t guarded = 0;
  int unguarded = 0;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    guarded = state().buffers.size();
    unguarded = state().unguarded;
    state().buffers.clear();  // release the device memory before the runtime shuts down
  }
  std::cout << "\nGuard bands: " << guarded << " buffers guarded"
            << (unguarded ? ", " + std::to_string(unguarded) + " in host memory left unguarded" : std::string()) << "; "
            << (damage.empty() ? "every guard intact" : "a kernel wrote outside its buffer") << "\n";
  for (const std::string& launch : guarded_launches()) std::cout << "  guarded launch: " << launch << "\n";
  if (!damage.empty()) {
    std::cerr << "error: " << damage << "\n";
    return kExitVerificationFailed;
  }
  return status;
}

}  // namespace course
