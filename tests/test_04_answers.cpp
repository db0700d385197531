// Exercise 04's tests that spell out its answer: they run its check on copies of its solution
// with one line broken. A handout leaves this file out whole; test_04_separable_coalescing.cpp
// holds the tests that do not.

#include <doctest/doctest.h>

#include <string>

#include "checker.hpp"
#include "test_support.hpp"

namespace exercise04 {
// A few of exercise 04's cases (lessons/04_separable_coalescing/check.cpp).
void check_a_few_cases(course::ExerciseCheck& check);
}  // namespace exercise04

namespace {

// The cause exercise 04's check names on a few cases of its solution with `from` made `to`.
std::string cause04(const std::string& from, const std::string& to) {
  return course_tests::first_cause_of_mutant("04", "column_pass_block.cl", from, to, exercise04::check_a_few_cases);
}

}  // namespace

TEST_CASE("the exercise 04 check catches the group's height as the block's, a short tile, no barrier, no bound") {
  if (course_tests::skipped_without_solutions()) return;
  CHECK(course_tests::failures_of_mutant("04", "column_pass_block.cl", "get_group_id(1) * BLOCK_H;",
                                         "get_group_id(1) * COL_H;") > 0);
  // A tile R rows short. (COL_H + 2R rows would overrun the __local array whenever COL_H > BLOCK_H:
  // on rusticl's CPU device that writes into the host's heap and aborts the test run.)
  CHECK(course_tests::failures_of_mutant("04", "column_pass_block.cl", "i < BLOCK_H + 2 * radius;",
                                         "i < BLOCK_H + radius;") > 0);
  CHECK(course_tests::failures_of_mutant("04", "column_pass_block.cl", "  barrier(CLK_LOCAL_MEM_FENCE);\n", "") > 0);
  CHECK(course_tests::failures_of_mutant("04", "column_pass_block.cl", "r < BLOCK_H && y0 + r < height;",
                                         "r < BLOCK_H;") > 0);
  CHECK(course_tests::failures_of_mutant("04", "column_pass_block.cl", "clamp(y0 - radius + i, 0, height - 1)",
                                         "max(y0 - radius + i, 0)") > 0);
}

TEST_CASE(
    "the exercise 04 check names rows never stored, a tile without its halo, one tap short, reads right of the image") {
  if (course_tests::skipped_without_solutions()) return;
  CHECK(cause04("", "") == "");  // the solution passes these cases
  CHECK(cause04("get_group_id(1) * BLOCK_H;", "get_group_id(1) * COL_H;").find("was never written") !=
        std::string::npos);
  CHECK(cause04("input[clamp(y0 - radius + i, 0, height - 1) * width + column]",
                "input[clamp(y0 + i, 0, height - 1) * width + column]")
            .find("leaves out the halo above the block") != std::string::npos);
  CHECK(
      cause04("for (int k = 0; k <= 2 * radius; ++k)", "for (int k = 0; k < 2 * radius; ++k)").find("one tap short") !=
      std::string::npos);
  // Right outputs, but work-items right of the image read the next row's start (and, on the last
  // row, past the input buffer): the trace of their reads fails it.
  CHECK(cause04("const int column = min(x, width - 1);", "const int column = x;")
            .find("right of the image, reads input[") != std::string::npos);
}
