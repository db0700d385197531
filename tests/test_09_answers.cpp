// Exercise 09's tests that spell out its answer: they run its check on copies of its solution
// with one line broken. A handout leaves this file out whole; test_09_transforms.cpp
// holds the tests that do not.

#include <doctest/doctest.h>

#include <string>

#include "checker.hpp"
#include "test_support.hpp"

TEST_CASE(
    "the exercise 09 check catches a cast instead of floor, taps one pixel off, mirrored weights, a missing "
    "half-pixel shift and a black border") {
  if (course_tests::skipped_without_solutions()) return;
  CHECK(course_tests::failures_of_mutant("09", "bicubic_warp.cl", "floor(p)", "convert_float2(convert_int2(p))") > 0);
  CHECK(course_tests::failures_of_mutant("09", "bicubic_warp.cl", "(int)base.x - 1,", "(int)base.x,") > 0);
  // The weights of the taps at -1 and 2 (and at 0 and 1) exchanged: a picture mirrored within each pixel.
  const std::string weights = "-t3 + 2.0f * t2 - t, 3.0f * t3 - 5.0f * t2 + 2.0f, -3.0f * t3 + 4.0f * t2 + t, t3 - t2";
  const std::string mirrored = "t3 - t2, -3.0f * t3 + 4.0f * t2 + t, 3.0f * t3 - 5.0f * t2 + 2.0f, -t3 + 2.0f * t2 - t";
  CHECK(course_tests::failures_of_mutant("09", "bicubic_warp.cl", weights, mirrored) > 0);
  if (course::open_device("").device.getInfo<CL_DEVICE_IMAGE_SUPPORT>()) {
    CHECK(course_tests::failures_of_mutant("09", "nearest_warp.cl", "p + 0.5f)", "p)") > 0);
    CHECK(course_tests::failures_of_mutant("09", "nearest_warp.cl", "CLK_ADDRESS_CLAMP_TO_EDGE", "CLK_ADDRESS_CLAMP") >
          0);
  }
}
