// Unit tests of the common helper: option parsing, images, comparison, references, devices.
#include <doctest/doctest.h>

#include "checker.hpp"
#include "course.hpp"
#include "measure_roofline.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace {
course::Options parse(const std::vector<std::string>& args) {
  course::Options options("test", "test");
  options.value("radius", "R", "radius", "3").value("size", "WxH", "size").value("matrix", "M", "matrix");
  options.value("filter", "F", "filter", "gaussian").flag("quick", "quick");
  options.parse(args);
  return options;
}
fs::path temp_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("course-tests-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}
}  // namespace

TEST_CASE("options give defaults, parsed values and both value spellings") {
  CHECK(parse({}).integer("radius", 0, 16) == 3);
  CHECK(parse({"--radius", "7"}).integer("radius", 0, 16) == 7);
  CHECK(parse({"--radius=9"}).integer("radius", 0, 16) == 9);
  CHECK(parse({"--quick"}).given("quick"));
  CHECK_FALSE(parse({}).given("quick"));
  CHECK(parse({"--size", "131x67"}).size("size") == std::make_pair(131, 67));
  CHECK(parse({"--size", "5"}).size("size") == std::make_pair(5, 5));
  CHECK(parse({"--matrix", "1,0,0.5,0,1,-2"}).numbers("matrix", 6)[5] == doctest::Approx(-2));
}

TEST_CASE("options reject mistakes with a usage error that names the option") {
  CHECK_THROWS_AS(parse({"--radious", "3"}), course::UsageError);
  CHECK_THROWS_AS(parse({"--radius"}), course::UsageError);
  CHECK_THROWS_AS(parse({"stray"}), course::UsageError);
  CHECK_THROWS_AS(parse({"--quick=1"}), course::UsageError);
  CHECK_THROWS_AS(parse({"--radius", "-1"}).integer("radius", 0, 16), course::UsageError);
  CHECK_THROWS_AS(parse({"--radius", "17"}).integer("radius", 0, 16), course::UsageError);
  CHECK_THROWS_AS(parse({"--radius", "3.5"}).integer("radius", 0, 16), course::UsageError);
  CHECK_THROWS_AS(parse({"--radius", "99999999999999999999"}).integer("radius", 0, 16), course::UsageError);
  CHECK_THROWS_AS(parse({"--size", "0x5"}).size("size"), course::UsageError);
  CHECK_THROWS_AS(parse({"--size", "12xx"}).size("size"), course::UsageError);
  CHECK_THROWS_AS(parse({"--matrix", "1,2"}).numbers("matrix", 6), course::UsageError);
  CHECK_THROWS_AS(parse({"--matrix", "1,2,a,4,5,6"}).numbers("matrix", 6), course::UsageError);
  CHECK_THROWS_AS(parse({"--filter", "sharpen"}).choice("filter", {"gaussian", "box"}), course::UsageError);
  try {
    parse({"--radius", "40"}).integer("radius", 0, 16);
    FAIL("no error");
  } catch (const course::UsageError& e) {
    CHECK(std::string(e.what()).find("--radius") != std::string::npos);
    CHECK(std::string(e.what()).find("0 to 16") != std::string::npos);
  }
}

TEST_CASE("a saved PNG loads back with the same gray levels, rounded to nearest") {
  const fs::path dir = temp_dir("png");
  course::GrayImage image{5, 3, {0, 1.4f, 1.6f, 254.6f, 300, -7, 10, 20, 30, 40, 50, 60, 70, 80, 90}};
  course::save_png(dir / "sub" / "gray.png", image);
  const course::GrayImage back = course::load_gray(dir / "sub" / "gray.png");
  REQUIRE(back.width == 5);
  REQUIRE(back.height == 3);
  const std::vector<float> expected = {0, 1, 2, 255, 255, 0, 10, 20, 30, 40, 50, 60, 70, 80, 90};
  CHECK(course::compare_images(back.pixels, expected, 5, 3, 0.0).ok());
  // Nothing but the image itself is left in the folder: the temporary file was renamed.
  CHECK(std::distance(fs::directory_iterator(dir / "sub"), fs::directory_iterator()) == 1);
}

TEST_CASE("colour images turn gray by luma 0.299 R + 0.587 G + 0.114 B") {
  course::RgbaImage rgba{2, 1, {255, 0, 0, 255, 10, 200, 30, 255}};
  const course::GrayImage gray = course::to_gray(rgba);
  CHECK(gray.pixels[0] == doctest::Approx(0.299 * 255));
  CHECK(gray.pixels[1] == doctest::Approx(0.299 * 10 + 0.587 * 200 + 0.114 * 30));
}

TEST_CASE("broken, missing and hostile image files give an input error naming the file") {
  const fs::path dir = temp_dir("bad");
  CHECK_THROWS_AS(course::load_gray(dir / "missing.png"), course::InputError);
  CHECK_THROWS_AS(course::load_gray(dir), course::InputError);
  std::ofstream(dir / "empty.png").close();
  CHECK_THROWS_AS(course::load_gray(dir / "empty.png"), course::InputError);
  std::ofstream(dir / "text.png") << "this is not an image";
  CHECK_THROWS_AS(course::load_gray(dir / "text.png"), course::InputError);
  CHECK_THROWS_AS(course::load_gray(course::project_root() / "data" / "truncated.jpg"), course::InputError);
  // A PGM header that claims 100000 x 100000 pixels is refused before anything is allocated.
  std::ofstream(dir / "huge.pgm") << "P5\n100000 100000\n255\n";
  try {
    course::load_gray(dir / "huge.pgm");
    FAIL("no error");
  } catch (const course::InputError& e) {
    CHECK(std::string(e.what()).find("huge.pgm") != std::string::npos);
    CHECK(std::string(e.what()).find("100000x100000") != std::string::npos);
  }
}

TEST_CASE("the comparison counts NaN as wrong and reports the first mismatches with coordinates") {
  std::vector<float> expected(12, 1.0f), got(12, 1.0f);
  got[5] = 1.5f;
  got[7] = std::nanf("");
  const course::Comparison c = course::compare_images(got, expected, 4, 3, 0.1);
  CHECK(c.wrong == 2);
  CHECK_FALSE(c.ok());
  REQUIRE(c.first.size() == 2);
  CHECK(c.first[0].x == 1);
  CHECK(c.first[0].y == 1);
  CHECK(c.describe().find("(1, 1) got 1.5 expected 1") != std::string::npos);
  CHECK(course::compare_images(expected, expected, 4, 3, 0.0).ok());
}

TEST_CASE("the Gaussian weights sum to one and are symmetric") {
  for (int radius : {0, 1, 5, 16}) {
    const auto w = course::gaussian_weights(radius, 2.0);
    REQUIRE(w.size() == static_cast<std::size_t>(2 * radius + 1));
    double sum = 0;
    for (float v : w) sum += v;
    CHECK(sum == doctest::Approx(1.0).epsilon(1e-6));
    CHECK(w.front() == doctest::Approx(w.back()));
  }
}

TEST_CASE("the separable reference equals the 2D reference with the outer product of its weights") {
  const course::GrayImage image = course::random_gray(23, 17, 5);
  const auto row = course::gaussian_weights(3, 1.3), column = course::box_weights(3);
  const auto separable = course::correlate_separable(image, row, column);
  const auto full = course::correlate_2d(image, course::outer_product(row, column), 3);
  CHECK(course::compare_images(separable.pixels, full.pixels, 23, 17, 1e-3).ok());
}

TEST_CASE("parallel_rows hands every row to exactly one band and passes on an exception from a band") {
  for (const int rows : {0, 1, 5, 97})
    for (const unsigned threads : {0u, 1u, 3u, 8u, 200u}) {
      CAPTURE(rows);
      CAPTURE(threads);
      std::vector<std::atomic<int>> visits(rows);
      course::parallel_rows(rows, threads, [&](int first, int last) {
        for (int y = first; y < last; ++y) ++visits[y];
      });
      for (const auto& v : visits) CHECK(v == 1);
    }
  CHECK_THROWS_AS(course::parallel_rows(40, 4,
                                        [](int first, int) {
                                          if (first > 0) throw std::runtime_error("a band failed");
                                        }),
                  std::runtime_error);
}

TEST_CASE("the references give the same bits on every core as on one thread") {
  const course::GrayImage image = course::random_gray(61, 37, 9);
  const std::vector<float> row = course::gaussian_weights(4, 2.1),
                           column = {0.02f, 0.05f, 0.08f, 0.1f, 0.12f, 0.13f, 0.15f, 0.17f, 0.18f};
  for (const unsigned threads : {0u, 2u, 5u, 64u}) {
    CAPTURE(threads);
    const auto separable = course::correlate_separable(image, row, column, threads);
    const auto separable_one = course::correlate_separable(image, row, column, 1);
    CHECK(std::memcmp(separable.pixels.data(), separable_one.pixels.data(), image.pixels.size() * sizeof(float)) == 0);
    const auto full = course::correlate_2d(image, course::outer_product(row, column), 4, threads);
    const auto full_one = course::correlate_2d(image, course::outer_product(row, column), 4, 1);
    CHECK(std::memcmp(full.pixels.data(), full_one.pixels.data(), image.pixels.size() * sizeof(float)) == 0);
  }
}

TEST_CASE("the 2D reference clamps borders to the nearest edge pixel") {
  // A 1x1 image: every tap reads the single pixel, so any normalised filter returns it.
  const course::GrayImage one{1, 1, {42}};
  CHECK(course::correlate_2d(one, course::outer_product(course::box_weights(4), course::box_weights(4)), 4).pixels[0] ==
        doctest::Approx(42));
  // A step edge: at x = 0 the left taps repeat pixel 0.
  const course::GrayImage step{4, 1, {0, 0, 90, 90}};
  const auto out = course::correlate_separable(step, course::box_weights(1), course::box_weights(0));
  CHECK(out.pixels[0] == doctest::Approx(0));
  CHECK(out.pixels[1] == doctest::Approx(30));
  CHECK(out.pixels[3] == doctest::Approx(90));
}

TEST_CASE("the filter options give normalised weights and refuse an out-of-range radius") {
  course::Options options("test", "test");
  course::add_filter_options(options);
  options.parse(std::vector<std::string>{"--filter", "box", "--radius", "2"});
  const course::FilterSpec box = course::read_filter(options);
  CHECK(box.weights.size() == 5);
  CHECK(box.weights_2d().size() == 25);
  course::Options bad("test", "test");
  course::add_filter_options(bad);
  bad.parse(std::vector<std::string>{"--radius", "17"});
  CHECK_THROWS_AS(course::read_filter(bad), course::UsageError);
  course::Options negative_sigma("test", "test");
  course::add_filter_options(negative_sigma);
  negative_sigma.parse(std::vector<std::string>{"--sigma", "-1"});
  CHECK_THROWS_AS(course::read_filter(negative_sigma), course::UsageError);
}

TEST_CASE("a device spec that matches nothing is an input error that lists the devices") {
  try {
    course::select_device("no-such-device-anywhere");
    FAIL("no error");
  } catch (const course::InputError& e) {
    CHECK(std::string(e.what()).find("[0]") != std::string::npos);
  }
  CHECK_NOTHROW(course::select_device("0"));
  CHECK_THROWS_AS(course::select_device("999"), course::InputError);
}

TEST_CASE("OpenCL errors have names and advice a student can act on") {
  CHECK(std::string(course::cl_error_name(CL_INVALID_WORK_GROUP_SIZE)) == "CL_INVALID_WORK_GROUP_SIZE");
  CHECK(course::cl_error_advice(CL_INVALID_WORK_GROUP_SIZE).find("work-group") != std::string::npos);
  std::ostringstream out;
  CHECK(course::explain_failure(std::make_exception_ptr(cl::Error(CL_INVALID_WORK_GROUP_SIZE, "clEnqueueNDRangeKernel")),
                                out) == course::kExitOpenCL);
  CHECK(out.str().find("CL_INVALID_WORK_GROUP_SIZE") != std::string::npos);
  CHECK(course::explain_failure(std::make_exception_ptr(course::UsageError("x")), out) == course::kExitUsage);
  CHECK(course::explain_failure(std::make_exception_ptr(course::SkipLesson("x")), out) == course::kExitSkipped);
}

TEST_CASE("a kernel that does not compile reports the file name and line in its build log") {
  const course::DeviceContext dc = course::open_device("");
  const fs::path dir = temp_dir("build");
  std::ofstream(dir / "broken.cl") << "__kernel void broken(__global float* data) {\n  data[0] = 1.0f\n}\n";
  try {
    course::build_program(dc, dir / "broken.cl");
    FAIL("no error");
  } catch (const course::KernelBuildError& e) {
    CHECK(std::string(e.what()).find("broken.cl:2") != std::string::npos);
  }
}

TEST_CASE("building the same program twice is answered from the cache") {
  const course::DeviceContext dc = course::open_device("");
  course::BuildStats first, second;
  course::build_course_program(dc, "kernels/common/copy.cl", "-D UNUSED=1", &first);
  course::build_course_program(dc, "kernels/common/copy.cl", "-D UNUSED=1", &second);
  CHECK_FALSE(first.from_cache);
  CHECK(second.from_cache);
}

TEST_CASE("COURSE_SAVE_BINARIES keeps the compiled code of every program built, one file per options") {
  const course::DeviceContext dc = course::open_device("");
  const fs::path dir = temp_dir("binaries");
  setenv("COURSE_SAVE_BINARIES", dir.c_str(), 1);
  course::build_course_program(dc, "kernels/common/copy.cl", "-D SAVED=1");
  course::build_course_program(dc, "kernels/common/copy.cl", "-D SAVED=2");
  unsetenv("COURSE_SAVE_BINARIES");
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    CHECK(entry.path().filename().string().rfind("copy-", 0) == 0);
    CHECK(fs::file_size(entry.path()) > 0);
    ++files;
  }
  CHECK(files == 2);
}

TEST_CASE("a missing kernel file names every path that was tried") {
  try {
    course::locate_course_file("kernels/no_such_lesson/nothing.cl");
    FAIL("no error");
  } catch (const course::InputError& e) {
    CHECK(std::string(e.what()).find("kernels/no_such_lesson/nothing.cl") != std::string::npos);
  }
}

TEST_CASE("event-profiled timing reports a positive median and the copy bandwidth is measured outside the cache") {
  const course::DeviceContext dc = course::open_device("");
  const course::Roofline roof = course::measure_roofline(dc);
  CHECK(roof.copy.gbps > 0);
  // The fastest of 3 to 10 runs after a warm-up, the median and slowest beside it.
  CHECK(roof.copy.runs >= 3);
  CHECK(roof.copy.runs <= 10);
  CHECK(roof.copy.slowest_gbps <= roof.copy.median_gbps);
  CHECK(roof.copy.median_gbps <= roof.copy.gbps);
  CHECK(roof.copy.gbps == doctest::Approx(2 * roof.copy.buffer_bytes / (roof.copy.ms * 1e6)));
  CHECK(roof.cache_bytes >= roof.reported_cache_bytes);
  if (!std::getenv("COURSE_COPY_MIB")) {
    // 4x the cache, unless the device cannot hold two such buffers in an eighth of its memory
    // each, or is so slow that a copy of them would last more than 40 ms (PoCL on two cores): the
    // copy grown to 40 ms at the probe's speed, its median run 10 ms at least on a busy machine.
    const double most = std::min(static_cast<double>(dc.device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>()),
                                 static_cast<double>(dc.device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>()) / 8);
    const double median_ms = 2 * roof.copy.buffer_bytes / (roof.copy.median_gbps * 1e6);
    INFO("copy of 2 x ", roof.copy.buffer_bytes, " bytes: fastest ", roof.copy.ms, " ms, median ", median_ms, " ms");
    CHECK((roof.copy.buffer_bytes >= std::min(4 * roof.cache_bytes, most) - 16 || median_ms >= 10));
    CHECK(roof.copy.ms * 1e6 >= 200 * roof.timer_ns);  // 300 ticks, give or take a busy machine
  }
  // The copies of 8-bit and half pixels, measured when first asked for, the same way, once.
  for (const course::PixelType pixels : {course::PixelType::u8, course::PixelType::f16}) {
    const course::CopyYardstick c = roof.copy_of(pixels);
    CHECK(c.gbps > 0);
    CHECK(c.runs >= 3);
    CHECK(c.slowest_gbps <= c.gbps);
    CHECK(roof.copy_of(pixels).ms == c.ms);  // kept, not measured again
  }
  // local_load_peak.cl: loads from local memory a second, floats and float4s, wherever the
  // device's timer timed the FMA peak (PoCL's does).
  if (roof.gflops > 0) {
    CHECK(roof.local_gloads > 0);
    CHECK(roof.local4_gloads > 0);
  }
  CHECK(course::median({3, 1, 2}) == 2);
  CHECK(course::median({4, 1, 2, 3}) == doctest::Approx(2.5));
  // Two commands a run: each one's median is kept, in the order the step returned them.
  cl::Buffer buffer(dc.context, CL_MEM_READ_WRITE, 1 << 20);
  cl::CommandQueue queue = dc.queue;
  const course::Timing t = course::time_events(queue, [&] {
    std::vector<cl::Event> events(2);
    queue.enqueueFillBuffer(buffer, 1.0f, 0, 1 << 20, nullptr, &events[0]);
    queue.enqueueFillBuffer(buffer, 2.0f, 0, 1 << 19, nullptr, &events[1]);
    return events;
  });
  REQUIRE(t.command_ms.size() == 2);
  for (double ms : t.command_ms) CHECK((ms >= 0 && ms <= t.max_ms));
}

namespace {
// A results row with a timing spread: `ms` the median, `low` to `high` over 5 runs.
course::ResultRow timed_row(const std::string& name, double ms, double low, double high, double end_to_end = -1) {
  course::ResultRow row{name, ms, end_to_end, 1e6, 8e6, 0, true};
  course::Timing t;
  t.device_ms = ms, t.min_ms = low, t.max_ms = high, t.runs = 5;
  return row.spread(t);
}
// A table printed whole (every column, COURSE_TABLE=full), its wrapped notes joined into one line each.
// The results table's header line in `text` (empty when it printed none), every line of `text`
// checked to fit 80 columns.
std::string checked_header(const std::string& text) {
  std::istringstream lines(text);
  std::string header;
  for (std::string line; std::getline(lines, line);) {
    CHECK_MESSAGE(line.size() <= 80, line);
    if (header.empty() && line.rfind("  variant", 0) == 0) header = line;
  }
  return header;
}

std::string full_text(const course::ResultsTable& table) {
  std::ostringstream out;
  setenv("COURSE_TABLE", "full", 1);
  table.print(out);
  unsetenv("COURSE_TABLE");
  std::string text = out.str();
  for (std::size_t at; (at = text.find("\n      ")) != std::string::npos;) text.replace(at, 7, " ");
  return text;
}
}  // namespace

TEST_CASE("the results table names each speed-up's baseline and says which differences are noise") {
  course::Roofline copy(40.0, 400.0);
  copy.copy.median_gbps = 20, copy.copy.slowest_gbps = 5, copy.copy.runs = 5;
  course::ResultsTable table("a title", copy);
  table.add(timed_row("plain", 10.0, 9.5, 10.5, 11.0));
  course::ResultRow win = timed_row("clear win", 5.0, 4.9, 5.1, 5.5);
  win.flops = 1.6e8;  // 20 per byte: above the ridge of 400 / 40 = 10, so arithmetic bounds it
  table.add(win);
  table.add(timed_row("within noise", 9.0, 6.0, 12.0, 9.5));
  course::ResultRow other = timed_row("other kind", 2.0, 1.9, 2.1, 1.5);  // kernel above end-to-end
  other.baseline = "-";
  table.add(other);
  course::ResultRow paired = timed_row("other kind, better", 1.0, 0.95, 1.05);
  paired.baseline = "other kind";
  table.add(paired);
  // The notes as one line each, however they were wrapped.
  const std::string text = full_text(table);
  std::istringstream lines(text);
  std::vector<std::string> all;
  for (std::string line; std::getline(lines, line);) all.push_back(line);
  // The layout the tour and the bench read: title, header, rule, one line per row, then notes
  // indented by four spaces.
  REQUIRE(all.size() >= 9);
  CHECK(all[1] == "a title  (device copy bandwidth: 40.0 GB/s)");
  CHECK(all[2].rfind("  variant  ", 0) == 0);
  CHECK(all[3].find("-----") != std::string::npos);
  CHECK(all[2].find("  flop/B  roofline ms  ") != std::string::npos);
  CHECK(all[4].find("plain") == 2);
  CHECK(all[4].find(" -       0.2000  ") != std::string::npos);      // no flops: the memory time, 8e6 B at 40 GB/s
  CHECK(all[5].find(" 20.00       0.4000  ") != std::string::npos);  // 1.6e8 flops at 400 GFLOP/s
  CHECK(all[4].find("x ") == std::string::npos);                     // the first row has no speed-up
  CHECK(all[5].find("2.00x ") != std::string::npos);                 // clear win: 10 / 5
  CHECK(all[6].find("1.11x~") != std::string::npos);                 // 10 / 9, within 6 to 12 ms
  CHECK(all[7].find("x ") == std::string::npos);                     // no baseline
  CHECK(all[8].find("2.00x ") != std::string::npos);                 // against "other kind"
  for (std::size_t i = 9; i < all.size(); ++i) CHECK(all[i].rfind("    ", 0) == 0);
  CHECK(text.find("speed-up = kernel ms of plain / kernel ms of the row, for: clear win, within noise") !=
        std::string::npos);
  CHECK(text.find("speed-up = kernel ms of other kind / kernel ms of the row, for: other kind, better") !=
        std::string::npos);
  CHECK(text.find("~ within noise against plain: the difference is within the spread") != std::string::npos);
  CHECK(text.find("~ clear win") == std::string::npos);
  CHECK(text.find("kernel ms above end-to-end ms (other kind)") != std::string::npos);
  CHECK(text.find("roofline ms = the larger of bytes / the row's copy bandwidth and flops / 400 GFLOP/s") !=
        std::string::npos);
  CHECK(text.find("% of copy: of the float copy (copy.cl's copy_float4), 40.0 GB/s, the fastest of 5 runs after a "
                  "warm-up; median 20.0, slowest 5.0 GB/s (a swing of 8.0x") != std::string::npos);
}

namespace {
// A fake device's memory for copy_size(): `cache` reported, `gpu` or not, `alloc` bytes in one
// allocation at most, `global` bytes in all.
course::DeviceMemory fake_device(double cache, bool gpu, double alloc, double global) {
  course::DeviceMemory m;
  m.reported_cache_bytes = cache, m.gpu = gpu, m.max_alloc_bytes = alloc, m.global_bytes = global;
  return m;
}
constexpr double MiB = 1024.0 * 1024, GiB = 1024 * MiB;
}  // namespace

TEST_CASE("the copy's buffers are 4x the last-level cache, a device reporting none still gets one") {
  SUBCASE("a CPU device reporting no cache (Mesa's rusticl on llvmpipe) is taken to have 32 MiB") {
    const course::CopySize s = course::copy_size(fake_device(0, false, 2 * GiB, 16 * GiB), nullptr);
    CHECK(s.cache_bytes == 32 * MiB);
    CHECK(s.buffer_bytes == 128 * MiB);
    CHECK_FALSE(s.given);
  }
  SUBCASE("a CPU reporting its cache keeps it, within an eighth of its memory") {
    const course::CopySize s = course::copy_size(fake_device(480 * MiB, false, 2 * GiB, 5 * GiB), nullptr);
    CHECK(s.cache_bytes == 480 * MiB);
    CHECK(s.buffer_bytes == doctest::Approx(5 * GiB / 8).epsilon(1e-6));
    CHECK(std::fmod(s.buffer_bytes, 16) == 0);
  }
  SUBCASE("a GPU reporting less than the documented GPU cache gets 128 MiB, and 512 MiB buffers") {
    for (const double reported : {0.0, 4.1 * MiB, 50e6}) {
      const course::CopySize s = course::copy_size(fake_device(reported, true, 20 * GiB, 80 * GiB), nullptr);
      CHECK(s.cache_bytes == course::documented_gpu_cache_bytes);
      CHECK(s.buffer_bytes == 512 * MiB);
    }
    CHECK(course::copy_size(fake_device(256 * MiB, true, 20 * GiB, 80 * GiB), nullptr).buffer_bytes == GiB);
  }
  SUBCASE("a tiny largest allocation bounds the buffers, to whole float4s; none at all is an error") {
    CHECK(course::copy_size(fake_device(0, false, 1000, 16 * GiB), nullptr).buffer_bytes == 992);
    CHECK(course::copy_size(fake_device(4 * MiB, true, 20 * GiB, 256 * MiB), nullptr).buffer_bytes == 32 * MiB);
    CHECK_THROWS_AS(course::copy_size(fake_device(0, false, 8, 16 * GiB), nullptr), course::DeviceLimitError);
  }
  SUBCASE("COURSE_COPY_MIB sets the size, within the same limits, and a bad value says what it takes") {
    const course::CopySize s = course::copy_size(fake_device(0, false, 2 * GiB, 16 * GiB), "4");
    CHECK(s.given);
    CHECK(s.buffer_bytes == 4 * MiB);
    CHECK(s.cache_bytes == 32 * MiB);
    CHECK(course::copy_size(fake_device(0, false, 2 * GiB, 16 * GiB), "100000").buffer_bytes == 2 * GiB);
    CHECK_FALSE(course::copy_size(fake_device(0, false, 2 * GiB, 16 * GiB), "").given);
    for (const char* bad : {"0", "-1", "abc", "4 MiB", "nan"}) {
      try {
        course::copy_size(fake_device(0, false, 2 * GiB, 16 * GiB), bad);
        FAIL("no error for COURSE_COPY_MIB=" << bad);
      } catch (const course::UsageError& e) {
        CHECK(std::string(e.what()).find("COURSE_COPY_MIB") != std::string::npos);
        CHECK(std::string(e.what()).find(std::string("'") + bad + "'") != std::string::npos);
      }
    }
  }
}

TEST_CASE("each row divides by the copy of its own pixels, and a verified row above 102% of it is a yardstick defect") {
  course::Roofline roof(40.0, 400.0);
  roof.copy.median_gbps = 39, roof.copy.slowest_gbps = 38, roof.copy.runs = 10, roof.copy.buffer_bytes = 64 * MiB;
  roof.copy.ms = 3.355;
  roof.cache_bytes = 1e6, roof.reported_cache_bytes = 0;
  int asked = 0;  // how often the 8-bit copy was asked for
  roof.measure_narrow_copy = [&](course::PixelType pixels) {
    ++asked;
    course::CopyYardstick c;
    if (pixels != course::PixelType::u8) return c;
    c.gbps = 20, c.median_gbps = 19, c.slowest_gbps = 18, c.runs = 10, c.buffer_bytes = 64 * MiB, c.ms = 6.711;
    return c;
  };
  course::ResultsTable table("a title", roof);
  // 8e6 bytes: 0.19 ms is 42.1 GB/s, 105% of the float copy; 0.198 ms 101%.
  table.add(timed_row("beats the copy", 0.19, 0.19, 0.19));
  table.add(timed_row("near the copy", 0.198, 0.198, 0.198));
  course::ResultRow wrong = timed_row("wrong and fast", 0.1, 0.1, 0.1);
  wrong.verified = false;  // not verified: its speed is no result anyway
  table.add(wrong);
  course::ResultRow cached = timed_row("cached and fast", 0.01, 0.01, 0.01);
  cached.bytes = 5e5;  // within the 1 MB cache: the cache may beat memory
  table.add(cached);
  // 8e6 bytes in 0.5 ms: 16 GB/s, 80% of the 8-bit copy (40% of the float one).
  course::ResultRow narrow = timed_row("bytes u8", 0.5, 0.5, 0.5);
  narrow.copy = course::PixelType::u8;
  table.add(narrow);
  course::ResultRow narrow_fast = timed_row("bytes fast u8", 0.38, 0.38, 0.38);  // 21.1 GB/s: 105%
  narrow_fast.copy = course::PixelType::u8;
  table.add(narrow_fast);
  std::ostringstream out;
  setenv("COURSE_TABLE", "full", 1);
  table.print(out);
  unsetenv("COURSE_TABLE");
  CHECK(asked == 1);
  std::string text = out.str();
  std::istringstream lines(text);
  std::vector<std::string> all;
  for (std::string line; std::getline(lines, line);) all.push_back(line);
  for (std::size_t at; (at = text.find("\n      ")) != std::string::npos;) text.replace(at, 7, " ");
  const auto row = [&](const std::string& name) {
    for (const auto& line : all)
      if (line.rfind("  " + name + "  ", 0) == 0) return line;
    return std::string();
  };
  CHECK(row("beats the copy").find(" 105%! ") != std::string::npos);
  CHECK(row("near the copy").find(" 101% ") != std::string::npos);
  CHECK(row("wrong and fast").find(" 200% ") != std::string::npos);
  CHECK(row("cached and fast").find(" 125% ") != std::string::npos);
  CHECK(row("bytes u8").find(" 80% ") != std::string::npos);
  CHECK(row("bytes u8").find(" 0.4000 ") != std::string::npos);  // roofline ms: 8e6 bytes at 20 GB/s
  CHECK(row("bytes fast u8").find(" 105%! ") != std::string::npos);
  CHECK(text.find("! above 102% of its copy (beats the copy, bytes fast u8): a kernel that reads and writes its "
                  "bytes once is not expected to beat a copy of them, so the yardstick likely read low for this "
                  "row, and no conclusion rests on it") != std::string::npos);
  CHECK(text.find("% of copy of bytes u8, bytes fast u8: of the 8-bit copy (copy.cl's copy_uchar16), 20.0 GB/s, the "
                  "fastest of 10 runs of 2 x 64.0 MiB after a warm-up (6.711 ms); median 19.0, slowest 18.0 GB/s") !=
        std::string::npos);
  CHECK(text.find("% of copy of beats the copy, near the copy, wrong and fast, cached and fast: of the float copy "
                  "(copy.cl's copy_float4), 40.0 GB/s, the fastest of 10 runs of 2 x 64.0 MiB after a warm-up "
                  "(3.355 ms); median 39.0, slowest 38.0 GB/s") != std::string::npos);
  CHECK(text.find("copies: last-level cache 1.0 MiB (the course's size for a device whose driver reports none)") !=
        std::string::npos);
}

TEST_CASE("a device whose timer gave the FMA peak no time gets a roof of memory alone, not a division by 0 GFLOP/s") {
  course::Roofline roof(40.0, 0.0);  // Mesa's llvmpipe: fma_peak.cl timed at 0 ms
  roof.copy.runs = 10, roof.copy.buffer_bytes = 64 * MiB;
  course::ResultsTable table("a title", roof);
  course::ResultRow row = timed_row("some kernel", 0.5, 0.5, 0.5);
  row.flops = 1e9;
  table.add(row);
  const std::string text = full_text(table);
  CHECK(text.find("0 GFLOP/s") == std::string::npos);
  CHECK(text.find("roofline ms = bytes / the row's copy bandwidth: fma_peak.cl's time read 0 on this device") !=
        std::string::npos);
  CHECK(text.find(" 0.2000 ") != std::string::npos);  // roofline ms: 8e6 bytes at 40 GB/s
}

TEST_CASE("a row declaring local loads gets a floor of its loads over the measured local load rate, and the largest floor bounds it") {
  course::Roofline roof(40.0, 400.0);
  roof.local_gloads = 10, roof.local4_gloads = 2.5;  // 10^9 floats, 2.5 10^9 float4s a second
  roof.copy.runs = 10, roof.copy.buffer_bytes = 64 * MiB;
  course::ResultsTable table("a title", roof);
  // 1e6 outputs, 8e6 bytes: a memory floor of 0.2 ms at 40 GB/s.
  course::ResultRow ring = timed_row("ring", 0.5, 0.5, 0.5);
  ring.local_loads = 0.75 * ring.pixels, ring.local_load_bytes = 16;  // 0.75e6 float4s: 0.3 ms
  table.add(ring);
  course::ResultRow tile = timed_row("tile", 0.5, 0.5, 0.5);
  tile.local_loads = 1e6;  // floats: 0.1 ms, under the memory floor
  table.add(tile);
  table.add(timed_row("none", 0.5, 0.5, 0.5));
  CHECK(roof.local_ms(ring.local_loads, 16) == doctest::Approx(0.3));
  CHECK(roof.local_ms(tile.local_loads, 4) == doctest::Approx(0.1));
  CHECK(roof.bound_ms(ring, 40.0) == doctest::Approx(0.3));
  CHECK(roof.bound_ms(tile, 40.0) == doctest::Approx(0.2));
  CHECK(roof.bound_name(ring, 40.0) == "local loads");
  CHECK(roof.bound_name(tile, 40.0) == "memory");
  const std::string text = full_text(table);
  std::istringstream lines(text);
  std::string ring_line, tile_line;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  ring  ", 0) == 0) ring_line = line;
    if (line.rfind("  tile  ", 0) == 0) tile_line = line;
  }
  CHECK(ring_line.find(" 0.3000 ") != std::string::npos);  // roofline ms: the local-load floor
  CHECK(tile_line.find(" 0.2000 ") != std::string::npos);  // the memory floor, the larger
  CHECK(text.find("local loads of ring: 0.75 float4s an output pixel; at 2.5 G float4s a second (local_load_peak.cl) a "
                  "floor of 0.3000 ms; its bound: local loads") != std::string::npos);
  CHECK(text.find("local loads of tile: 1.00 floats an output pixel; at 10.0 G floats a second (local_load_peak.cl) a "
                  "floor of 0.1000 ms; its bound: memory") != std::string::npos);
  CHECK(text.find("local loads of none") == std::string::npos);
  CHECK(text.find("or a row's local-load floor where it is larger (below)") != std::string::npos);
}

TEST_CASE("a device whose timer gave the local load peak no time gets a roof of memory alone for a row with local loads") {
  course::Roofline roof(40.0, 0.0);  // Mesa's llvmpipe: the peaks timed at 0 ms
  roof.copy.runs = 10, roof.copy.buffer_bytes = 64 * MiB;
  course::ResultsTable table("a title", roof);
  course::ResultRow ring = timed_row("ring", 0.5, 0.5, 0.5);
  ring.local_loads = 0.75 * ring.pixels, ring.local_load_bytes = 16;
  table.add(ring);
  CHECK(roof.local_ms(ring.local_loads, 16) == 0);
  CHECK(roof.bound_ms(ring, 40.0) == doctest::Approx(0.2));
  CHECK(roof.bound_name(ring, 40.0) == "memory");
  const std::string text = full_text(table);
  CHECK(text.find(" 0.2000 ") != std::string::npos);  // roofline ms: 8e6 bytes at 40 GB/s
  CHECK(text.find("inf") == std::string::npos);
  CHECK(text.find("local loads of ring: 0.75 float4s an output pixel; local_load_peak.cl's time read 0 on this "
                  "device, so they set no floor") != std::string::npos);
}

TEST_CASE("a results table shows a wall time beside the end-to-end time, keeps the two at 80 columns and says what each is") {
  course::Roofline roof(100.0, 1000.0);
  course::ResultsTable table("a title", roof);
  course::ResultRow picture = timed_row("picture", 1.0, 0.9, 1.1, 1.5);
  picture.wall_ms = 1.75;
  table.add(picture);
  table.add(timed_row("no wall", 2.0, 1.9, 2.1, 2.5));  // not timed on the host's clock: "-"
  std::ostringstream out;
  table.print(out);
  const std::string header = checked_header(out.str());
  REQUIRE(!header.empty());
  CHECK(header.find("end-to-end ms  wall ms") != std::string::npos);
  CHECK(header.find("flop/B") == std::string::npos);  // narrowed: the other columns go first
  const std::string text = out.str();
  CHECK(text.find("1.500    1.750") != std::string::npos);
  CHECK(text.find("2.500        -") != std::string::npos);
  CHECK(text.find("    end-to-end ms adds up the trip's event times; wall ms reads the host's clock\n") !=
        std::string::npos);
  // A table no row of which timed a wall time has no such column, nor its note.
  course::ResultsTable events_only("a title", roof);
  events_only.add(timed_row("no wall", 2.0, 1.9, 2.1, 2.5));
  CHECK(full_text(events_only).find("wall ms") == std::string::npos);
}

TEST_CASE("a results table marks rows too short to time or held by the cache, and fits 80 columns with every column in a file") {
  course::Roofline roof(100.0, 1000.0);
  roof.cache_bytes = 50e6, roof.timer_ns = 1000;  // 100 ticks: 0.1 ms, longer than 20 us
  course::ResultsTable table("a title long enough to be wrapped when the table is narrowed to eighty columns", roof);
  course::ResultRow first = timed_row("a variant whose name alone takes more than forty columns", 10.0, 9.9, 10.1);
  first.bytes = 1e9;
  table.add(first);
  course::ResultRow brief = timed_row("brief", 0.05, 0.05, 0.05);  // under 100 ticks
  brief.bytes = 1e9;
  table.add(brief);
  course::ResultRow cached = timed_row("cached", 1.0, 1.0, 1.0);  // 8e6 bytes fit 50 MB
  table.add(cached);
  const auto file = std::filesystem::path(COURSE_BUILD_DIR) / "test-out" / "table-marks" / "results.txt";
  std::filesystem::remove(file);
  std::ostringstream out;
  table.print(out, file);
  const std::string header = checked_header(out.str());
  REQUIRE(!header.empty());
  CHECK(header.find("kernel ms") != std::string::npos);
  CHECK(header.find("speed-up") != std::string::npos);
  CHECK(header.find("verified") != std::string::npos);
  CHECK(header.find("flop/B") == std::string::npos);  // the first column to go
  const std::string text = out.str();
  CHECK(text.find(" 0.05000* ") != std::string::npos);
  CHECK(text.find(" 1.000+ ") != std::string::npos);
  CHECK(text.find(" 10.00 ") != std::string::npos);  // neither mark
  CHECK(text.find("    * under 0.1000 ms") != std::string::npos);
  CHECK(text.find("    + moves no more than the 47.7 MiB taken as the last-level cache") != std::string::npos);
  // The last note, as one line however it was wrapped: the columns left out, and the file.
  std::string joined = text;
  for (std::size_t at; (at = joined.find("\n      ")) != std::string::npos;) joined.replace(at, 7, " ");
  CHECK(joined.find("left out to fit 80 columns: end-to-end ms, MPix/s, GB/s, % of copy, flop/B, roofline ms, max "
                    "error; every column: " +
                    course::shown_path(file)) != std::string::npos);
  // A path is named from the working folder when that is shorter, else as it was given.
  const fs::path here = fs::current_path();
  CHECK(course::shown_path(here / "out" / "05" / "results.txt") == (fs::path("out") / "05" / "results.txt").string());
  CHECK(course::shown_path(here.root_path() / "elsewhere.txt") == (here.root_path() / "elsewhere.txt").string());
  std::ifstream written(file);
  const std::string whole((std::istreambuf_iterator<char>(written)), std::istreambuf_iterator<char>());
  CHECK(whole.find("  flop/B  roofline ms  ") != std::string::npos);
  CHECK(whole.find("a variant whose name alone takes more than forty columns  ") != std::string::npos);
}

namespace {
// What ResultsTable::running() and the calls after it write on stderr under $COURSE_PROGRESS
// `setting` ("" for unset): the variant, then a row added, then the table printed.
std::string progress_written(const std::string& setting, std::string* table_text = nullptr) {
  if (setting.empty())
    unsetenv("COURSE_PROGRESS");
  else
    setenv("COURSE_PROGRESS", setting.c_str(), 1);
  std::ostringstream caught, table_out;
  std::streambuf* const saved = std::cerr.rdbuf(caught.rdbuf());
  {
    course::ResultsTable table("a title", 0);
    table.running("tiled_16x16");
    table.add(timed_row("tiled_16x16", 1.0, 0.9, 1.1));
    table.running("never added");  // a variant that fails: the table's end clears its line
    table.print(table_out);
  }
  std::cerr.rdbuf(saved);
  unsetenv("COURSE_PROGRESS");
  if (table_text) *table_text = table_out.str();
  return caught.str();
}
}  // namespace

TEST_CASE("a lesson names each variant on stderr as it starts: overwritten on a terminal, a line each when asked") {
  std::string table;
  CHECK(progress_written("lines", &table) == "  running tiled_16x16 ...\n  running never added ...\n");
  CHECK(table.find("running") == std::string::npos);  // the results table on stdout stays as the bench reads it
  // On a terminal: the line starts clean, the cursor goes back to its start, and the row added,
  // the next variant and the table each clear it.
  CHECK(progress_written("terminal") ==
        "\r\033[K  running tiled_16x16 ...\r\r\033[K\r\033[K  running never added ...\r\r\033[K");
  CHECK(progress_written("off").empty());
  if (!isatty(2)) CHECK(progress_written("").empty());  // logs, pipes and the tour get nothing
}

TEST_CASE("guard bands catch a kernel that writes past the end of its buffer") {
  const course::DeviceContext dc = course::open_device("");
  const fs::path dir = temp_dir("guard");
  std::ofstream(dir / "overrun.cl") << "__kernel void overrun(__global float* out, int n) {\n"
                                       "  int i = get_global_id(0);\n  if (i <= n) out[i] = 1.0f;\n}\n";
  cl::Kernel kernel(course::build_program(dc, dir / "overrun.cl"), "overrun");
  course::GuardedBuffer buffer(dc, 100);
  kernel.setArg(0, buffer.buffer());
  kernel.setArg(1, 100);
  dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(128), cl::NDRange(32));
  dc.queue.finish();
  const std::string damage = buffer.damaged_guards();
  CHECK(damage.find("past its end (first at index 100)") != std::string::npos);
}

TEST_CASE("a row is made from a variant's named work, its timed runs and its comparison, and says how it differs") {
  course::RowWork work;
  work.variant = "tiled u8";
  work.pixels = 12, work.bytes = 24, work.flops = 48, work.copy = course::PixelType::u8;
  work.baseline = "naive u8";
  const course::Timing t = course::timing_of({3.0, 1.0, 2.0, 5.0});
  CHECK(t.device_ms == doctest::Approx(2.5));
  CHECK(t.min_ms == 1.0);
  CHECK(t.max_ms == 5.0);
  CHECK(t.runs == 4);
  std::vector<float> expected(12, 1.0f), got(12, 1.0f);
  std::ostringstream said;
  course::ResultRow row =
      course::result_row(work, t, 7.0, course::compare_images(got, expected, 4, 3, 0.0), said);
  CHECK(row.variant == "tiled u8");
  CHECK(row.kernel_ms == doctest::Approx(2.5));
  CHECK(row.min_ms == 1.0);
  CHECK(row.max_ms == 5.0);
  CHECK(row.runs == 4);
  CHECK(row.end_to_end_ms == 7.0);
  CHECK(row.pixels == 12);
  CHECK(row.bytes == 24);
  CHECK(row.flops == 48);
  CHECK(row.copy == course::PixelType::u8);
  CHECK(row.baseline == "naive u8");
  CHECK(row.verified);
  CHECK(said.str().empty());
  got[6] = std::nanf("");
  row = course::result_row(work, t, -1, course::compare_images(got, expected, 4, 3, 0.0), said);
  CHECK_FALSE(row.verified);
  CHECK(std::isinf(row.max_error));
  CHECK(said.str().find("  tiled u8 differs from the CPU reference: ") == 0);
  CHECK(said.str().find("(2, 1) got nan") != std::string::npos);
}

TEST_CASE("a measured variant that skips pixels fails even where an earlier variant left the right values") {
  const course::DeviceContext dc = course::open_device("");
  cl::CommandQueue queue = dc.queue;
  const course::GrayImage reference{4, 3, std::vector<float>(12, 7.0f)};
  const std::size_t bytes = 12 * sizeof(float);
  cl::Buffer input(dc.context, CL_MEM_READ_ONLY, bytes), output(dc.context, CL_MEM_READ_WRITE, bytes);
  course::RowWork work;
  work.variant = "writes";
  // A "variant" that writes the first `count` pixels of the right answer.
  const auto writing = [&](std::size_t count) {
    return [&, count] {
      cl::Event e;
      queue.enqueueWriteBuffer(output, CL_FALSE, 0, count * sizeof(float), reference.pixels.data(), nullptr, &e);
      return std::vector<cl::Event>{e};
    };
  };
  std::ostringstream said;
  const course::ImageRun whole =
      course::measure_image(dc, work, writing(12), input, &reference, output, reference, 0.0, 2, said);
  CHECK(whole.row.verified);
  CHECK(whole.row.runs == 2);
  CHECK(whole.row.end_to_end_ms >= 0);
  CHECK(whole.image.pixels == reference.pixels);
  // The output now holds the right answer; one that writes half of it must still fail.
  work.variant = "writes half";
  const course::ImageRun half =
      course::measure_image(dc, work, writing(6), input, nullptr, output, reference, 0.0, 2, said);
  CHECK_FALSE(half.row.verified);
  CHECK(half.row.end_to_end_ms == -1);
  CHECK(std::isnan(half.image.pixels[11]));
  CHECK(said.str().find("writes half differs from the CPU reference") != std::string::npos);

  // 8-bit outputs, which have no NaN, are poisoned with 255, half ones with a half NaN.
  std::vector<std::uint8_t> levels(bytes);
  course::poison_output(queue, output, bytes, course::PixelType::u8);
  queue.enqueueReadBuffer(output, CL_TRUE, 0, bytes, levels.data());
  CHECK(std::all_of(levels.begin(), levels.end(), [](std::uint8_t v) { return v == 255; }));
  std::vector<std::uint16_t> halves(bytes / 2);
  course::poison_output(queue, output, bytes, course::PixelType::f16);
  queue.enqueueReadBuffer(output, CL_TRUE, 0, bytes, halves.data());
  CHECK(std::all_of(halves.begin(), halves.end(), [](std::uint16_t v) { return v == 0x7e00; }));
}
