#include "checker.hpp"

#include "errors.hpp"
#include "program.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <iostream>
#include <map>

namespace course {
namespace {

// The sentinel in the guards: an unusual value that no filter of the course produces.
constexpr float kSentinel = -12345.5f;

std::map<std::string, ExerciseInfo>& registry() {
  static std::map<std::string, ExerciseInfo> exercises;
  return exercises;
}

std::string file_safe(std::string name) {
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

}  // namespace

int register_exercise(ExerciseInfo info) {
  registry()[info.number] = std::move(info);
  return static_cast<int>(registry().size());
}

std::vector<ExerciseInfo> registered_exercises() {
  std::vector<ExerciseInfo> out;
  for (const auto& [number, info] : registry()) out.push_back(info);
  return out;
}

ExerciseCheck::ExerciseCheck(const DeviceContext& dc, std::filesystem::path folder, std::filesystem::path report_dir,
                             std::ostream& out)
    : dc_(dc), folder_(std::move(folder)), report_dir_(std::move(report_dir)), out_(out) {}

cl::Program ExerciseCheck::build(const std::string& file, const std::string& options) {
  try {
    return build_program(dc_, folder_ / file, options);
  } catch (const KernelBuildError& e) {
    fail("compile " + file, "the kernel does not compile:\n" + std::string(e.what()));
    throw;
  }
}

bool ExerciseCheck::expect_image(const std::string& name, const std::vector<float>& got,
                                 const std::vector<float>& expected, int width, int height, double tolerance,
                                 int channels) {
  const Comparison c = compare_images(got, expected, width, height, tolerance, channels);
  if (c.ok()) {
    pass(name);
    return true;
  }
  std::string reason = c.describe(5);
  std::error_code ec;
  const auto diff = report_dir_ / (file_safe(name) + "-diff.png");
  try {
    save_diff_heatmap(diff, got, expected, width, height, tolerance, channels);
    reason += "\n    diff image: " + diff.string();
  } catch (const std::exception&) {
    // The report is still useful without its picture.
  }
  fail(name, reason);
  return false;
}

void ExerciseCheck::pass(const std::string& name, const std::string& note) {
  ++passed_;
  out_ << "  [pass] " << name << (note.empty() ? "" : "  (" + note + ")") << "\n";
}

void ExerciseCheck::fail(const std::string& name, const std::string& reason) {
  ++failed_;
  out_ << "  [FAIL] " << name << "\n    " << reason << "\n";
}

void ExerciseCheck::run_case(const std::string& name, const std::function<void()>& body) {
  try {
    body();
  } catch (const KernelBuildError&) {
    throw;
  } catch (const cl::Error& e) {
    fail(name, std::string("OpenCL error in ") + e.what() + ": " + cl_error_name(e.err()) + ". " +
                   cl_error_advice(e.err()));
  } catch (const std::exception& e) {
    fail(name, e.what());
  }
}

GuardedBuffer::GuardedBuffer(const DeviceContext& dc, std::size_t count) : dc_(dc), count_(count) {
  // Sub-buffer origins must be aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN (given in bits).
  const std::size_t align = std::max<std::size_t>(dc.device.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8, 4);
  // A kernel with no bounds check writes as far as the NDRange's overhang past the image, which
  // can be more than the image itself for thin images: the guards are as long as the buffer plus
  // 16 Ki floats, so such writes land in a guard rather than in someone else's memory.
  const std::size_t guard_bytes = (count + 16384) * sizeof(float);
  guard_ = (guard_bytes + align - 1) / align * align / sizeof(float);
  const std::size_t total = count_ + 2 * guard_;
  whole_ = cl::Buffer(dc.context, CL_MEM_READ_WRITE, total * sizeof(float));
  std::vector<float> fill(total, kSentinel);
  dc.queue.enqueueWriteBuffer(whole_, CL_TRUE, 0, total * sizeof(float), fill.data());
  cl_buffer_region region{guard_ * sizeof(float), std::max<std::size_t>(count_, 1) * sizeof(float)};
  inner_ = whole_.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
  // The inside starts as NaN, so a pixel the kernel never writes shows up as "got nan".
  write(std::vector<float>(count_, std::numeric_limits<float>::quiet_NaN()));
}

void GuardedBuffer::write(const std::vector<float>& values) {
  dc_.queue.enqueueWriteBuffer(inner_, CL_TRUE, 0, std::min(values.size(), count_) * sizeof(float), values.data());
}

std::vector<float> GuardedBuffer::read() const {
  std::vector<float> out(count_);
  if (count_) dc_.queue.enqueueReadBuffer(inner_, CL_TRUE, 0, count_ * sizeof(float), out.data());
  return out;
}

std::string GuardedBuffer::damaged_guards() const {
  std::vector<float> all(count_ + 2 * guard_);
  dc_.queue.enqueueReadBuffer(whole_, CL_TRUE, 0, all.size() * sizeof(float), all.data());
  std::size_t before = 0, after = 0, first_after = 0, last_before = 0;
  for (std::size_t i = 0; i < guard_; ++i)
    if (std::memcmp(&all[i], &kSentinel, sizeof(float)) != 0) {
      if (before++ == 0) last_before = guard_ - i;
    }
  for (std::size_t i = 0; i < guard_; ++i)
    if (std::memcmp(&all[guard_ + count_ + i], &kSentinel, sizeof(float)) != 0 && after++ == 0) first_after = i;
  if (!before && !after) return "";
  std::string msg = "the kernel wrote outside its buffer of " + std::to_string(count_) + " floats:";
  if (before) msg += " " + std::to_string(before) + " values before its start (as far as index -" + std::to_string(last_before) + ")";
  if (after) msg += " " + std::to_string(after) + " values past its end (first at index " + std::to_string(count_ + first_after) + ")";
  return msg + ". A bounds check (x < width && y < height) is missing or wrong.";
}

}  // namespace course
