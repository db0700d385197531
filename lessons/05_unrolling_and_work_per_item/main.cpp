// Lesson 05: loop unrolling and more work per work-item.
// One Gaussian blur, climbing a ladder: lesson 02's naive 2D kernel, the radius fixed at build
// time, two separable passes, several outputs per work-item, vector loads (as a CPU wants them,
// then as a GPU wants them), and one pass that keeps the row-filtered rows in local memory (in
// the CPU's layout, for the GPU's banks, then as a GPU wants it: float4 columns, rows in
// registers, strips); beside the 2D kernels, one that keeps its sums in registers (blocked_2d);
// with --filter box, a box filter by running sums (its cost the same at every radius up to 64);
// with --type u8 or f16, the float4 rungs on 8-bit or half pixels. Look at: the speed-up column,
// the build time a compile-time radius costs (and the cache answering the second time), and
// `--size 2048x2048`.
// Where lesson 11 (autotuning) has stored faster parameters for this device, they run last.
#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "blocked_2d.hpp"
#include "build_costs.hpp"
#include "course.hpp"
#include "ladder_chart.hpp"
#include "narrow_pixels.hpp"
#include "roofline_plot.hpp"
#include "running_sums.hpp"
#include "separable_host.hpp"
#include "tuned_winner.hpp"

namespace {

const std::string kFolder = "kernels/05_unrolling_and_work_per_item/";
const std::vector<std::string> kVariants = {"naive_2d",          "unrolled_2d",         "blocked_2d",
                                            "separable_runtime", "separable_unrolled",  "several_outputs",
                                            "vector_passes",     "float4_passes",       "single_pass_local",
                                            "single_pass_lanes", "single_pass_blocked", "running_sums"};

// Launches a 2D kernel over `items_x` x `items_y` work-items, rounded up to whole groups.
cl::Event launch(const course::DeviceContext& dc, cl::Kernel& kernel, std::size_t items_x, std::size_t items_y,
                 const cl::NDRange& local) {
  cl::Event done;
  dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange,
                                cl::NDRange(course::round_up(items_x, local[0]), course::round_up(items_y, local[1])),
                                local, nullptr, &done);
  return done;
}

// Every kernel of this lesson takes (input, output, weights, width, height) first.
void set_image_args(cl::Kernel& kernel, const cl::Buffer& in, const cl::Buffer& out, const cl::Buffer& weights,
                    const course::SeparableBuffers& b) {
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  kernel.setArg(2, weights);
  kernel.setArg(3, b.width);
  kernel.setArg(4, b.height);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    // Step 0: options.
    course::Options options("./course run 05", "Unrolling, several outputs per work-item, vector loads, one pass.");
    course::add_image_options(options, "05_unrolling_and_work_per_item");
    course::add_filter_options(options, 8);
    options.variant_option(kVariants);
    options.value("output", "PATH", "where to write the fastest variant's result (8-bit PNG)");
    options.value("steps", "N", "outputs per work-item in the multi-output variants", "8");
    options.flag("untuned", "leave out lesson 11's tuned winner: the shipped parameters only");
    options.value("type", "f32|u8|f16", "pixels in memory: floats, or the float4 rungs on 8-bit levels or halves",
                  "f32");
    options.example("./course run 05 --size 2048x2048 --radius 8", "the benchmark size of the thesis");
    options.example("./course run 05 --variant separable_runtime,separable_unrolled --radius 16", "compare two rungs");
    options.example("./course run 05 --type u8 --size 2048x2048", "8-bit pixels: a quarter of the bytes");
    options.parse(argc, argv);
    const int repeat = options.integer("repeat", 1, 1000);
    const int steps = options.integer("steps", 1, 32);
    const course::FilterSpec filter = course::read_filter(options, course::kRunningSumsMaxRadius);
    // Above radius 16 a box filter, and only the rungs that take such a radius (running_sums.hpp).
    const bool wide = filter.radius > 16;
    if (wide && filter.kind != "box") throw course::UsageError("a radius above 16 takes --filter box");
    const auto variants = options.chosen_variants(wide ? course::wide_radius_variants() : kVariants);
    const course::PixelType type = course::pixel_type(options.choice("type", {"f32", "u8", "f16"}));

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
    course::ResultsTable table("Lesson 05: " + std::to_string(w) + "x" + std::to_string(h) + ", " + filter.describe() +
                                   (type == course::PixelType::f32 ? "" : ", " + options.text("type") + " pixels"),
                               roof);
    const std::string fixed = " -D RADIUS=" + std::to_string(r) + " -D STEPS=" + std::to_string(steps);
    const std::string include =
        " -I " + course::locate_course_file(kFolder + "vector_helpers.h").parent_path().string();
    const cl::NDRange group =
        course::fit_work_group(dc.device, dc.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>(), 64, 4);
    const cl::NDRange vector_group = course::vector_group(dc);  // 16x1 on a CPU (narrow_pixels.hpp)
    const int vec = 8;                                          // VEC in vector_helpers.h
    // Rows start on 16-byte boundaries when the width is a multiple of 4: the float4 kernels'
    // loads and stores may then be 16-byte accesses (float4_helpers.h).
    const std::string aligned = std::string(" -D ALIGNED_ROWS=") + (w % 4 == 0 ? "1" : "0");

    // Narrow pixels (--type u8 or f16): the float4 rungs storing bytes or halves, beside their copy.
    if (type != course::PixelType::f32) {
      course::save_png(
          course::output_path(options, "blurred.png"),
          course::run_narrow_ladder(dc, image, filter, type, steps, repeat, table, options.text("output-dir")));
      table.print(std::cout, std::filesystem::path(options.text("output-dir")) / "results.txt");
      course::save_ladder_svg(std::filesystem::path(options.text("output-dir")) / "ladder.svg", table,
                              course::describe(dc.entry), std::cout);
      return table.all_verified() ? course::kExitOk : course::kExitVerificationFailed;
    }

    // Step 2: every variant: build (the time a new set of -D options costs), run, verify.
    std::cout << std::left << std::setw(20) << "variant"
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
      if (name == "naive_2d" || name == "unrolled_2d") {
        // The 2D kernels read (2R+1)^2 image values per output; one pass.
        const bool runtime = name == "naive_2d";
        first = cl::Kernel(runtime ? build("naive_2d.cl", "") : build("unrolled_2d.cl", fixed), name.c_str());
        set_image_args(first, buf.input, buf.output, buf.weights_2d, buf);
        if (runtime) first.setArg(5, r);
        passes = 1;
        enqueue = [&] { return std::vector<cl::Event>{launch(dc, first, w, h, group)}; };
      } else if (name == "blocked_2d") {
        // The 2D correlation with a ring of output rows in registers (blocked_2d.cl, blocked_2d.hpp).
        const course::Block2D block = course::default_block_2d(dc);
        first = course::build_blocked_2d(dc, r, block, w, "", &stats);
        set_image_args(first, buf.input, buf.output, buf.weights_2d, buf);
        passes = 1;
        enqueue = [&, block] { return std::vector<cl::Event>{course::launch_blocked_2d(dc, first, block, w, h)}; };
      } else if (name == "running_sums") {
        // The box filter by running sums: two loads a pixel and pass at any radius (running_sums.cl).
        if (filter.kind != "box" && variants.size() == 1)
          throw course::UsageError("running_sums is a box filter's algorithm: add --filter box");
        if (filter.kind != "box") {
          std::cout << "running_sums: skipped, the running sums are a box filter's (--filter box)\n";
          continue;
        }
        course::RunningSums sums = course::build_running_sums(dc, 512, &stats);
        enqueue = [&, sums]() mutable {
          return course::launch_running_sums(dc, sums, buf.input, buf.intermediate, buf.output, w, h, r);
        };
      } else if (name == "separable_runtime" || name == "separable_unrolled") {
        const cl::Program p = build("separable_passes.cl", name == "separable_runtime" ? "" : fixed);
        first = cl::Kernel(p, "row_pass");
        second = cl::Kernel(p, "column_pass");
        set_image_args(first, buf.input, buf.intermediate, buf.weights, buf);
        set_image_args(second, buf.intermediate, buf.output, buf.weights, buf);
        first.setArg(5, r);
        second.setArg(5, r);
        enqueue = [&] {
          return std::vector<cl::Event>{launch(dc, first, w, h, group), launch(dc, second, w, h, group)};
        };
      } else if (name == "several_outputs") {
        const cl::Program p = build("several_outputs.cl", fixed);
        first = cl::Kernel(p, "row_pass_steps");
        second = cl::Kernel(p, "column_pass_steps");
        set_image_args(first, buf.input, buf.intermediate, buf.weights, buf);
        set_image_args(second, buf.intermediate, buf.output, buf.weights, buf);
        enqueue = [&] {
          return std::vector<cl::Event>{launch(dc, first, (w + steps - 1) / steps, h, group),
                                        launch(dc, second, w, (h + steps - 1) / steps, group)};
        };
      } else if (name == "vector_passes") {
        const cl::Program p = build("vector_passes.cl", fixed + include);
        first = cl::Kernel(p, "row_pass_vector");
        second = cl::Kernel(p, "column_pass_vector");
        set_image_args(first, buf.input, buf.intermediate, buf.weights, buf);
        set_image_args(second, buf.intermediate, buf.output, buf.weights, buf);
        enqueue = [&] {
          return std::vector<cl::Event>{launch(dc, first, (w + vec - 1) / vec, h, vector_group),
                                        launch(dc, second, (w + vec - 1) / vec, (h + steps - 1) / steps, vector_group)};
        };
      } else if (name == "float4_passes") {
        // The GPU layout of the same passes: one aligned float4 per work-item, neighbouring
        // work-items on neighbouring float4s (float4_passes.cl).
        const cl::Program p = build("float4_passes.cl", fixed + include + aligned);
        first = cl::Kernel(p, "row_pass_float4");
        second = cl::Kernel(p, "column_pass_float4");
        set_image_args(first, buf.input, buf.intermediate, buf.weights, buf);
        set_image_args(second, buf.intermediate, buf.output, buf.weights, buf);
        enqueue = [&] {
          return std::vector<cl::Event>{launch(dc, first, (w + 3) / 4, h, vector_group),
                                        launch(dc, second, (w + 3) / 4, (h + steps - 1) / steps, vector_group)};
        };
      } else if (name == "single_pass_blocked") {
        // A float4 column and STEPS rows per work-item, groups walking down strips with a ring of
        // row-filtered rows in local memory (single_pass_blocked.cl; its shape: narrow_pixels.cpp).
        const course::SinglePassShape shape = course::single_pass_blocked_shape(dc, r, steps);
        const cl::NDRange g = shape.group;
        first = cl::Kernel(build("single_pass_blocked.cl", fixed + shape.defines + include + aligned),
                           "single_pass_blocked");
        if (first.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device) < g[0] * g[1])
          throw course::SkipLesson("single_pass_blocked allows fewer work-items per group than it needs here");
        set_image_args(first, buf.input, buf.output, buf.weights, buf);
        passes = 1;
        // Work-items: one per float4 of a row, GROUP_H per strip.
        enqueue = [&, g, strip = shape.strip] {
          return std::vector<cl::Event>{launch(dc, first, (w + 3) / 4, (h + strip - 1) / strip * g[1], g)};
        };
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
        enqueue = [&, g, items_x, items_y] { return std::vector<cl::Event>{launch(dc, first, items_x, items_y, g)}; };
      }
      std::cout << std::left << std::setw(20) << name << std::fixed << std::setprecision(1) << stats.milliseconds
                << "\n";
      table.running(name);
      course::VariantResult result = course::measure_variant(dc, buf, &image, name, enqueue, reference, repeat, passes);
      if (name.find("_2d") != std::string::npos) result.row.flops *= (2 * r + 1) / 2.0;  // (2R+1)^2 taps
      if (name == "running_sums") result.row.flops = 2 * 3 * result.row.pixels;          // 2 adds, 1 multiply a pass
      // Each GPU layout against the kernel it re-lays out, where that one ran too.
      const std::map<std::string, std::string> relaid = {{"float4_passes", "vector_passes"},
                                                         {"single_pass_lanes", "single_pass_local"},
                                                         {"single_pass_blocked", "single_pass_local"},
                                                         {"blocked_2d", "unrolled_2d"},
                                                         {"running_sums", "float4_passes"}};
      if (relaid.count(name) && std::find(variants.begin(), variants.end(), relaid.at(name)) != variants.end())
        result.row.baseline = relaid.at(name);
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

    // Step 4: what a compile-time radius costs: a new program per radius (build_costs.cpp).
    course::print_radius_build_costs(dc, kFolder + "separable_passes.cl", std::cout);

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
    std::cout << "wrote " << options.text("output-dir") << "/<variant>.png,\n  " << saved.string() << " ("
              << fastest.row.variant << ")\n  and " << roofline.string() << "\n";
    return ((table.all_verified()) ? course::kExitOk : course::kExitVerificationFailed);
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
