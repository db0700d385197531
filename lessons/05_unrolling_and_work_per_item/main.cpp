// Lesson 05: loop unrolling and more work per work-item. One Gaussian blur up a ladder: naive 2D,
// the radius fixed at build time (each change alone), separable passes, several outputs and vector
// loads per work-item, one pass through local memory, then 2D sums blocked in registers; --strips
// against the wave model. Look at the speed-up column and what a compile-time radius costs to
// build; lesson 11's winner runs last. (Narrow pixels and running sums are lesson 12's.)
#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "blocked_2d.hpp"
#include "course.hpp"
#include "ladder_chart.hpp"
#include "one_change.hpp"
#include "roofline_plot.hpp"
#include "separable_host.hpp"
#include "strip_waves.hpp"
#include "tuned_winner.hpp"

const std::string kFolder = "kernels/05_unrolling_and_work_per_item/";
// The ladder, with rungs that change one thing after naive_2d and single_pass_blocked (one_change.hpp).
const std::vector<std::string> kVariants = {
    "naive_2d",           "radius_fixed_2d",   "columns_unrolled_2d", "unrolled_2d",
    "literal_weights_2d", "blocked_2d",        "blocked_2d_literal",  "separable_runtime",
    "separable_unrolled", "several_outputs",   "vector_passes",       "float4_passes",
    "single_pass_local",  "single_pass_lanes", "single_pass_blocked", "single_pass_restrict",
    "single_pass_reqd"};
using course::launch_2d, course::set_image_args;

int main(int argc, char** argv) {
  try {
    // Step 0: options.
    course::Options options("./course run 05", "Unrolling, several outputs per work-item, vector loads, one pass.");
    course::add_image_options(options, "05_unrolling_and_work_per_item");
    course::add_filter_options(options, 8);
    options.variant_option(kVariants);
    options.value("output", "PATH", "where to write the fastest variant's result (8-bit PNG)");
    options.value("steps", "N", "outputs per work-item in the multi-output variants", "8");
    options.value("strips", "ROWS,...", "also time single_pass_blocked with these strips, beside the wave model", "");
    options.flag("untuned", "leave out lesson 11's tuned winner: the shipped parameters only");
    options.example("./course run 05 --size 2048x2048 --radius 8", "the benchmark size of the thesis");
    options.example("./course run 05 --variant separable_runtime,separable_unrolled --radius 16", "compare two rungs");
    options.example("./course run 05 --variant single_pass_blocked --strips 64,256,1024", "the tail effect");
    options.parse(argc, argv);
    const int repeat = options.integer("repeat", 1, 1000);
    const int steps = options.integer("steps", 1, 32);
    const course::FilterSpec filter = course::read_filter(options);
    const auto variants = options.chosen_variants(kVariants);
    const std::vector<std::size_t> strips = course::parse_strips(options.text("strips"));

    // Step 1: device, image, CPU reference and buffers.
    course::DeviceContext dc = course::open_device(options.text("device"));
    const course::GrayImage image = course::input_gray(options, dc);
    const course::GrayImage reference = course::correlate_separable(image, filter.weights, filter.weights);
    const course::SeparableBuffers buf = course::make_separable_buffers(dc, image, filter.weights);
    const int r = filter.radius, w = image.width, h = image.height;
    std::cout << "Device: " << course::describe(dc.entry) << "\n"
              << "image " << w << "x" << h << ", " << filter.describe() << ",\n"
              << steps << " outputs per work-item where a variant makes several\n\n";
    const course::Roofline roof = course::measure_roofline(dc);
    course::ResultsTable table("Lesson 05: " + std::to_string(w) + "x" + std::to_string(h) + ", " + filter.describe(),
                               roof);
    const std::string fixed = " -D RADIUS=" + std::to_string(r) + " -D STEPS=" + std::to_string(steps);
    const std::string include =
        " -I " + course::locate_course_file(kFolder + "vector_helpers.h").parent_path().string();
    const cl::NDRange group =
        course::fit_work_group(dc.device, dc.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>(), 64, 4);
    const cl::NDRange vector_group = course::vector_group(dc);  // 16x1 on a CPU (one_change.hpp)
    const int vec = 8;                                          // VEC in vector_helpers.h

    // Step 2: every variant: build (the time a new set of -D options costs), run, verify.
    std::cout << std::left << std::setw(21) << "variant"
              << "build ms (0 = from the program cache)\n";
    course::VariantResult fastest;
    for (const std::string& name : variants) {
      course::BuildStats stats;
      auto build = [&](const std::string& file, const std::string& defines) {
        return course::build_course_program(dc, kFolder + file, defines, &stats);
      };
      std::function<std::vector<cl::Event>()> enqueue;
      int passes = 2;
      cl::Kernel first, second;  // kept alive for the enqueue function
      if (name == "naive_2d" || course::is_unrolled_2d(name)) {
        // The 2D kernels read (2R+1)^2 image values per output; one pass. unrolled_2d.cl takes
        // its radius when built, and its one-change options (one_change.hpp).
        const bool runtime = name == "naive_2d";
        first = runtime ? cl::Kernel(build("naive_2d.cl", ""), "naive_2d")
                        : cl::Kernel(build("unrolled_2d.cl", course::unrolled_2d_defines(name, r, filter.weights_2d())),
                                     "unrolled_2d");
        set_image_args(first, buf.input, buf.output, buf.weights_2d, buf);
        if (runtime) first.setArg(5, r);
        passes = 1;
        enqueue = [&] { return std::vector<cl::Event>{launch_2d(dc, first, w, h, group)}; };
      } else if (name == "blocked_2d" || name == "blocked_2d_literal") {
        // The 2D correlation with a ring of output rows in registers (blocked_2d.cl, blocked_2d.hpp);
        // blocked_2d_literal changes one thing: the weights are literals in the program.
        const course::Block2D block = course::default_block_2d(dc);
        const std::string literal =
            name == "blocked_2d_literal" ? course::literal_weights_define(filter.weights_2d()) : "";
        first = course::build_blocked_2d(dc, r, block, w, literal, &stats);
        set_image_args(first, buf.input, buf.output, buf.weights_2d, buf);
        passes = 1;
        enqueue = [&, block] { return std::vector<cl::Event>{course::launch_blocked_2d(dc, first, block, w, h)}; };
      } else if (name == "separable_runtime" || name == "separable_unrolled") {
        const cl::Program p = build("separable_passes.cl", name == "separable_runtime" ? "" : fixed);
        first = cl::Kernel(p, "row_pass");
        second = cl::Kernel(p, "column_pass");
        set_image_args(first, buf.input, buf.intermediate, buf.weights, buf);
        set_image_args(second, buf.intermediate, buf.output, buf.weights, buf);
        first.setArg(5, r);
        second.setArg(5, r);
        enqueue = [&] {
          return std::vector<cl::Event>{launch_2d(dc, first, w, h, group), launch_2d(dc, second, w, h, group)};
        };
      } else if (name == "float4_passes") {
        // One aligned float4 a work-item, neighbouring work-items on neighbouring float4s, as a
        // GPU wants them (one_change.cpp).
        enqueue = course::float4_passes_rung(dc, buf, r, steps, "", &stats).enqueue;
      } else if (name == "several_outputs" || name == "vector_passes") {
        // Two passes, several outputs a work-item: STEPS along the row, then down the column
        // (several_outputs.cl), or float8s, as a CPU wants them (vector_passes.cl).
        const bool several = name == "several_outputs";
        const cl::Program p = build(name + ".cl", fixed + (several ? "" : include));
        first = cl::Kernel(p, several ? "row_pass_steps" : "row_pass_vector");
        second = cl::Kernel(p, several ? "column_pass_steps" : "column_pass_vector");
        set_image_args(first, buf.input, buf.intermediate, buf.weights, buf);
        set_image_args(second, buf.intermediate, buf.output, buf.weights, buf);
        // Work-items along a row: one per STEPS outputs or per float8.
        const std::size_t across = several ? (w + steps - 1) / steps : (w + vec - 1) / vec;
        const cl::NDRange g = several ? group : vector_group;
        enqueue = [&, several, across, g] {
          return std::vector<cl::Event>{launch_2d(dc, first, across, h, g),
                                        launch_2d(dc, second, several ? w : across, (h + steps - 1) / steps, g)};
        };
      } else if (course::is_single_pass_blocked(name)) {
        // A float4 column and STEPS rows per work-item, groups walking down strips with a ring of
        // row-filtered rows in local memory (single_pass_blocked.cl), as shipped, with restrict
        // pointers or with its group shape required (one_change.cpp).
        course::BlockedRung rung = course::single_pass_blocked_rung(dc, name, buf, r, steps, 0, "", &stats);
        first = rung.kernel;
        passes = 1;
        enqueue = rung.enqueue;
      } else {  // single_pass_local, and single_pass_lanes with its tile laid out for a GPU's banks
        // The tile's shape is fixed at build time: one the device allows (narrow_pixels.cpp).
        const course::SinglePassShape shape = course::single_pass_local_shape(dc, r, steps, vec);
        const cl::NDRange g = shape.group;
        const std::string layout = name == "single_pass_lanes" ? " -D LANE_TILE" : "";
        first =
            cl::Kernel(build("single_pass_local.cl", fixed + shape.defines + include + layout), "single_pass_local");
        if (first.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device) < g[0] * g[1])
          throw course::SkipLesson("single_pass_local allows fewer work-items per group than its tile needs here");
        set_image_args(first, buf.input, buf.output, buf.weights, buf);
        passes = 1;
        // Whole tiles of g[0] x vec columns and g[1] x steps rows.
        const std::size_t items_x = course::round_up(w, g[0] * vec) / vec,
                          items_y = course::round_up(h, g[1] * steps) / steps;
        enqueue = [&, g, items_x, items_y] {
          return std::vector<cl::Event>{launch_2d(dc, first, items_x, items_y, g)};
        };
      }
      std::cout << std::left << std::setw(21) << name << std::fixed << std::setprecision(1) << stats.milliseconds
                << "\n";
      table.running(name);
      course::VariantResult result = course::measure_variant(dc, buf, &image, name, enqueue, reference, repeat, passes);
      if (name.find("_2d") != std::string::npos) result.row.flops *= (2 * r + 1) / 2.0;  // (2R+1)^2 taps
      if (course::is_single_pass_blocked(name)) {  // its ring's float4 loads: a local-load floor
        result.row.local_loads = course::single_pass_blocked_local_loads(r, steps) * result.row.pixels;
        result.row.local_load_bytes = 16;
      }
      const std::string against = course::compared_with(name);  // the rung it changes (one_change.cpp)
      if (std::find(variants.begin(), variants.end(), against) != variants.end()) result.row.baseline = against;
      table.add(result.row);
      course::save_png(std::filesystem::path(options.text("output-dir")) / (name + ".png"), result.image);
      if (fastest.row.variant.empty() || (result.row.verified && result.row.kernel_ms < fastest.row.kernel_ms))
        fastest = std::move(result);
    }

    // Step 3: the parameters above suit the device they were chosen on. Lesson 11 searches them
    // per device and stores its winner; when it has one for this device and size, it runs here
    // too, verified like every variant (--untuned leaves it out).
    const bool separable =
        std::any_of(variants.begin(), variants.end(), [](auto& v) { return v.find("_2d") == v.npos; });
    if (!options.given("untuned") && separable)
      if (auto tuned = lesson11::run_tuned_separable(dc, image, reference, filter, repeat, std::cout))
        table.add(*tuned);
    if (!options.given("untuned") && std::count(variants.begin(), variants.end(), "blocked_2d"))
      if (auto tuned = lesson11::run_tuned_conv2d(dc, image, reference, filter, repeat, std::cout)) table.add(*tuned);

    // With --strips: single_pass_blocked's strip lengths beside the wave model (strip_waves.cpp).
    const bool strips_ok =
        strips.empty() || course::run_strip_sweep(dc, buf, reference, r, steps, strips, repeat, roof, std::cout);

    // Step 4: what a compile-time radius costs: each new radius is a new program to build; the
    // same source and options a second time come from the program cache.
    std::cout << "\nBuilding separable_passes.cl for other radii (ms):\n";
    for (const int radius : {1, 4, 12, 16}) {
      course::BuildStats first_build, second_build;
      for (course::BuildStats* stats : {&first_build, &second_build})
        course::build_course_program(dc, kFolder + "separable_passes.cl", " -D RADIUS=" + std::to_string(radius), stats);
      std::cout << "  R=" << radius << ": " << std::fixed << std::setprecision(1) << first_build.milliseconds << " then "
                << (second_build.from_cache ? "cached" : std::to_string(second_build.milliseconds)) << "\n";
    }
    std::cout << "\n";

    // Step 5: the report, and the fastest verified result as the lesson's output.
    table.print(std::cout, std::filesystem::path(options.text("output-dir")) / "results.txt");
    course::save_ladder_svg(std::filesystem::path(options.text("output-dir")) / "ladder.svg", table,
                            course::describe(dc.entry), std::cout);
    const auto saved = course::output_path(options, "blurred.png");
    course::save_png(saved, fastest.image);
    // The ladder on the device's roofline.
    const std::filesystem::path roofline = std::filesystem::path(options.text("output-dir")) / "roofline.svg";
    course::save_roofline_svg(roofline,
                              "Lesson 05 on " + dc.entry.device_name + ": " + std::to_string(w) + "x" +
                                  std::to_string(h) + ", " + filter.describe(),
                              roof, table.rows());
    std::cout << "wrote " << course::shown_path(options.text("output-dir")) << "/<variant>.png,\n  "
              << course::shown_path(saved) << " (" << fastest.row.variant << ")\n  and " << course::shown_path(roofline)
              << "\n";
    return table.all_verified() && strips_ok ? course::kExitOk : course::kExitVerificationFailed;
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
