// Exercise 12's cases: the running-sum column pass on gray levels, exact, against the CPU
// reference: every radius from 0 to 64; images whose widths no work-group divides, one pixel,
// prime sizes, one row, one column and a column taller than a walk drifts in floats; windows
// wider than the image (every load clamped); guard bands around every buffer.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "checker.hpp"
#include "course.hpp"
#include "never_written.hpp"

namespace {

constexpr int kGroup = 16;  // work-items a group, along the row

// How a walk down the columns may go wrong: the solution's walk is the default.
struct Walk {
  int first = -1;        // the first window's rows start at first - R: -1 is row -1's window
  bool subtract = true;  // the pixel leaving the window is subtracted
  bool clamp = true;     // a step's rows outside the image read the nearest edge row (else 0)
  bool nearest = true;   // the mean rounded to the nearest level (else down)
  int extra = 0;         // rows the first window holds past its 2R + 1
  int enter = 0;         // the row entering at step y is y + R + enter
  int leave = 0;         // the row leaving at step y is y - R - 1 + leave
  int divisor = 1;       // the mean divides by 2R + divisor
  bool whole = true;     // the mean is a whole level (else the float quotient, unrounded)
  bool stride = true;    // a step's rows are `width` floats apart (else 1: column[y], not column[y * width])
  // The mean's parentheses: 0 as written, (sum + R) / (2R + 1); 1 the divisor's left out,
  // (sum + R) / 2 * R + 1; 2 the dividend's left out, sum + R / (2R + 1) (integers throughout).
  int precedence = 0;
  bool float_rounded = false;  // the float quotient of sum + R: the cast before the division, (float)(sum + R) / n
  bool step_negated = false;   // each step subtracts entering - leaving instead of adding it
  bool enter_max = false;      // the entering row bounded with max(y + R, height - 1): past the image it reads anything
};

// The box filter's column pass on `levels` as the exercise's kernel computes it, with `walk`'s
// mistake made: each column walked from row 0 with the window's integer sum. A step that reads
// outside the picture (a stride of 1 past its end) gives NaN, any value; a divisor of 0 no output.
std::vector<float> walk_columns(const course::GrayImage& levels, int radius, const Walk& walk) {
  const int w = levels.width, h = levels.height, n = 2 * radius + walk.divisor;
  if (n <= 0) return {};
  const double any = std::nan("");
  const auto at = [&](int y, int x, bool clamped) -> double {
    if ((y < 0 || y >= h) && !clamped) return 0;
    return static_cast<double>(levels.pixels[static_cast<std::size_t>(std::clamp(y, 0, h - 1)) * w + x]);
  };
  // A step's pixel: row y of column x, or with a stride of 1 the y-th float after the column's top.
  const auto step_at = [&](int y, int x) -> double {
    if (walk.stride) return at(y, x, walk.clamp);
    const long i = x + static_cast<long>(std::clamp(y, 0, h - 1));
    return i < static_cast<long>(levels.pixels.size()) ? static_cast<double>(levels.pixels[static_cast<std::size_t>(i)])
                                                       : any;
  };
  std::vector<float> out(levels.pixels.size());
  for (int x = 0; x < w; ++x) {
    double sum = 0;
    for (int i = walk.first - radius; i < walk.first + radius + 1 + walk.extra; ++i) sum += at(i, x, true);
    for (int y = 0; y < h; ++y) {
      const int entering = walk.enter_max ? std::max(y + radius + walk.enter, h - 1) : y + radius + walk.enter;
      const double step = (walk.enter_max && entering > h - 1 ? any : step_at(entering, x)) -
                          (walk.subtract ? step_at(y - radius - 1 + walk.leave, x) : 0);
      sum += walk.step_negated ? -step : step;
      const double rounding = walk.nearest ? radius : 0;
      double mean = walk.whole ? std::trunc((sum + rounding) / n) : (sum + (walk.float_rounded ? rounding : 0)) / n;
      if (walk.precedence == 1) mean = std::trunc((sum + rounding) / 2) * radius + 1;
      if (walk.precedence == 2) mean = sum + std::trunc(rounding / n);
      out[static_cast<std::size_t>(y) * w + x] = std::isnan(sum) ? float(any) : static_cast<float>(mean);
    }
  }
  return out;
}

std::vector<course::Mistake> column_mistakes(const course::GrayImage& levels, int radius) {
  const auto with = [&levels, radius](Walk walk) {
    return [&levels, radius, walk] { return walk_columns(levels, radius, walk); };
  };
  // The right walk with one field changed by `change`.
  const auto changed = [with](void (*change)(Walk&)) {
    Walk walk;
    change(walk);
    return with(walk);
  };
  return {
      {"leaving pixel kept",
       "The pixel leaving the window is never subtracted: the sum keeps growing down the column. Each step adds row "
       "y + R and subtracts row y - R - 1.",
       with(Walk{-1, false, true, true})},
      {"first window one row late",
       "The walk starts from row 0's window, rows -R to R, not row -1's: row 0's step then adds row R and takes off "
       "row -R - 1 once more, so every sum down the column is off by the same amount. Start with the window of row "
       "-1, rows -R - 1 to R - 1.",
       with(Walk{0, true, true, true})},
      {"edges not clamped",
       "Rows outside the image count as 0 in the steps: clamp them to the image instead, min(y + R, height - 1) and "
       "max(y - R - 1, 0), so the edge rows repeat as in every filter of the course.",
       with(Walk{-1, true, false, true})},
      {"rounded down", "The mean is rounded down: add R before dividing by 2R + 1 to round to the nearest level.",
       with(Walk{-1, true, true, false})},
      {"first window a row too long",
       "The first window holds one row too many: rows -R - 1 to R - 1 are 2R + 1 rows (i < R, not i <= R), so "
       "every sum carries one pixel too many.",
       with(Walk{-1, true, true, true, 1})},
      {"first window a row short",
       "The first window holds one row too few: it starts at row -R, where row -1's window starts at row -R - 1 (i "
       "from -R - 1 while i < R), so every sum down the column lacks one pixel.",
       with(Walk{0, true, true, true, -1})},
      {"first window a row short at its end",
       "The first window holds one row too few: it stops at row R - 2, where row -1's window runs to row R - 1 (i "
       "from -R - 1 while i < R), so every sum down the column lacks one pixel.",
       with(Walk{-1, true, true, true, -1})},
      {"leaving row one late",
       "The pixel leaving the window is one row late: row y's window is rows y - R to y + R, so the row that "
       "leaves at step y is y - R - 1, not y - R.",
       with(Walk{-1, true, true, true, 0, 0, 1})},
      {"entering row one early",
       "The pixel entering the window is one row early: row y's window ends at row y + R, so the row that enters "
       "at step y is y + R, not y + R + 1.",
       with(Walk{-1, true, true, true, 0, 1})},
      {"divided by 2R", "The sum is divided by 2R, not by the 2R + 1 pixels of the window.",
       with(Walk{-1, true, true, true, 0, 0, 0, 0})},
      {"not a whole level",
       "The mean is not a whole level: a float division keeps the fraction; (sum + R) / (2R + 1) in integers "
       "rounds to the nearest level.",
       with(Walk{-1, true, true, true, 0, 0, 0, 1, false})},
      {"rows one float apart",
       "A step reads its rows one float apart: pixel y of the column lies y * width floats after its top, "
       "column[y * width], not column[y].",
       with(Walk{-1, true, true, true, 0, 0, 0, 1, true, false}), true},
      {"entering row bounded with max",
       "The entering row is bounded with max where min belongs: max(y + R, height - 1) is never above the last "
       "row, so every step adds the last row (and near the bottom reads past the picture); min keeps it inside.",
       changed([](Walk& w) { w.enter_max = true; }), true},
      {"step negated",
       "Each step takes its change off the sum: the pixel entering the window must be added and the one leaving "
       "subtracted, sum += entering - leaving.",
       changed([](Walk& w) { w.step_negated = true; })},
      {"divided in floats",
       "The mean is divided in floats: the cast comes before the division, so (sum + R) / (2R + 1) keeps its "
       "fraction, and the + R that rounds an integer division to the nearest level adds R / (2R + 1). Divide in "
       "integers, then cast.",
       changed([](Walk& w) { w.whole = false, w.float_rounded = true; })},
      {"divisor without parentheses",
       "Every output equals the mean with the divisor's parentheses left out: (sum + R) / 2 * R + 1 divides by 2, "
       "then multiplies by R and adds 1; the whole of 2 * R + 1 is the divisor.",
       with(Walk{-1, true, true, true, 0, 0, 0, 1, true, true, 1})},
      {"dividend without parentheses",
       "Every output equals the window's sum, as if the mean were sum + R / (2 * R + 1): without parentheses "
       "round sum + R only R is divided, which gives 0 in integers; the whole of sum + R is the dividend.",
       with(Walk{-1, true, true, true, 0, 0, 0, 1, true, true, 2})},
  };
}

using Size = course::CaseSize;

// One case: the column pass of radius `radius` on a random picture of whole levels.
void run_levels_case(course::ExerciseCheck& check, const cl::Program& program, int radius, Size size,
                     std::uint32_t seed) {
  const course::DeviceContext& dc = check.device();
  const std::string name = "box r=" + std::to_string(radius) + ", " + std::to_string(size.width) + "x" +
                           std::to_string(size.height) + " image of levels, " + std::to_string(kGroup) +
                           "x1 work-groups";
  check.run_case(name, [&] {
    course::GrayImage levels = course::random_gray(size.width, size.height, seed);
    for (float& v : levels.pixels) v = std::round(std::clamp(v, 0.0f, 255.0f));
    cl::Kernel kernel(program, "running_columns_levels");
    course::GuardedBuffer input(dc, levels.pixels.size()), output(dc, levels.pixels.size());
    input.write(levels.pixels);
    course::set_args(kernel, input.buffer(), output.buffer(), size.width, size.height, radius);
    const auto run = [&] {
      output.write(std::vector<float>(levels.pixels.size(), course::never_written()));
      dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(course::round_up(size.width, kGroup)),
                                    cl::NDRange(kGroup));
      dc.queue.finish();
      return output.read();
    };
    const std::vector<float> got = run();
    if (const std::string damage = output.damaged_guards(); !damage.empty()) return check.fail(name, damage);
    std::vector<course::Mistake> mistakes = course::never_written_mistakes(
        got, size.width, "Work-item x walks every row of column x, from 0 to height - 1, and stores each.");
    for (course::Mistake& m : column_mistakes(levels, radius)) mistakes.push_back(std::move(m));
    course::CaseDetails details(std::move(mistakes));
    details.rerun = run;
    details.work_groups = course::round_up(size.width, kGroup) / kGroup;
    // Integer sums are exact: the means are whole levels, tolerance 0.
    check.expect_image(name, got, walk_columns(levels, radius, Walk{}), size.width, size.height, 0.0, 1, details);
  });
}

const Size kSizes[] = {{131, 63}, {1, 1}, {37, 29}, {1, 97}, {61, 1}, {17, 101}, {3, 2053}, {97, 61}};

void check_running_columns(course::ExerciseCheck& check) {
  const cl::Program program = check.build("running_columns_levels.cl");
  // Every radius from 0 to 64 once, on the sizes in turn: windows wider than the image too.
  for (int radius = 0; radius <= 64; ++radius)
    run_levels_case(check, program, radius, kSizes[radius % 8], 120 + radius);
}

}  // namespace

namespace exercise12 {

// A few of the cases, for the tests: a small radius, one wider than the image, one pixel.
void check_a_few_cases(course::ExerciseCheck& check) {
  const cl::Program program = check.build("running_columns_levels.cl");
  run_levels_case(check, program, 3, {37, 29}, 7);
  run_levels_case(check, program, 40, {17, 23}, 8);
  run_levels_case(check, program, 2, {1, 1}, 9);
}

}  // namespace exercise12

COURSE_EXERCISE("12", "12_narrow_pixels_and_cheaper_algorithms",
                "the running-sum column pass on gray levels, exact, for every radius from 0 to 64",
                check_running_columns);
