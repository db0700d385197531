// Lesson 06: every median variant against std::nth_element, the noise demo's helpers, the
// --window limits, and the output contract of `./course run 06`.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>

#include "checker.hpp"
#include "course.hpp"
#include "median_filters.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

const course::DeviceContext& device() {
  static const course::DeviceContext dc = course::open_device("");
  return dc;
}

course::GrayImage random_levels(int width, int height, std::uint32_t seed) {
  return course::quantize_to_8bit(course::random_gray(width, height, seed));
}

course::GrayImage with_ties(int width, int height, std::uint32_t seed) {
  course::GrayImage image = course::random_gray(width, height, seed);
  for (float& v : image.pixels) v = std::floor(v / 64.0f) * 85.0f;
  return image;
}

// Runs `variant` and returns how many pixels differ from the reference.
std::size_t wrong_pixels(const course::MedianVariant& variant, const course::GrayImage& image, int window,
                         bool eight_bit, int vector = 0) {
  const course::MedianRun run = course::run_median(device(), variant, image, window, eight_bit, 1, 64, 4, vector);
  return course::compare_images(run.result.pixels, course::median_filter(image, window).pixels, image.width,
                                image.height, 0.0)
      .wrong;
}

course::Options window_options(const std::string& value) {
  course::Options options("test", "test");
  options.value("window", "K", "window", "3");
  options.parse(std::vector<std::string>{"--window", value});
  return options;
}

int run_lesson(const std::string& arguments) {
  const std::string command = std::string(COURSE_BUILD_DIR) + "/lessons/lesson_06 " + arguments + " > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("lesson 06 runs and verifies with the suite's small image") {
  const fs::path dir = fs::temp_directory_path() / "course-tests-06-run";
  CHECK(run_lesson("--size 131x67 --repeat 2 --output-dir " + dir.string()) == 0);
  CHECK(fs::exists(dir / "median.png"));
}

TEST_CASE("exercise 06 passes its check with the solution and fails it as shipped") {
  if (course_tests::skipped_without_solutions()) return;
  CHECK(course_tests::failed_cases("06", course::project_root() / "solutions/06_median_sorting_networks") == 0);
  CHECK(course_tests::failed_cases("06", course::project_root() / "exercises/06_median_sorting_networks") > 0);
}

TEST_CASE("every median variant matches the reference for windows 3, 5 and 7 on odd-sized images") {
  for (const course::MedianVariant& variant : course::median_variants())
    for (int window : {3, 5, 7}) {
      if (variant.only_window && variant.only_window != window) continue;
      for (bool eight_bit : {false, true})
        for (auto [w, h] : {std::pair{37, 23}, {1, 1}, {1, 19}, {17, 1}, {131, 9}}) {
          if (variant.packed && !eight_bit) continue;
          CAPTURE(variant.name);
          CAPTURE(window);
          CAPTURE(eight_bit);
          CAPTURE(w);
          CAPTURE(h);
          CHECK(wrong_pixels(variant, random_levels(w, h, w * 31 + h), window, eight_bit) == 0);
        }
    }
}

TEST_CASE("many ties and constant images give the exact median in every variant") {
  const course::GrayImage constant{29, 21, std::vector<float>(29 * 21, 200.0f)};
  for (const course::MedianVariant& variant : course::median_variants())
    for (int window : {3, 5}) {
      if (variant.only_window && variant.only_window != window) continue;
      CAPTURE(variant.name);
      CAPTURE(window);
      if (!variant.packed) CHECK(wrong_pixels(variant, with_ties(53, 41, 5), window, false) == 0);
      CHECK(wrong_pixels(variant, with_ties(53, 41, 6), window, true) == 0);
      CHECK(wrong_pixels(variant, constant, window, true) == 0);
    }
}

TEST_CASE("the shared sorted-rows median is exact for every vector width at the image edges") {
  const course::MedianVariant& shared = course::median_variant("shared_sorted_rows");
  for (int vector : {1, 4, 16})
    for (int width : {3, 15, 16, 17, 33}) {
      CAPTURE(vector);
      CAPTURE(width);
      CHECK(wrong_pixels(shared, random_levels(width, 13, vector + width), 3, false, vector) == 0);
      CHECK(wrong_pixels(shared, random_levels(width, 13, vector * width), 5, true, vector) == 0);
    }
}

TEST_CASE("the 3x3 network on rows of vectors is exact for 8 and 16 pixels, lanes and strips, on sizes none divides") {
  // Widths and heights no vector, strip or work-group divides (primes, single rows and columns),
  // widths that leave a vector only partly inside the picture or lanes wholly past it, and whole
  // vectors (64).
  const course::MedianVariant& rows = course::median_variant("network_3x3_rows");
  const std::pair<int, int> sizes[] = {{1, 1},  {17, 1},  {1, 19}, {131, 67}, {127, 31},
                                       {15, 7}, {16, 13}, {33, 5}, {64, 9},   {251, 3}};
  for (int vector : {1, 8, 16})
    for (int lanes : {1, 4})
      for (int strip : {1, 3, 8})
        for (bool eight_bit : {true, false})
          for (const auto& [w, h] : sizes) {
            CAPTURE(vector);
            CAPTURE(lanes);
            CAPTURE(strip);
            CAPTURE(eight_bit);
            CAPTURE(w);
            CAPTURE(h);
            const course::GrayImage image = random_levels(w, h, w * 13 + h + vector + strip);
            const course::MedianBlock block{vector, strip, lanes};
            const course::MedianRun run =
                course::run_median_block(device(), rows, image, 3, eight_bit, 1, 16, 2, block);
            CHECK(course::compare_images(run.result.pixels, course::median_filter(image, 3).pixels, w, h, 0.0).wrong ==
                  0);
          }
}

TEST_CASE("the merged-column medians are exact for every block, lane count and width, in many work-groups") {
  // Blocks as lesson 11 searches them (vector x strip, lanes), each on prime sizes, widths that
  // are no multiple of the span or of 4 (no aligned loads), one wider than a row of work-groups
  // of 16 items, images smaller than one tile, and aligned widths: 64x48, where whole tiles lie
  // inside the image and take the kernel's untested path, and 100x45, whose last tiles of a row
  // and last row of tiles are partial and take the careful one beside them.
  struct Case {
    const char* variant;
    course::MedianBlock block;
    int window;
    bool eight_bit;
  };
  const Case cases[] = {{"merged_columns", {2, 2, 1}, 3, false},  {"merged_columns", {2, 2, 1}, 5, true},
                        {"merged_columns", {8, 2, 1}, 3, true},   {"merged_columns", {8, 2, 1}, 5, false},
                        {"merged_columns", {16, 4, 1}, 3, false}, {"merged_columns", {4, 2, 4}, 5, false},
                        {"merged_columns", {2, 4, 16}, 3, true},  {"merged_pairs", {2, 2, 2}, 5, true},
                        {"merged_pairs", {8, 4, 2}, 3, true}};
  const std::pair<int, int> sizes[] = {{1, 1}, {37, 23}, {1021, 7}, {3, 2}, {64, 48}, {100, 45}};
  for (const Case& c : cases)
    for (const auto& [w, h] : sizes) {
      CAPTURE(c.variant);
      CAPTURE(c.block.vector);
      CAPTURE(c.block.strip);
      CAPTURE(c.block.lanes);
      CAPTURE(c.window);
      CAPTURE(c.eight_bit);
      CAPTURE(w);
      CAPTURE(h);
      const course::GrayImage image = random_levels(w, h, w * 7 + h + c.window);
      const course::MedianRun run =
          course::run_median_block(device(), course::median_variant(c.variant), image, c.window, c.eight_bit, 1, 16, 2, c.block);
      CHECK(course::compare_images(run.result.pixels, course::median_filter(image, c.window).pixels, w, h, 0.0).wrong ==
            0);
    }
}

TEST_CASE("the merge steps sort every pattern of zeros and ones in runs, whatever the window") {
  // By the 0-1 principle a network of compare-exchanges that sorts every sequence of zeros and
  // ones sorts every sequence; the steps are applied here as the kernel applies them.
  const auto apply = [](const std::string& steps, std::vector<int>& v) {
    std::istringstream in(steps);
    std::string op;
    while (std::getline(in, op, ')')) {
      const bool exchange = op.rfind("EXCHANGE(", 0) == 0;
      const std::size_t open = op.find('('), comma = op.find(',');
      const int i = std::stoi(op.substr(open + 1, comma - open - 1)), j = std::stoi(op.substr(comma + 1));
      if (exchange) {
        if (v[i] > v[j]) std::swap(v[i], v[j]);
      } else {
        v[i] = v[j];
        v[j] = -1;  // the place is empty now: reading it later would show
      }
    }
  };
  for (const int window : {3, 5, 7, 9}) {
    CAPTURE(window);
    int slot = 1;
    while (slot < window) slot *= 2;
    const std::string columns = course::odd_even_merge_steps(window - 1, window, slot);
    const std::string single = course::odd_even_merge_steps(window - 1, 1, 1);
    std::mt19937 random(window);
    for (int trial = 0; trial < 2000; ++trial) {
      // window - 1 sorted columns of zeros then ones: only where each switches matters.
      std::vector<int> v(16 * slot, -1), all;
      for (int k = 0; k < window - 1; ++k) {
        const int zeros = static_cast<int>(random() % (window + 1));
        for (int i = 0; i < window; ++i) v[k * slot + i] = i < zeros ? 0 : 1;
        for (int i = 0; i < window; ++i) all.push_back(i < zeros ? 0 : 1);
      }
      apply(columns, v);
      std::sort(all.begin(), all.end());
      CHECK(std::vector<int>(v.begin(), v.begin() + all.size()) == all);
      std::vector<int> values(16, -1), bits;
      for (int i = 0; i < window - 1; ++i) bits.push_back(values[i] = static_cast<int>(random() % 2));
      apply(single, values);
      std::sort(bits.begin(), bits.end());
      CHECK(std::vector<int>(values.begin(), values.begin() + bits.size()) == bits);
    }
  }
}

TEST_CASE("the window option takes odd windows from 3 to 9 and names the limits otherwise") {
  CHECK(course::read_median_window(window_options("3")) == 3);
  CHECK(course::read_median_window(window_options("9")) == 9);
  for (const std::string bad : {"4", "1", "2", "11", "0", "-3"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(course::read_median_window(window_options(bad)),
                         doctest::Contains("the window must be odd, from 3 to 9"), course::UsageError);
  }
}

TEST_CASE("salt and pepper noise changes about the asked fraction of pixels, each to 0 or 255") {
  const course::GrayImage clean{200, 100, std::vector<float>(200 * 100, 100.0f)};
  const course::GrayImage noisy = course::add_salt_and_pepper(clean, 0.1, 7);
  int salt = 0, pepper = 0, other = 0;
  for (float v : noisy.pixels) (v == 255.0f ? salt : v == 0.0f ? pepper : v == 100.0f ? other : other) += 1;
  CHECK(salt + pepper == doctest::Approx(2000).epsilon(0.1));
  CHECK(salt == doctest::Approx(pepper).epsilon(0.15));
  CHECK(salt + pepper + other == 20000);
  CHECK(course::add_salt_and_pepper(clean, 0.1, 7).pixels == noisy.pixels);
  CHECK(course::add_salt_and_pepper(clean, 0.0, 7).pixels == clean.pixels);
}

TEST_CASE("psnr is infinite for equal images and 20 log10(255 / d) for a constant difference d") {
  const course::GrayImage a{10, 10, std::vector<float>(100, 50.0f)}, b{10, 10, std::vector<float>(100, 60.0f)};
  CHECK(std::isinf(course::psnr(a, a)));
  CHECK(course::psnr(a, b) == doctest::Approx(20 * std::log10(255.0 / 10)));
}

TEST_CASE("on salt and pepper noise the 3x3 median scores a higher PSNR than a Gaussian blur") {
  const course::GrayImage clean = course::quantize_to_8bit(course::synthetic_gray(160, 120));
  const course::GrayImage noisy = course::add_salt_and_pepper(clean, 0.1, 1);
  const std::vector<float> g = course::gaussian_weights(1, 0.8);
  const double median = course::psnr(course::median_filter(noisy, 3), clean);
  const double blurred = course::psnr(course::correlate_2d(noisy, course::outer_product(g, g), 1), clean);
  CHECK(median > blurred + 5);
  CHECK(blurred > course::psnr(noisy, clean));
}

TEST_CASE("the lesson writes the exact 8-bit median of any image for windows 3, 5 and 7") {
  const fs::path dir = fs::temp_directory_path() / "course-tests-06";
  fs::remove_all(dir);
  const course::GrayImage input = random_levels(23, 17, 3);
  course::save_png(dir / "input.png", input);
  for (int window : {3, 5, 7}) {
    CAPTURE(window);
    const fs::path out = dir / ("median" + std::to_string(window) + ".png");
    REQUIRE(run_lesson("--input " + (dir / "input.png").string() + " --output " + out.string() + " --window " +
                       std::to_string(window) + " --repeat 1") == 0);
    CHECK(course::load_gray(out).pixels == course::median_filter(input, window).pixels);
  }
  // With noise, the noisy input is written beside the output and the output is its median.
  const fs::path out = dir / "denoised.png";
  REQUIRE(run_lesson("--input " + (dir / "input.png").string() + " --output " + out.string() +
                     " --noise 0.2 --seed 4 --repeat 1") == 0);
  const course::GrayImage noisy = course::load_gray(dir / "denoised-noisy.png");
  CHECK(noisy.pixels == course::add_salt_and_pepper(input, 0.2, 4).pixels);
  CHECK(course::load_gray(out).pixels == course::median_filter(noisy, 3).pixels);
  CHECK(run_lesson("--window 4 --size 9x9") == course::kExitUsage);
  CHECK(run_lesson("--window 11 --size 9x9") == course::kExitUsage);
}

TEST_CASE("the median reference gives the same bits on every core as on one thread") {
  const course::GrayImage image = course::random_gray(45, 29, 6);
  for (const int window : {3, 5, 9}) {
    CAPTURE(window);
    const auto one = course::median_filter(image, window, 1);
    for (const unsigned threads : {0u, 3u, 64u})
      CHECK(std::memcmp(course::median_filter(image, window, threads).pixels.data(), one.pixels.data(),
                        one.pixels.size() * sizeof(float)) == 0);
  }
}

TEST_CASE("the median reference picks the middle value and ignores a single outlier") {
  course::GrayImage image{3, 3, {1, 2, 3, 4, 255, 6, 7, 8, 9}};
  const auto out = course::median_filter(image, 3);
  CHECK(out.pixels[4] == 6);
  CHECK_THROWS_AS(course::median_filter(image, 4), std::invalid_argument);
}
