// Lesson 10: the separable passes, the hazard analysis of frame schedules, and real streams.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "checker.hpp"
#include "course.hpp"
#include "host_memory.hpp"
#include "test_support.hpp"
#include "transfer_pipeline.hpp"

namespace {

using Step = course::FrameStep;

// The waits the lesson runs with (test_10_answers.cpp checks they are the exercise's four).
course::FrameSchedule lesson_waits() { return course::derive_waits(3); }

const course::DeviceContext& device() {
  static const course::DeviceContext dc = course::open_device("");
  return dc;
}

// Runs both passes once on one queue and returns the result as floats.
std::vector<float> filter_once(const course::SeparablePasses& passes, const course::GrayImage& image) {
  const course::DeviceContext& dc = device();
  const std::size_t n = image.pixels.size(), pixel_bytes = passes.eight_bit ? 1 : sizeof(float);
  std::vector<std::uint8_t> in(n * pixel_bytes), out(n * pixel_bytes);
  for (std::size_t i = 0; i < n; ++i) {
    if (passes.eight_bit)
      in[i] = static_cast<std::uint8_t>(image.pixels[i]);
    else
      std::memcpy(&in[i * 4], &image.pixels[i], 4);
  }
  cl::Buffer input(dc.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in.size(), in.data());
  cl::Buffer between(dc.context, CL_MEM_READ_WRITE, n * sizeof(float)),
      output(dc.context, CL_MEM_WRITE_ONLY, out.size());
  course::enqueue_rows(dc.queue, passes, input, between, image.width, image.height);
  course::enqueue_columns(dc.queue, passes, between, output, image.width, image.height);
  dc.queue.enqueueReadBuffer(output, CL_TRUE, 0, out.size(), out.data());
  std::vector<float> result(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (passes.eight_bit)
      result[i] = out[i];
    else
      std::memcpy(&result[i], &out[i * 4], 4);
  }
  return result;
}

}  // namespace

TEST_CASE("the row and column passes match the separable reference on odd-sized images with poisoned local memory") {
  const int sizes[][2] = {{1, 1}, {1, 17}, {23, 1}, {37, 29}, {131, 67}};
  for (int radius : {0, 1, 8, 16})
    for (bool eight_bit : {false, true}) {
      const std::vector<float> weights = course::gaussian_weights(radius, 0.5 + radius / 2.0);
      const course::SeparablePasses passes =
          course::build_separable_passes(device(), weights, eight_bit, "-D COURSE_POISON_LOCAL");
      for (const auto& size : sizes) {
        CAPTURE(radius);
        CAPTURE(eight_bit);
        CAPTURE(size[0]);
        CAPTURE(size[1]);
        course::GrayImage image = course::random_gray(size[0], size[1], 7 + radius);
        if (eight_bit)
          for (float& v : image.pixels) v = std::round(v);
        course::GrayImage expected = course::correlate_separable(image, weights, weights);
        if (eight_bit)
          for (float& v : expected.pixels) v = std::round(v);
        const auto c = course::compare_images(filter_once(passes, image), expected.pixels, size[0], size[1],
                                              eight_bit ? 1.0 : 1e-3);
        CHECK_MESSAGE(c.ok(), c.describe());
      }
    }
}

TEST_CASE("the stream enqueues upload t, then the kernels of t-1, then the download of t-2") {
  const auto order = course::stream_enqueue_order(3);
  REQUIRE(order.size() == 12);
  CHECK(order[0].step == Step::upload);
  CHECK(order[1].step == Step::upload);
  CHECK(order[1].frame == 1);
  CHECK(order[2].step == Step::row);
  CHECK(order[2].frame == 0);
  CHECK(order[5].step == Step::row);
  CHECK(order[5].frame == 1);
  CHECK(order[7].step == Step::download);
  CHECK(order[7].frame == 0);
  CHECK(order.back().step == Step::download);
  CHECK(order.back().frame == 2);
}

TEST_CASE("the derived waits leave no race with one, two or three queues") {
  for (int queues : {1, 2, 3}) {
    CAPTURE(queues);
    CHECK(course::schedule_hazards(lesson_waits(), 9, queues).empty());
  }
}

TEST_CASE("one in-order queue needs no waits at all, two queues race without them") {
  CHECK(course::schedule_hazards(course::FrameSchedule{}, 6, 1).empty());
  for (const auto& waits : course::derive_waits(1).waits) CHECK(waits.empty());
  CHECK(course::schedule_hazards(course::FrameSchedule{}, 6, 2).size() == 4);
}

TEST_CASE("dropping any one of the derived waits is reported as a race") {
  for (int step = 0; step < 4; ++step) {
    CAPTURE(step);
    course::FrameSchedule s = lesson_waits();
    s.waits[step].clear();
    const auto hazards = course::schedule_hazards(s, 6, 2);
    REQUIRE(hazards.size() == 1);
    CHECK(hazards[0].find(course::step_name(Step(step))) != std::string::npos);
  }
}

TEST_CASE("a wait for a command the host enqueues later is reported, and the stream refuses to run it") {
  course::FrameSchedule s = lesson_waits();
  s.waits[int(Step::upload)] = {{Step::row, 1}};
  const auto hazards = course::schedule_hazards(s, 6, 2);
  bool named = false;
  for (const auto& h : hazards) named |= h.find("enqueues after it") != std::string::npos;
  CHECK(named);
  const std::vector<float> weights = course::box_weights(1);
  const auto passes = course::build_separable_passes(device(), weights, false);
  std::vector<float> in(4 * 3 * 3, 1.0f), out(in.size());
  CHECK_THROWS_AS(course::run_frame_stream(device(), passes, s, 2, in.data(), out.data(), 4, 3, 3), course::InputError);
}

TEST_CASE("an OpenCL error in the middle of a stream finishes every queue before it leaves") {
  // No place for the results: the first download (the 8th command) fails with CL_INVALID_VALUE
  // while seven commands, three of them reading `in`, are in flight. The stream must finish them
  // before the exception reaches this scope and frees `in` (AddressSanitizer would see it).
  const std::vector<float> weights = course::box_weights(2);
  const auto passes = course::build_separable_passes(device(), weights, false);
  const int width = 61, height = 37, frames = 5;
  for (int queues : {1, 2, 3}) {
    CAPTURE(queues);
    std::vector<float> in(std::size_t(width) * height * frames, 1.0f);
    CHECK_THROWS_AS(
        course::run_frame_stream(device(), passes, lesson_waits(), queues, in.data(), nullptr, frames, width, height),
        cl::Error);
  }
}

TEST_CASE("the model shows two queues overlapping and an over-strong wait serialising them") {
  const std::array<double, 4> cost = {1, 1, 1, 1};
  const double serial = course::modelled_stream_time(lesson_waits(), 10, 1, cost);
  const double two = course::modelled_stream_time(lesson_waits(), 10, 2, cost);
  CHECK(serial == doctest::Approx(40));
  CHECK(two < serial);
  course::FrameSchedule strong = lesson_waits();
  strong.waits[int(Step::upload)].push_back({Step::column, 2});
  CHECK(course::schedule_hazards(strong, 10, 2).empty());
  CHECK(course::modelled_stream_time(strong, 10, 2, {1, 1, 1, 2}) >
        course::modelled_stream_time(lesson_waits(), 10, 2, {1, 1, 1, 2}));
}

TEST_CASE("a double-buffered stream over two and three queues filters every frame right") {
  const int width = 45, height = 31, frames = 7;
  const std::vector<float> weights = course::gaussian_weights(4, 2.0);
  const auto passes = course::build_separable_passes(device(), weights, false);
  const std::size_t pixels = std::size_t(width) * height;
  std::vector<float> in(pixels * frames);
  std::vector<course::GrayImage> sources;
  for (int f = 0; f < frames; ++f) {
    sources.push_back(course::random_gray(width, height, 50 + f));
    std::copy(sources[f].pixels.begin(), sources[f].pixels.end(), in.begin() + f * pixels);
  }
  for (int queues : {2, 3}) {
    CAPTURE(queues);
    std::vector<float> out(in.size(), -1.0f);
    const course::StreamRun run = course::run_frame_stream(device(), passes, lesson_waits(), queues, in.data(),
                                                           out.data(), frames, width, height);
    CHECK(run.span_ms > 0);
    // The host's clock runs from before the first enqueue to the last finish: it cannot see the
    // stream end before its last event does (a tenth allowed for the two clocks' steps).
    CHECK(run.wall_ms >= 0.9 * run.span_ms);
    for (int f = 0; f < frames; ++f) {
      CAPTURE(f);
      const auto expected = course::correlate_separable(sources[f], weights, weights);
      const auto c = course::compare_images(out.data() + f * pixels, expected.pixels.data(), width, height, 1e-3);
      CHECK_MESSAGE(c.ok(), c.describe());
    }
  }
}

TEST_CASE("one picture's trip on the host's clock is no shorter than its events' times summed, in every host memory") {
  const int width = 45, height = 31;
  const auto passes = course::build_separable_passes(device(), course::gaussian_weights(4, 2.0), false);
  const course::GrayImage image = course::random_gray(width, height, 7);
  std::vector<std::uint8_t> picture(image.pixels.size() * sizeof(float)), result;
  std::memcpy(picture.data(), image.pixels.data(), picture.size());
  for (HostMemory memory : {HostMemory::pageable, HostMemory::pinned, HostMemory::zero_copy}) {
    CAPTURE(host_memory_name(memory));
    const Segments s = time_one_picture(device(), passes, memory, picture, result, width, height, 3);
    CHECK(s.total() > 0);
    CHECK(s.wall >= 0.9 * s.total());
  }
}

TEST_CASE("exercise 10 fails its check as shipped") {
  course::ExerciseInfo exercise;
  for (const auto& e : course::registered_exercises())
    if (e.number == "10") exercise = e;
  REQUIRE(exercise.run);
  std::ostringstream report;
  course::ExerciseCheck check(device(), course::project_root() / "exercises" / exercise.folder,
                              std::filesystem::temp_directory_path() / "course-test-10-shipped", report);
  exercise.run(check);
  CAPTURE(report.str());
  CHECK(check.failed() > 0);
}

TEST_CASE("lesson 10 runs and verifies with the suite's small image") {
  const auto dir = std::filesystem::temp_directory_path() / "course-test-10-run";
  const std::string command = std::string(COURSE_BUILD_DIR) +
                              "/lessons/lesson_10 --size 256x192 --repeat 2 --output-dir " + dir.string() +
                              " > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  CHECK((WIFEXITED(status) ? WEXITSTATUS(status) : -1) == 0);
  for (const char* picture :
       {"filtered_float.png", "filtered_8bit.png", "stream_last_frame.png", "stream_timeline.png"})
    CHECK(std::filesystem::exists(dir / picture));
}
