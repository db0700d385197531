// Exercise 07, part b: the work-group choice tried on the limits of simulated devices.
// cmake/Lesson07.cmake compiles this file twice, with exercises/ or solutions/ first on the
// include path and LESSON07_CASES naming the function, so the checker holds both variants.
#include "work_group_cases.hpp"

#include <sstream>
#include <string>
#include <vector>

#include "checker.hpp"

// The two variants' headers both define the inline lesson07::choose_work_group_size, with
// different bodies, and both end up in one program (course-check, course-tests, which also has
// the solution's). That breaks the one-definition rule: where the compiler does not inline
// (a Debug or sanitizer build), the linker keeps one of the definitions and every variant runs
// it. So each variant's copy of the header gets a namespace of its own.
#define LESSON07_PASTE_(a, b) a##b
#define LESSON07_PASTE(a, b) LESSON07_PASTE_(a, b)
#define LESSON07_CHOICE LESSON07_PASTE(choice_for_, LESSON07_CASES)
#define lesson07 LESSON07_CHOICE
#include "work_group_choice.hpp"
#undef lesson07

namespace lesson07 {
namespace {

using LESSON07_CHOICE::choose_work_group_size;
using LESSON07_CHOICE::LocalSize;
using LESSON07_CHOICE::WorkGroupLimits;

struct SimulatedDevice {
  const char* name;
  WorkGroupLimits limits;
};

// What is wrong with `chosen` for an image on a device, or "" when nothing is.
std::string judge(const WorkGroupLimits& l, std::size_t width, std::size_t height, const LocalSize& chosen) {
  std::ostringstream why;
  const std::size_t x = chosen.x, y = chosen.y, items = x * y;
  if (x == 0 || y == 0)
    why << "a side of 0 work-items is never legal";
  else if (x > l.max_item_size_x || y > l.max_item_size_y)
    why << "over the item size limits " << l.max_item_size_x << " x " << l.max_item_size_y;
  else if (items > l.device_max_work_group_size)
    why << items << " work-items, over the device's limit of " << l.device_max_work_group_size;
  else if (items > l.kernel_work_group_size)
    why << items << " work-items, over the kernel's limit of " << l.kernel_work_group_size;
  else if (x >= 2 * width && x > 1)
    why << x << " wide for a " << width << "-wide image: most of the group is outside";
  else if (y >= 2 * height && y > 1)
    why << y << " tall for a " << height << "-tall image: most of the group is outside";
  else if (width >= 64 && height >= 64) {
    // A large image deserves a group of a few SIMD groups, not a handful of work-items.
    const std::size_t reachable = std::min({l.device_max_work_group_size, l.kernel_work_group_size,
                                            l.max_item_size_x * l.max_item_size_y, std::size_t(64)});
    const std::size_t multiple = std::min(l.preferred_multiple, reachable);
    if (items < reachable)
      why << "only " << items << " work-items for a large image; " << reachable << " are allowed";
    else if (multiple > 0 && items % multiple != 0)
      why << items << " work-items is not a multiple of the preferred " << l.preferred_multiple
          << ": part of a SIMD group idles";
  }
  return why.str();
}

}  // namespace

void LESSON07_CASES(course::ExerciseCheck& check) {
  const SimulatedDevice devices[] = {
      {"a GPU with 1024 work-items per group, warps of 32", {1024, 1024, 1024, 1024, 32}},
      {"the same GPU, a kernel limited to 128 work-items by its registers", {1024, 1024, 1024, 128, 32}},
      {"a kernel limited to 96 work-items", {1024, 1024, 1024, 96, 32}},
      {"a GPU with 256 work-items per group, wavefronts of 64", {256, 256, 256, 256, 64}},
      {"a CPU (PoCL) with 4096 work-items per group", {4096, 4096, 4096, 4096, 8}},
      {"a small GPU with 64 work-items per group", {64, 64, 64, 64, 16}},
      {"a device whose items may be at most 128 x 4", {1024, 128, 4, 1024, 32}},
      {"a kernel that allows a single work-item", {1024, 1024, 1024, 1, 1}},
  };
  const std::size_t images[][2] = {{1, 1},      {1, 97},    {97, 1},      {3, 5},   {31, 17},
                                   {127, 1031}, {640, 480}, {1920, 1080}, {4093, 7}};
  for (const SimulatedDevice& device : devices) {
    const std::string name = std::string("work-group choice on ") + device.name;
    check.run_case(name, [&] {
      std::string problems;
      int bad = 0;
      for (const auto& image : images) {
        const LocalSize chosen = choose_work_group_size(device.limits, image[0], image[1]);
        const std::string why = judge(device.limits, image[0], image[1], chosen);
        if (!why.empty() && bad++ < 3)
          problems += "\n    " + std::to_string(image[0]) + "x" + std::to_string(image[1]) + " image: chose " +
                      std::to_string(chosen.x) + "x" + std::to_string(chosen.y) + ", " + why;
      }
      if (bad)
        return check.fail(name, std::to_string(bad) + " of " + std::to_string(std::size(images)) +
                                    " image sizes got an illegal or wasteful choice:" + problems);
      check.pass(name);
    });
  }
}

}  // namespace lesson07
