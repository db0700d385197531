// Lesson 13: bands and their halos, the halo copies between them, and the splits run for real
// on several queues of this machine's device (one per band, as several devices would have).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include <sstream>

#include "band_run.hpp"
#include "bands.hpp"
#include "course.hpp"
#include "random_image.hpp"
#include "split_table.hpp"
#include "test_support.hpp"

namespace {

const course::DeviceContext& device() {
  static const course::DeviceContext dc = course::open_device("");
  return dc;
}

// `count` workers on one device, sharing its context: each band gets a queue of its own.
std::vector<lesson13::Worker> workers(int count, const std::vector<float>& weights) {
  std::vector<lesson13::Worker> out;
  for (int k = 0; k < count; ++k)
    out.push_back(lesson13::make_worker(device(), "queue " + std::to_string(k), 0, weights));
  return out;
}

course::GrayImage repeated(const course::GrayImage& image, const std::vector<float>& weights, int steps) {
  course::GrayImage out = image;
  for (int s = 0; s < steps; ++s) out = course::correlate_separable(out, weights, weights);
  return out;
}

}  // namespace

TEST_CASE("lesson 13's bands tile the picture with no gap or overlap, each within one row of its share, halos clamped") {
  for (int height : {1, 2, 5, 17, 67, 1000})
    for (const std::vector<double>& shares :
         {std::vector<double>{1}, {1, 1}, {1, 3}, {0.004, 1, 1}, {1, 2, 3, 4, 5, 6, 7}})
      for (int radius : {1, 8}) {
        CAPTURE(height);
        CAPTURE(shares.size());
        CAPTURE(radius);
        const auto bands = lesson13::split_rows(height, shares, radius);
        const double total = std::accumulate(shares.begin(), shares.end(), 0.0);
        int next = 0;
        for (std::size_t k = 0; k < bands.size(); ++k) {
          CHECK(bands[k].first == next);
          CHECK(std::abs(bands[k].rows - height * shares[k] / total) < 1);
          int above = 0;  // halo rows above the band: the radius, or as many as the picture has
          while (above < radius && bands[k].first - above > 0) ++above;
          CHECK(bands[k].read_first() == bands[k].first - above);
          CHECK(bands[k].read_first() + bands[k].read_rows() == std::min(height, next + bands[k].rows + radius));
          next += bands[k].rows;
        }
        CHECK(next == height);
      }
}

TEST_CASE("lesson 13's costs from two probes give the fixed part and the part per row; noise leaves the fixed part out") {
  const lesson13::Cost c = lesson13::cost_from_probes(64, 3.0 + 64 * 0.01, 512, 3.0 + 512 * 0.01);
  CHECK(c.fixed_ms == doctest::Approx(3.0));
  CHECK(c.ms_per_row == doctest::Approx(0.01));
  CHECK(c.rows_per_ms(100) == doctest::Approx(100 / 4.0));
  // A taller probe no slower than the shorter one, or one probe: time per row, no fixed part.
  for (const lesson13::Cost& flat : {lesson13::cost_from_probes(64, 2.0, 512, 1.9), lesson13::cost_from_probes(7, 0.7, 7, 0.7)}) {
    CHECK(flat.fixed_ms == 0);
    CHECK(flat.ms_per_row > 0);
  }
}

TEST_CASE("lesson 13's balanced rows finish together, and a device whose fixed cost outlasts the others' whole picture sits out") {
  using lesson13::Cost;
  // Equal devices share evenly; a device twice as fast per row takes twice the rows.
  auto rows = lesson13::balanced_rows(1000, {Cost{0, 0.01}, Cost{0, 0.01}});
  CHECK(rows[0] == doctest::Approx(500));
  rows = lesson13::balanced_rows(900, {Cost{0, 0.02}, Cost{0, 0.01}});
  CHECK(rows[1] == doctest::Approx(600));
  // With fixed costs, every device with rows finishes at the same time.
  const std::vector<Cost> mixed = {Cost{0.5, 0.01}, Cost{0.1, 0.002}, Cost{0.3, 0.004}};
  rows = lesson13::balanced_rows(5000, mixed);
  CHECK(rows[0] + rows[1] + rows[2] == doctest::Approx(5000));
  for (int k = 0; k < 3; ++k) {
    REQUIRE(rows[k] > 0);
    CHECK(mixed[k].fixed_ms + mixed[k].ms_per_row * rows[k] ==
          doctest::Approx(mixed[1].fixed_ms + mixed[1].ms_per_row * rows[1]));
  }
  // The CPU beside a GPU: 3 ms before its first row, while the GPU filters the whole 8192 rows in
  // about 1.2 ms. Given any rows the CPU would finish last; it gets none, in either order.
  for (bool cpu_first : {true, false}) {
    const Cost gpu{0.01, 0.00015}, cpu{3.0, 0.04};
    rows = lesson13::balanced_rows(8192, cpu_first ? std::vector<Cost>{cpu, gpu} : std::vector<Cost>{gpu, cpu});
    CHECK(rows[cpu_first ? 0 : 1] == 0);
    CHECK(rows[cpu_first ? 1 : 0] == doctest::Approx(8192));
    const auto bands = lesson13::split_rows(8192, rows, 8);
    CHECK(bands[cpu_first ? 0 : 1].rows == 0);
  }
}

TEST_CASE("lesson 13's halo copies fill every band's halo once, from the bands that compute those rows, even past a short band") {
  // Radius 8 over bands of 3 rows: a band's halo reaches across two neighbours.
  for (const std::vector<double>& shares : {std::vector<double>{1, 1}, {1, 0.1, 0.1, 1}, {1, 0.001, 1}}) {
    const auto bands = lesson13::split_rows(60, shares, 8);
    std::vector<std::vector<int>> filled(bands.size(), std::vector<int>(60, 0));
    for (const auto& c : lesson13::halo_copies(bands)) {
      const auto& from = bands[c.from];
      CHECK(c.first >= from.first);
      CHECK(c.first + c.rows <= from.first + from.rows);
      for (int row = c.first; row < c.first + c.rows; ++row) ++filled[c.to][row];
    }
    for (std::size_t k = 0; k < bands.size(); ++k) {
      const auto& b = bands[k];
      for (int row = 0; row < 60; ++row) {
        const bool halo = b.rows > 0 && row >= b.read_first() && row < b.read_first() + b.read_rows() &&
                          (row < b.first || row >= b.first + b.rows);
        CAPTURE(k);
        CAPTURE(row);
        CHECK(filled[k][row] == (halo ? 1 : 0));
      }
    }
  }
}

TEST_CASE("lesson 13's split over several queues, even, proportional with an empty band, or dynamic, matches the CPU reference") {
  const auto weights = course::gaussian_weights(4, 2.0);
  const course::GrayImage image = course::random_gray(45, 29, 7);
  const course::GrayImage expected = course::correlate_separable(image, weights, weights);
  auto w = workers(3, weights);
  for (const std::vector<double>& shares : {std::vector<double>{1, 1, 1}, {1, 0.001, 5}, {0.05, 0.05, 1}}) {
    const auto run = lesson13::run_split(w, image, lesson13::split_rows(29, shares, 4), 4);
    CHECK(course::compare_images(run.result.pixels, expected.pixels, 45, 29, 1e-3).ok());
  }
  for (int chunk : {1, 4, 29}) {
    CAPTURE(chunk);
    const auto run = lesson13::run_dynamic(w, image, chunk, 4);
    CHECK(course::compare_images(run.result.pixels, expected.pixels, 45, 29, 1e-3).ok());
    int rows = 0;
    for (const auto& d : run.devices) rows += d.rows;
    CHECK(rows == 29);
  }
}

TEST_CASE("lesson 13's iterated filter exchanging only halo rows, through the host or by copies, matches T passes on the CPU") {
  const auto weights = course::gaussian_weights(3, 1.5);
  const course::GrayImage image = course::random_gray(33, 40, 9);
  const course::GrayImage expected = repeated(image, weights, 4);
  auto w = workers(4, weights);
  // Bands of 1 and 2 rows, shorter than the radius, pass halos on from further away; bands of 5 to
  // 6 rows, longer than the radius and no longer than twice it, send both halos in one read.
  for (const std::vector<double>& shares :
       {std::vector<double>{1, 1, 1, 1}, {10, 0.3, 0.6, 10}, {1, 1, 1, 5}, {5, 1, 1, 1}})
    for (bool copy : {false, true}) {
      CAPTURE(copy);
      const auto run = lesson13::run_steps(w, image, lesson13::split_rows(40, shares, 3), 3, 4, copy);
      CHECK(course::compare_images(run.result.pixels, expected.pixels, 33, 40, 1e-3).ok());
      int halo_commands = 0;
      for (const auto& d : run.devices)
        for (const auto& bar : d.bars) halo_commands += bar.stage == lesson13::Stage::halo;
      CHECK(halo_commands > 0);
    }
}

TEST_CASE("lesson 13 with a wrong halo is caught: one row short of the radius gives a seam the reference sees") {
  const auto weights = course::gaussian_weights(3, 1.5);
  const course::GrayImage image = course::random_gray(20, 30, 5);
  auto bands = lesson13::split_rows(30, {1, 1}, 3);
  bands[1].halo_top -= 1;
  auto w = workers(2, weights);
  const auto run = lesson13::run_split(w, image, bands, 3);
  CHECK_FALSE(course::compare_images(run.result.pixels, course::correlate_separable(image, weights, weights).pixels, 20,
                                     30, 1e-3)
                  .ok());
}

TEST_CASE("lesson 13's table marks a device's time too short or held by the cache, a run's row carries its devices' marks, "
          "and its file has the events' time beside the wall time") {
  const auto weights = course::gaussian_weights(2, 1.0);
  const auto w = workers(2, weights);
  const course::Roofline limits = course::cache_and_timer(device());
  // A run of two devices: one whose time is too short to time, one long enough; both hold a few
  // rows, well within any last-level cache.
  auto run = [&](const std::string& name, double first_ms, double second_ms) {
    lesson13::SplitRun r;
    r.name = name, r.wall_ms = 50, r.runs = 3, r.fastest_ms = second_ms * 0.99, r.slowest_ms = second_ms * 1.01;
    r.devices.resize(2);
    r.devices[0].rows = r.devices[1].rows = 8;
    r.devices[0].kernel_ms = first_ms, r.devices[1].kernel_ms = second_ms;
    r.devices[0].events_ms = first_ms + 1, r.devices[1].events_ms = second_ms + 2;
    return r;
  };
  std::vector<lesson13::Measured> measured = {{run("alone on queue 0", 0, 10), 0, true, 1, 0, true},
                                              {run("even", limits.shortest_ms() / 4, 5), 0, true, 1, 0, false}};
  measured[0].run.devices[0].rows = 0;  // alone: only queue 1 computed rows
  const auto dir = std::filesystem::path(COURSE_BUILD_DIR) / "test-out" / "13-table";
  std::ostringstream out;
  std::streambuf* was = std::cout.rdbuf(out.rdbuf());
  lesson13::print_split_table("a table", measured, w, 16, dir);
  std::cout.rdbuf(was);
  const std::string text = out.str();
  const bool cached = 16.0 * 16 * 8 <= limits.cache_bytes;
  REQUIRE(cached);
  CHECK(text.find("  alone on queue 0 ") != std::string::npos);
  CHECK(text.find("  even ") != std::string::npos);
  CHECK(text.find("  - queue 0 ") != std::string::npos);
  // The short device's time is marked * and +, the other's +; the run's row both.
  CHECK(text.find(lesson13::fixed(limits.shortest_ms() / 4, 3) + "*+") != std::string::npos);
  CHECK(text.find(" 5.000+ ") != std::string::npos);
  CHECK(text.find(" 10.000+ ") != std::string::npos);
  CHECK(text.find("    * under ") != std::string::npos);
  CHECK(text.find("    + moves no more than the ") != std::string::npos);
  std::ifstream whole(dir / "results.txt");
  const std::string file((std::istreambuf_iterator<char>(whole)), std::istreambuf_iterator<char>());
  // events ms beside the wall time: the slowest device's commands summed from their events.
  CHECK(file.find("events ms") != std::string::npos);
  CHECK(file.find(" 7.000 ") != std::string::npos);
}
