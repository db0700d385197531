// Lesson 13: one picture, several devices. Lesson 04's separable filter split by bands of rows
// over every device the program is given, each band with the halo rows its column pass reads,
// one queue per device, gathered on the host: an even split, a split proportional to each
// device's measured speed, and a dynamic one (chunks of rows from a shared counter). Then the
// same filter iterated, exchanging only halo rows between steps. Look at: the idle column, the
// speed-up and efficiency against the best single device, and timeline.svg.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "band_run.hpp"
#include "bands.hpp"
#include "course.hpp"
#include "device_set.hpp"
#include "mpi_split.hpp"
#include "split_table.hpp"
#include "timeline_svg.hpp"

namespace {

using lesson13::Band;
using lesson13::Measured;
using lesson13::SplitRun;
using lesson13::fixed;

// Runs `once` `repeat` times and keeps the run of median wall time (the first is a warm-up), with
// the spread of the kernel times.
template <typename Run>
SplitRun median_run(int repeat, const std::string& name, Run once) {
  std::vector<SplitRun> runs;
  for (int i = 0; i <= repeat; ++i) runs.push_back(once());
  runs.erase(runs.begin());
  std::sort(runs.begin(), runs.end(), [](const SplitRun& a, const SplitRun& b) { return a.wall_ms < b.wall_ms; });
  const auto [fastest, slowest] = std::minmax_element(
      runs.begin(), runs.end(), [](const SplitRun& a, const SplitRun& b) { return a.kernel_ms() < b.kernel_ms(); });
  const double fastest_ms = fastest->kernel_ms(), slowest_ms = slowest->kernel_ms();
  SplitRun typical = std::move(runs[runs.size() / 2]);
  typical.name = name;
  typical.runs = repeat, typical.fastest_ms = fastest_ms, typical.slowest_ms = slowest_ms;
  return typical;
}

// The whole picture on device k alone.
std::vector<Band> alone(std::size_t devices, std::size_t k, int height, int radius) {
  std::vector<double> shares(devices, 0.0);
  shares[k] = 1;
  return lesson13::split_rows(height, shares, radius);
}

}  // namespace


int main(int argc, char** argv) {
  try {
    // Step 0: options.
    course::Options options("./course run 13", "One filter split over several devices by bands of rows with halos.");
    course::add_image_options(options, "13_several_devices");
    course::add_filter_options(options, 8);
    options.value("devices", "SPEC,SPEC", "the devices to split over, each as --device takes it");
    options.value("split-cpu", "K", "cut the CPU into K sub-devices (clCreateSubDevices) and split over them", "0");
    options.value("steps", "T", "iterate the filter T times, exchanging only halo rows (0: no iteration)", "3");
    options.value("chunk-rows", "N", "rows per chunk of the dynamic split (0: height / (8 x devices))", "0");
    options.value("probe-rows", "N", "rows of the shorter of the two probes that measure each device's cost (the other is 8 times as tall)", "64");
    options.value("output", "PATH", "where to write the proportional split's result (8-bit PNG)");
    options.flag("pinned", "keep the picture and the result in pinned host memory (lesson 10) for the single-pass runs");
    options.flag("mpi", lesson13::mpi_built() ? "one process per device (mpirun -np N), halos by MPI_Sendrecv"
                                              : "one process per device (this build has no MPI: see the page)");
    options.example("./course run 13 --split-cpu 2", "the CPU as two devices (PoCL)");
    options.example("./course run 13 --devices 0,1 --size 16384x16384", "two GPUs, a large picture");
    options.example("./course run 13 --devices cpu,gpu --steps 10", "a CPU and a GPU, 10 steps");
    options.parse(argc, argv);
    const int repeat = options.integer("repeat", 1, 1000);
    const int steps = options.integer("steps", 0, 1000);
    const int probe_rows = options.integer("probe-rows", 1, 1 << 16);
    const bool pinned = options.given("pinned");
    const course::FilterSpec filter = course::read_filter(options, 16);
    const int r = filter.radius;
    if (options.given("mpi")) return lesson13::run_mpi(argc, argv, options, filter);

    // Step 1: the devices (one context per platform, one queue per device), the picture and
    // the CPU reference.
    std::vector<lesson13::Worker> workers =
        lesson13::open_workers(options.text("devices"), options.integer("split-cpu", 0, 256), options.text("device"),
                               filter.weights);
    const course::GrayImage image = course::input_gray(options, workers.front().dc);
    const int w = image.width, h = image.height;
    // Each device needs a band of at least one row: a split asked for is refused, the default
    // one shrinks.
    if (static_cast<int>(workers.size()) > h) {
      if (options.given("devices") || options.given("split-cpu"))
        throw course::UsageError(std::to_string(workers.size()) + " devices for a picture of " + std::to_string(h) +
                                 (h == 1 ? " row" : " rows") + ": each device needs a band of at least one row");
      std::cout << "a picture of " << h << (h == 1 ? " row" : " rows") << ": the first " << h << " of "
                << workers.size() << " devices split it\n";
      workers.resize(h);
    }
    const std::size_t n = workers.size();
    const int chunk_rows = options.integer("chunk-rows", 0, h) > 0 ? options.integer("chunk-rows", 0, h)
                                                                   : std::max(1, h / int(8 * n));
    std::cout << "image " << w << "x" << h << ", " << filter.describe() << ", " << n << " devices in "
              << lesson13::context_count(workers) << " context(s):\n";
    if (pinned) std::cout << "  the picture and the result in pinned host memory (single-pass runs)\n";
    std::vector<std::string> names;
    for (const auto& worker : workers) {
      names.push_back(worker.name);
      std::cout << "  " << worker.name << "\n";
    }
    const course::GrayImage reference = course::correlate_separable(image, filter.weights, filter.weights);
    // Each run checked against the CPU reference: its largest error and whether it is within tolerance.
    auto measured_run = [&](SplitRun run, const course::GrayImage& expected, int passes, int against) {
      const auto c = course::compare_images(run.result.pixels, expected.pixels, w, h, 0.02);
      if (!c.ok()) std::cout << "  " << run.name << " differs from the CPU reference: " << c.describe() << "\n";
      return Measured{std::move(run), c.max_abs_error, c.ok(), passes, against, false};
    };

    // Step 2: each device alone, the yardstick: speed-up and efficiency are against the best.
    std::vector<Measured> measured;
    for (std::size_t k = 0; k < n; ++k) {
      const auto bands = alone(n, k, h, r);
      measured.push_back(measured_run(median_run(repeat, "alone on " + workers[k].name,
                                                 [&] { return lesson13::run_split(workers, image, bands, r, pinned); }),
                                      reference, 1, -1));
      measured.back().alone = true;
    }
    const int best = int(std::min_element(measured.begin(), measured.end(), [](const Measured& a, const Measured& b) {
                           return a.run.kernel_ms() < b.run.kernel_ms();
                         }) - measured.begin());
    for (std::size_t k = 0; k < n; ++k) measured[k].against = best;

    // Step 3: three splits. Even bands; bands proportional to each device's speed once its fixed
    // cost is paid, both measured by two probes (a device whose fixed cost alone outlasts the
    // others' whole picture sits out); chunks of rows handed out as devices finish.
    const std::vector<lesson13::Cost> costs = lesson13::probe_costs(workers, image, probe_rows, r);
    const std::vector<Band> even = lesson13::split_rows(h, std::vector<double>(n, 1.0), r);
    const std::vector<Band> balanced = lesson13::split_rows(h, lesson13::balanced_rows(h, costs), r);
    const auto [short_probe, tall_probe] = lesson13::probe_heights(probe_rows, h);
    std::cout << "\nprobes of " << short_probe << " and " << tall_probe
              << " rows (fixed cost + speed), bands (+halo above/below):\n";
    for (std::size_t k = 0; k < n; ++k)
      std::cout << "  " << std::left << std::setw(28) << workers[k].name.substr(0, 27) << std::right << std::setw(9)
                << fixed(costs[k].fixed_ms, 3) << " ms + " << std::setw(9) << fixed(1 / costs[k].ms_per_row, 1)
                << " rows/ms\n      even " << lesson13::describe(even[k]) << ", proportional "
                << lesson13::describe(balanced[k]) << "\n";
    const std::size_t proportional = n + 1;
    measured.push_back(measured_run(
        median_run(repeat, "even", [&] { return lesson13::run_split(workers, image, even, r, pinned); }), reference, 1,
        best));
    measured.push_back(measured_run(
        median_run(repeat, "proportional", [&] { return lesson13::run_split(workers, image, balanced, r, pinned); }),
        reference, 1, best));
    measured.push_back(measured_run(median_run(repeat, "dynamic, " + std::to_string(chunk_rows) + " rows",
                                               [&] { return lesson13::run_dynamic(workers, image, chunk_rows, r); }),
                                    reference, 1, best));

    // Step 4 (--steps T): the filter T times; between steps only halo rows move, through the
    // host, and by clEnqueueCopyBuffer where every device shares one context. The yardstick:
    // the best device alone doing the same steps.
    if (steps > 0) {
      course::GrayImage expected = image;
      for (int s = 0; s < steps; ++s) expected = course::correlate_separable(expected, filter.weights, filter.weights);
      const auto bands = alone(n, best, h, r);
      const std::string t = std::to_string(steps) + " steps, ";
      const int one = int(measured.size());
      measured.push_back(measured_run(median_run(repeat, t + "best alone",
                                                 [&] { return lesson13::run_steps(workers, image, bands, r, steps, false); }),
                                      expected, steps, one));
      measured.push_back(measured_run(
          median_run(repeat, t + "host halos",
                     [&] { return lesson13::run_steps(workers, image, balanced, r, steps, false); }),
          expected, steps, one));
      course::save_png(std::filesystem::path(options.text("output-dir")) / "iterated.png", measured.back().run.result);
      if (lesson13::context_count(workers) == 1)
        measured.push_back(measured_run(
            median_run(repeat, t + "copied halos",
                       [&] { return lesson13::run_steps(workers, image, balanced, r, steps, true); }),
            expected, steps, one));
    }

    // Step 5: the table (split_table.cpp). Kernel ms of a split is its slowest device's; idle
    // is the wall time a device ran no kernel; speed-up is the best single device's kernel time
    // over the split's.
    const std::filesystem::path dir = options.text("output-dir");
    lesson13::print_split_table("Lesson 13: " + std::to_string(w) + "x" + std::to_string(h) + ", " +
                                    filter.describe() + ", " + std::to_string(n) + " devices",
                                measured, workers, w, dir);

    // Step 6: the timeline (the best device alone, then every run of several devices) and the
    // pictures.
    std::vector<SplitRun> drawn = {measured[best].run};
    for (std::size_t i = n; i < measured.size(); ++i)
      if (measured[i].against != int(i)) drawn.push_back(measured[i].run);  // not the iterated one alone
    lesson13::save_timeline_svg(dir / "timeline.svg", drawn, names);
    const auto saved = course::output_path(options, "blurred.png");
    course::save_png(saved, measured[proportional].run.result);
    std::cout << "wrote " << saved.string() << " (proportional split)\n  and " << (dir / "timeline.svg").string()
              << "\n";
    const bool all = std::all_of(measured.begin(), measured.end(), [](const Measured& m) { return m.verified; });
    return all ? course::kExitOk : course::kExitVerificationFailed;
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
