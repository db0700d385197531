// Lesson 05: loop unrolling and more work per work-item.
// One Gaussian blur, climbing a ladder: lesson 02's naive 2D kernel, the radius fixed at build
// time, two separable passes, several outputs per work-item, vector loads (as a CPU wants them,
// then as a GPU wants them), and one pass that keeps the row-filtered rows in local memory (in
// the CPU's layout, for the GPU's banks, then as a GPU wants it: float4 columns, rows in
// registers, strips). Look at: the speed-up column, the build time a compile-time radius costs
// (and the cache answering the second time), and `--size 2048x2048`.
// Where lesson 11 (autotuning) has stored faster parameters for this device, they run last.
#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "course.hpp"
#include "roofline_plot.hpp"
#include "separable_host.hpp"
#include "tuned_winner.hpp"

namespace {

const std::string kFolder = "kernels/05_unrolling_and_work_per_item/";
const std::vector<std::string> kVariants = {
    "naive_2d",      "unrolled_2d",   "separable_runtime", "separable_unrolled", "several_outputs",
    "vector_passes", "float4_passes", "single_pass_local", "single_pass_lanes",  "single_pass_blocked"};

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
    options.example("./course run 05 --size 2048x2048 --radius 8", "the benchmark size of the thesis");
    options.example("./course run 05 --variant separable_runtime,separable_unrolled --radius 16", "compare two rungs");
    options.parse(argc, argv);
    const int repeat = options.integer("repeat", 1, 1000);
    const int steps = options.integer("steps", 1, 32);
    const course::FilterSpec filter = course::read_filter(options, 16);
    const auto variants = options.chosen_variants(kVariants);

    // Step 1: device, image, CPU reference and buffers.
    course::DeviceContext dc = course::open_device(options.text("device"));
    const course::GrayImage image = course::input_gray(options, dc);
    const course::GrayImage reference = course::correlate_separable(image, filter.weights, filter.weights);
    const course::SeparableBuffers buf = course::make_separable_buffers(dc, image, filter.weights);
    const int r = filter.radius, w = image.width, h = image.height;
    std::cout << "Device: " << course::describe(dc.entry) << "\n"
              << "image " << w << "x" << h << ", " << filter.describe() << ",\n" << steps
              << " outputs per work-item where a variant makes several\n\n";
    const course::Roofline roof = course::measure_roofline(dc);
    course::ResultsTable table("Lesson 05: " + std::to_string(w) + "x" + std::to_string(h) + ", " + filter.describe(),
                               roof);
    const std::string fixed = " -D RADIUS=" + std::to_string(r) + " -D STEPS=" + std::to_string(steps);
    const std::string include =
        " -I " + course::locate_course_file(kFolder + "vector_helpers.h").parent_path().string();
    const std::size_t device_max = dc.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
    const cl::NDRange group = course::fit_work_group(dc.device, device_max, 64, 4);
    // PoCL runs each work-group as a loop on one core: small groups keep their rows in L1 and
    // share out evenly over few cores. A GPU wants many work-items per group instead.
    const bool cpu = (dc.entry.type & CL_DEVICE_TYPE_CPU) != 0;
    const cl::NDRange vector_group = cpu ? course::fit_work_group(dc.device, device_max, 16, 1) : group;
    const int vec = 8;  // VEC in vector_helpers.h
    // Rows start on 16-byte boundaries when the width is a multiple of 4: the float4 kernels'
    // loads and stores may then be 16-byte accesses (float4_helpers.h).
    const std::string aligned = std::string(" -D ALIGNED_ROWS=") + (w % 4 == 0 ? "1" : "0");

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
        // row-filtered rows in local memory (single_pass_blocked.cl), at most 32 KiB so that
        // several groups share a GPU's core. On a GPU 16x4 groups and 64-row strips, lesson 11's
        // best within 32 KiB on an H100; on a CPU (a group is a loop on one core) narrow groups.
        const std::size_t budget = std::min<std::size_t>(32 * 1024, dc.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>());
        std::size_t gw = cpu ? 8 : 16, gh = cpu ? 1 : 4;
        // The ring: two tiles of gh x steps rows and the 2R halo rows, a float4 per work-item column.
        const auto ring_bytes = [&] { return (2 * gh * steps + 2 * r) * gw * 4 * sizeof(float); };
        while (gh > 1 && ring_bytes() > budget) gh /= 2;
        while (gw > 1 && ring_bytes() > budget) gw /= 2;
        const cl::NDRange g = course::fit_work_group(dc.device, device_max, gw, gh);
        const std::size_t strip = course::round_up(cpu ? 512 : 64, g[1] * steps);  // whole tiles
        const std::string shape = " -D GROUP_W=" + std::to_string(g[0]) + " -D GROUP_H=" + std::to_string(g[1]) +
                                  " -D STRIP=" + std::to_string(strip);
        first = cl::Kernel(build("single_pass_blocked.cl", fixed + shape + include + aligned), "single_pass_blocked");
        if (first.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device) < g[0] * g[1])
          throw course::SkipLesson("single_pass_blocked allows fewer work-items per group than it needs here");
        set_image_args(first, buf.input, buf.output, buf.weights, buf);
        passes = 1;
        // Work-items: one per float4 of a row, GROUP_H per strip.
        enqueue = [&, g, strip] {
          return std::vector<cl::Event>{launch(dc, first, (w + 3) / 4, (h + strip - 1) / strip * g[1], g)};
        };
      } else {  // single_pass_local, and single_pass_lanes with its tile laid out for a GPU's banks
        // The tile's shape is fixed at build time; pick one the device allows.
        // Shrink the tile until its rows fit the device's local memory.
        const std::size_t local_bytes = dc.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
        std::size_t tile_h = 8;
        const std::size_t tile_w = cpu ? 2 : 16;
        while (tile_h > 1 && (tile_h * steps + 2 * r) * tile_w * vec * sizeof(float) > local_bytes) tile_h /= 2;
        const cl::NDRange tile_group = course::fit_work_group(dc.device, device_max, tile_w, tile_h);
        const std::string shape =
            " -D GROUP_W=" + std::to_string(tile_group[0]) + " -D GROUP_H=" + std::to_string(tile_group[1]);
        const std::string layout = name == "single_pass_lanes" ? " -D LANE_TILE" : "";
        first = cl::Kernel(build("single_pass_local.cl", fixed + shape + include + layout), "single_pass_local");
        if (first.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device) < tile_group[0] * tile_group[1])
          throw course::SkipLesson("single_pass_local allows fewer work-items per group than its tile needs here");
        set_image_args(first, buf.input, buf.output, buf.weights, buf);
        passes = 1;
        const std::size_t tiles_x = (w + tile_group[0] * vec - 1) / (tile_group[0] * vec);
        const std::size_t tiles_y = (h + tile_group[1] * steps - 1) / (tile_group[1] * steps);
        enqueue = [&, tile_group, tiles_x, tiles_y] {
          return std::vector<cl::Event>{
              launch(dc, first, tiles_x * tile_group[0], tiles_y * tile_group[1], tile_group)};
        };
      }
      std::cout << std::left << std::setw(20) << name << std::fixed << std::setprecision(1) << stats.milliseconds
                << "\n";
      table.running(name);
      course::VariantResult result = course::measure_variant(dc, buf, &image, name, enqueue, reference, repeat, passes);
      if (name == "naive_2d" || name == "unrolled_2d") result.row.flops *= (2 * r + 1) / 2.0;  // (2R+1)^2 taps
      // Each GPU layout against the kernel it re-lays out, where that one ran too.
      if (name == "float4_passes" || name == "single_pass_lanes" || name == "single_pass_blocked") {
        const std::string before = name == "float4_passes" ? "vector_passes" : "single_pass_local";
        if (std::find(variants.begin(), variants.end(), before) != variants.end()) result.row.baseline = before;
      }
      table.add(result.row);
      course::save_png(std::filesystem::path(options.text("output-dir")) / (name + ".png"), result.image);
      if (fastest.row.variant.empty() || (result.row.verified && result.row.kernel_ms < fastest.row.kernel_ms))
        fastest = std::move(result);
    }

    // Step 3: the parameters above suit the device they were chosen on. Lesson 11 searches them
    // per device and stores its winner; when it has one for this device and size, it runs here
    // too, verified like every variant (--untuned leaves it out).
    if (!options.given("untuned"))
      if (auto tuned = lesson11::run_tuned_separable(dc, image, reference, filter, repeat, std::cout))
        table.add(*tuned);

    // Step 4: what a compile-time radius costs. Each new radius is a new program to build; the
    // same (source, options) a second time comes from the cache.
    std::cout << "\nBuilding separable_passes.cl for other radii (ms):\n";
    for (const int radius : {1, 4, 12, 16}) {
      course::BuildStats first_build, second_build;
      const std::string defines = " -D RADIUS=" + std::to_string(radius);
      course::build_course_program(dc, kFolder + "separable_passes.cl", defines, &first_build);
      course::build_course_program(dc, kFolder + "separable_passes.cl", defines, &second_build);
      std::cout << "  R=" << radius << ": " << std::setprecision(1) << first_build.milliseconds << " then "
                << (second_build.from_cache ? "cached" : std::to_string(second_build.milliseconds)) << "\n";
    }
    std::cout << "\n";

    // Step 5: the report, and the fastest verified result as the lesson's output.
    table.print(std::cout, std::filesystem::path(options.text("output-dir")) / "results.txt");
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
