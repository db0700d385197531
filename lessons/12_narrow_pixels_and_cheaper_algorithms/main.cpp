// Lesson 12: narrow pixels and cheaper algorithms. Two ways past lesson 05's memory roof: move
// fewer bytes (--type u8|f16: lesson 05's float4 rungs storing 8-bit levels or halves, beside a
// copy of the same pixels), or do less work (a box filter by running sums: two loads a pixel and
// pass whatever the radius, along lines as a CPU wants or in coalesced tiles as a GPU wants,
// radii up to 64). Look at each rung's time against its copy, and at the running sums' time as
// the radius grows; --passes times each pass alone.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "course.hpp"
#include "ladder_chart.hpp"
#include "narrow_pixels.hpp"
#include "one_change.hpp"
#include "record.hpp"
#include "roofline_plot.hpp"
#include "running_sums.hpp"
#include "separable_host.hpp"

// The float rungs of the box ladder: lesson 05's two float4 passes, then the running sums, each
// rung changing the one before it.
const std::vector<std::string> kVariants = {"float4_passes",     "running_sums",          "running_sums_tiled",
                                            "running_sums_scan", "running_sums_prefetch", "running_sums_ring"};

int main(int argc, char** argv) {
  try {
    // Step 0: options.
    course::Options options("./course run 12", "Narrow pixels and cheaper algorithms: 8-bit and half storage, "
                                               "a box filter by running sums.");
    course::add_image_options(options, "12_narrow_pixels_and_cheaper_algorithms");
    course::add_filter_options(options, 8, 0, "box");
    options.variant_option(kVariants);
    options.value("type", "f32|u8|f16", "pixels in memory: floats (the box ladder), or lesson 05's float4 rungs "
                                        "on 8-bit levels or halves", "f32");
    options.value("steps", "N", "rows per work-item in the float4 column pass and the single pass", "8");
    options.value("segment", "N", "pixels a running_sums work-item walks (the scan's row pass: whole rows)", "512");
    options.value(
        "scan", "GxI",
        "the scanned row passes (running_sums_scan, _prefetch, _ring): G work-items a row, each adding I steps in turn",
        "128x8");
    options.flag("passes", "also print each pass's own time, for the float rungs");
    options.example("./course run 12 --filter box --radius 40", "running sums at a radius the direct passes pay for");
    options.example("./course run 12 --type u8 --size 2048x2048 --filter gaussian", "8-bit pixels: a quarter of the bytes");
    options.example("./course run 12 --radius 32 --variant running_sums_tiled --passes", "which pass costs what");
    options.example("./course run 12 --variant running_sums_scan --scan 256x4 --passes", "another shape of the scan");
    options.parse(argc, argv);
    const int repeat = options.integer("repeat", 1, 1000);
    const int steps = options.integer("steps", 1, 32);
    const course::FilterSpec filter = course::read_filter(options, course::kRunningSumsMaxRadius);
    const course::PixelType type = course::pixel_type(options.choice("type", {"f32", "u8", "f16"}));
    // Above radius 16 a box filter, and only its float rungs (running_sums.hpp).
    if (filter.radius > 16 && filter.kind != "box") throw course::UsageError("a radius above 16 takes --filter box");
    if (filter.radius > 16 && type != course::PixelType::f32)
      throw course::UsageError("--type u8 and f16 take a radius up to 16; above, leave out --type");
    if (options.given("passes") && type != course::PixelType::f32)
      throw course::UsageError("--passes times the passes of the float rungs: leave out --type");
    const auto variants = options.chosen_variants(kVariants);
    const auto [scan_group, scan_items] = options.size("scan", 1 << 16);
    const course::ScanShape scan{scan_group, scan_items};

    // Step 1: device, image, CPU reference and buffers.
    course::DeviceContext dc = course::open_device(options.text("device"));
    if (const std::string problem = course::scan_shape_problem(dc, scan); !problem.empty())
      throw course::UsageError("--scan " + options.text("scan") + ": " + problem);
    const course::GrayImage image = course::input_gray(options, dc);
    const int r = filter.radius, w = image.width, h = image.height;
    std::cout << "Device: " << course::describe(dc.entry) << "\n"
              << "image " << w << "x" << h << ", " << filter.describe() << ", " << options.text("type") << " pixels\n\n";
    const std::filesystem::path out = options.text("output-dir");
    const std::string title = std::to_string(w) + "x" + std::to_string(h) + ", " + filter.describe() + ", " +
                              options.text("type") + " pixels";
    const course::Roofline roof = course::measure_roofline(dc);
    course::ResultsTable table("Lesson 12: " + title, roof);

    // Step 2, narrow pixels (--type u8 or f16): the float4 rungs storing bytes or halves, beside
    // their copy (narrow_pixels.cpp).
    if (type != course::PixelType::f32) {
      course::save_png(course::output_path(options, "blurred.png"),
                       course::run_narrow_ladder(dc, image, filter, type, steps, repeat, table, out));
      table.print(std::cout, out / "results.txt");
      course::print_single_pass_work(dc, filter.radius, steps, std::cout);
      course::save_ladder_svg(out / "ladder.svg", table, course::describe(dc.entry), std::cout);
      return table.all_verified() ? course::kExitOk : course::kExitVerificationFailed;
    }

    // Step 2, floats: the direct passes, then the running sums (box only), each verified.
    const course::GrayImage reference = course::correlate_separable(image, filter.weights, filter.weights);
    const course::SeparableBuffers buf = course::make_separable_buffers(dc, image, filter.weights);
    // With --passes: each rung's row pass and column pass timed apart, each pass's median.
    course::TextTable per_pass;
    per_pass.title = "Each pass alone (median kernel ms of the timed runs)";
    per_pass.head = {"variant", "row pass", "column pass", "both"};
    per_pass.notes = {"Each pass's median and the median of their sums need not add up exactly."};
    std::vector<course::ResultRow> per_pass_results;  // the rows of per_pass, for --record
    const auto ms = [](double v) {
      std::ostringstream s;
      s << std::fixed << std::setprecision(v < 1 ? 4 : 3) << v;
      return s.str();
    };
    course::VariantResult fastest;
    for (const std::string& name : variants) {
      std::function<std::vector<cl::Event>()> enqueue;
      double local_loads = 0;  // floats the rung reads from local memory (running_sums.cpp counts them)
      if (name == "float4_passes") {
        // Lesson 05's rung: 2R+1 taps an output and pass (one_change.cpp).
        enqueue = course::float4_passes_rung(dc, buf, r, steps).enqueue;
      } else {
        // Two loads a pixel and pass at any radius (running_sums.cl), each work-item walking its
        // line (a CPU's layout), in coalesced tiles (a GPU's), or the rows scanned (each tile's
        // loads issued while the one before is scanned, in the prefetching rung; and the columns'
        // leaving pixels kept in local memory, in the ring's).
        if (filter.kind != "box" && variants.size() == 1)
          throw course::UsageError(name + " is a box filter's algorithm: add --filter box");
        if (filter.kind != "box") {
          std::cout << name << ": skipped, the running sums are a box filter's (--filter box)\n";
          continue;
        }
        const course::RowLayout layout = name == "running_sums_tiled"      ? course::RowLayout::tiled
                                         : name == "running_sums_scan"     ? course::RowLayout::scan
                                         : name == "running_sums_prefetch" ? course::RowLayout::prefetch
                                         : name == "running_sums_ring"     ? course::RowLayout::ring
                                                                           : course::RowLayout::walk;
        course::RunningSums sums = course::build_running_sums(dc, options.integer("segment", 1, 1 << 20), layout, scan);
        local_loads = course::local_loads(sums, w, h, r);
        enqueue = [&, sums]() mutable {
          return course::launch_running_sums(dc, sums, buf.input, buf.intermediate, buf.output, w, h, r);
        };
      }
      table.running(name);
      course::VariantResult result = course::measure_variant(dc, buf, &image, name, enqueue, reference, repeat, 2);
      if (name != "float4_passes") result.row.flops = 2 * 3 * result.row.pixels;  // 2 adds, 1 multiply a pass
      result.row.local_loads = local_loads;
      // The rung each changes: the algorithm, then the layout, then the row pass's walk, then when
      // the scan's loads are issued, then where the column pass finds its leaving pixels.
      const auto rung = std::find(kVariants.begin(), kVariants.end(), name);
      const std::string against = rung == kVariants.begin() ? "" : *(rung - 1);
      if (std::find(variants.begin(), variants.end(), against) != variants.end()) result.row.baseline = against;
      table.add(result.row);
      if (result.pass_ms.size() == 2) {
        per_pass.rows.push_back({name, ms(result.pass_ms[0]), ms(result.pass_ms[1]), ms(result.row.kernel_ms)});
        per_pass_results.push_back(result.row);
      }
      course::save_png(out / (name + ".png"), result.image);
      if (fastest.row.variant.empty() || (result.row.verified && result.row.kernel_ms < fastest.row.kernel_ms))
        fastest = std::move(result);
    }

    // Step 3: the report, and the fastest verified result as the lesson's output.
    table.print(std::cout, out / "results.txt");
    if (options.given("passes")) {
      per_pass.print(std::cout);
      course::record_table(per_pass.title, roof, per_pass_results, per_pass.head, per_pass.rows, per_pass.notes);
    }
    course::save_ladder_svg(out / "ladder.svg", table, course::describe(dc.entry), std::cout);
    // The ladder on the device's roofline: the running sums' few flops a byte, far left.
    course::save_roofline_svg(out / "roofline.svg", "Lesson 12 on " + dc.entry.device_name + ": " + title, roof,
                              table.rows());
    const auto saved = course::output_path(options, "blurred.png");
    if (!fastest.row.variant.empty()) course::save_png(saved, fastest.image);
    std::cout << "wrote " << out.string() << "/<variant>.png,\n  " << saved.string() << "\n  and "
              << (out / "roofline.svg").string() << "\n";
    return table.all_verified() ? course::kExitOk : course::kExitVerificationFailed;
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
