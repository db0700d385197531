// Exercise 08's tests that spell out its answer: they run its check on copies of its solution
// with one line broken. A handout leaves this file out whole; test_08_image_objects.cpp
// holds the tests that do not.

#include <doctest/doctest.h>

#include <string>

#include "checker.hpp"
#include "test_support.hpp"

TEST_CASE("the exercise 08 check catches a missing barrier, a wrong origin, a short tile and a wrong stride") {
  if (course_tests::skipped_without_solutions()) return;
  if (course_tests::failed_cases("08", course::project_root() / "solutions/08_image_objects_and_samplers") < 0) return;
  CHECK(course_tests::failures_of_mutant("08", "pyramid_down.cl", "  barrier(CLK_LOCAL_MEM_FENCE);", "") > 0);
  CHECK(course_tests::failures_of_mutant("08", "pyramid_down.cl", "2 * (int)get_group_id(0) * GROUP_W",
                                         "(int)get_group_id(0) * GROUP_W") > 0);
  CHECK(course_tests::failures_of_mutant("08", "pyramid_down.cl", "(2 * GROUP_H - 1 + 2 * RADIUS)",
                                         "(2 * GROUP_H - 2 + 2 * RADIUS)") > 0);
  CHECK(course_tests::failures_of_mutant("08", "pyramid_down.cl", "(2 * ly + j) * TILE_W + 2 * lx",
                                         "(ly + j) * TILE_W + lx") > 0);
}
