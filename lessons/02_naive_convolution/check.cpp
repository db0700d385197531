// Exercise 02's cases: the naive convolution on random images whose sizes no work-group
// divides, radii 0 to 8 with Gaussian and box weights, several work-group shapes, and guard
// bands around the buffers to catch reads and writes past the image.
#include "checker.hpp"
#include "conv_check.hpp"
#include "course.hpp"

namespace {

void check_naive_convolution(course::ExerciseCheck& check) {
  cl::Program program = check.build("naive_convolution.cl");
  cl::Kernel kernel(program, "naive_convolution");
  unsigned seed = 200;
  for (const course::ConvCheckCase& c : course::conv_check_cases(8)) course::conv_check_run(check, kernel, c, seed++);
}

}  // namespace

COURSE_EXERCISE("02", "02_naive_convolution", "the naive convolution: pixel indexing, bounds check, clamped window sum",
                check_naive_convolution);
