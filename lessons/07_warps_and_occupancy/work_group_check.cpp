// Exercise 07, part b: the work-group choice tried on the limits of simulated devices. Compiled
// into exercise 07's two check programs, each with its own folder's work_group_choice.hpp
// (exercises/ or solutions/) on the include path: a learner's header is compiled only when
// exercise 07 is checked.
#include "work_group_check.hpp"

#include <algorithm>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "checker.hpp"
#include "work_group_choice.hpp"

namespace lesson07 {
namespace {

struct SimulatedDevice {
  const char* name;
  WorkGroupLimits limits;
};

// The work-items the choice aims for: choose_work_group_size's default `target`.
constexpr std::size_t kTarget = 256;

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
  else if (items > kTarget)
    why << items << " work-items, over the target of " << kTarget
        << " the choice aims for: `target` limits the group as the device and the kernel do";
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

void work_group_cases(course::ExerciseCheck& check) {
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
  // Then devices nobody has, with limits drawn at random, and images of every shape.
  const std::string name = "work-group choice on 2000 random devices and image sizes";
  check.run_case(name, [&] {
    std::mt19937 rng(5);
    const auto pick = [&](std::initializer_list<std::size_t> values) {
      return *(values.begin() + std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(rng));
    };
    for (int trial = 0; trial < 2000; ++trial) {
      WorkGroupLimits l;
      l.device_max_work_group_size = pick({1, 64, 96, 256, 1024, 4096});
      l.max_item_size_x = pick({1, 4, 128, 1024, 4096});
      l.max_item_size_y = pick({1, 4, 64, 1024, 4096});
      l.kernel_work_group_size = std::min(l.device_max_work_group_size, pick({1, 96, 128, 640, 1024, 4096}));
      l.preferred_multiple = pick({1, 8, 32, 64});
      const std::size_t width = std::uniform_int_distribution<std::size_t>(1, 5000)(rng);
      const std::size_t height = std::uniform_int_distribution<std::size_t>(1, 5000)(rng);
      const LocalSize c = choose_work_group_size(l, width, height);
      std::string why;
      if (c.x < 1 || c.y < 1 || c.x > l.max_item_size_x || c.y > l.max_item_size_y ||
          c.x * c.y > l.kernel_work_group_size || c.x * c.y > l.device_max_work_group_size)
        why = "illegal";
      else if ((c.x >= 2 * width && c.x > 1) || (c.y >= 2 * height && c.y > 1))
        why = "more than twice the image's side";
      else if (c.x * c.y > kTarget)
        why = "over the target of " + std::to_string(kTarget) + " work-items";
      if (!why.empty())
        return check.fail(name, std::to_string(width) + "x" + std::to_string(height) + " image, kernel limit " +
                                    std::to_string(l.kernel_work_group_size) + ", items at most " +
                                    std::to_string(l.max_item_size_x) + " x " + std::to_string(l.max_item_size_y) +
                                    ": chose " + std::to_string(c.x) + "x" + std::to_string(c.y) + ", " + why);
    }
    check.pass(name);
  });
}

}  // namespace lesson07
