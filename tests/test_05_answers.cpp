// Exercise 05's tests that spell out its answer: they run its check on copies of its solution
// with one line broken. A handout leaves this file out whole; test_05_unrolling_and_work_per_item.cpp
// holds the tests that do not.

#include <doctest/doctest.h>

#include <string>

#include "checker.hpp"
#include "test_support.hpp"

namespace exercise05 {
// A few of exercise 05's cases (lessons/05_unrolling_and_work_per_item/check.cpp).
void check_a_few_cases(course::ExerciseCheck& check);
}  // namespace exercise05

namespace {

// The cause exercise 05's check names on a few cases of its solution with `from` made `to`.
std::string cause05(const std::string& from, const std::string& to) {
  return course_tests::first_cause_of_mutant("05", "row_pass_spread_steps.cl", from, to, exercise05::check_a_few_cases);
}

}  // namespace

TEST_CASE("the exercise 05 check catches a span placed by the group's width, a short line and a window off by x0") {
  if (course_tests::skipped_without_solutions()) return;
  CHECK(course_tests::failures_of_mutant("05", "row_pass_spread_steps.cl", "get_group_id(0) * SPAN;",
                                         "get_group_id(0) * ROW_W;") > 0);
  CHECK(course_tests::failures_of_mutant("05", "row_pass_spread_steps.cl", "i < LINE; i += ROW_W",
                                         "i < SPAN + RADIUS; i += ROW_W") > 0);
  CHECK(course_tests::failures_of_mutant("05", "row_pass_spread_steps.cl", "clamp(x0 - RADIUS + i, 0, width - 1)",
                                         "min(x0 - RADIUS + i, width - 1)") > 0);
  CHECK(course_tests::failures_of_mutant("05", "row_pass_spread_steps.cl", "line[x - x0 + k]", "line[x + k]") > 0);
  CHECK(course_tests::failures_of_mutant("05", "row_pass_spread_steps.cl", "if (x < width) output", "output") > 0);
}

TEST_CASE(
    "the exercise 05 check names outputs never stored, one tap short, a line short of its halo, uncoalesced accesses") {
  if (course_tests::skipped_without_solutions()) return;
  CHECK(cause05("", "") == "");  // the solution passes these cases
  CHECK(cause05("get_group_id(0) * SPAN;", "get_group_id(0) * ROW_W;").find("was never written") != std::string::npos);
  CHECK(
      cause05("for (int k = 0; k <= 2 * RADIUS; ++k)", "for (int k = 0; k < 2 * RADIUS; ++k)").find("one tap short") !=
      std::string::npos);
  CHECK(cause05("i < LINE; i += ROW_W", "i < SPAN + RADIUS; i += ROW_W").find("The line is RADIUS values short") !=
        std::string::npos);
  CHECK(cause05("clamp(x0 - RADIUS + i, 0, width - 1)", "clamp(x0 + i, 0, width - 1)")
            .find("leaves out the halo before the span") != std::string::npos);
  // Right outputs from the layout the exercise exists to avoid: each work-item's outputs side by
  // side, or each work-item copying its own stretch of the line.
  CHECK(cause05("const int x = x0 + lx + s * ROW_W;", "const int x = x0 + lx * STEPS + s;")
            .find("outputs lie side by side") != std::string::npos);
  CHECK(cause05("for (int i = lx; i < LINE; i += ROW_W)",
                "for (int i = lx * ((LINE + ROW_W - 1) / ROW_W); i < min(LINE, (lx + 1) * ((LINE + ROW_W - 1) / "
                "ROW_W)); ++i)")
            .find("The loads are not coalesced") != std::string::npos);
}
