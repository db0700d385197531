// Exercise 03's cases: the tiled convolution on random images whose sizes no work-group
// divides, radii 0 to 16 with Gaussian, box and random weights, square, flat, tall and
// one-wide work-groups, local memory filled with NaN before the kernel copies its tile (so a
// missing barrier or a missing part of the halo shows as NaN), and guarded output buffers.
#include "checker.hpp"
#include "conv_check.hpp"
#include "course.hpp"

namespace {

std::size_t tile_floats(std::size_t local_x, std::size_t local_y, int radius) {
  return (local_x + 2 * radius) * (local_y + 2 * radius);
}

void check_tiled_convolution(course::ExerciseCheck& check) {
  cl::Program program = check.build("tiled_convolution.cl", "-D COURSE_POISON_LOCAL");
  cl::Kernel kernel(program, "tiled_convolution");
  unsigned seed = 300;
  for (const course::ConvCheckCase& c : course::conv_check_cases(16))
    course::conv_check_run(check, kernel, c, seed++, tile_floats);
}

}  // namespace

COURSE_EXERCISE("03", "03_local_memory_tiling",
                "the tiled convolution: loading the tile with its halo, and the barrier", check_tiled_convolution);
