// Lesson 11's tuner on families with deterministic costs (no device, no timing noise), its cache
// file, the roofline it reports, and lessons 05 and 06 running its cached winners.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "course.hpp"
#include "kernel_families.hpp"
#include "report.hpp"
#include "search_space.hpp"
#include "tuner.hpp"
#include "winner_cache.hpp"

namespace {

// A 4-axis space whose cost is a bowl around (2, 3, 1, 2), with every candidate of more than 256
// "work-items" (group_x * group_y) illegal. The bowl's true bottom at group 512x1 is illegal.
struct BowlFamily {
  tuning::Family family;
  std::set<tuning::Point> measured;
  std::set<tuning::Point> illegal_measured;
  BowlFamily() {
    family.space.axes = {{"variant", {0, 1, 2}, {"a", "b", "c"}},
                         {"group_x", {16, 32, 64, 128, 256, 512}, {}},
                         {"group_y", {1, 2, 4, 8}, {}},
                         {"vector", {1, 2, 4, 8}, {}}};
    family.why_illegal = [this](const tuning::Point& p) -> std::string {
      const int items = family.space.value(p, "group_x") * family.space.value(p, "group_y");
      return items > 256 ? std::to_string(items) + " work-items, over 256" : "";
    };
    family.measure = [this](const tuning::Point& p) {
      if (!family.why_illegal(p).empty()) illegal_measured.insert(p);
      measured.insert(p);
      tuning::Measurement m;
      m.verified = true;
      const int d[] = {p[0] - 2, p[1] - 3, p[2] - 1, p[3] - 2};
      m.kernel_ms = 1.0 + d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3];
      return m;
    };
    family.bytes_moved = [](const tuning::Point&) { return 1e6; };
  }
};

}  // namespace

TEST_CASE("a space numbers its candidates and finds one-step neighbours") {
  tuning::Space space;
  space.axes = {{"a", {1, 2, 3}, {}}, {"b", {10, 20}, {}}};
  CHECK(space.size() == 6);
  CHECK(space.point(0) == tuning::Point{0, 0});
  CHECK(space.point(5) == tuning::Point{2, 1});
  CHECK(space.describe(space.point(3)) == "a=2 b=20");
  const auto around = tuning::neighbours(space, {1, 0});
  CHECK(around.size() == 3);  // a down, a up, b up
}

TEST_CASE("a recorded search names each candidate by its variant, group shape and other values") {
  tuning::Space space;
  space.axes = {{"variant", {0, 1}, {"vector_passes", "aligned_passes"}},
                {"group_x", {16, 64}, {}},
                {"group_y", {1, 4}, {}},
                {"outputs", {1, 8}, {}},
                {"strip", {0, 64}, {"none", "64"}}};
  CHECK(space.name({0, 0, 1, 1, 0}) == "vector_passes_16x4_o8");
  CHECK(space.name({1, 1, 0, 0, 1}) == "aligned_passes_64x1_o1_s64");
  // Every candidate under a name of its own.
  std::set<std::string> names;
  for (std::size_t i = 0; i < space.size(); ++i) names.insert(space.name(space.point(i)));
  CHECK(names.size() == space.size());
}

TEST_CASE("the exhaustive search skips illegal candidates without measuring them and finds the legal best") {
  BowlFamily bowl;
  tuning::Tuner tuner(bowl.family);
  const auto list = tuner.exhaustive();
  CHECK(list.size() == bowl.family.space.size());
  CHECK(bowl.illegal_measured.empty());
  int skipped = 0;
  for (const auto& m : list) skipped += !m.ran();
  CHECK(skipped > 0);
  const tuning::Measurement* best = tuning::Tuner::fastest(list);
  REQUIRE(best);
  CHECK(best->point == tuning::Point{2, 3, 1, 2});
  CHECK(tuning::compiled(list) == static_cast<int>(bowl.measured.size()));
}

TEST_CASE("the budgeted search stays within its budget, never launches an illegal candidate and climbs to the best") {
  for (unsigned seed : {1u, 2u, 3u, 4u, 5u}) {
    CAPTURE(seed);
    BowlFamily bowl;
    tuning::Tuner tuner(bowl.family);
    const auto list = tuner.budgeted(40, seed);
    CHECK(tuning::compiled(list) <= 40);
    CHECK(bowl.illegal_measured.empty());
    const tuning::Measurement* best = tuning::Tuner::fastest(list);
    REQUIRE(best);
    CHECK(best->point == tuning::Point{2, 3, 1, 2});
  }
}

TEST_CASE("a candidate measured once is not measured again") {
  BowlFamily bowl;
  tuning::Tuner tuner(bowl.family);
  tuner.exhaustive();
  const std::size_t once = bowl.measured.size();
  tuner.budgeted(10, 7);
  CHECK(bowl.measured.size() == once);
}

TEST_CASE("the tuning cache keeps a winner per device, driver, operation and size class") {
  const std::filesystem::path dir = std::filesystem::path(COURSE_BUILD_DIR) / "test-out" / "tuning-cache";
  std::filesystem::remove_all(dir);
  const std::filesystem::path file = dir / "tuning.json";
  BowlFamily bowl;
  const tuning::Space& space = bowl.family.space;
  const lesson11::CacheKey key{"Some GPU", "1.2.3", "separable gaussian r=8", "up to 2048x2048"};
  std::ostringstream log;

  SUBCASE("a stored winner comes back, next to other entries") {
    lesson11::store_winner(file, {"Other", "1", "median", "up to 64x64"}, space, {0, 0, 0, 0}, 2.0);
    lesson11::store_winner(file, key, space, {2, 3, 1, 2}, 0.5);
    lesson11::store_winner(file, key, space, {1, 3, 1, 2}, 0.4);  // replaces the first
    const auto back = lesson11::load_winner(file, key, space, log);
    REQUIRE(back);
    CHECK(*back == tuning::Point{1, 3, 1, 2});
    CHECK(lesson11::load_winner(file, {"Other", "1", "median", "up to 64x64"}, space, log));
    CHECK(log.str().empty());
  }
  SUBCASE("an entry for another driver is ignored with one line") {
    lesson11::store_winner(file, key, space, {2, 3, 1, 2}, 0.5);
    lesson11::CacheKey newer = key;
    newer.driver = "2.0";
    CHECK_FALSE(lesson11::load_winner(file, newer, space, log));
    CHECK(log.str().find("tuned with driver '1.2.3', this is '2.0'") != std::string::npos);
  }
  SUBCASE("a corrupt file is ignored with one line, then replaced") {
    std::filesystem::create_directories(dir);
    std::ofstream(file) << "{\"entries\": [ {\"device\": \"Some GPU\", ";
    CHECK_FALSE(lesson11::load_winner(file, key, space, log));
    CHECK(log.str().find("not valid JSON") != std::string::npos);
    lesson11::store_winner(file, key, space, {2, 3, 1, 2}, 0.5);
    CHECK(lesson11::load_winner(file, key, space, log));
  }
  SUBCASE("a winner outside the search space is ignored with one line") {
    std::filesystem::create_directories(dir);
    std::ofstream(file) << "{\"entries\": [{\"device\": \"Some GPU\", \"driver\": \"1.2.3\", \"operation\": "
                           "\"separable gaussian r=8\", \"size_class\": \"up to 2048x2048\", \"winner\": "
                           "{\"variant\": \"z\", \"group_x\": \"16\", \"group_y\": \"1\", \"vector\": \"1\"}}]}";
    CHECK_FALSE(lesson11::load_winner(file, key, space, log));
    CHECK(log.str().find("variant 'z' is not in this search space") != std::string::npos);
  }
  SUBCASE("no file means no winner and nothing to say") {
    CHECK_FALSE(lesson11::load_winner(file, key, space, log));
    CHECK(log.str().empty());
  }
}

TEST_CASE("the cache lives under XDG_CACHE_HOME when it is set") {
  const char* old = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old ? old : "";
  setenv("XDG_CACHE_HOME", "/some/cache", 1);
  CHECK(lesson11::default_cache_file() == std::filesystem::path("/some/cache/opencl-course/tuning.json"));
  if (old)
    setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else
    unsetenv("XDG_CACHE_HOME");
}

TEST_CASE("the roofline takes the larger of the memory and the arithmetic time") {
  const course::Roofline roof{100, 1000};  // 100 GB/s, 1000 GFLOP/s: ridge at 10 operations per byte
  CHECK(roof.ridge() == doctest::Approx(10));
  CHECK(roof.bound_ms(1e8, 1e8) == doctest::Approx(1.0));    // memory: 1e8 B at 1e11 B/s
  CHECK(roof.bound_ms(1e6, 1e10) == doctest::Approx(10.0));  // arithmetic: 1e10 at 1e12 /s
  CHECK(course::arithmetic_intensity(68, 8) == doctest::Approx(8.5));
}

TEST_CASE("the 2D search refuses a register cap outside 32..255 and where NVIDIA's compiler options are not") {
  const course::DeviceContext dc = course::open_device("");
  course::Block2D block{2, 128, 64, 1, 128};
  if (lesson11::caps_registers(dc))
    CHECK(lesson11::block_2d_problem(dc, block).empty());
  else
    CHECK(lesson11::block_2d_problem(dc, block).find("cl_nv_compiler_options") != std::string::npos);
  block.max_registers = 16;
  CHECK(!lesson11::block_2d_problem(dc, block).empty());
  block.max_registers = 0;
  CHECK(lesson11::block_2d_problem(dc, block).empty());
  CHECK(lesson11::block_2d_problem(dc, course::Block2D{5, 128, 64, 1}).find("1 to 4 float4s") != std::string::npos);
  CHECK(lesson11::block_2d_problem(dc, course::Block2D{1, 0, 64, 1}).find("at least one row") != std::string::npos);
}

TEST_CASE("the device's arithmetic rate is measured and positive") {
  const course::DeviceContext dc = course::open_device("");
  const course::Roofline roof = course::measure_roofline(dc);
  CHECK(roof.gflops > 0);
  CHECK(roof.copy.gbps > 0);
}

namespace {

// Runs lesson `number` with XDG_CACHE_HOME at `home`: its exit status and everything it printed.
std::pair<int, std::string> run_with_cache_home(const std::string& number, const std::filesystem::path& home,
                                                const std::string& arguments) {
  const std::filesystem::path log = home / ("lesson_" + number + ".log");
  // COURSE_TABLE=full: the results table whole, with every variant's full name.
  const std::string command = "COURSE_TABLE=full XDG_CACHE_HOME=" + home.string() + " " + COURSE_BUILD_DIR +
                              "/lessons/lesson_" + number +
                              " --size 64x48 --repeat 1 --output-dir " + (home / "out").string() + " " + arguments +
                              " > " + log.string() + " 2>&1";
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, course::read_text_file(log)};
}

// A cache entry as lesson 11 writes it.
std::string cache_entry(const lesson11::CacheKey& key, const std::string& driver, const std::string& winner) {
  return "{\"device\": \"" + key.device + "\", \"driver\": \"" + driver + "\", \"operation\": \"" + key.operation +
         "\", \"size_class\": \"" + key.size_class + "\", \"kernel_ms\": 1, \"winner\": {" + winner + "}}";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// `text` with its lines wrapped at 80 columns joined again.
std::string joined(std::string text) {
  for (std::size_t at; (at = text.find("\n  ")) != std::string::npos;) text.replace(at, 3, " ");
  return text;
}

// The results table's row of lesson 11's winner ("  tuned ..."), or "".
std::string tuned_row(const std::string& text) {
  const std::size_t at = text.find("\n  tuned ");
  return at == std::string::npos ? "" : text.substr(at + 1, text.find('\n', at + 1) - at - 1);
}

}  // namespace

TEST_CASE("lessons 05, 06 and 09 run lesson 11's winner verified, not with --untuned, and say why one is ignored") {
  const std::filesystem::path home = std::filesystem::path(COURSE_BUILD_DIR) / "test-out" / "cache-home";
  std::filesystem::remove_all(home);
  std::filesystem::create_directories(home / "opencl-course");
  const std::filesystem::path file = home / "opencl-course" / "tuning.json";
  const course::DeviceContext dc = course::open_device("");
  const lesson11::CacheKey blur = lesson11::cache_key(dc, "separable gaussian r=8 sigma=4", 64, 48);
  const lesson11::CacheKey median = lesson11::cache_key(dc, "median 3x3 float", 64, 48);
  const lesson11::CacheKey warp = lesson11::cache_key(dc, "warp bilinear RGBA8", 64, 48);
  // Parameters none of the lessons ship: lesson 11's own kernel for the blur.
  const std::string blur_winner =
      R"("variant": "aligned_passes", "group_x": "32", "group_y": "2", "outputs": "4", "vector": "4", "strip": "none")";
  const std::string median_winner =
      R"("variant": "shared_sorted_rows", "group_x": "16", "group_y": "4", "outputs": "2", "vector": "4")";
  const std::string warp_winner =
      R"("variant": "buffer_warp", "group_x": "32", "group_y": "2", "outputs": "4", "vector": "1")";
  auto write_cache = [&](const std::string& driver) {
    std::ofstream(file) << "{\"entries\": [" << cache_entry(blur, driver, blur_winner) << ", "
                        << cache_entry(median, driver, median_winner) << ", " << cache_entry(warp, driver, warp_winner)
                        << "]}";
  };

  SUBCASE("a winner for this device and driver runs as one more verified row") {
    write_cache(blur.driver);
    const auto [status, out] = run_with_cache_home("05", home, "--variant vector_passes");
    CHECK(status == 0);
    CHECK(has(out, "lesson 11's tuned winner for this device: verified, "));
    CHECK(has(out, " ms\n  aligned_passes 32x2, 4 outputs, vector 4\n  from " + file.string() + "\n"));
    CHECK(has(out, "\n  tuned aligned_passes 32x2, 4 outputs, vector 4  "));
    const auto [status06, out06] = run_with_cache_home("06", home, "--format float --variant shared_sorted_rows");
    CHECK(status06 == 0);
    CHECK(has(out06, "\n  shared_sorted_rows 16x4, 2 outputs, vector 4\n  from "));
    CHECK(has(out06, "\n  tuned shared_sorted_rows 16x4, 2 outputs, vector 4 float  "));
    const auto [status09, out09] = run_with_cache_home("09", home, "--affine 0.9,0.2,10,-0.15,0.95,20");
    CHECK(status09 == 0);
    CHECK(has(out09, "\n  buffer_warp 32x2, 4 outputs, vector 1\n  from "));
    CHECK(has(out09, "\n  tuned buffer_warp 32x2, 4 outputs, vector 1  "));
  }
  SUBCASE("--untuned runs the shipped parameters only") {
    write_cache(blur.driver);
    const auto [status, out] = run_with_cache_home("05", home, "--variant vector_passes --untuned");
    CHECK(status == 0);
    CHECK_FALSE(has(out, "lesson 11"));
    CHECK_FALSE(has(out, "\n  tuned "));
  }
  SUBCASE("a winner tuned with another driver is ignored, with one line saying so") {
    write_cache("0.0-another-driver");
    const auto [status, out] = run_with_cache_home("05", home, "--variant vector_passes");
    CHECK(status == 0);
    CHECK(has(out, "it was tuned with driver '0.0-another-driver', this is '" + blur.driver + "'"));
    CHECK_FALSE(has(out, "\n  tuned "));
  }
  SUBCASE("lessons 06 and 09 leave out a winner with a variant they do not have, saying why") {
    std::ofstream(file) << "{\"entries\": ["
                        << cache_entry(median, median.driver,
                                       R"("variant": "no_such_median", "group_x": "16", "group_y": "4", "outputs": "2", "vector": "4")")
                        << ", "
                        << cache_entry(warp, warp.driver,
                                       R"("variant": "buffer_warp", "group_x": "32", "group_y": "2", "outputs": "3", "vector": "1")")
                        << "]}";
    const auto [status06, out06] = run_with_cache_home("06", home, "--format float --variant shared_sorted_rows");
    CHECK(status06 == 0);
    CHECK(has(joined(out06), "left out, no longer legal here: no median variant no_such_median"));
    CHECK_FALSE(has(out06, "\n  tuned "));
    const auto [status09, out09] = run_with_cache_home("09", home, "--affine 0.9,0.2,10,-0.15,0.95,20");
    CHECK(status09 == 0);
    CHECK(has(joined(out09), "buffer_warp with 3 outputs is no variant of lesson 09"));
    CHECK_FALSE(has(out09, "\n  tuned "));
  }
  SUBCASE("a corrupt cache file is ignored, with one line saying so") {
    std::ofstream(file) << "{\"entries\": [ {\"device\": ";
    const auto [status, out] = run_with_cache_home("06", home, "--format float --variant shared_sorted_rows");
    CHECK(status == 0);
    CHECK(has(out, "ignoring the tuning cache " + file.string() + ": not valid JSON"));
    CHECK_FALSE(has(out, "\n  tuned "));
  }
}

TEST_CASE("lesson 11 tunes the 5x5 and 8-bit medians, and lesson 06 runs each winner for its window and pixels") {
  const std::filesystem::path home = std::filesystem::path(COURSE_BUILD_DIR) / "test-out" / "median-cache-home";
  std::filesystem::remove_all(home);
  std::filesystem::create_directories(home);
  const auto [status, out] = run_with_cache_home(
      "11", home, "--op median5,median-u8 --strategy budgeted --budget 2 --variant merged_columns,merged_pairs");
  CHECK(status == 0);
  CHECK(has(out, "=== median 5x5 float: "));
  CHECK(has(out, "=== median 3x3 u8: "));
  const course::DeviceContext dc = course::open_device("");
  std::ostringstream log;
  for (const auto& [op, window, eight_bit] : {std::tuple{"median5", 5, false}, {"median-u8", 3, true}}) {
    CAPTURE(op);
    const lesson11::TunedOp* tuned = lesson11::median_op(window, eight_bit);
    REQUIRE(tuned);
    CHECK(tuned->name == op);
    const lesson11::CacheKey key = lesson11::cache_key(dc, lesson11::median_operation(window, eight_bit), 64, 48);
    lesson11::Setup setup;
    setup.dc = &dc;
    setup.variants = lesson11::all_variants();
    setup.size = lesson11::SpaceSize::full;
    const course::GrayImage image = course::synthetic_gray(64, 48);
    setup.image = &image;
    CHECK(lesson11::load_winner(home / "opencl-course" / "tuning.json", key,
                                lesson11::median_family(setup, *tuned)->space, log));
  }
  CHECK(log.str().empty());
  // Lesson 06 runs the 5x5 float winner at --window 5 and the 3x3 8-bit one with 8-bit pixels.
  const auto [status5, out5] = run_with_cache_home("06", home, "--window 5 --format float --variant merged_columns");
  CHECK(status5 == 0);
  CHECK(has(out5, "lesson 11's tuned winner for this device"));
  CHECK(has(tuned_row(out5), " float "));
  const auto [status8, out8] = run_with_cache_home("06", home, "--format u8 --variant merged_pairs");
  CHECK(status8 == 0);
  CHECK(has(out8, "lesson 11's tuned winner for this device"));
  CHECK(has(tuned_row(out8), " u8 "));
  // With no winner for the 5x5 8-bit median yet, one line names the --op that finds it.
  const auto [status58, out58] = run_with_cache_home("06", home, "--window 5 --format u8 --variant merged_pairs");
  CHECK(status58 == 0);
  CHECK(has(out58, "no tuned parameters for median 5x5 u8 at 64x48"));
  CHECK(has(out58, "./course run 11 --size 64x48 --op median5-u8 finds them"));
}

TEST_CASE("lesson 11 searches lesson 09's warp and stores its winner for the warp's key") {
  const std::filesystem::path home = std::filesystem::path(COURSE_BUILD_DIR) / "test-out" / "warp-cache-home";
  std::filesystem::remove_all(home);
  std::filesystem::create_directories(home);
  const auto [status, out] = run_with_cache_home("11", home, "--op warp --strategy budgeted --budget 3");
  CHECK(status == 0);
  CHECK(has(out, "=== warp bilinear RGBA8: "));
  // The line as one, however it was wrapped at 80 columns.
  CHECK(has(joined(out), "winner stored in " + (home / "opencl-course" / "tuning.json").string()));
  const course::DeviceContext dc = course::open_device("");
  const lesson11::CacheKey key = lesson11::cache_key(dc, "warp bilinear RGBA8", 64, 48);
  std::ostringstream log;
  lesson11::Setup setup;
  setup.dc = &dc;
  setup.variants = lesson11::all_variants();
  const course::RgbaImage picture = course::synthetic_rgba(64, 48);
  const auto family = lesson11::warp_family(setup, picture, course::affine_matrix({1, 0, 0, 0, 1, 0}));
  CHECK(lesson11::load_winner(home / "opencl-course" / "tuning.json", key, family->space, log));
  CHECK(log.str().empty());
}
