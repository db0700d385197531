// Lesson 11: autotuning.
// The fastest launch parameters belong to the device, and a program can find them. For the
// separable blur of lessons 04/05 and the 3x3 median of lesson 06 (and, with --op, lesson 05's
// register-blocked 2D convolution, lesson 06's 5x5 and 8-bit medians and lesson 09's bilinear
// warp), a small search loop tries
// work-group shapes, outputs per work-item, vector widths and variants: each candidate checked
// against the device's and the kernel's limits, compiled, verified and timed. Look at: the
// skipped candidates and why, how close the budgeted search gets at a fraction of the cost, the
// heat map, and the cached winner verified again on the next run.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "course.hpp"
#include "ladder_chart.hpp"
#include "heatmap.hpp"
#include "kernel_families.hpp"
#include "tuner.hpp"
#include "winner_cache.hpp"

namespace {

std::string seconds(double ms) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(ms < 10000 ? 2 : 1) << ms / 1000 << " s";
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    // Step 0: options.
    course::Options options("./course run 11", "Autotuning: search the launch parameters that are fastest here.");
    course::add_image_options(options, "11_autotuning");
    course::add_filter_options(options, 8);
    std::string op_help = "what to tune, several separated by commas:";
    for (const lesson11::TunedOp& op : lesson11::tuned_ops())
      op_help += std::string(op_help.back() == ':' ? " " : ", ") + op.name + " (" + op.what + ")";
    options.value("op", "NAMES", op_help, "separable,median");
    options.value("strategy", "NAME", "exhaustive, budgeted or both (both compares them)", "both");
    options.value("budget", "N",
                  "candidates the budgeted search may compile and time (default 4 on the small space, 24 on the full)");
    options.value("space", "NAME", "small (a few dozen candidates) or full (hundreds)", "small");
    options.value("seed", "N", "seed of the budgeted search's random samples", "11");
    options.value("cache", "FILE", "the tuning cache (default $XDG_CACHE_HOME/opencl-course/tuning.json)");
    options.flag("untuned", "run the shipped defaults only, without searching or the cache");
    options.variant_option(lesson11::all_variants());
    options.example("./course run 11 --size 2048x2048 --space full --budget 24", "the full search, and a budget");
    options.example("./course run 11 --untuned", "the shipped defaults, for comparison");
    options.parse(argc, argv);
    const course::FilterSpec filter = course::read_filter(options, 16);
    const std::string strategy = options.choice("strategy", {"exhaustive", "budgeted", "both"});
    const unsigned seed = static_cast<unsigned>(options.integer("seed", 0, 1 << 30));
    const bool untuned = options.given("untuned");
    std::vector<lesson11::TunedOp> ops;
    for (std::stringstream list(options.text("op")); list.good();) {
      std::string name, known;
      std::getline(list, name, ',');
      for (const lesson11::TunedOp& op : lesson11::tuned_ops()) {
        if (op.name == name) ops.push_back(op);
        known += (known.empty() ? "" : ", ") + op.name;
      }
      if (ops.empty() || ops.back().name != name)
        throw course::UsageError("option '--op' takes " + known + ", several separated by commas, not '" + name + "'");
    }
    lesson11::Setup setup;
    setup.repeat = options.integer("repeat", 1, 1000);
    setup.variants = options.chosen_variants(lesson11::all_variants());
    setup.size =
        options.choice("space", {"small", "full"}) == "full" ? lesson11::SpaceSize::full : lesson11::SpaceSize::small;
    int budget = setup.size == lesson11::SpaceSize::full ? 24 : 4;
    if (options.given("budget")) budget = options.integer("budget", 1, 100000);
    const std::filesystem::path cache_file =
        options.given("cache") ? std::filesystem::path(options.text("cache")) : lesson11::default_cache_file();

    // Step 1: device, image, and the roofline: the device's copy bandwidth and arithmetic rate.
    const course::DeviceContext dc = course::open_device(options.text("device"));
    const course::GrayImage image = course::input_gray(options, dc);
    setup.dc = &dc;
    setup.image = &image;
    // The warp turns the colour picture by about 10 degrees with a shear, as ./course bench does.
    const bool warps = std::any_of(ops.begin(), ops.end(), [](const auto& op) { return op.name == "warp"; });
    const course::RgbaImage picture = warps ? course::input_rgba(options) : course::RgbaImage{};
    const course::Transform turn = course::affine_matrix({0.9, 0.2, 10, -0.15, 0.95, 20});
    const course::Roofline roof = course::measure_roofline(dc);
    std::ostringstream machine;
    machine << "image " << image.width << "x" << image.height << "; copy " << std::fixed << std::setprecision(1)
            << roof.copy.gbps << " GB/s, arithmetic " << std::setprecision(0) << roof.gflops
            << " GFLOP/s (the roofline's ridge at " << std::setprecision(1) << roof.ridge() << " operations per byte)";
    std::cout << course::wrap("Device: " + course::describe(dc.entry)) << course::wrap(machine.str());

    course::ResultsTable table("Lesson 11: shipped defaults and tuned winners, " + std::to_string(image.width) + "x" +
                                   std::to_string(image.height),
                               roof);
    bool all_right = true;
    for (const lesson11::TunedOp& tuned_op : ops) {
      const std::string& op = tuned_op.name;
      auto family = op == "separable" ? lesson11::separable_family(setup, filter)
                    : op == "conv2d"  ? lesson11::conv2d_family(setup, filter)
                    : op == "warp"    ? lesson11::warp_family(setup, picture, turn)
                                      : lesson11::median_family(setup, tuned_op);
      // The copy its "% of copy" divides by: of 8-bit pixels for the 8-bit medians.
      const course::PixelType pixels = tuned_op.eight_bit ? course::PixelType::u8 : course::PixelType::f32;
      tuning::Tuner tuner(*family);
      if (setup.size == lesson11::SpaceSize::full) tuner.set_progress(&std::cout);  // minutes on a GPU
      const tuning::Space& space = family->space;
      auto add_row = [&](const std::string& label, const tuning::Measurement& m) {
        course::RowWork work;
        work.variant = op + " " + label;
        work.pixels = double(image.pixels.size());
        work.bytes = family->bytes_moved(m.point);
        work.flops = family->flops;
        work.copy = pixels;
        work.baseline = label == "shipped" ? "-" : op + " shipped";  // each winner against its own filter's defaults
        course::Timing kernel;
        kernel.device_ms = m.kernel_ms;  // the tuner's median; its spread is not kept
        table.add(course::result_row(work, kernel, -1, m.max_error, m.usable()));
        all_right = all_right && m.usable();
      };
      std::cout << "\n=== " << family->operation << ": " << space.size() << " candidates ===\n";

      // Step 2: the shipped defaults, as lessons 05 and 06 launch them.
      table.running(op + " shipped");
      const tuning::Measurement& shipped = tuner.evaluate(family->shipped);
      std::cout << course::wrap("shipped defaults: " + space.describe(family->shipped) + ": " +
                                (shipped.ran() ? std::to_string(shipped.kernel_ms).substr(0, 6) + " ms"
                                               : "skipped: " + shipped.skipped));
      add_row("shipped", shipped);
      if (untuned) continue;

      // Step 3: a cached winner for this device, driver, operation and size, verified again:
      // a new kernel file or a driver bug must not hide behind an old measurement.
      const lesson11::CacheKey key = lesson11::cache_key(dc, family->operation, image.width, image.height);
      if (const auto cached = lesson11::load_winner(cache_file, key, space, std::cout)) {
        const tuning::Measurement& again = tuner.evaluate(*cached);
        std::cout << course::wrap("cached winner (" + cache_file.string() + "): " + space.describe(*cached) + ": " +
                                  (again.usable() ? "verified again, " + std::to_string(again.kernel_ms).substr(0, 6) + " ms"
                                   : again.ran()  ? "no longer verifies here, ignored"
                                                  : "no longer legal here (" + again.skipped + "), ignored"));
      } else {
        std::cout << course::wrap("no cached winner for " + key.operation + " (" + key.size_class +
                                  ") on this device yet");
      }

      // Step 4: the searches. Every candidate is measured once; the budgeted search reuses those
      // measurements and is charged what they cost when they were taken.
      std::vector<tuning::Measurement> all, sampled;
      if (strategy != "budgeted") {
        table.running(op + " exhaustive search");
        all = tuner.exhaustive();
        table.end_progress();
        print_search_table(std::cout, "Exhaustive search, " + family->operation, *family, all, roof, pixels,
                           std::filesystem::path(options.text("output-dir")) / ("exhaustive_" + op + ".txt"));
      }
      if (strategy != "exhaustive") {
        table.running(op + " budgeted search");
        sampled = tuner.budgeted(budget, seed);
        table.end_progress();
        print_search_table(std::cout, "Budgeted search (" + std::to_string(budget) + "), " + family->operation, *family,
                           sampled, roof, pixels,
                           std::filesystem::path(options.text("output-dir")) / ("budgeted_" + op + ".txt"));
      }
      const tuning::Measurement* best_all = tuning::Tuner::fastest(all);
      const tuning::Measurement* best_sampled = tuning::Tuner::fastest(sampled);
      if (best_all && best_sampled) {
        std::ostringstream compared;
        compared << std::fixed << "budgeted search: " << std::setprecision(4) << best_sampled->kernel_ms << " ms against the "
                 << "exhaustive best " << best_all->kernel_ms << " ms (" << std::setprecision(0)
                 << 100.0 * best_all->kernel_ms / best_sampled->kernel_ms << "% of its speed), after "
                 << tuning::compiled(sampled) << " of " << tuning::compiled(all) << " candidates, "
                 << 100.0 * tuning::total_cost_ms(sampled) / tuning::total_cost_ms(all) << "% of the cost ("
                 << seconds(tuning::total_cost_ms(sampled)) << " against " << seconds(tuning::total_cost_ms(all))
                 << ")";
        std::cout << course::wrap(compared.str());
      }
      for (const auto* list : {&all, &sampled})
        for (const tuning::Measurement& m : *list)
          if (m.ran() && !m.verified) all_right = false;

      // Step 5: the winner: its place on the roofline, the heat map, the cache.
      const tuning::Measurement* winner = best_all ? best_all : best_sampled;
      // A budgeted search need not have met the shipped defaults: they win when nothing it found
      // is faster.
      if (winner && shipped.usable() && shipped.kernel_ms < winner->kernel_ms) winner = &shipped;
      if (!winner) {
        std::cout << "no candidate verified\n";
        all_right = false;
        continue;
      }
      const double bound = roof.bound_ms(family->bytes, family->flops, roof.copy_of(pixels).gbps);
      std::ostringstream won, place;
      won << std::fixed << "winner: " << space.describe(winner->point) << ", " << std::setprecision(4) << winner->kernel_ms
          << " ms, " << std::setprecision(2) << shipped.kernel_ms / winner->kernel_ms << "x the shipped defaults";
      place << std::fixed << "roofline: ";
      if (family->flops > 0)
        place << std::setprecision(1) << course::arithmetic_intensity(family->flops, family->bytes)
              << " operations per byte, "
              << (course::arithmetic_intensity(family->flops, family->bytes) > roof.ridge() ? "arithmetic" : "memory")
              << "-bound here";
      else
        place << "the memory ceiling only ("
              << (tuned_op.window ? "the comparisons depend on the algorithm" : "a warp's few operations per pixel")
              << ")";
      place << "; the roofline's time is " << std::setprecision(4) << bound << " ms, the winner reaches "
            << std::setprecision(0) << 100.0 * bound / winner->kernel_ms << "% of it";
      std::cout << course::wrap(won.str()) << course::wrap(place.str());
      const std::string heat = "heatmap_" + op + ".png";
      lesson11::heatmap(std::cout, std::filesystem::path(options.text("output-dir")) / heat, *family,
                        best_all ? all : sampled, roof.copy_of(pixels).gbps);
      lesson11::store_winner(cache_file, key, space, winner->point, winner->kernel_ms);
      std::cout << course::wrap("wrote " + options.text("output-dir") + "/" + heat)
                << course::wrap("winner stored in " + cache_file.string());
      add_row("tuned", *winner);
    }

    // Step 6: the summary: each operation's shipped defaults beside its tuned winner.
    std::cout << "\n";
    table.print(std::cout, std::filesystem::path(options.text("output-dir")) / "results.txt");
    course::save_ladder_svg(std::filesystem::path(options.text("output-dir")) / "ladder.svg", table,
                            course::describe(dc.entry), std::cout);
    return all_right && table.all_verified() ? course::kExitOk : course::kExitVerificationFailed;
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
