// Exercise 12's tests that spell out its answer: they run its check on copies of its solution
// with one line broken. A handout leaves this file out whole;
// test_12_narrow_pixels_and_cheaper_algorithms.cpp holds the tests that do not.

#include <doctest/doctest.h>

#include <string>

#include "checker.hpp"
#include "test_support.hpp"

namespace exercise12 {
// A few of exercise 12's cases (lessons/12_narrow_pixels_and_cheaper_algorithms/check.cpp).
void check_a_few_cases(course::ExerciseCheck& check);
}  // namespace exercise12

namespace {
// The cause exercise 12's check names on a few cases of its solution with `from` made `to`.
std::string cause12(const std::string& from, const std::string& to) {
  return course_tests::first_cause_of_mutant("12", "running_columns_levels.cl", from, to,
                                             exercise12::check_a_few_cases);
}
}  // namespace

TEST_CASE("the exercise 12 check names a leaving pixel kept, a walk started from row 0's window, unclamped edges, a mean rounded down") {
  if (course_tests::skipped_without_solutions()) return;
  CHECK(cause12("", "") == "");  // the solution passes these cases
  CHECK(cause12("- (int)column[leaving * width];", ";").find("never subtracted") != std::string::npos);
  CHECK(cause12("for (int i = -radius - 1; i < radius; ++i)", "for (int i = -radius; i <= radius; ++i)")
            .find("starts from row 0's window") != std::string::npos);
  CHECK(cause12("(sum + radius) / (2 * radius + 1)", "sum / (2 * radius + 1)").find("rounded down") !=
        std::string::npos);
  CHECK(cause12("sum += (int)column[entering * width] - (int)column[leaving * width];",
                "if (y + radius < height) sum += (int)column[entering * width];\n"
                "    if (y - radius - 1 >= 0) sum -= (int)column[leaving * width];")
            .find("count as 0") != std::string::npos);
}
