// Exercise 07's cases. Part a: the re-dealt kernel must give the same image as the divergent one
// (random data, element counts no group divides, several groups, WARP and WAYS values) and every
// SIMD group of WARP work-items must run a single class. Part b: the work-group choice, tried on
// the limits of simulated devices (work_group_check.cpp).
#include <numeric>
#include <set>
#include <sstream>

#include "checker.hpp"
#include "course.hpp"
#include "lesson07.hpp"
#include "work_group_check.hpp"

namespace {

void check_uniform_branch(course::ExerciseCheck& check, int warp, int ways, std::uint32_t& seed) {
  const course::DeviceContext& dc = check.device();
  const int steps = 4;  // enough to tell the classes apart; the check is about who runs what
  cl::Program program = check.build("warp_uniform_branch.cl", "-D COURSE_POISON_LOCAL -D WARP=" + std::to_string(warp) +
                                                                  " -D WAYS=" + std::to_string(ways) +
                                                                  " -D STEPS=" + std::to_string(steps));
  cl::Kernel kernel(program, "branch_between_warps");
  const std::size_t kernel_max = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
  const int counts[] = {1, 37, 3233, 768, 8633};
  int group_multiple = 1;
  for (const int count : counts) {
    // Work-groups of 1, 2 or 4 SIMD groups in turn, as far as the kernel allows.
    const std::size_t local =
        std::max<std::size_t>(warp, std::min<std::size_t>(kernel_max / warp, group_multiple) * warp);
    group_multiple = group_multiple == 4 ? 1 : group_multiple * 2;
    const std::string name = "WARP " + std::to_string(warp) + ", " + std::to_string(ways) + " classes, " + "count " +
                             std::to_string(count) + ", groups of " + std::to_string(local);
    check.run_case(name, [&] {
      if (local > kernel_max)
        return check.pass(name, "skipped: the device allows " + std::to_string(kernel_max) + " work-items");
      const std::size_t global = course::round_up(count, std::lcm(local, std::size_t(warp) * ways));
      const course::GrayImage image = course::random_gray(count, 1, seed++);
      cl::Buffer input(dc.context, image.pixels.begin(), image.pixels.end(), true);
      course::GuardedBuffer output(dc, count), taken(dc, global);
      kernel.setArg(0, input);
      kernel.setArg(1, output.buffer());
      kernel.setArg(2, count);
      kernel.setArg(3, taken.buffer());
      dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global), cl::NDRange(local));
      dc.queue.finish();
      if (const std::string damage = output.damaged_guards(); !damage.empty()) return check.fail(name, damage);
      if (const std::string damage = taken.damaged_guards(); !damage.empty()) return check.fail(name, damage);
      // Same image as the divergent kernel: element i through the curve of class i % WAYS.
      const std::vector<float> expected = lesson07::class_curves_reference(image.pixels, ways, steps);
      if (!check.expect_image(name + ": output", output.read(), expected, count, 1, 1e-3)) return;
      // One class per SIMD group: WARP consecutive work-items, inside one work-group.
      const std::vector<float> classes = taken.read();
      for (std::size_t first = 0; first < global; first += warp) {
        std::set<float> seen(classes.begin() + first, classes.begin() + first + warp);
        if (seen.size() > 1) {
          std::ostringstream why;
          why << "work-items " << first << ".." << first + warp - 1 << " (one SIMD group) ran " << seen.size()
              << " different classes: the branch still splits inside the group";
          return check.fail(name + ": one class per SIMD group", why.str());
        }
      }
      check.pass(name + ": one class per SIMD group");
    });
  }
}

void check_warps_exercise(course::ExerciseCheck& check) {
  std::uint32_t seed = 70;
  // Part a, for the SIMD widths of CPUs and GPUs, and class counts from 1 to a whole warp.
  const int configurations[][2] = {{32, 1}, {32, 2}, {32, 3}, {32, 4}, {32, 16}, {32, 32}, {8, 4}, {8, 5}, {64, 8}};
  for (const auto& [warp, ways] : configurations) check_uniform_branch(check, warp, ways, seed);
  // Part b: the C++ header, compiled into this check program from the folder it checks.
  lesson07::work_group_cases(check);
}

}  // namespace

COURSE_EXERCISE("07", "07_warps_and_occupancy",
                "a branch that splits only between warps, and a legal work-group size chosen at run time",
                check_warps_exercise);
