// The guard layer: guard bands around every buffer a program allocates, without the program
// knowing. Preloaded (LD_PRELOAD) into a lesson by `COURSE_GUARD_BANDS=1 ./course run NN`, by the
// exercise checks and by the tests, it stands between the program and the OpenCL ICD loader:
//
// - clCreateBuffer gives the program a sub-buffer in the middle of a larger allocation whose two
//   ends hold a sentinel (guard_damage.hpp); the inside starts as NaN, so a pixel no kernel
//   writes shows. A buffer in the host's own memory (CL_MEM_USE_HOST_PTR) has no room for
//   guards: it is counted as unguarded.
// - clEnqueueNDRangeKernel records which kernel of which file ran (the file comes from the
//   `#line 1 "file"` directive the course's program builder puts before every kernel's text).
//   With COURSE_GUARD_LAYER=launches, that is all it does: buffers are left as they are.
// - When the program releases a guarded buffer (or at exit, for any it kept), the guards are
//   read back. At exit the layer prints what it guarded and launched (with COURSE_GUARD_BANDS=1),
//   and a damaged guard makes the program exit with status 1, even when every pixel matched.
// - An exercise check reports for itself: it calls course_guard_layer_reports_to_me() (found with
//   dlsym, so a check without the layer runs too), and the layer then prints nothing and leaves
//   the exit status alone, unless COURSE_GUARD_BANDS=1 asks for its report; the check asks
//   course_guard_layer_damage() at its end and fails when a guard was damaged and no case failed
//   (a kernel wrote past a buffer the check never compared).
//
// It uses only OpenCL's C API and calls the real functions through dlsym(RTLD_NEXT).
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "guard_damage.hpp"

namespace {

template <typename F>
F real(const char* name) {
  F f = reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
  if (!f) {
    std::fprintf(stderr, "guard layer: the OpenCL loader has no %s\n", name);
    std::abort();
  }
  return f;
}

#define REAL(name) static const auto real_##name = real<decltype(&name)>(#name)

struct Guarded {
  cl_mem whole = nullptr;
  cl_command_queue queue = nullptr;  // the layer's own, for filling and reading the guards
  std::size_t bytes = 0, guard = 0;  // in bytes
  unsigned references = 1;           // the program's references to the inner buffer
  std::size_t number = 0;            // 1 for the first buffer the program made, and so on
};

bool quiet = false;  // an exercise check reports the damage itself

struct State {
  std::mutex mutex;
  std::map<cl_mem, Guarded> buffers;                    // inner buffer -> its allocation
  std::map<cl_context, cl_command_queue> queues;        // the layer's queue per context
  std::map<cl_command_queue, unsigned> program_queues;  // the program's queues and references to them
  std::vector<std::string> launches;                    // file:kernel, each once, in launch order
  std::vector<std::string> damage;
  std::size_t guarded = 0, unguarded = 0;
};

State& state() {
  static State* s = new State;  // never destroyed: the exit report runs after static destructors
  return *s;
}

cl_command_queue layer_queue(cl_context context) {
  REAL(clGetContextInfo);
  REAL(clCreateCommandQueue);
  auto& queues = state().queues;
  if (auto it = queues.find(context); it != queues.end()) return it->second;
  cl_device_id device = nullptr;
  if (real_clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof device, &device, nullptr) != CL_SUCCESS &&
      real_clGetContextInfo(context, CL_CONTEXT_DEVICES, 0, nullptr, nullptr) != CL_SUCCESS)
    return nullptr;
  if (!device) {  // several devices: take the first
    std::size_t size = 0;
    real_clGetContextInfo(context, CL_CONTEXT_DEVICES, 0, nullptr, &size);
    std::vector<cl_device_id> devices(size / sizeof(cl_device_id));
    real_clGetContextInfo(context, CL_CONTEXT_DEVICES, size, devices.data(), nullptr);
    if (devices.empty()) return nullptr;
    device = devices[0];
  }
  cl_int status = CL_SUCCESS;
  cl_command_queue queue = real_clCreateCommandQueue(context, device, 0, &status);
  if (status != CL_SUCCESS) return nullptr;
  queues[context] = queue;
  return queue;
}

// The largest sub-buffer alignment any device of the context asks for, in bytes.
std::size_t alignment(cl_context context) {
  REAL(clGetContextInfo);
  REAL(clGetDeviceInfo);
  std::size_t size = 0;
  real_clGetContextInfo(context, CL_CONTEXT_DEVICES, 0, nullptr, &size);
  std::vector<cl_device_id> devices(size / sizeof(cl_device_id));
  real_clGetContextInfo(context, CL_CONTEXT_DEVICES, size, devices.data(), nullptr);
  std::size_t align = 4;
  for (cl_device_id d : devices) {
    cl_uint bits = 0;
    real_clGetDeviceInfo(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, nullptr);
    align = std::max<std::size_t>(align, bits / 8);
  }
  return align;
}

// Reads the guards of one buffer (the program's queues finished first) and records any damage.
// "st", "nd", "rd" or "th", for "the program's 2nd buffer".
const char* ordinal(std::size_t n) {
  if (n % 100 / 10 == 1) return "th";
  return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

void check_guards(const Guarded& g) {
  REAL(clEnqueueReadBuffer);
  REAL(clFinish);
  for (const auto& [q, references] : state().program_queues) real_clFinish(q);
  std::vector<unsigned char> all(g.bytes + 2 * g.guard);
  if (real_clEnqueueReadBuffer(g.queue, g.whole, CL_TRUE, 0, all.size(), all.data(), 0, nullptr, nullptr) !=
      CL_SUCCESS) {
    state().damage.push_back("the guards of a buffer of " + std::to_string(g.bytes) + " bytes could not be read back");
    return;
  }
  const bool floats = g.bytes % 4 == 0 && g.guard % 4 == 0;
  const std::size_t e = floats ? 4 : 1;
  const std::string d = course::describe_guard_damage(all.data(), g.bytes / e, g.guard / e, e);
  if (!d.empty()) {
    // The buffer's number helps whoever reads a lesson's own code (COURSE_GUARD_BANDS=1); in an
    // exercise check the student never made those buffers, so the sentence alone says it.
    const char* asked = std::getenv("COURSE_GUARD_BANDS");
    const bool named = asked && *asked && std::string(asked) != "0";
    state().damage.push_back((named ? "the program's " + std::to_string(g.number) + ordinal(g.number) + " buffer (" +
                                          std::to_string(g.bytes) + " bytes): "
                                    : std::string()) +
                             d);
    if (!quiet) std::fprintf(stderr, "error: %s\n", state().damage.back().c_str());
  }
}

void report_at_exit() {
  static bool reported = false;  // once, whichever of the two exit handlers comes first
  if (reported) return;
  reported = true;
  REAL(clReleaseMemObject);
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.guarded == 0 && s.unguarded == 0 && s.launches.empty()) return;  // no OpenCL program
  for (const auto& [inner, g] : s.buffers) {
    check_guards(g);
    real_clReleaseMemObject(inner);
    real_clReleaseMemObject(g.whole);
  }
  s.buffers.clear();
  if (quiet) return;
  // A clean run reports only when guard bands were asked for by name (COURSE_GUARD_BANDS=1);
  // the exercise checks preload the layer too, and their report ends with its own last line.
  const char* asked = std::getenv("COURSE_GUARD_BANDS");
  if (s.damage.empty() && (!asked || !*asked || std::string(asked) == "0")) return;
  std::fflush(stdout);
  std::fprintf(stderr, "\nGuard bands: %zu buffers guarded%s; %s\n", s.guarded,
               s.unguarded ? (", " + std::to_string(s.unguarded) + " in host memory left unguarded").c_str() : "",
               s.damage.empty() ? "every guard intact" : "a kernel wrote outside its buffer");
  for (const std::string& launch : s.launches) std::fprintf(stderr, "  guarded launch: %s\n", launch.c_str());
  std::fflush(stderr);
  if (!s.damage.empty()) _exit(1);
}

struct ExitReport {
  ExitReport() {
    // Programs this one starts (a driver's compiler, for one) are not OpenCL programs: they do
    // not inherit the layer.
    if (const char* preload = std::getenv("LD_PRELOAD")) {
      std::string kept, entry;
      for (const char* c = preload;; ++c) {
        if (*c && *c != ':' && *c != ' ') {
          entry += *c;
          continue;
        }
        if (!entry.empty() && entry.find("course_guard_layer") == std::string::npos)
          kept += (kept.empty() ? "" : " ") + entry;
        entry.clear();
        if (!*c) break;
      }
      if (kept.empty())
        unsetenv("LD_PRELOAD");
      else
        setenv("LD_PRELOAD", kept.c_str(), 1);
    }
    std::atexit(report_at_exit);
  }
} exit_report;

// COURSE_GUARD_LAYER=launches: only the launches are recorded, buffers are left as they are
// (under Oclgrind, which sees an access past a buffer only where the buffer really ends).
bool launches_only() {
  static const bool only = [] {
    const char* mode = std::getenv("COURSE_GUARD_LAYER");
    return mode && std::string(mode) == "launches";
  }();
  return only;
}

// Under Oclgrind 21.10, releasing the last context at exit can abort ("corrupted double-linked
// list") before the exit report is printed. In launches mode the report is printed as the
// program's exit begins (a handler registered at the first launch runs before the program's
// static objects are destroyed), and the releases after that are skipped.
bool exiting = false;
void exit_begins() {
  std::fflush(stdout);
  report_at_exit();
  exiting = true;
}

// The file a program was built from: the last `#line 1 "file"` of its source.
std::string program_file(cl_program program) {
  REAL(clGetProgramInfo);
  std::size_t size = 0;
  if (real_clGetProgramInfo(program, CL_PROGRAM_SOURCE, 0, nullptr, &size) != CL_SUCCESS || size <= 1)
    return "(a program built from a string)";
  std::string source(size, '\0');
  real_clGetProgramInfo(program, CL_PROGRAM_SOURCE, size, source.data(), nullptr);
  const auto at = source.rfind("#line 1 \"");
  if (at == std::string::npos) return "(a program built from a string)";
  const auto end = source.find('"', at + 9);
  return source.substr(at + 9, end - at - 9);
}

}  // namespace

extern "C" {

// Quiet unless the guard bands were asked for by name (COURSE_GUARD_BANDS=1, as the guard-band
// sweep of the tests asks, to list what every check launched): then the layer reports as always.
__attribute__((visibility("default"))) void course_guard_layer_reports_to_me() {
  const char* asked = std::getenv("COURSE_GUARD_BANDS");
  quiet = !asked || !*asked || std::string(asked) == "0";
}

// The first damage found so far in a buffer the program has released ("" for none).
__attribute__((visibility("default"))) const char* course_guard_layer_damage() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.damage.empty() ? "" : s.damage.front().c_str();
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host,
                                               cl_int* errcode) {
  REAL(clCreateBuffer);
  REAL(clCreateSubBuffer);
  REAL(clEnqueueWriteBuffer);
  REAL(clReleaseMemObject);
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (launches_only()) {
    ++s.unguarded;
    return real_clCreateBuffer(context, flags, size, host, errcode);
  }
  cl_command_queue queue = size ? layer_queue(context) : nullptr;
  if ((flags & CL_MEM_USE_HOST_PTR) || !queue) {
    // The host's own memory has no room for guards around it.
    if (flags & CL_MEM_USE_HOST_PTR) ++s.unguarded;
    return real_clCreateBuffer(context, flags, size, host, errcode);
  }
  const std::size_t align = alignment(context);
  // As in GuardedBuffer: each guard is as long as the buffer plus 64 KiB, so that even a kernel
  // with no bounds check, writing as far as its NDRange's overhang, lands in a guard.
  const std::size_t guard = (size + 65536 + align - 1) / align * align;
  const cl_mem_flags access = flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY);
  cl_int status = CL_SUCCESS;
  cl_mem whole = real_clCreateBuffer(context, CL_MEM_READ_WRITE | (flags & CL_MEM_ALLOC_HOST_PTR), size + 2 * guard,
                                     nullptr, &status);
  if (status != CL_SUCCESS) {
    if (errcode) *errcode = status;
    return nullptr;
  }
  std::vector<unsigned char> bytes(size + 2 * guard);
  course::fill_pattern(bytes.data(), bytes.size(), &course::kGuardSentinel);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  course::fill_pattern(bytes.data() + guard, size, &nan);
  if (flags & CL_MEM_COPY_HOST_PTR) std::memcpy(bytes.data() + guard, host, size);
  status = real_clEnqueueWriteBuffer(queue, whole, CL_TRUE, 0, bytes.size(), bytes.data(), 0, nullptr, nullptr);
  cl_buffer_region region{guard, size};
  cl_mem inner = status == CL_SUCCESS ? real_clCreateSubBuffer(whole, access ? access : CL_MEM_READ_WRITE,
                                                               CL_BUFFER_CREATE_TYPE_REGION, &region, &status)
                                      : nullptr;
  if (status != CL_SUCCESS) {
    real_clReleaseMemObject(whole);
    if (errcode) *errcode = status;
    return nullptr;
  }
  ++s.guarded;
  s.buffers[inner] = Guarded{whole, queue, size, guard, 1, s.guarded};
  if (errcode) *errcode = CL_SUCCESS;
  return inner;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type,
                                                  const void* info, cl_int* errcode) {
  REAL(clCreateSubBuffer);
  // A sub-buffer of a sub-buffer is not allowed: one of a guarded buffer is cut from its allocation.
  State& s = state();
  std::unique_lock<std::mutex> lock(s.mutex);
  auto it = s.buffers.find(buffer);
  if (it == s.buffers.end() || type != CL_BUFFER_CREATE_TYPE_REGION || !info) {
    lock.unlock();
    return real_clCreateSubBuffer(buffer, flags, type, info, errcode);
  }
  cl_buffer_region region = *static_cast<const cl_buffer_region*>(info);
  if (region.origin + region.size > it->second.bytes) {
    if (errcode) *errcode = CL_INVALID_VALUE;
    return nullptr;
  }
  region.origin += it->second.guard;
  return real_clCreateSubBuffer(it->second.whole, flags, type, &region, errcode);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
  REAL(clRetainMemObject);
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    if (auto it = state().buffers.find(memobj); it != state().buffers.end()) ++it->second.references;
  }
  return real_clRetainMemObject(memobj);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
  REAL(clReleaseMemObject);
  State& s = state();
  std::unique_lock<std::mutex> lock(s.mutex);
  auto it = s.buffers.find(memobj);
  if (it == s.buffers.end() || --it->second.references > 0) {
    lock.unlock();
    return real_clReleaseMemObject(memobj);
  }
  // The program's last reference: read the guards before the allocation goes.
  const Guarded g = it->second;
  s.buffers.erase(it);
  check_guards(g);
  const cl_int status = real_clReleaseMemObject(memobj);
  real_clReleaseMemObject(g.whole);
  return status;
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                               cl_command_queue_properties properties,
                                                               cl_int* errcode) {
  REAL(clCreateCommandQueue);
  cl_command_queue q = real_clCreateCommandQueue(context, device, properties, errcode);
  std::lock_guard<std::mutex> lock(state().mutex);
  if (q) state().program_queues[q] = 1;
  return q;
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                                             const cl_queue_properties* properties,
                                                                             cl_int* errcode) {
  REAL(clCreateCommandQueueWithProperties);
  cl_command_queue q = real_clCreateCommandQueueWithProperties(context, device, properties, errcode);
  std::lock_guard<std::mutex> lock(state().mutex);
  if (q) state().program_queues[q] = 1;
  return q;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue queue) {
  REAL(clRetainCommandQueue);
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    if (auto it = state().program_queues.find(queue); it != state().program_queues.end()) ++it->second;
  }
  return real_clRetainCommandQueue(queue);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue queue) {
  REAL(clReleaseCommandQueue);
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    auto& queues = state().program_queues;
    if (auto it = queues.find(queue); it != queues.end() && --it->second == 0) queues.erase(it);
  }
  return real_clReleaseCommandQueue(queue);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint dims,
                                                       const size_t* offset, const size_t* global, const size_t* local,
                                                       cl_uint waits, const cl_event* wait_list, cl_event* event) {
  REAL(clEnqueueNDRangeKernel);
  REAL(clGetKernelInfo);
  cl_program program = nullptr;
  std::size_t size = 0;
  real_clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof program, &program, nullptr);
  real_clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &size);
  std::string name(size, '\0');
  real_clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, size, name.data(), nullptr);
  name.erase(std::find(name.begin(), name.end(), '\0'), name.end());
  const std::string launch = program_file(program) + ":" + name;
  static const bool hooked = launches_only() && std::atexit(exit_begins) == 0;
  (void)hooked;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    auto& launches = state().launches;
    if (std::find(launches.begin(), launches.end(), launch) == launches.end()) {
      launches.push_back(launch);
      // In launches mode each is said at once: a run that Oclgrind aborts still tells what ran.
      if (launches_only()) std::fprintf(stderr, "  guarded launch: %s\n", launch.c_str());
    }
  }
  return real_clEnqueueNDRangeKernel(queue, kernel, dims, offset, global, local, waits, wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  REAL(clReleaseProgram);
  return exiting ? CL_SUCCESS : real_clReleaseProgram(program);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context context) {
  REAL(clReleaseContext);
  return exiting ? CL_SUCCESS : real_clReleaseContext(context);
}

}  // extern "C"
