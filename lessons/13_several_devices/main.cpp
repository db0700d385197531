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
#include "text_table.hpp"
#include "timeline_svg.hpp"

namespace {

using lesson13::Band;
using lesson13::SplitRun;

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

// Runs `once` `repeat` times and keeps the run of median wall time (the first is a warm-up).
template <typename Run>
SplitRun median_run(int repeat, const std::string& name, Run once) {
  std::vector<SplitRun> runs;
  for (int i = 0; i <= repeat; ++i) runs.push_back(once());
  runs.erase(runs.begin());
  std::sort(runs.begin(), runs.end(), [](const SplitRun& a, const SplitRun& b) { return a.wall_ms < b.wall_ms; });
  SplitRun typical = std::move(runs[runs.size() / 2]);
  typical.name = name;
  return typical;
}

// The whole picture on device k alone.
std::vector<Band> alone(std::size_t devices, std::size_t k, int height, int radius) {
  std::vector<double> shares(devices, 0.0);
  shares[k] = 1;
  return lesson13::split_rows(height, shares, radius);
}

struct Verdict {
  double max_error = 0;
  bool ok = false;
};

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
    options.value("probe-rows", "N", "rows each device filters to measure its speed", "64");
    options.value("output", "PATH", "where to write the proportional split's result (8-bit PNG)");
    options.flag("mpi", lesson13::mpi_built() ? "one process per device (mpirun -np N), halos by MPI_Sendrecv"
                                              : "one process per device (this build has no MPI: see the page)");
    options.example("./course run 13 --split-cpu 2", "the CPU as two devices (PoCL)");
    options.example("./course run 13 --devices 0,1 --size 16384x16384", "two GPUs, a large picture");
    options.example("./course run 13 --devices cpu,gpu --steps 10", "a CPU and a GPU, 10 steps");
    options.parse(argc, argv);
    const int repeat = options.integer("repeat", 1, 1000);
    const int steps = options.integer("steps", 0, 1000);
    const int probe_rows = options.integer("probe-rows", 1, 1 << 16);
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
    std::vector<std::string> names;
    for (const auto& worker : workers) {
      names.push_back(worker.name);
      std::cout << "  " << worker.name << "\n";
    }
    const course::GrayImage reference = course::correlate_separable(image, filter.weights, filter.weights);
    auto verify = [&](const SplitRun& run, const course::GrayImage& expected) {
      const auto c = course::compare_images(run.result.pixels, expected.pixels, w, h, 0.02);
      if (!c.ok()) std::cout << "  " << run.name << " differs from the CPU reference: " << c.describe() << "\n";
      return Verdict{c.max_abs_error, c.ok()};
    };

    // Step 2: each device alone, the yardstick: speed-up and efficiency are against the best.
    std::vector<SplitRun> singles;
    for (std::size_t k = 0; k < n; ++k) {
      const auto bands = alone(n, k, h, r);
      singles.push_back(median_run(repeat, "alone",
                                   [&] { return lesson13::run_split(workers, image, bands, r); }));
    }
    const auto best = std::min_element(singles.begin(), singles.end(), [](const SplitRun& a, const SplitRun& b) {
      return a.kernel_ms() < b.kernel_ms();
    });

    // Step 3: three splits. Even bands; bands proportional to each device's speed on a short
    // probe; chunks of rows handed out as devices finish.
    const std::vector<double> speeds = lesson13::probe_speeds(workers, image, probe_rows, r);
    const std::vector<Band> even = lesson13::split_rows(h, std::vector<double>(n, 1.0), r);
    const std::vector<Band> balanced = lesson13::split_rows(h, speeds, r);
    std::cout << "\nprobe of " << std::min(probe_rows, h) << " rows, then the bands (+halo above/below):\n";
    for (std::size_t k = 0; k < n; ++k)
      std::cout << "  " << std::left << std::setw(26) << workers[k].name.substr(0, 25) << std::right << std::setw(8)
                << fixed(speeds[k], 1) << " rows/ms  even " << lesson13::describe(even[k]) << "\n"
                << std::string(45, ' ') << "prop " << lesson13::describe(balanced[k]) << "\n";
    std::vector<SplitRun> runs;
    runs.push_back(median_run(repeat, "even", [&] { return lesson13::run_split(workers, image, even, r); }));
    runs.push_back(median_run(repeat, "proportional", [&] { return lesson13::run_split(workers, image, balanced, r); }));
    runs.push_back(median_run(repeat, "dynamic, " + std::to_string(chunk_rows) + " rows",
                              [&] { return lesson13::run_dynamic(workers, image, chunk_rows, r); }));
    std::vector<Verdict> verdicts;
    for (const SplitRun& run : runs) verdicts.push_back(verify(run, reference));

    // Step 4 (--steps T): the filter T times; between steps only halo rows move, through the
    // host, and by clEnqueueCopyBuffer where every device shares one context.
    double best_steps_ms = 0;
    if (steps > 0) {
      course::GrayImage expected = image;
      for (int s = 0; s < steps; ++s) expected = course::correlate_separable(expected, filter.weights, filter.weights);
      const auto bands = alone(n, best - singles.begin(), h, r);
      best_steps_ms = median_run(repeat, "", [&] {
                        return lesson13::run_steps(workers, image, bands, r, steps, false);
                      }).kernel_ms();
      const std::string t = std::to_string(steps) + " steps, ";
      runs.push_back(median_run(repeat, t + "host halos",
                                [&] { return lesson13::run_steps(workers, image, balanced, r, steps, false); }));
      verdicts.push_back(verify(runs.back(), expected));
      course::save_png(std::filesystem::path(options.text("output-dir")) / "iterated.png", runs.back().result);
      if (lesson13::context_count(workers) == 1) {
        runs.push_back(median_run(repeat, t + "copied halos",
                                  [&] { return lesson13::run_steps(workers, image, balanced, r, steps, true); }));
        verdicts.push_back(verify(runs.back(), expected));
      }
    }

    // Step 5: the table. Kernel ms of a split is its slowest device's; idle is the wall time
    // a device ran no kernel; speed-up is the best single device's kernel time over the split's.
    course::TextTable table;
    table.title = "Lesson 13: " + std::to_string(w) + "x" + std::to_string(h) + ", " + filter.describe() + ", " +
                  std::to_string(n) + " devices";
    table.head = {"variant", "kernel ms", "rows", "idle ms", "MB moved", "wall ms", "speed-up", "eff.", "ok"};
    table.drop_order = {4, 2, 7};
    auto add = [&](const SplitRun& run, double yardstick, const Verdict* verdict) {
      const double speedup = yardstick / std::max(run.kernel_ms(), 1e-9);
      table.rows.push_back({run.name, fixed(run.kernel_ms(), 3), std::to_string(h), "", "", fixed(run.wall_ms, 2),
                            fixed(speedup, 2) + "x", fixed(100 * speedup / n, 0) + "%",
                            verdict ? (verdict->ok ? "yes" : "NO") : ""});
      for (std::size_t k = 0; k < n; ++k) {
        const auto& d = run.devices[k];
        if (d.rows == 0) continue;
        // "- device": a row of its own, not indented, so that the table stays one block to read.
        table.rows.push_back({"- " + workers[k].name, fixed(d.kernel_ms, 3), std::to_string(d.rows),
                              fixed(std::max(0.0, run.wall_ms - d.kernel_ms), 2), fixed(d.bytes / 1e6, 2), "", "", "", ""});
      }
    };
    for (const SplitRun& single : singles) add(single, best->kernel_ms(), nullptr);
    for (std::size_t i = 0; i < runs.size(); ++i)
      add(runs[i], i < 3 ? best->kernel_ms() : best_steps_ms, &verdicts[i]);
    table.notes = {"speed-up: the best single device's kernel time over the split's (its slowest device's); "
                   "eff. = speed-up / devices; idle: wall time a device ran no kernel",
                   "iterated rows compare with the best device alone doing the same steps"};
    const std::filesystem::path dir = options.text("output-dir");
    table.print(std::cout, dir / "results.txt");

    // Step 6: the timeline and the pictures.
    std::vector<SplitRun> drawn = {*best};
    drawn.insert(drawn.end(), runs.begin(), runs.end());
    lesson13::save_timeline_svg(dir / "timeline.svg", drawn, names);
    const auto saved = course::output_path(options, "blurred.png");
    course::save_png(saved, runs[1].result);
    std::cout << "wrote " << saved.string() << " (proportional split)\n  and " << (dir / "timeline.svg").string()
              << "\n";
    const bool all = std::all_of(verdicts.begin(), verdicts.end(), [](const Verdict& v) { return v.ok; });
    return all ? course::kExitOk : course::kExitVerificationFailed;
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
