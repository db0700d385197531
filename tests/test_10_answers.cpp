// Exercise 10's test that spells out its answer: it runs its check on copies of its solution with
// one wait changed. A handout leaves this file out whole; test_10_transfers.cpp holds the tests
// that do not.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "checker.hpp"
#include "course.hpp"
#include "test_support.hpp"
#include "transfer_pipeline.hpp"

namespace {

const course::DeviceContext& device() {
  static const course::DeviceContext dc = course::open_device("");
  return dc;
}

}  // namespace

TEST_CASE("the exercise 10 check passes the solution and fails a missing, a misplaced and an over-strong wait") {
  if (course_tests::skipped_without_solutions()) return;
  course::ExerciseInfo exercise;
  for (const auto& e : course::registered_exercises())
    if (e.number == "10") exercise = e;
  REQUIRE(exercise.run);
  const std::string solution =
      course::read_text_file(course::project_root() / "solutions" / exercise.folder / "double_buffering.cl");
  struct Variant {
    const char *name, *from, *to;
    bool passes;
  };
  const Variant variants[] = {
      {"the solution", "", "", true},
      {"no wait before the upload", "WAIT(UPLOAD, ROW, 2)", "", false},
      {"the row kernel waits for the previous frame's upload", "WAIT(ROW, UPLOAD, 0)", "WAIT(ROW, UPLOAD, 1)", false},
      {"the column kernel waits for a download enqueued after it", "WAIT(COLUMN, DOWNLOAD, 2)",
       "WAIT(COLUMN, DOWNLOAD, 1)", false},
      {"the upload waits for the column kernel too", "WAIT(UPLOAD, ROW, 2)",
       "WAIT(UPLOAD, ROW, 2) WAIT(UPLOAD, COLUMN, 2)", false},
      {"a wait for a later frame", "WAIT(DOWNLOAD, COLUMN, 0)", "WAIT(DOWNLOAD, COLUMN, -1)", false},
  };
  const auto base = std::filesystem::temp_directory_path() / "course-test-10";
  for (const Variant& v : variants) {
    CAPTURE(v.name);
    std::string text = solution;
    if (*v.from) {
      const auto at = text.find(v.from);
      REQUIRE(at != std::string::npos);
      text.replace(at, std::strlen(v.from), v.to);
    }
    const auto folder = base / exercise.folder;
    std::filesystem::create_directories(folder);
    std::ofstream(folder / "double_buffering.cl") << text;
    std::ostringstream report;
    course::ExerciseCheck check(device(), folder, base / "report", report);
    exercise.run(check);
    CAPTURE(report.str());
    CHECK((check.failed() == 0 && check.passed() > 0) == v.passes);
  }
  std::filesystem::remove_all(base);
}

TEST_CASE("the waits derive_waits() finds for two and three queues are the exercise's four") {
  using Step = course::FrameStep;
  for (int queues : {2, 3}) {
    CAPTURE(queues);
    const course::FrameSchedule derived = course::derive_waits(queues);
    CHECK(derived.describe() ==
          "upload(i) after row(i-2)\nrow(i) after upload(i)\ncolumn(i) after download(i-2)\n"
          "download(i) after column(i)\n");
    REQUIRE(derived.waits[int(Step::row)].size() == 1);
    CHECK(derived.waits[int(Step::row)][0].step == Step::upload);
    CHECK(derived.waits[int(Step::row)][0].frames_back == 0);
  }
}
