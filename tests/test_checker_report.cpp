// The exercise checker's report: what a student reads after `./course check NN`.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "change_search.hpp"
#include "checker.hpp"
#include "course.hpp"
#include "diff_picture.hpp"
#include "guard_damage.hpp"
#include "never_written.hpp"
#include "oclgrind.hpp"

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

TEST_CASE("the short report shows the first failing case in full and the others grouped by cause, within its budget") {
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
  // The picture is named once, by the check's last line (first_picture()), not in the case too.
  CHECK(report.find("diff picture") == std::string::npos);
  CHECK(report.find("other cases") != std::string::npos);
  // Counted as cases: 34 failed, 66 passed, the first shown whole.
  CHECK(report.find("[FAIL] 33 more cases") != std::string::npos);
  CHECK(report.find("[pass] 66 other cases") != std::string::npos);
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

TEST_CASE("two mistakes that reproduce a case, which no failing case tells apart, are named as possibilities") {
  const fs::path dir = report_scratch("tie");
  const std::vector<float> expected = ramp(16);
  const std::vector<float> flipped(expected.rbegin(), expected.rend());
  std::vector<float> shifted = expected;
  for (float& x : shifted) x += 1;
  course::CaseDetails details;
  details.mistakes = {{"flipped", "The image is flipped.", [&] { return flipped; }},
                      {"mirrored", "The image is mirrored.", [&] { return flipped; }}};
  // The words of the report, each run of spaces and line breaks one space (the sentences wrap).
  const auto words = [](const std::string& text) {
    std::string joined;
    for (char c : text)
      if (!std::isspace(static_cast<unsigned char>(c)) || (!joined.empty() && joined.back() != ' '))
        joined += std::isspace(static_cast<unsigned char>(c)) ? ' ' : c;
    return joined;
  };
  {
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    check.expect_image("both alike", flipped, expected, 4, 4, 0.01, 1, details);
    check.finish(24);
    CHECK(words(out.str()).find("2 slips give exactly this output, and no failing case tells them apart: either (1) "
                                "the image is flipped. or (2) the image is mirrored.") != std::string::npos);
  }
  {
    // A second case that only one of them reproduces tells them apart: that one is the cause.
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    check.expect_image("both alike", flipped, expected, 4, 4, 0.01, 1, details);
    course::CaseDetails one_of_them = details;
    one_of_them.mistakes[1].output = [&] { return shifted; };
    check.expect_image("only flipped", flipped, expected, 4, 4, 0.01, 1, one_of_them);
    check.finish(24);
    CHECK(out.str().find("slips give") == std::string::npos);
    CHECK(out.str().find("The image is flipped.") != std::string::npos);
  }
  {
    // The first failing case has a cause of its own that is neither: a later case's possibilities,
    // slips that merely coincide there, are not shown.
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    course::CaseDetails own;
    own.mistakes = {{"offset", "Everything is off by one.", [&] { return shifted; }}};
    check.expect_image("off by one", shifted, expected, 4, 4, 0.01, 1, own);
    check.expect_image("both alike", flipped, expected, 4, 4, 0.01, 1, details);
    check.finish(24);
    CHECK(out.str().find("Everything is off by one.") != std::string::npos);
    CHECK(out.str().find("slips give") == std::string::npos);
  }
}

TEST_CASE("a mistake the first case reproduces, which most later failing cases tried and did not, is not named") {
  const fs::path dir = report_scratch("coincidence");
  const std::vector<float> expected = ramp(16);
  const std::vector<float> flipped(expected.rbegin(), expected.rend());
  std::vector<float> other = expected, near_flipped = flipped;
  other[3] += 7;
  near_flipped[5] += 7;  // the flipped output but for one value
  // The first case's output is the flipped one; two later cases, whose outputs it would tell
  // apart, are wrong in another way: the first case was too small to tell the slips apart. An
  // approximate model (a position near a pixel edge may go either way) is contradicted only by a
  // case where it misses more than two values and a twentieth of them.
  struct Run {
    bool approximate;
    const std::vector<float>& later;
    bool named;
  };
  for (const Run& run : {Run{false, other, false}, Run{true, other, false}, Run{true, near_flipped, true}}) {
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    course::CaseDetails details;
    details.mistakes = {{"flipped", "The image is flipped.", [&] { return flipped; }}};
    details.mistakes[0].approximate = run.approximate;
    check.expect_image("small", flipped, expected, 4, 4, 0.01, 1, details);
    check.expect_image("larger", run.later, expected, 4, 4, 0.01, 1, details);
    check.expect_image("largest", run.later, expected, 4, 4, 0.01, 1, details);
    check.finish(24);
    INFO(out.str());
    CHECK((out.str().find("The image is flipped.") != std::string::npos) == run.named);
  }
}

TEST_CASE("a mistake whose output differs from the right one only in values it leaves to anything shows nothing") {
  const std::vector<float> right = ramp(4);
  std::vector<float> holes = right;
  holes[1] = NAN;
  CHECK(course::where_values_show(holes, right, 0.01).empty());
  holes[2] += 5;
  CHECK(course::where_values_show(holes, right, 0.01).size() == 4);
}

TEST_CASE(
    "a value made from a guard band is named as a read outside the input, NaN as a pixel never written or added to") {
  const fs::path dir = report_scratch("generic");
  const std::vector<float> expected = ramp(16);
  {
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    std::vector<float> got = expected;
    got[6] = course::kGuardSentinel * 0.3f;
    check.expect_image("guard", got, expected, 4, 4, 0.01);
    CHECK(check.first_cause().find("read outside one of its buffers: pixel (2, 1)") != std::string::npos);
  }
  {
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    std::vector<float> got = expected;
    got[1] = NAN;
    check.expect_image("nan", got, expected, 4, 4, 0.01);
    CHECK(check.first_cause().find("Pixel (1, 0) is NaN, what the output held before the run: no work-item stored a "
                                   "value there") == 0);
  }
  {
    // A race another case proved (exercise 10's waits) is the cause of the NaN it left.
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    std::vector<float> got = expected;
    got[1] = NAN;
    course::CaseDetails details;
    details.proven_cause = "A wait is missing.";
    check.expect_image("raced", got, expected, 4, 4, 0.01, 1, details);
    CHECK(check.first_cause() == "A wait is missing.");
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
  // The case with evidence is shown in full; the failure read from the text is grouped under it.
  CHECK(out.str().find("  [FAIL] a case\n") == 0);
  CHECK(out.str().find("[FAIL] the barriers in early.cl (read from its text): the same cause") != std::string::npos);
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
    // A likely cause, not a proof: the tile read too early, or outside its written part.
    CHECK(check.first_cause().find("Likely the tile is read before every work-item has written it") !=
          std::string::npos);
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
  {
    // Outputs nobody stored, the same in both runs, outweigh a difference elsewhere (two work-items
    // storing one output in either order, as overlapping blocks do).
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    wrong[9] = other[9] = course::never_written();
    details.rerun = [&] { return other; };
    details.mistakes = course::never_written_mistakes(wrong, 4, "Check the rows each work-item stores.");
    check.expect_image("overlapping", wrong, expected, 4, 4, 0.01, 1, details);
    CHECK(check.first_cause() ==
          "Pixel (1, 2) was never written: no work-item stored a value there. Check the rows "
          "each work-item stores.");
    // It says where, not which line: the search for one small change runs, and a change found is the cause.
    CHECK_FALSE(check.first_failure_reproduced());
    check.set_found_change("One small change makes every case pass, so it is likely the mistake: line 3 of k.cl.");
    check.finish(24);
    CHECK(check.found_change_shown());
    CHECK(out.str().find("line 3 of k.cl") != std::string::npos);
  }
}

namespace {
// Records one case per entry of `cases`: its work-groups (0: not said) and how it ends: 'p' passes,
// 'x' fails with a wrong value at pixel (3, 0), 'n' with NaN, the poison of a tile read too early. Each
// work-group computes a `block` x `block` block of the 4x4 outputs (0: not said).
void run_cases(course::ExerciseCheck& check, const std::vector<std::pair<std::size_t, char>>& cases, int block = 0) {
  const std::vector<float> expected = ramp(16);
  int n = 0;
  for (const auto& [groups, outcome] : cases) {
    std::vector<float> got = expected;
    if (outcome == 'x') got[3] += 7;
    if (outcome == 'n') got[3] = NAN;
    course::CaseDetails details;
    details.work_groups = groups;
    details.tile = {block, block, 0, 0};
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
    run_cases(check, {{1, 'p'}, {4, 'x'}, {1, 'p'}, {2, 'x'}}, 2);  // pixel (3, 0) lies in group (1, 0)
    CHECK(check.first_cause().empty());  // known only once every case ran
    check.finish();
    INFO(out.str());
    CHECK(check.first_cause().find("Only cases with several work-groups fail") == 0);
    CHECK(check.first_cause().find("group (0, 0) computes its own outputs right") != std::string::npos);
    CHECK(check.first_cause().find("get_group_id") != std::string::npos);
    CHECK(out.str().find("  [FAIL] case 2, 4 groups\n    Only cases with several work-groups fail") == 0);
  }
  SUBCASE("wrong values in group (0, 0) too, or its block not known: no word of the groups after the first") {
    for (const int block : {4, 0}) {  // pixel (3, 0) lies in group (0, 0); no block said
      std::ostringstream out;
      course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
      build_tiled_kernel(check, dir);
      run_cases(check, {{1, 'p'}, {4, 'x'}, {1, 'p'}, {2, 'x'}}, block);
      check.finish();
      INFO(out.str());
      CHECK(check.first_cause().find("Only cases with several work-groups fail") == 0);
      CHECK(check.first_cause().find("after the first work") == std::string::npos);
      CHECK(check.first_cause().find("get_group_id") == std::string::npos);
      CHECK((check.first_cause().find("group (0, 0)'s own outputs are wrong too") != std::string::npos) ==
            (block == 4));
    }
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

namespace {
// An Oclgrind 21.10 log as it reads: a race on a tile, a read past a buffer, a static array's
// index out of range and a barrier some work-items skip.
const char* const kOclgrindLog =
    "\n"
    "Read-write data race at local memory address 0x1000000000004\n"
    "\tKernel: tiled\n"
    "\t\n"
    "\tFirst entity:  Global(1,0,0) Local(1,0,0) Group(0,0,0)\n"
    "\t  store float %2, float addrspace(3)* %arrayidx58, align 4, !dbg !104\n"
    "\tAt line 4 (column 13) of some/dir/tiled.cl:\n"
    "\t  #define POISON_LOCAL(ptr, count) do { } while (0)\n"
    "\t\n"
    "\tSecond entity: Global(0,0,0) Local(0,0,0) Group(0,0,0)\n"
    "\t  %1 = load float, float addrspace(3)* %arrayidx12, align 4, !dbg !56\n"
    "\tAt line 6 (column 67) of some/dir/tiled.cl:\n"
    "\t  \n"
    "\n"
    "Read-write data race at local memory address 0x1000000000008\n"
    "\tKernel: tiled\n"
    "\tFirst entity:  Global(2,0,0) Local(2,0,0) Group(0,0,0)\n"
    "\t  store float %2, float addrspace(3)* %arrayidx58, align 4\n"
    "\tAt line 4 (column 13) of some/dir/tiled.cl:\n"
    "\tSecond entity: Global(0,0,0) Local(0,0,0) Group(0,0,0)\n"
    "\t  %1 = load float, float addrspace(3)* %arrayidx12, align 4\n"
    "\tAt line 6 (column 67) of some/dir/tiled.cl:\n"
    "\n"
    "Invalid read of size 4 at global memory address 0x300000000007c\n"
    "\tKernel: tiled\n"
    "\tEntity: Global(31,3,0) Local(31,3,0) Group(0,1,0)\n"
    "\t  %9 = load float, float addrspace(1)* %arrayidx, align 4\n"
    "\tAt line 4 (column 30) of some/dir/tiled.cl:\n"
    "\n"
    "Index (70) exceeds static array size (64)\n"
    "\tKernel: tiled\n"
    "\tEntity: Global(6,0,0) Local(6,0,0) Group(0,0,0)\n"
    "\tAt line 6 (column 20) of some/dir/tiled.cl:\n"
    "\n"
    "Work-group divergence detected (barrier):\n"
    "\tKernel:     tiled\n"
    "\tWork-group: Group(1,0,0)\n"
    "\n"
    "\tWork-item:  Global(17,0,0) Local(1,0,0) Group(1,0,0)\n"
    "\tAt line 5 (column 3) of some/dir/tiled.cl:\n"
    "Previous work-items executed this instruction:\n"
    "\t  call void @_Z7barrierj(i32 1)\n"
    "\n"
    "Oclgrind: 5 errors generated - suppressing further errors\n";

void write_tiled_kernel(const fs::path& dir) {
  std::ofstream(dir / "tiled.cl") << "__kernel void tiled(__global const float* in, __global float* out) {\n"
                                     "  __local float tile[64];\n"
                                     "  POISON_LOCAL(tile, 64);\n"
                                     "  tile[get_local_id(0)] = in[get_global_id(0) + 1];\n"
                                     "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                                     "  out[get_global_id(0)] = tile[63 - get_local_id(0)];\n"
                                     "}\n";
}
}  // namespace

TEST_CASE("an Oclgrind log is read into its races, accesses outside a buffer, array indices and barriers, once each") {
  const std::vector<course::OclgrindFinding> found = course::parse_oclgrind_log(kOclgrindLog);
  using Kind = course::OclgrindFinding::Kind;
  REQUIRE(found.size() == 4);  // the second race repeats the first's lines
  CHECK(found[0].kind == Kind::kRace);
  CHECK(found[0].space == "local");
  REQUIRE(found[0].sites.size() == 2);
  CHECK(found[0].sites[0].line == 4);
  CHECK(found[0].sites[0].store);
  CHECK(found[0].sites[0].work_item == "work-item (1, 0) of group (0, 0)");
  CHECK(found[0].sites[1].line == 6);
  CHECK_FALSE(found[0].sites[1].store);
  CHECK(found[1].kind == Kind::kOutOfBounds);
  CHECK(found[1].read);
  CHECK(found[1].offset == 0x7c);
  CHECK(found[1].buffer == 3);
  CHECK(found[1].sites.at(0).work_item == "work-item (31, 3) of group (0, 1)");
  CHECK(found[2].kind == Kind::kArrayIndex);
  CHECK(found[2].index == 70);
  CHECK(found[2].extent == 64);
  CHECK(found[3].kind == Kind::kBarrier);
  CHECK(found[3].sites.at(0).line == 5);
}

TEST_CASE("Oclgrind's race becomes one sentence quoting both lines of the student's file, with both work-items") {
  const fs::path dir = report_scratch("oclgrind-race");
  write_tiled_kernel(dir);
  const std::string cause =
      course::oclgrind_cause(course::parse_oclgrind_log(kOclgrindLog), dir, "case 7");
  INFO(cause);
  CHECK(cause.find("On Oclgrind's simulated device, case 7 shows a data race on __local memory") == 0);
  CHECK(cause.find("work-item (1, 0) of group (0, 0) writes at line 4 (`tile[get_local_id(0)] = "
                   "in[get_global_id(0) + 1];`)") != std::string::npos);
  CHECK(cause.find("work-item (0, 0) of group (0, 0) reads at line 6 (`out[get_global_id(0)] = ") !=
        std::string::npos);
  CHECK(cause.find("barrier(CLK_LOCAL_MEM_FENCE)") != std::string::npos);
  // Without the race, the next finding: the read past the buffer, with its line and index.
  const auto all = course::parse_oclgrind_log(kOclgrindLog);
  const std::string read = course::oclgrind_cause({all.begin() + 1, all.end()}, dir, "case 7");
  CHECK(read.find("a read outside the buffer `in` (an argument of tiled) at line 4") != std::string::npos);
  CHECK(read.find("reads `in[31]`, past the end of `in`") != std::string::npos);
  const std::string index = course::oclgrind_cause({all.begin() + 2, all.end()}, dir, "case 7");
  CHECK(index.find("uses index 70 of an array of 64 elements (0 to 63)") != std::string::npos);
  const std::string barrier = course::oclgrind_cause({all.begin() + 3, all.end()}, dir, "case 7");
  CHECK(barrier.find("a barrier that not every work-item of a group reaches, at line 5") != std::string::npos);
  CHECK(course::oclgrind_cause({}, dir, "case 7").empty());
}

TEST_CASE("a read outside a buffer names the kernel's argument, and the index against the buffer's size when known") {
  const fs::path dir = report_scratch("oclgrind-bounds");
  write_tiled_kernel(dir);
  const auto all = course::parse_oclgrind_log(kOclgrindLog);
  // Buffer 3 of Oclgrind's addresses holds 31 floats: index 31 is one past its end.
  const std::string read =
      course::oclgrind_cause({all.begin() + 1, all.end()}, dir, "case 7", {{3, {31 * 4, "tiled", 0}}}, true);
  INFO(read);
  CHECK(read.find("a read outside the buffer `in` (an argument of tiled) at line 4 (`tile[get_local_id(0)] = "
                  "in[get_global_id(0) + 1];`): work-item (31, 3) of group (0, 1) reads `in[31]`, but `in` holds 31 "
                  "elements (indices 0 to 30).") != std::string::npos);
  CHECK(read.find("never reaches a right output") != std::string::npos);
  // The buffer is the one Oclgrind's address names (argument 1, `out`), not one guessed from the line.
  const std::string other =
      course::oclgrind_cause({all.begin() + 1, all.end()}, dir, "case 7", {{3, {31 * 4, "tiled", 1}}}, false);
  INFO(other);
  CHECK(other.find("outside the buffer `out`") != std::string::npos);
  // Wrong outputs: the read is not said to leave them right.
  CHECK(other.find("never reaches a right output") == std::string::npos);
  // The argument from the kernel's parameters and the line: a load, a store, a uchar4's 4 bytes.
  const std::string source = "__kernel void k(__global const float* input, __global uchar4* output,\n"
                             "                __constant float* weights, const int width) { }\n";
  CHECK(course::accessed_argument(source, "k", "sum += weights[i] * input[y * width + x];", false).first.empty());
  CHECK(course::accessed_argument(source, "k", "tile[i] = input[x + 1];", false) ==
        std::pair<std::string, std::size_t>{"input", 4});
  CHECK(course::accessed_argument(source, "k", "output[y * width + x] = convert_uchar4(sum);", true) ==
        std::pair<std::string, std::size_t>{"output", 4});
  CHECK(course::accessed_argument(source, "other", "tile[i] = input[i];", false).first.empty());
}

TEST_CASE("a read before the start of a buffer or of a __local array gives its signed index and the array Oclgrind's address lies in") {
  const fs::path dir = report_scratch("oclgrind-negative");
  write_tiled_kernel(dir);
  // in[-5]: 20 bytes before buffer 3, an address in buffer 2's top half; tile[-1]: 4 bytes before
  // local buffer 1, the first __local array.
  const char* const log =
      "Invalid read of size 4 at global memory address 0x2ffffffffffec\n"
      "\tKernel: tiled\n"
      "\tEntity: Global(0,0,0) Local(0,0,0) Group(0,0,0)\n"
      "\tAt line 4 (column 30) of some/dir/tiled.cl:\n"
      "\n"
      "Invalid read of size 4 at local memory address 0xfffffffffffc\n"
      "\tKernel: tiled\n"
      "\tEntity: Global(63,0,0) Local(63,0,0) Group(0,0,0)\n"
      "\tAt line 6 (column 30) of some/dir/tiled.cl:\n";
  const auto found = course::parse_oclgrind_log(log);
  REQUIRE(found.size() == 2);
  CHECK(found[0].buffer == 3);
  CHECK(found[0].offset == -20);
  CHECK(found[1].buffer == 1);
  CHECK(found[1].offset == -4);
  const std::string global = course::oclgrind_cause(found, dir, "case 2", {{3, {31 * 4, "tiled", 0}}});
  INFO(global);
  CHECK(global.find("reads `in[-5]`, before the start of `in`") != std::string::npos);
  const std::string local = course::oclgrind_cause({found.begin() + 1, found.end()}, dir, "case 2");
  INFO(local);
  CHECK(local.find("a read outside the __local array `tile` at line 6") != std::string::npos);
  CHECK(local.find("reads `tile[-1]`, before the start of `tile`") != std::string::npos);
  CHECK(local.find("`out`") == std::string::npos);
}

TEST_CASE("a race Oclgrind proves becomes the cause of every failing case whose own evidence names no other") {
  const fs::path dir = report_scratch("oclgrind-settle");
  std::ostringstream out;
  course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
  build_tiled_kernel(check, dir);
  const std::vector<float> expected = ramp(16);
  std::vector<float> poisoned = expected, wrong = expected;
  poisoned[3] = NAN;
  wrong[2] += 5;
  course::CaseDetails details;
  details.mistakes = {{"two", "Two is wrong.", [&] { return wrong; }}};
  details.diagnose = [](const std::vector<float>&) { return std::string("A guess that differs."); };
  for (int k = 0; k < 5; ++k)
    check.run_case("case " + std::to_string(k + 1), [&] {
      check.expect_image("case " + std::to_string(k + 1), k == 3 ? wrong : poisoned, expected, 4, 4, 0.01, 1, details);
    });
  check.run_case("case 6", [&] {
    std::vector<float> other = expected;
    other[9] += 1;
    check.expect_image("case 6", other, expected, 4, 4, 0.01, 1, details);
  });
  CHECK(check.oclgrind_case() == 1);  // the smallest failing case (all the same size: the first)
  check.oclgrind_result(1, "Oclgrind found a data race.");
  check.finish(24);
  const std::string report = out.str();
  INFO(report);
  CHECK(check.first_cause() == "Oclgrind found a data race.");
  CHECK(report.find("  [FAIL] case 1\n    Oclgrind found a data race.\n") == 0);
  // 2, 3 and 5 (their NaN) and 6 (only a guess of its own) have the proven cause, and so has 4:
  // of the six cases on which mistake "two" would show, it reproduces only 4, a coincidence.
  CHECK(report.find("  [FAIL] 5 more cases, the same cause\n") != std::string::npos);
  CHECK(report.find("Two is wrong.") == std::string::npos);
  CHECK(report.find("A guess that differs") == std::string::npos);
}

TEST_CASE("with no race found, leftover poison is named as tile elements never copied, and the tile is drawn") {
  const fs::path dir = report_scratch("never-copied");
  // A 6x4 image; each group computes a 3x2 block with a halo of 1 (a 5x4 tile). The last tile row
  // was never copied: the block's second output row, which alone reads it, is NaN.
  const int width = 6, height = 4;
  std::vector<float> expected = ramp(width * height), got = expected;
  for (int x = 0; x < width; ++x) got[1 * width + x] = got[3 * width + x] = NAN;
  course::CaseDetails details;
  details.tile = {3, 2, 1, 1};
  details.work_groups = 4;
  SUBCASE("Oclgrind ran and found no race") {
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    build_tiled_kernel(check, dir);
    check.run_case("short tile", [&] { check.expect_image("short tile", got, expected, width, height, 0.01, 1, details); });
    check.oclgrind_result(1, "");
    check.finish(24);
    INFO(out.str());
    CHECK(check.first_cause().find("Pixel (0, 1) is NaN") == 0);
    CHECK(check.first_cause().find("Oclgrind found no race, so they were never copied") != std::string::npos);
    // The drawing, rows alike drawn once, in place of the first wrong values.
    CHECK(out.str().find("    12 of 24 values off by more than 0.01 (all NaN)\n"
                         "    Tile of group (0, 0), 5x4 (# unwritten):\n"
                         "      rows 0-2 |.....|\n"
                         "         row 3 |#####|\n") != std::string::npos);
  }
  SUBCASE("without Oclgrind's verdict both are named, and no tile is drawn") {
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    build_tiled_kernel(check, dir);
    check.run_case("short tile", [&] { check.expect_image("short tile", got, expected, width, height, 0.01, 1, details); });
    check.finish(24);
    CHECK(check.first_cause().find("Either the copy leaves them out") != std::string::npos);
    CHECK(check.first_cause().find("read before the copy is complete") != std::string::npos);
    CHECK(out.str().find("#####") == std::string::npos);
  }
}

TEST_CASE("a mistake that leaves tile elements out draws the tile, two inputs an output apart, poison shown as 0") {
  const fs::path dir = report_scratch("never-copied-pyramid");
  // A pyramid level: 4x2 groups of outputs, two inputs apart, halo 1: a 9x5 tile. Its last row
  // was never copied, so the group's second output row, the only one reading it, is 0 (the
  // poison NaN through a conversion to integers) in both channels.
  const int width = 8, height = 2, channels = 2;
  std::vector<float> expected(width * height * channels, 100), got = expected;
  for (int x = 0; x < width; ++x) got[(1 * width + x) * channels] = got[(1 * width + x) * channels + 1] = 0;
  course::CaseDetails details;
  details.tile = {4, 2, 1, 1, 2, true};
  details.mistakes = {{"one row short", "The tile is one row short.", [&] { return got; }}};
  std::ostringstream out;
  course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
  build_tiled_kernel(check, dir);
  check.run_case("short", [&] { check.expect_image("short", got, expected, width, height, 0.6, channels, details); });
  check.finish(24);
  INFO(out.str());
  CHECK(check.first_cause() == "The tile is one row short.");
  // Output row 0 reads tile rows 0 to 2, row 1 rows 2 to 4.
  CHECK(out.str().find("    Tile of group (0, 0), 9x5 (# unwritten):\n"
                       "      rows 0-2 |.........|\n"
                       "      rows 3-4 |#########|\n") != std::string::npos);
  // Without the mistake named, the zeros are the poison, and its pixel is named.
  std::ostringstream plain;
  course::ExerciseCheck again(report_device(), dir, dir / "report", plain, false);
  build_tiled_kernel(again, dir);
  details.mistakes.clear();
  again.run_case("short", [&] { again.expect_image("short", got, expected, width, height, 0.6, channels, details); });
  again.oclgrind_result(1, "");
  again.finish(24);
  INFO(plain.str());
  CHECK(again.first_cause().find("Pixel (0, 1) is 0 in every channel") == 0);
  CHECK(again.first_cause().find("so they were never copied") != std::string::npos);
  CHECK(plain.str().find("      rows 3-4 |#########|\n") != std::string::npos);
}

TEST_CASE("the report fits 24 lines: the first failing case in full, the others grouped by cause, no word cut") {
  const fs::path dir = report_scratch("fits");
  std::ostringstream out;
  course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
  check.set_width(80);
  const std::vector<float> expected = ramp(64);
  course::CaseDetails details;
  details.mistakes = {{"off", "Every value is three too large, because the weights are summed one extra time in "
                              "the loop that reads the window before the barrier holds.",
                       [&] {
                         std::vector<float> v = expected;
                         for (float& x : v) x += 3;
                         return v;
                       }}};
  std::vector<float> wrong = expected;
  for (float& v : wrong) v += 3;
  for (int k = 0; k < 55; ++k)
    check.run_case("case " + std::to_string(k), [&] {
      if (k < 4) return check.pass("case " + std::to_string(k));
      check.expect_image("case " + std::to_string(k), wrong, expected, 8, 8, 0.1, 1, details);
    });
  check.finish(24 - 8);  // what check_main leaves: the header and the last lines
  const std::string report = out.str();
  INFO(report);
  CHECK(lines_of(report) <= 16);
  CHECK(report.find("  [FAIL] 50 more cases, the same cause\n") != std::string::npos);
  CHECK(report.find("  [pass] 4 other cases\n") != std::string::npos);
  CHECK(report.find("...") == std::string::npos);  // nothing cut
  std::istringstream lines(report);
  for (std::string line; std::getline(lines, line);)
    if (line.find(".png") == std::string::npos) CHECK(line.size() <= 80);  // a path is never cut
  CHECK(check.case_counts() == std::pair<int, int>(4, 51));
}

TEST_CASE("a long case name and a sentence given as evidence wrap at words within 80 columns, plain and verbose") {
  const std::string name = "131x67 image, 64x4 work-groups, random-weight radius_x 1 radius_y 4 (a 3x9 window)";
  const std::string sentence = "the kernel wrote outside its output buffer: 12 values after its end, the first at "
                               "index 1073 of 1073; a bounds check is missing or wrong.";
  for (const bool verbose : {false, true}) {
    const fs::path dir = report_scratch(verbose ? "wrap-verbose" : "wrap");
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, verbose);
    check.set_width(80);
    check.run_case(name, [&] { check.fail(name, sentence); });
    check.finish(16);
    const std::string report = out.str();
    INFO(report);
    std::istringstream lines(report);
    for (std::string line; std::getline(lines, line);) CHECK(line.size() <= 80);
    // Every word is there, in order, and the continuation lines are indented under their first.
    CHECK(report.find("  [FAIL] 131x67 image,") != std::string::npos);
    CHECK(report.find("\n         3x9 window)\n") != std::string::npos);
    CHECK(report.find("    the kernel wrote outside its output buffer:") != std::string::npos);
    CHECK(report.find("\n      ") != std::string::npos);
  }
}

TEST_CASE("NaN is written NaN, one value is singular, and a report where every case passed says so in one line") {
  const fs::path dir = report_scratch("words");
  {
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    std::vector<float> expected = {1}, got = {NAN};
    check.expect_image("one pixel", got, expected, 1, 1, 0.01);
    check.finish(24);
    INFO(out.str());
    CHECK(out.str().find("1 of 1 value off by more than 0.01 (it is NaN)") != std::string::npos);
    CHECK(out.str().find("got NaN expected 1") != std::string::npos);
    CHECK(out.str().find("inf") == std::string::npos);
    CHECK(out.str().find("other case") == std::string::npos);  // nothing else ran
  }
  {
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    for (int k = 0; k < 51; ++k) check.pass("case " + std::to_string(k));
    check.finish(24);
    CHECK(out.str() == "  [pass] all 51 cases\n");
  }
  {
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, true);
    check.pass("1 outputs per work-item, 11 outputs per work-item, 1 work-groups of 21 rows, 16x1 work-groups");
    CHECK(out.str() ==  // wrapped at the check's width, 96 columns unless set
          "  [pass] 1 output per work-item, 11 outputs per work-item, 1 work-group of 21 rows, 16x1\n"
          "         work-groups\n");
    CHECK(course::plural(1, "tap") == "1 tap");
    CHECK(course::plural(3, "tap") == "3 taps");
  }
}

TEST_CASE("a case counts once however many checks it recorded, and run_only_case runs that case alone") {
  const fs::path dir = report_scratch("counts");
  std::ostringstream out;
  course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
  int ran = 0;
  for (int k = 1; k <= 3; ++k)
    check.run_case("case " + std::to_string(k), [&] {
      ++ran;
      check.pass("first check");
      if (k == 2) return check.fail("second check", "stops here");
      check.pass("second check");
    });
  CHECK(check.case_counts() == std::pair<int, int>(2, 1));
  CHECK(check.cases() == 3);
  course::ExerciseCheck only(report_device(), dir, dir / "report", out, false);
  only.run_only_case(2);
  int only_ran = 0;
  for (int k = 1; k <= 3; ++k) only.run_case("case", [&] { only_ran += k; });
  CHECK(only_ran == 2);
  CHECK(ran == 3);
}

namespace {

// A picture of random values, none equal to another by chance.
std::vector<float> noise(int count, std::uint32_t seed) {
  return course::random_gray(count, 1, seed).pixels;
}

}  // namespace

TEST_CASE("a wrong picture that is the right one moved or transposed is named so, with the move's size") {
  const int width = 20, height = 15;
  const std::vector<float> expected = noise(width * height, 5);
  SUBCASE("moved up by 3 rows, the bottom rows NaN") {
    std::vector<float> got(expected.size(), NAN);
    for (int y = 0; y + 3 < height; ++y)
      for (int x = 0; x < width; ++x) got[y * width + x] = expected[(y + 3) * width + x];
    const std::string why = course::moved_picture(got, expected, width, height, 1, 0.01, 8);
    INFO(why);
    CHECK(why.find("The result is the right picture moved up by 3 rows: output (x, y) holds the right value of (x, "
                   "y + 3) at 240 of the 240 pixels") == 0);
    CHECK(why.find("(60 NaN pixels left out)") != std::string::npos);
    CHECK(why.find("Likely") != std::string::npos);  // the cause behind the move is a possibility
  }
  SUBCASE("moved right by 2 columns, the left columns wrong otherwise") {
    std::vector<float> got = noise(width * height, 9);
    for (int y = 0; y < height; ++y)
      for (int x = 2; x < width; ++x) got[y * width + x] = expected[y * width + x - 2];
    CHECK(course::moved_picture(got, expected, width, height, 1, 0.01, 8).find("moved right by 2 columns") !=
          std::string::npos);
  }
  SUBCASE("transposed") {
    std::vector<float> got(expected.size());
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) got[y * width + x] = x < height && y < width ? expected[x * width + y] : 0.0f;
    CHECK(course::moved_picture(got, expected, width, height, 1, 0.01, 8).find("The result is the right picture transposed") == 0);
  }
  SUBCASE("a few wrong pixels, or wrong values that follow no move, are not named") {
    std::vector<float> got = expected;
    got[3] += 10, got[40] += 10, got[77] -= 10;
    CHECK(course::moved_picture(got, expected, width, height, 1, 0.01, 8).empty());
    CHECK(course::moved_picture(noise(width * height, 11), expected, width, height, 1, 0.01, 8).empty());
  }
}

TEST_CASE("values that are all the right ones scaled or offset, or off by one level, are named so") {
  const std::vector<float> expected = noise(50, 3);
  std::vector<float> minus(expected), half(expected), both(expected);
  for (float& v : minus) v -= 254;
  for (float& v : half) v *= 0.5f;
  for (float& v : both) v = 2 * v + 10;
  CHECK(course::scaled_values(minus, expected, 0.01).find("Every value is the right one minus 254") == 0);
  CHECK(course::scaled_values(minus, expected, 0.01).find("a constant in the formula is off by 254") !=
        std::string::npos);
  CHECK(course::scaled_values(half, expected, 0.01).find("Every value is 0.5 times the right one") == 0);
  CHECK(course::scaled_values(both, expected, 0.01).find("2 times the right one plus 10") != std::string::npos);
  CHECK(course::scaled_values(expected, expected, 0.01).empty());
  CHECK(course::scaled_values(noise(50, 4), expected, 0.01).empty());
  std::vector<float> levels(expected), up, down, mixed, far;
  for (float& v : levels) v = std::round(v);
  up = down = mixed = far = levels;
  for (std::size_t i = 0; i < levels.size(); i += 3) up[i] += 1, down[i] -= 1, mixed[i] += i % 2 ? 1 : -1;
  far[7] += 2;
  CHECK(course::off_by_one_level(up, levels, 0).find("exactly one level too high (17 of the 50 values)") !=
        std::string::npos);
  CHECK(course::off_by_one_level(down, levels, 0).find("one level too low") != std::string::npos);
  CHECK(course::off_by_one_level(mixed, levels, 0).find("too high") != std::string::npos);
  CHECK(course::off_by_one_level(far, levels, 0).empty());
  CHECK(course::off_by_one_level(up, expected, 0).empty());  // not whole levels: no rounding to name
}

TEST_CASE("values scaled past the top level and clipped there are named, and a case all clipped agrees with a later one") {
  const std::vector<float> expected = noise(50, 3);
  std::vector<float> four(expected), wrong_top(expected);
  for (float& v : four) v = std::min(255.0f, std::round(4 * v));  // weights summing to 4, converted to 8 bits
  const std::string why = course::scaled_values(four, expected, 0.6);
  CHECK(why.find("Every value is 4 times the right one") == 0);
  CHECK(why.find("are 255, where the line passes that: clipped") != std::string::npos);
  CHECK(course::scaled_values(four, expected, 0.01).empty());  // the rounding is more than this tolerance
  // Two values at the top level where the line stays well below it are not clipped: no line.
  int moved = 0;
  for (std::size_t i = 0; i < wrong_top.size(); ++i) {
    wrong_top[i] = 4 * expected[i];
    if (moved < 2 && 4 * expected[i] < 200) wrong_top[i] = 1000, ++moved;
  }
  for (float& v : wrong_top) v = std::min(v, 1000.0f);
  REQUIRE(moved == 2);
  CHECK(course::scaled_values(wrong_top, expected, 0.6).empty());
  const fs::path dir = report_scratch("scaled");
  for (const bool agrees : {true, false}) {
    std::ostringstream out;
    course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
    // A picture of one pixel whose every value is clipped shows no line of its own.
    const std::vector<float> pixel = {185, 240, 98, 139}, clipped = {255, 255, 255, agrees ? 255.0f : 100.0f};
    check.run_case("one pixel", [&] { check.expect_image("one pixel", clipped, pixel, 1, 1, 0.6, 4); });
    check.run_case("fifty", [&] { check.expect_image("fifty", four, expected, 10, 5, 0.6); });
    // Another case on the same line, with other counts: one cause with the case before.
    const std::vector<float> fewer(four.begin(), four.begin() + 40),
        fewer_expected(expected.begin(), expected.begin() + 40);
    check.run_case("forty", [&] { check.expect_image("forty", fewer, fewer_expected, 10, 4, 0.6); });
    check.finish();
    INFO(out.str());
    CHECK(out.str().find("[FAIL] 2 more cases: Every value is 4 times the right one (those at 255 clipped)") !=
          std::string::npos);
    if (agrees)
      CHECK(check.first_cause().find("Case 2 shows a rule, and every value here agrees with it. There, every value "
                                     "is 4 times the right one") == 0);
    else
      CHECK(check.first_cause().empty());
  }
}

TEST_CASE("where only the last rows of every group's block are wrong, the report names the tile rows they need") {
  const fs::path dir = report_scratch("block-part");
  // 8x8 outputs in blocks of 4x4 with a halo of 1: rows 2 and 3 of every block are wrong.
  const int width = 8, height = 8;
  const std::vector<float> expected = noise(width * height, 21);
  std::vector<float> got = expected;
  const std::vector<float> other = noise(width * height, 22);
  for (int y = 0; y < height; ++y)
    if (y % 4 >= 2)
      for (int x = 0; x < width; ++x) got[y * width + x] = other[y * width + x];
  course::CaseDetails details;
  details.tile = {4, 4, 1, 1};
  std::ostringstream out;
  course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
  check.expect_image("lower half", got, expected, width, height, 0.01, 1, details);
  check.finish(24);
  INFO(out.str());
  CHECK(check.first_cause().find("In every group's block of 4x4 outputs, rows 0 to 1 are right and rows 2 to 3 "
                                 "wrong. Their windows need tile rows 2 to 5") == 0);
  CHECK(check.first_cause().find("likely") != std::string::npos);  // said as a possibility
}

TEST_CASE("a race guessed on a small first case is named by the mistake a later case reproduces, which reads anything") {
  const fs::path dir = report_scratch("race-then-mistake");
  const std::vector<float> expected = ramp(16);
  std::vector<float> first = expected, again = expected, later = expected;
  first[3] += 5, again[3] += 9;  // two runs that differ: read from memory holding anything
  later[7] = 99;                 // a larger case where the mistake shows
  std::ostringstream out;
  course::ExerciseCheck check(report_device(), dir, dir / "report", out, false);
  course::CaseDetails small;
  small.rerun = [&] { return again; };
  check.run_case("small", [&] { check.expect_image("small", first, expected, 4, 4, 0.01, 1, small); });
  course::CaseDetails larger;
  std::vector<float> model = later;
  model[3] = NAN;  // the mistake reads anything there
  larger.mistakes = {{"reads past", "The window reads past the tile.", [&] { return model; }, true}};
  check.run_case("larger", [&] { check.expect_image("larger", later, expected, 4, 4, 0.01, 1, larger); });
  check.finish(24);
  INFO(out.str());
  CHECK(out.str().find("Case 2 shows the mistake") != std::string::npos);
  CHECK(out.str().find("Two runs on the same input differ") == std::string::npos);
}

TEST_CASE("the search for one small change tries another loop's variable, two names swapped, and brackets") {
  const std::string source =
      "const int taps = 2 * (radius + 1);\n"
      "for (int j = 0; j < 3; ++j)\n"
      "  for (int i = 0; i < 3; ++i) sum += w[i * taps + j] * in[clamp(x + j, 0, width - 1)] + a + b * c;\n"
      "out[lx] = 0;\n"
      "const float2 corner = ceil(p);\n";
  const std::vector<course::SmallChange> changes = course::small_changes("k.cl", source);
  const auto find = [&changes](int line, const std::string& from, const std::string& to,
                               const std::string& context = "") {
    return std::find_if(changes.begin(), changes.end(), [&](const course::SmallChange& c) {
      return c.line == line && c.from == from && c.to == to && (context.empty() || c.context == context);
    });
  };
  const auto has = [&](int line, const std::string& from, const std::string& to) {
    return find(line, from, to) != changes.end();
  };
  CHECK(has(3, "j", "i"));   // another loop's variable
  CHECK(has(4, "lx", "x"));  // a short name with a letter less in front
  CHECK(has(5, "ceil", "floor"));                                            // rounded up where down belongs
  CHECK(find(3, "j", "i")->tier < find(3, "taps + j", "(taps + j)")->tier);  // the likelier slip first
  CHECK(std::none_of(changes.begin(), changes.end(), [](const course::SmallChange& c) {
    return c.from == "i" && c.to == "j" && c.context.rfind("(int i", 0) == 0;  // never in a loop's head
  }));
  CHECK(has(3, "i * taps + j", "j * taps + i"));  // two loop variables swapped in one bracket
  CHECK(has(1, "(radius + 1)", "radius + 1"));    // brackets put in
  CHECK(has(3, "taps + j", "(taps + j)"));        // brackets left out after a product
  CHECK(has(3, "a + b", "(a + b)"));              // brackets left out before a product
  CHECK(std::any_of(changes.begin(), changes.end(), [](const course::SmallChange& c) {
    return c.line == 3 && c.from.empty() && c.to == " + i" && c.anchor == "x";  // a loop's variable left out
  }));
  course::ChangeSearch found;
  found.found = true, found.change = *find(3, "j", "i", "clamp(x + j, 0, width - 1)");
  CHECK(course::change_sentence(found) ==
        "One small change makes every case pass, so it is likely the mistake: line 3 of k.cl, `clamp(x + j, 0, width - "
        "1)` with `i` for its `j`.");
  found.change = *find(3, "i * taps + j", "j * taps + i");
  CHECK(course::change_sentence(found) ==
        "One small change makes every case pass, so it is likely the mistake: line 3 of k.cl, `w[i * taps + j]` with "
        "`j * taps + i` for its `i * taps + j`.");
  found.change = *find(1, "(radius + 1)", "radius + 1");
  CHECK(course::change_sentence(found) ==
        "One small change makes every case pass, so it is likely the mistake: line 1 of k.cl, `const int taps = 2 * "
        "(radius + 1);` without the brackets around its `radius + 1`.");
  found.change = *find(3, "taps + j", "(taps + j)");
  CHECK(course::change_sentence(found) ==
        "One small change makes every case pass, so it is likely the mistake: line 3 of k.cl, `w[i * taps + j]` with "
        "brackets around its `taps + j`.");
}

TEST_CASE(
    "the search for one small change looks first where the failing case points, and adds a variable as a term there") {
  const std::string source =
      "__kernel void k(__global const float* input, __global float* out, const int width, const int height) {\n"
      "  const int x = get_global_id(0), ly = get_local_id(1);\n"
      "  const int y0 = get_group_id(1) * 8;\n"
      "  float sum = 0.0f;\n"
      "  for (int r = ly; r < 8 && r < height; r += 4) {\n"
      "    sum += input[(y0 + r) * width + x];\n"
      "    out[x + width * (y0 + r)] = sum;\n"
      "  }\n"
      "  const int unused = width - 1;\n"
      "}\n";
  // Oclgrind saw the store on line 7 write past `out`.
  const std::vector<course::SmallChange> changes = course::small_changes("k.cl", source, {7});
  const auto focused = [&changes](int line) {
    return std::any_of(changes.begin(), changes.end(),
                       [line](const course::SmallChange& c) { return c.line == line && c.focus; });
  };
  CHECK(focused(7));  // the line itself
  CHECK(focused(5));  // the loop around it
  CHECK(focused(3));  // the line that sets y0, which it uses
  CHECK(focused(4));  // and sum
  CHECK(focused(6));
  CHECK_FALSE(focused(9));
  // y0 left out of the loop's bound: added before its third r, a name the line does not hold yet.
  const auto y0 = std::find_if(changes.begin(), changes.end(), [](const course::SmallChange& c) {
    return c.line == 5 && c.from.empty() && c.to == "y0 + " && c.anchor == "r" && c.before && c.occurrence == 3;
  });
  REQUIRE(y0 != changes.end());
  CHECK(y0->tier == 9);
  CHECK(y0->source.find("r < 8 && y0 + r < height") != std::string::npos);
  course::ChangeSearch found;
  found.found = true, found.change = *y0;
  CHECK(course::change_sentence(found) ==
        "One small change makes every case pass, so it is likely the mistake: line 5 of k.cl, `(int r = ly; r < 8 && "
        "r < height; r += 4)` with `y0 +` added before its third `r`.");
  // Never a name the line holds already, and never on a line the case does not point at.
  CHECK(std::none_of(changes.begin(), changes.end(), [](const course::SmallChange& c) {
    return c.tier == 9 && (c.line == 9 || (c.to.find("y0") != std::string::npos && c.line == 7));
  }));
  // Without a focus the file's lines are tried as before: no variable added as a term.
  const std::vector<course::SmallChange> plain = course::small_changes("k.cl", source);
  CHECK(std::none_of(plain.begin(), plain.end(), [](const course::SmallChange& c) { return c.tier == 9 || c.focus; }));
}

TEST_CASE("the search for one small change tries the slips on the learner's lines, and names which of a line's names") {
  const std::string source =
      "__kernel void k(__global const float* input, __global float* output, const int width, const int height) {\n"
      "  /* >>> GAP 1: the row */\n"
      "  const int y = get_group_id(1) * 4 - 1;  // the row\n"
      "  /* <<< GAP 1 */\n"
      "  /* >>> GAP 2: the store */\n"
      "  output[0] = 0; /* replace */\n"
      "  /* <<< GAP 2 */\n"
      "  for (int x = 0; x < width; ++x) output[y * width + x] = input[clamp(y, 0, width - 1) * width + x];\n"
      "}\n";
  const std::vector<course::SmallChange> changes = course::small_changes("k.cl", source);
  const auto has = [&changes](int line, const std::string& from, const std::string& to) {
    return std::any_of(changes.begin(), changes.end(),
                       [&](const course::SmallChange& c) { return c.line == line && c.from == from && c.to == to; });
  };
  // Only line 3 is the learner's: the placeholder's gap and the code outside the gaps are not.
  for (const course::SmallChange& c : changes) CHECK(c.line == 3);
  CHECK(has(3, "get_group_id", "get_global_id"));
  CHECK(has(3, "get_group_id", "get_local_id"));
  CHECK(has(3, "1", "0"));         // the dimension, and the number one less
  CHECK(has(3, "4", "5"));         // a number one more
  CHECK(has(3, "- 1", ""));        // a term too many
  CHECK(has(3, "-", "+"));         // the sign
  CHECK_FALSE(has(3, "the", ""));  // nothing from the comment
  // The most likely slips come first: another work-item id before any number.
  CHECK(changes.front().from == "get_group_id");
  // A file without gaps is the learner's everywhere; a name's other axis, where the file has it,
  // and which of the bracket's names the change takes.
  const std::string plain = "const int a = clamp(y, 0, width - 1) * width;\nconst int b = height;\n";
  const std::vector<course::SmallChange> all = course::small_changes("p.cl", plain);
  const auto width = std::find_if(all.begin(), all.end(), [](const course::SmallChange& c) {
    return c.from == "width" && c.to == "height" && c.context == "clamp(y, 0, width - 1)";
  });
  REQUIRE(width != all.end());
  CHECK(width->occurrence == 0);  // the only width inside the brackets
  course::ChangeSearch found;
  found.found = true, found.change = *width, found.tried = 7;
  CHECK(course::change_sentence(found) ==
        "One small change makes every case pass, so it is likely the mistake: line 1 of p.cl, `clamp(y, 0, width - "
        "1)` with `height` for its `width`.");
  const auto second = std::find_if(all.begin(), all.end(), [](const course::SmallChange& c) {
    return c.from == "width" && c.to == "height" && c.context != "clamp(y, 0, width - 1)";
  });
  REQUIRE(second != all.end());
  CHECK(second->context == "const int a = clamp(y, 0, width - 1) * width;");
  CHECK(second->occurrence == 2);
  CHECK(course::change_sentence(course::ChangeSearch{}).empty());
  // A term the file uses, left out of a line: after an operand, never after a declared name.
  const auto times_width = std::find_if(all.begin(), all.end(), [](const course::SmallChange& c) {
    return c.line == 2 && c.from.empty() && c.to == " * width" && c.anchor == "height";
  });
  REQUIRE(times_width != all.end());
  CHECK(times_width->source == "const int a = clamp(y, 0, width - 1) * width;\nconst int b = height * width;\n");
  found.change = *times_width;
  CHECK(course::change_sentence(found) ==
        "One small change makes every case pass, so it is likely the mistake: line 2 of p.cl, `const int b = height;` "
        "with `* width` added after its `height`.");
  CHECK(std::none_of(all.begin(), all.end(), [](const course::SmallChange& c) { return c.anchor == "b"; }));
  // A sum set before the loop whose rounds each need it afresh: moved into the loop.
  const std::vector<course::SmallChange> loop =
      course::small_changes("s.cl", "  float sum = 0.0f;\n  for (int r = 0; r < 4; ++r) {\n    sum += r;\n  }\n");
  const auto into = std::find_if(loop.begin(), loop.end(), [](const course::SmallChange& c) { return c.moved == 1; });
  REQUIRE(into != loop.end());
  CHECK(into->source == "  for (int r = 0; r < 4; ++r) {\n    float sum = 0.0f;\n    sum += r;\n  }\n");
  course::ChangeSearch moved;
  moved.found = true, moved.change = *into;
  CHECK(course::change_sentence(moved) ==
        "One small change makes every case pass, so it is likely the mistake: line 1 of s.cl, `float sum = 0.0f;` "
        "moved into the loop below it.");
  // Other changes on the line that make every case pass too: the mistake is there, which fix is not told.
  found.also = {*std::find_if(all.begin(), all.end(), [](const course::SmallChange& c) {
    return c.line == 2 && c.from == "height" && c.to == "width";
  })};
  CHECK(course::change_sentence(found) ==
        "Each of these small changes to line 2 of p.cl makes every case pass, so the mistake is likely there: `const "
        "int b = height;` with `* width` added after its `height`, or with `width` for its `height`.");
}
