// Exercise 06's tests that spell out its answer: they run its check on copies of its solution
// with one line broken. A handout leaves this file out whole; test_06_median.cpp
// holds the tests that do not.

#include <doctest/doctest.h>

#include <iterator>
#include <string>
#include <utility>

#include "checker.hpp"
#include "test_support.hpp"

TEST_CASE("the exercise 06 check catches each step left out, a swapped exchange, no bounds check and no clamp") {
  if (course_tests::skipped_without_solutions()) return;
  // Each step of the seven, replaced by one that keeps its operands as they are.
  const std::pair<const char*, const char*> dropped[] = {
      {"compare_exchange(&above, &below);", ""},
      {"compare_exchange(&left, &right);", ""},
      {"const float low = max(above, left);", "const float low = above;"},
      {"const float high = min(below, right);", "const float high = below;"},
      {"const float lesser = min(low, high), greater = max(low, high);", "const float lesser = low, greater = high;"},
      {"max(lesser, min(greater, centre))", "max(lesser, greater)"}};
  for (std::size_t i = 0; i < std::size(dropped); ++i) {
    CAPTURE(dropped[i].first);
    CHECK(course_tests::failures_of_mutant("06", "median_cross.cl", dropped[i].first, dropped[i].second) > 0);
  }
  CHECK(course_tests::failures_of_mutant("06", "median_cross.cl", "*low = min(a, b);", "*low = max(a, b);") > 0);
  CHECK(course_tests::failures_of_mutant("06", "median_cross.cl", "if (x >= width || y >= height) return;", "") > 0);
  CHECK(course_tests::failures_of_mutant("06", "median_cross.cl", "row + min(x + 1, width - 1)",
                                         "row + min(x + 1, width)") > 0);
}
