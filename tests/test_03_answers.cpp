// Exercise 03's tests that spell out its answer: they run its check on copies of its solution
// with one line broken. A handout leaves this file out whole; test_03_local_memory_tiling.cpp
// holds the tests that do not.

#include <doctest/doctest.h>

#include <string>

#include "checker.hpp"
#include "test_support.hpp"

TEST_CASE("the exercise 03 check catches a missing barrier, a short halo, lesson 03's origin and a shared bound") {
  if (course_tests::skipped_without_solutions()) return;
  CHECK(course_tests::failures_of_mutant("03", "tiled_two_rows.cl", "  barrier(CLK_LOCAL_MEM_FENCE);\n", "") > 0);
  CHECK(course_tests::failures_of_mutant("03", "tiled_two_rows.cl", "tile_height = 2 * group_height + 2 * radius;",
                                         "tile_height = 2 * group_height + radius;") > 0);
  CHECK(course_tests::failures_of_mutant("03", "tiled_two_rows.cl", "get_group_id(1) * 2 * group_height - radius;",
                                         "get_group_id(1) * group_height - radius;") > 0);
  CHECK(course_tests::failures_of_mutant("03", "tiled_two_rows.cl", "lx, ly + group_height);", "lx, ly);") > 0);
  CHECK(course_tests::failures_of_mutant("03", "tiled_two_rows.cl", "  if (bottom < height)", "  if (top < height)") >
        0);
}
