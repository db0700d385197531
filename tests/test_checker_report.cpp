// The exercise checker's report: what a student reads after `./course check NN`.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "checker.hpp"
#include "course.hpp"
#include "diff_picture.hpp"
#include "guard_damage.hpp"

namespace fs = std::filesystem;

namespace {

const course::DeviceContext& report_device() {
  static const course::DeviceContext dc = course::open_device("");
  return dc;
}

fs::path report_scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() /
      ("course-tests-report-" + name + "-" + std::to_string(std::hash<std::string>{}(course::project_root().string())));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::vector<float> ramp(int count) {
  std::vector<float> v(count);
  for (int i = 0; i < count; ++i) v[i] = static_cast<float>(i % 251);
  return v;
}

int lines_of(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST_CASE("diff pictures are scaled up to at least 256 pixels on the short side, and at most 2048 on the long one") {
  CHECK(course::diff_picture_scale(37, 29) * 29 >= 256);
  CHECK(course::diff_picture_scale(1, 1) == 256);
  CHECK(course::diff_picture_scale(1, 23) * 23 <= 2048);
  CHECK(course::diff_picture_scale(2000, 1000) == 1);
  const fs::path dir = report_scratch("picture");
  const std::vector<float> expected = ramp(37 * 29);
  std::vector<float> got = expected;
  got[5] = NAN;
  course::save_diff_picture(dir / "d.png", got, expected, 37, 29, 0.5);
  const course::RgbaImage picture = course::load_rgba(dir / "d.png");
  CHECK(picture.height >= 256);
  CHECK(picture.width >= 3 * 256);  // got, expected and difference side by side
}

TEST_CASE("the short report shows the first failing case in full, the others one line each, within its budget") {
  const fs::path dir = report_scratch("short");
  std::ostringstream out;
  course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
  const std::vector<float> expected = ramp(64);
  std::vector<float> wrong = expected;
  for (float& v : wrong) v += 3;
  for (int k = 0; k < 100; ++k) {
    if (k % 3 == 0)
      check.expect_image("case " + std::to_string(k), wrong, expected, 8, 8, 0.1);
    else
      check.pass("case " + std::to_string(k));
  }
  check.finish();
  const std::string report = out.str();
  INFO(report);
  CHECK(lines_of(report) <= 48);
  CHECK(report.find("  [FAIL] case 0\n") == 0);
  CHECK(report.find("(0, 0) got 3 expected 0") != std::string::npos);
  CHECK(report.find("(4, 0) got") != std::string::npos);
  CHECK(report.find("(5, 0) got") == std::string::npos);  // at most five wrong pixels
  CHECK(report.find("diff picture") != std::string::npos);
  CHECK(report.find("other cases") != std::string::npos);
  CHECK(fs::exists(check.first_picture()));
}

TEST_CASE("a failing case names the first mistake whose output matches the student's, and only that one") {
  const fs::path dir = report_scratch("mistake");
  std::ostringstream out;
  course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
  const std::vector<float> expected = ramp(16);
  std::vector<float> flipped(expected.rbegin(), expected.rend());
  course::CaseDetails details;
  details.mistakes = {{"offset", "Everything is off by one.",
                       [&] {
                         std::vector<float> v = expected;
                         for (float& x : v) x += 1;
                         return v;
                       }},
                      {"flipped", "The image is flipped.", [&] { return flipped; }},
                      {"flipped too", "Not this one: the first match wins.", [&] { return flipped; }}};
  CHECK_FALSE(check.expect_image("flipped", flipped, expected, 4, 4, 0.01, 1, details));
  CHECK(check.first_cause() == "The image is flipped.");
}

TEST_CASE("a value made from a guard band is named as a read outside the input, NaN as a pixel never written") {
  const fs::path dir = report_scratch("generic");
  const std::vector<float> expected = ramp(16);
  {
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    std::vector<float> got = expected;
    got[6] = course::kGuardSentinel * 0.3f;
    check.expect_image("guard", got, expected, 4, 4, 0.01);
    CHECK(check.first_cause().find("read outside its input: pixel (2, 1)") != std::string::npos);
  }
  {
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    std::vector<float> got = expected;
    got[1] = NAN;
    check.expect_image("nan", got, expected, 4, 4, 0.01);
    CHECK(check.first_cause().find("Pixel (1, 0) was never written") == 0);
  }
}

TEST_CASE("a kernel that returns before its barrier fails the check from its text, even where the pictures pass") {
  const fs::path dir = report_scratch("barrier");
  std::ofstream(dir / "early.cl") << "// a return in a comment does not count: return\n"
                                     "__kernel void early(__global float* out, __local float* tile, int n) {\n"
                                     "  const int i = get_global_id(0);\n"
                                     "  if (i >= n) return;\n"
                                     "  tile[get_local_id(0)] = i;\n"
                                     "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                                     "  out[i] = tile[get_local_id(0)];\n"
                                     "}\n";
  std::ostringstream out;
  course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
  check.build("early.cl", "-D COURSE_POISON_LOCAL");
  CHECK(check.failed() == 1);  // before any picture is compared
  CHECK(check.first_cause().find("`return` (line 4) before the barrier on line 6") != std::string::npos);
  check.fail("a case", "something went wrong");  // every later failure gets the same cause
  check.finish();
  CHECK(out.str().find("[FAIL] a case: the same cause") != std::string::npos);
}

TEST_CASE("a kernel with a __local tile and no barrier fails the check, and one without local memory needs none") {
  const fs::path dir = report_scratch("no-barrier");
  std::ofstream(dir / "shared.cl") << "__kernel void shared(__global const float* in, __global float* out) {\n"
                                      "  __local float tile[64];\n"
                                      "  tile[get_local_id(0)] = in[get_global_id(0)];\n"
                                      "  out[get_global_id(0)] = tile[63 - get_local_id(0)];\n"
                                      "}\n";
  std::ofstream(dir / "plain.cl") << "__kernel void plain(__global const float* in, __global float* out) {\n"
                                     "  const int i = get_global_id(0), l = get_local_id(0);  // local ids are fine\n"
                                     "  if (i > 100) return;\n"
                                     "  out[i] = in[i] * l;\n"
                                     "}\n";
  std::ostringstream out;
  course::ExerciseCheck plain(report_device(), dir, dir / "report", out, false);
  plain.build("plain.cl");
  CHECK(plain.failed() == 0);
  course::ExerciseCheck shared(report_device(), dir, dir / "report", out, false);
  shared.build("shared.cl");
  CHECK(shared.failed() == 1);
  CHECK(shared.first_cause().find("__local tile (line 2) but has no barrier") != std::string::npos);
}

namespace {
// A check whose exercise shares a __local tile: it built a kernel with poisoned local memory.
void build_tiled_kernel(course::ExerciseCheck& check, const fs::path& dir) {
  std::ofstream(dir / "tiled.cl") << "__kernel void tiled(__global const float* in, __global float* out) {\n"
                                     "  __local float tile[64];\n"
                                     "  POISON_LOCAL(tile, 64);\n"
                                     "  tile[get_local_id(0)] = in[get_global_id(0)];\n"
                                     "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                                     "  out[get_global_id(0)] = tile[63 - get_local_id(0)];\n"
                                     "}\n";
  check.build("tiled.cl", "-D COURSE_POISON_LOCAL");
  REQUIRE(check.failed() == 0);
}
}  // namespace

TEST_CASE("a case whose second run on the same input differs is named a race, on the tile where there is one") {
  const fs::path dir = report_scratch("race");
  const std::vector<float> expected = ramp(16);
  std::vector<float> wrong = expected, other = expected;
  wrong[5] = 99, other[5] = 42;
  course::CaseDetails details;
  details.rerun = [&] { return other; };
  details.mistakes = {{"any", "Not this one: a race comes first.", [&] { return wrong; }}};
  {
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    build_tiled_kernel(check, dir);
    CHECK_FALSE(check.expect_image("tiled", wrong, expected, 4, 4, 0.01, 1, details));
    CHECK(check.first_cause().find("Two runs on the same input differ (pixel (1, 1) got 99, then 42)") == 0);
    CHECK(check.first_cause().find("read the tile before every work-item had written it") != std::string::npos);
  }
  {
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    check.expect_image("plain", wrong, expected, 4, 4, 0.01, 1, details);
    CHECK(check.first_cause().find("Two runs on the same input differ") == 0);
    CHECK(check.first_cause().find("tile") == std::string::npos);  // no local memory, no tile
  }
  {
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    details.rerun = [&] { return wrong; };  // the same output twice: no race, the mistake is named
    check.expect_image("steady", wrong, expected, 4, 4, 0.01, 1, details);
    CHECK(check.first_cause() == "Not this one: a race comes first.");
  }
}

namespace {
// Records one case per entry of `cases`: its work-groups (0: not said) and how it ends: 'p' passes,
// 'x' fails with a wrong value, 'n' with NaN, the poison of a tile read too early.
void run_cases(course::ExerciseCheck& check, const std::vector<std::pair<std::size_t, char>>& cases) {
  const std::vector<float> expected = ramp(16);
  int n = 0;
  for (const auto& [groups, outcome] : cases) {
    std::vector<float> got = expected;
    if (outcome == 'x') got[3] += 7;
    if (outcome == 'n') got[3] = NAN;
    course::CaseDetails details;
    details.work_groups = groups;
    check.expect_image("case " + std::to_string(++n) + ", " + std::to_string(groups) + " groups", got, expected, 4, 4,
                       0.01, 1, details);
  }
}
}  // namespace

TEST_CASE("when only cases with several work-groups fail, the first failing case says so in one sentence") {
  const fs::path dir = report_scratch("groups");
  SUBCASE("wrong values only: the groups after the first work on the wrong part of the image") {
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    build_tiled_kernel(check, dir);
    run_cases(check, {{1, 'p'}, {4, 'x'}, {1, 'p'}, {2, 'x'}});
    CHECK(check.first_cause().empty());  // known only once every case ran
    check.finish();
    INFO(out.str());
    CHECK(check.first_cause().find("Only cases with several work-groups fail") == 0);
    CHECK(check.first_cause().find("get_group_id") != std::string::npos);
    CHECK(out.str().find("  [FAIL] case 2, 4 groups\n    Only cases with several work-groups fail") == 0);
  }
  SUBCASE("with a tile read too early in one of them: a race") {
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    build_tiled_kernel(check, dir);
    run_cases(check, {{1, 'p'}, {4, 'x'}, {2, 'n'}});
    check.finish();
    CHECK(check.first_cause().find("Only cases with several work-groups fail") == 0);
    CHECK(check.first_cause().find("read the tile before every work-item had written it") != std::string::npos);
  }
  SUBCASE("not when a case with one work-group fails, nor when no case with one passed") {
    for (const auto& cases : {std::vector<std::pair<std::size_t, char>>{{1, 'p'}, {4, 'x'}, {1, 'x'}},
                              std::vector<std::pair<std::size_t, char>>{{4, 'p'}, {4, 'x'}},
                              std::vector<std::pair<std::size_t, char>>{{1, 'p'}, {0, 'x'}}}) {
      std::ostringstream out;
      course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
      build_tiled_kernel(check, dir);
      run_cases(check, cases);
      check.finish();
      CHECK(check.first_cause().empty());
    }
  }
  SUBCASE("not for an exercise without local memory") {
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    run_cases(check, {{1, 'p'}, {4, 'x'}});
    check.finish();
    CHECK(check.first_cause().empty());
  }
}
