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

namespace {

const std::string kFolder = "kernels/05_unrolling_and_work_per_item/";
const int kVec = 8;  // VEC in vector_helpers.h: the floats a vector_passes work-item owns
using course::round_up, course::set_image_args;

// What every rung is built from (`group`: the one-output kernels' group, 64x4 where allowed).
struct Setup {
  const course::DeviceContext& dc;
  const course::SeparableBuffers& buf;
  const course::FilterSpec& filter;
  int steps;
  cl::NDRange group;
  course::BuildStats* stats;
};

// A rung: the rung whose one thing it changes ("": the table's first row), passes through
// memory, (2R+1)^2 multiply-adds an output (not 2 (2R+1)), whether it reads single_pass_blocked's
// ring (a local-load floor), and what builds it and returns how to launch it once.
struct Rung {
  std::string name, changes;
  int passes;
  bool taps_2d, ring;
  course::BlockedRung (*build)(const Setup&, const std::string& name);
};

cl::Program build_file(const Setup& s, const std::string& file, const std::string& defines) {
  return course::build_course_program(s.dc, kFolder + file, defines, s.stats);
}
std::string radius_and_steps(const Setup& s) {
  return " -D RADIUS=" + std::to_string(s.filter.radius) + " -D STEPS=" + std::to_string(s.steps);
}
std::string vector_include() {
  return " -I " + course::locate_course_file(kFolder + "vector_helpers.h").parent_path().string();
}

// A rung of one kernel over x1 by y1 work-items (its arguments set by the caller), or of a row
// pass into the intermediate buffer and a column pass from it over x2 by y2, in groups of `g`.
course::BlockedRung launched(const Setup& s, cl::Kernel first, cl::Kernel second, cl::NDRange g, std::size_t x1,
                             std::size_t y1, std::size_t x2 = 0, std::size_t y2 = 0) {
  if (second()) {
    set_image_args(first, s.buf.input, s.buf.intermediate, s.buf.weights, s.buf);
    set_image_args(second, s.buf.intermediate, s.buf.output, s.buf.weights, s.buf);
  }
  return {first, second, [&dc = s.dc, first, second, g, x1, y1, x2, y2]() mutable {
            std::vector<cl::Event> events(second() ? 2 : 1);  // each kernel's, over whole groups of g
            for (std::size_t k = 0; k < events.size(); ++k)
              dc.queue.enqueueNDRangeKernel(k ? second : first, cl::NullRange,
                                            {round_up(k ? x2 : x1, g[0]), round_up(k ? y2 : y1, g[1])}, g, nullptr,
                                            &events[k]);
            return events;
          }};
}

// The 2D kernels read (2R+1)^2 image values per output. naive_2d takes the radius as an
// argument; unrolled_2d.cl takes it when built, with its one-change options (one_change.hpp).
course::BlockedRung two_d(const Setup& s, const std::string& name) {
  const bool runtime = name == "naive_2d";
  const std::string defines = runtime ? "" : course::unrolled_2d_defines(name, s.filter.radius, s.filter.weights_2d());
  const std::string file = runtime ? "naive_2d" : "unrolled_2d";
  cl::Kernel k(build_file(s, file + ".cl", defines), file.c_str());
  set_image_args(k, s.buf.input, s.buf.output, s.buf.weights_2d, s.buf);
  if (runtime) k.setArg(5, s.filter.radius);
  return launched(s, k, {}, s.group, s.buf.width, s.buf.height);
}

// The 2D correlation with a ring of output rows in registers (blocked_2d.cl, blocked_2d.hpp);
// blocked_2d_literal changes one thing: the weights are literals in the program.
course::BlockedRung blocked(const Setup& s, const std::string& name) {
  const course::Block2D block = course::default_block_2d(s.dc);
  const std::string literal = name == "blocked_2d_literal" ? course::literal_weights_define(s.filter.weights_2d()) : "";
  cl::Kernel k = course::build_blocked_2d(s.dc, s.filter.radius, block, s.buf.width, literal, s.stats);
  set_image_args(k, s.buf.input, s.buf.output, s.buf.weights_2d, s.buf);
  return {k, {}, [&dc = s.dc, k, block, w = s.buf.width, h = s.buf.height]() mutable {
            return std::vector<cl::Event>{course::launch_blocked_2d(dc, k, block, w, h)};
          }};
}

// Two passes, the radius an argument (separable_runtime) or compiled in (separable_unrolled).
course::BlockedRung separable(const Setup& s, const std::string& name) {
  const cl::Program p = build_file(s, "separable_passes.cl", name == "separable_runtime" ? "" : radius_and_steps(s));
  const int w = s.buf.width, h = s.buf.height;
  course::BlockedRung rung = launched(s, cl::Kernel(p, "row_pass"), cl::Kernel(p, "column_pass"), s.group, w, h, w, h);
  rung.kernel.setArg(5, s.filter.radius);
  rung.second.setArg(5, s.filter.radius);
  return rung;
}

// Two passes, several outputs a work-item: STEPS along the row, then down the column
// (several_outputs.cl), or float8s, as a CPU wants them (vector_passes.cl, 16x1 groups on a CPU);
// so a row has a work-item per STEPS outputs or per float8.
course::BlockedRung several_outputs(const Setup& s, const std::string& name) {
  const bool several = name == "several_outputs";
  const cl::Program p = build_file(s, name + ".cl", radius_and_steps(s) + (several ? "" : vector_include()));
  const int w = s.buf.width, h = s.buf.height, steps = s.steps;
  const std::size_t across = several ? (w + steps - 1) / steps : (w + kVec - 1) / kVec;
  return launched(s, cl::Kernel(p, several ? "row_pass_steps" : "row_pass_vector"),
                  cl::Kernel(p, several ? "column_pass_steps" : "column_pass_vector"),
                  several ? s.group : course::vector_group(s.dc), across, h, several ? w : across,
                  (h + steps - 1) / steps);
}

// single_pass_local, and single_pass_lanes with its tile laid out for a GPU's banks. The tile's
// shape is fixed at build time: one the device allows (one_change.cpp).
course::BlockedRung single_pass_local(const Setup& s, const std::string& name) {
  const course::SinglePassShape shape = course::single_pass_local_shape(s.dc, s.filter.radius, s.steps, kVec);
  const std::string layout = name == "single_pass_lanes" ? " -D LANE_TILE" : "";
  cl::Kernel k(build_file(s, "single_pass_local.cl", radius_and_steps(s) + shape.defines + vector_include() + layout),
               "single_pass_local");
  if (k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(s.dc.device) < shape.group[0] * shape.group[1])
    throw course::SkipLesson("single_pass_local allows fewer work-items per group than its tile needs here");
  set_image_args(k, s.buf.input, s.buf.output, s.buf.weights, s.buf);
  // Whole tiles of group[0] x kVec columns and group[1] x STEPS rows.
  return launched(s, k, {}, shape.group, round_up(s.buf.width, shape.group[0] * kVec) / kVec,
                  round_up(s.buf.height, shape.group[1] * s.steps) / s.steps);
}

// The float4 passes and single_pass_blocked with its one-change rungs (one_change.hpp).
course::BlockedRung float4_passes(const Setup& s, const std::string&) {
  return course::float4_passes_rung(s.dc, s.buf, s.filter.radius, s.steps, "", s.stats);
}
course::BlockedRung single_pass_blocked(const Setup& s, const std::string& name) {
  return course::single_pass_blocked_rung(s.dc, name, s.buf, s.filter.radius, s.steps, 0, "", s.stats);
}

// The ladder, in the order it runs: name, the rung it changes, passes, 2D taps, ring, build.
const std::vector<Rung> kLadder = {
    {"naive_2d", "", 1, true, false, two_d},
    {"radius_fixed_2d", "naive_2d", 1, true, false, two_d},
    {"columns_unrolled_2d", "radius_fixed_2d", 1, true, false, two_d},
    {"unrolled_2d", "columns_unrolled_2d", 1, true, false, two_d},
    {"literal_weights_2d", "unrolled_2d", 1, true, false, two_d},
    {"blocked_2d", "unrolled_2d", 1, true, false, blocked},
    {"blocked_2d_literal", "blocked_2d", 1, true, false, blocked},
    {"separable_runtime", "", 2, false, false, separable},
    {"separable_unrolled", "", 2, false, false, separable},
    {"several_outputs", "", 2, false, false, several_outputs},
    {"vector_passes", "", 2, false, false, several_outputs},
    {"float4_passes", "vector_passes", 2, false, false, float4_passes},
    {"single_pass_local", "", 1, false, false, single_pass_local},
    {"single_pass_lanes", "single_pass_local", 1, false, false, single_pass_local},
    {"single_pass_blocked", "single_pass_local", 1, false, true, single_pass_blocked},
    {"single_pass_restrict", "single_pass_blocked", 1, false, true, single_pass_blocked},
    {"single_pass_reqd", "single_pass_blocked", 1, false, true, single_pass_blocked},
};

std::vector<std::string> rung_names() {
  std::vector<std::string> names;
  for (const Rung& rung : kLadder) names.push_back(rung.name);
  return names;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    // Step 0: options.
    course::Options options("./course run 05", "Unrolling, several outputs per work-item, vector loads, one pass.");
    course::add_image_options(options, "05_unrolling_and_work_per_item");
    course::add_filter_options(options, 8);
    options.variant_option(rung_names());
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
    const auto variants = options.chosen_variants(rung_names());
    const std::vector<std::size_t> strips = course::parse_strips(options.text("strips"));

    // Step 1: device, image, CPU reference and buffers.
    course::DeviceContext dc = course::open_device(options.text("device"));
    const course::GrayImage image = course::input_gray(options, dc);
    const course::GrayImage reference = course::correlate_separable(image, filter.weights, filter.weights);
    const course::SeparableBuffers buf = course::make_separable_buffers(dc, image, filter.weights);
    const int r = filter.radius, w = image.width, h = image.height;
    const std::filesystem::path out_dir(options.text("output-dir"));
    std::cout << "Device: " << course::describe(dc.entry) << "\n"
              << "image " << w << "x" << h << ", " << filter.describe() << ",\n"
              << steps << " outputs per work-item where a variant makes several\n\n";
    const course::Roofline roof = course::measure_roofline(dc);
    course::ResultsTable table("Lesson 05: " + std::to_string(w) + "x" + std::to_string(h) + ", " + filter.describe(),
                               roof);
    const cl::NDRange group =
        course::fit_work_group(dc.device, dc.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>(), 64, 4);
    // Step 2: every variant: build (the time a new set of -D options costs), run, verify.
    std::cout << std::left << std::setw(21) << "variant"
              << "build ms (0 = from the program cache)\n";
    course::VariantResult fastest;
    bool any_separable = false;  // lesson 11's tuned separable winner runs beside them
    for (const std::string& name : variants) {
      const Rung& rung = *std::find_if(kLadder.begin(), kLadder.end(), [&](const Rung& x) { return x.name == name; });
      course::BuildStats stats;
      const course::BlockedRung built = rung.build(Setup{dc, buf, filter, steps, group, &stats}, name);
      std::cout << std::left << std::setw(21) << name << std::fixed << std::setprecision(1) << stats.milliseconds
                << "\n";
      table.running(name);
      course::VariantResult result =
          course::measure_variant(dc, buf, &image, name, built.enqueue, reference, repeat, rung.passes);
      any_separable = any_separable || !rung.taps_2d;
      if (rung.taps_2d) result.row.flops *= (2 * r + 1) / 2.0;  // (2R+1)^2 multiply-adds, not 2 (2R+1)
      if (rung.ring) {                                          // its ring's float4 loads: a local-load floor
        result.row.local_loads = course::single_pass_blocked_local_loads(r, steps) * result.row.pixels;
        result.row.local_load_bytes = 16;
      }
      if (std::find(variants.begin(), variants.end(), rung.changes) != variants.end())
        result.row.baseline = rung.changes;
      table.add(result.row);
      course::save_png(out_dir / (name + ".png"), result.image);
      if (fastest.row.variant.empty() || (result.row.verified && result.row.kernel_ms < fastest.row.kernel_ms))
        fastest = std::move(result);
    }

    // Step 3: the parameters above suit the device they were chosen on. Lesson 11 searches them
    // per device and stores its winner; when it has one for this device and size, it runs here
    // too, verified like every variant (--untuned leaves it out).
    if (!options.given("untuned") && any_separable)
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
        course::build_course_program(dc, kFolder + "separable_passes.cl", " -D RADIUS=" + std::to_string(radius),
                                     stats);
      std::cout << "  R=" << radius << ": " << std::fixed << std::setprecision(1) << first_build.milliseconds
                << " then " << (second_build.from_cache ? "cached" : std::to_string(second_build.milliseconds)) << "\n";
    }
    std::cout << "\n";

    // Step 5: the report, and the fastest verified result as the lesson's output.
    table.print(std::cout, out_dir / "results.txt");
    course::save_ladder_svg(out_dir / "ladder.svg", table, course::describe(dc.entry), std::cout);
    const auto saved = course::output_path(options, "blurred.png");
    course::save_png(saved, fastest.image);
    const std::filesystem::path roofline = out_dir / "roofline.svg";
    course::save_roofline_svg(roofline,
                              "Lesson 05 on " + dc.entry.device_name + ": " + std::to_string(w) + "x" +
                                  std::to_string(h) + ", " + filter.describe(),
                              roof, table.rows());
    std::cout << "wrote " << course::shown_path(out_dir) << "/<variant>.png,\n  " << course::shown_path(saved) << " ("
              << fastest.row.variant << ")\n  and " << course::shown_path(roofline) << "\n";
    return table.all_verified() && strips_ok ? course::kExitOk : course::kExitVerificationFailed;
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
