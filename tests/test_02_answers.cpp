// Exercise 02's tests that spell out its answer: they run its check on copies of its solution
// with one line broken. A handout leaves this file out whole; test_02_naive_convolution.cpp
// holds the tests that do not.

#include <doctest/doctest.h>

#include <string>

#include "checker.hpp"
#include "test_support.hpp"

TEST_CASE("the exercise 02 check catches swapped radii, a wrong weight row length and a missing clamp") {
  if (course_tests::skipped_without_solutions()) return;
  CHECK(course_tests::failures_of_mutant("02", "rectangular_convolution.cl",
                                         "for (int j = -radius_y; j <= radius_y; ++j)",
                                         "for (int j = -radius_x; j <= radius_x; ++j)") > 0);
  CHECK(course_tests::failures_of_mutant("02", "rectangular_convolution.cl", "const int taps_x = 2 * radius_x + 1;",
                                         "const int taps_x = 2 * radius_y + 1;") > 0);
  CHECK(course_tests::failures_of_mutant("02", "rectangular_convolution.cl", "weights + radius_y * taps_x + radius_x;",
                                         "weights + radius_x * taps_x + radius_y;") > 0);
  CHECK(course_tests::failures_of_mutant("02", "rectangular_convolution.cl", "centre[j * taps_x + i]",
                                         "centre[i * taps_x + j]") > 0);
  CHECK(course_tests::failures_of_mutant("02", "rectangular_convolution.cl", "clamp(x + i, 0, width - 1)",
                                         "clamp(x + i, 0, width)") > 0);
}
