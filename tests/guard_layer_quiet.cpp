// Run with the guard layer preloaded (tests/with_guard_layer.sh): a program that asks the layer
// to let it report (as the exercise checks do) writes one float past a buffer, releases it, and
// must then read the damage from the layer itself; the layer prints nothing and leaves the exit
// status to the program. Prints the layer's sentence and exits 0 when all of that holds (a layer
// that is not quiet would end the process with status 1 at exit).
#include <dlfcn.h>
#include <unistd.h>

#include <CL/opencl.hpp>
#include <cstdio>
#include <string>

#include "course.hpp"

int main() {
  using Quiet = void (*)();
  using Damage = const char* (*)();
  const auto quiet = reinterpret_cast<Quiet>(dlsym(RTLD_DEFAULT, "course_guard_layer_reports_to_me"));
  const auto damage = reinterpret_cast<Damage>(dlsym(RTLD_DEFAULT, "course_guard_layer_damage"));
  if (!quiet || !damage) {
    std::printf("the guard layer is not preloaded, or does not export its two functions\n");
    return 2;
  }
  quiet();
  const course::DeviceContext dc = course::open_device("");
  // Whatever the layer writes to stderr while the buffer is released goes to a file, read below.
  std::FILE* caught = std::tmpfile();
  std::fflush(stderr);
  const int saved = dup(2);
  dup2(fileno(caught), 2);
  {
    cl::Program program(dc.context, "__kernel void past(__global float* b, int n) { b[n] = 1.0f; }");
    program.build();
    cl::Buffer buffer(dc.context, CL_MEM_READ_WRITE, 16 * sizeof(float));
    cl::Kernel past(program, "past");
    past.setArg(0, buffer);
    past.setArg(1, 16);
    dc.queue.enqueueNDRangeKernel(past, cl::NullRange, cl::NDRange(1));
    dc.queue.finish();
  }  // released: the layer reads its guards back
  std::fflush(stderr);
  dup2(saved, 2);
  std::string printed(4096, '\0');
  std::rewind(caught);
  printed.resize(std::fread(printed.data(), 1, printed.size(), caught));
  if (!printed.empty()) {
    std::printf("the layer printed, though asked to stay quiet: %s\n", printed.c_str());
    return 1;
  }
  const std::string said = damage();
  std::printf("the layer's damage: %s\n", said.empty() ? "(none)" : said.c_str());
  return said.find("past its end") != std::string::npos ? 0 : 1;
}
