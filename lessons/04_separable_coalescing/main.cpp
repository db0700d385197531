// Lesson 04: coalescing and bank conflicts, with separable filters.
// A separable blur as a row pass and a column pass, in the 2010 thesis's (docs/references.md) v1
// (global memory), v3 (local memory, "left/right" loads, columns read down the column) and v411
// (2D groups, halo padded to 16 floats, coalesced columns), plus v411's column tile copied by
// async_work_group_copy, and kept transposed, with and without one word of padding. Look at: the
// results table, and `--trace`, which shows for one work-group how many 32-byte sectors and
// 128-byte lines each warp-wide load needs and how many ways each local access conflicts, on any
// device, PoCL included.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "course.hpp"
#include "ladder_chart.hpp"
#include "separable_host.hpp"
#include "trace_access.hpp"
#include "warp_figure.hpp"

namespace {

const std::string kFolder = "kernels/04_separable_coalescing/";

// One kernel launch of a variant: its file, kernel, -D options and NDRange, and the work-group
// whose accesses --trace records (one away from the image's edges).
struct Pass {
  std::string file, kernel, defines;
  cl::NDRange global, local;
  int trace_x = 0, trace_y = 0;
};

struct Variant {
  std::string name;
  Pass row, column;
};

cl::Kernel make_kernel(const course::DeviceContext& dc, const Pass& pass, const std::string& extra,
                       const std::string& include, const cl::Buffer& in, const cl::Buffer& out,
                       const course::SeparableBuffers& b, int radius) {
  cl::Program program = course::build_course_program(dc, kFolder + pass.file, pass.defines + extra + include);
  cl::Kernel kernel(program, pass.kernel.c_str());
  // The group shape is compiled into the tiles, so a kernel that allows fewer work-items (large
  // local arrays can lower the limit) cannot simply be launched smaller.
  std::size_t items = 1;
  for (std::size_t d = 0; d < pass.local.dimensions(); ++d) items *= pass.local[d];
  if (kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device) < items)
    throw course::SkipLesson(pass.kernel + " allows fewer than " + std::to_string(items) +
                             " work-items per group here");
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  kernel.setArg(2, b.weights);
  kernel.setArg(3, b.width);
  kernel.setArg(4, b.height);
  kernel.setArg(5, radius);
  return kernel;
}

// The variants, from the thesis's first version to the aligned, coalesced one and its tiles.
const std::vector<std::string> kVariants = {"v1_global", "v3_local", "v411_aligned", "v411_transposed_tile",
                                            "v411_transposed_padded"};

}  // namespace

int main(int argc, char** argv) {
  try {
    // Step 0: options.
    course::Options options("./course run 04", "Separable blur: coalesced loads, aligned halos, bank conflicts.");
    course::add_image_options(options, "04_separable_coalescing");
    course::add_filter_options(options, 8);
    options.variant_option(kVariants);
    options.value("output", "PATH", "where to write the fastest variant's result (8-bit PNG)");
    options.flag("trace", "record one work-group's addresses and count sectors and bank conflicts per warp");
    options.flag("async-copy", "also run v411_async_copy: v411 with its column tile copied by async_work_group_copy");
    options.value("warp", "N", "work-items per warp for --trace (NVIDIA and AMD RDNA: 32, AMD GCN and CDNA: 64)", "32");
    options.example("./course run 04 --trace --variant v3_local,v411_aligned", "why v411 beats v3");
    options.example("./course run 04 --size 2048x2048 --radius 8", "the thesis's benchmark size");
    options.parse(argc, argv);
    const int repeat = options.integer("repeat", 1, 1000);
    const int warp = options.integer("warp", 1, 1024);
    const course::FilterSpec filter = course::read_filter(options, 16);
    const int r = filter.radius;

    // Step 1: device, image, CPU reference and buffers.
    course::DeviceContext dc = course::open_device(options.text("device"));
    const course::GrayImage image = course::input_gray(options, dc);
    const course::GrayImage reference = course::correlate_separable(image, filter.weights, filter.weights);
    const course::SeparableBuffers buf = course::make_separable_buffers(dc, image, filter.weights);
    const int w = image.width, h = image.height;
    std::cout << "Device: " << course::describe(dc.entry) << "\nimage " << w << "x" << h << ", "
              << filter.describe() << "\n";

    // Step 2: work-group shapes, chosen within what this device allows. v3 needs LINE >= 2R.
    // At most 256 work-items: drivers may cap a kernel below the device's maximum (NVIDIA's
    // reports 256 for these kernels on an H100), and the group shape is compiled into the tiles.
    const std::size_t most = std::min<std::size_t>(dc.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>(), 256);
    const std::size_t line = course::fit_work_group(dc.device, most, 64)[0];
    const cl::NDRange row_group = course::fit_work_group(dc.device, most, 32, 4);
    const cl::NDRange column_group = course::fit_work_group(dc.device, most, 32, 16);
    if (line < 32) throw course::SkipLesson("v3 needs work-groups of at least 32 work-items");
    const std::size_t flat = course::round_up(static_cast<std::size_t>(w) * h, line);
    const std::string v411 = " -D ROW_W=" + std::to_string(row_group[0]) + " -D ROW_H=" + std::to_string(row_group[1]) +
                             " -D COL_W=" + std::to_string(column_group[0]) +
                             " -D COL_H=" + std::to_string(column_group[1]);
    auto groups = [](std::size_t n, std::size_t g) { return static_cast<int>((n + g - 1) / g); };
    const std::size_t lines_per_row = groups(w, line), lines_per_column = groups(h, line);
    const Pass v1_row{
        "v1_global.cl", "row_pass_v1", "", cl::NDRange(flat), cl::NDRange(line), static_cast<int>(flat / line / 2), 0};
    const Pass v1_column{"v1_global.cl",
                         "column_pass_v1",
                         "",
                         cl::NDRange(flat),
                         cl::NDRange(line),
                         static_cast<int>(flat / line / 2),
                         0};
    const Pass v3_row{"v3_local.cl",
                      "row_pass_v3",
                      " -D LINE=" + std::to_string(line),
                      cl::NDRange(h * lines_per_row * line),
                      cl::NDRange(line),
                      static_cast<int>(h / 2 * lines_per_row + lines_per_row / 2),
                      0};
    const Pass v3_column{"v3_local.cl",
                         "column_pass_v3",
                         " -D LINE=" + std::to_string(line),
                         cl::NDRange(w * lines_per_column * line),
                         cl::NDRange(line),
                         static_cast<int>(w / 2 * lines_per_column + lines_per_column / 2),
                         0};
    const cl::NDRange global_rows(course::round_up(w, row_group[0]), course::round_up(h, row_group[1]));
    const cl::NDRange global_columns(course::round_up(w, column_group[0]), course::round_up(h, column_group[1]));
    const Pass v411_row{
        "v411_aligned.cl",          "row_pass_v411", v411, global_rows, row_group, groups(w, row_group[0]) / 2,
        groups(h, row_group[1]) / 2};
    Pass v411_column{"v411_aligned.cl",
                     "column_pass_v411",
                     v411,
                     global_columns,
                     column_group,
                     groups(w, column_group[0]) / 2,
                     groups(h, column_group[1]) / 2};
    Pass transposed = v411_column, padded = v411_column, async = v411_column;
    async.defines += " -D ASYNC_COPY";
    transposed.defines += " -D TRANSPOSED_TILE";
    padded.defines += " -D TRANSPOSED_TILE -D TILE_PAD=1";
    const std::vector<Variant> all = {{"v1_global", v1_row, v1_column},
                                      {"v3_local", v3_row, v3_column},
                                      {"v411_aligned", v411_row, v411_column},
                                      {"v411_async_copy", v411_row, async},
                                      {"v411_transposed_tile", v411_row, transposed},
                                      {"v411_transposed_padded", v411_row, padded}};
    const auto chosen = options.chosen_variants(kVariants);
    // The async-copy rung runs when asked for; the trace cannot see inside the copy, so skips it.
    const bool async_rung = options.given("async-copy");
    auto wanted = [&](const Variant& v, bool tracing) {
      if (v.name == "v411_async_copy") return async_rung && !tracing;
      return std::find(chosen.begin(), chosen.end(), v.name) != chosen.end();
    };
    const std::string include = " -I " + course::locate_course_file(kFolder + "access_trace.h").parent_path().string();

    // Step 3: run and verify every chosen variant.
    course::ResultsTable table("Lesson 04: " + std::to_string(w) + "x" + std::to_string(h) + ", " + filter.describe(),
                               course::measure_roofline(dc));
    course::VariantResult fastest;
    for (const Variant& v : all) {
      if (!wanted(v, false)) continue;
      cl::Kernel row = make_kernel(dc, v.row, "", include, buf.input, buf.intermediate, buf, r);
      cl::Kernel column = make_kernel(dc, v.column, "", include, buf.intermediate, buf.output, buf, r);
      auto enqueue = [&] {
        std::vector<cl::Event> events(2);
        dc.queue.enqueueNDRangeKernel(row, cl::NullRange, v.row.global, v.row.local, nullptr, &events[0]);
        dc.queue.enqueueNDRangeKernel(column, cl::NullRange, v.column.global, v.column.local, nullptr, &events[1]);
        return events;
      };
      table.running(v.name);
      course::VariantResult result = course::measure_variant(dc, buf, &image, v.name, enqueue, reference, repeat, 2);
      course::save_png(std::filesystem::path(options.text("output-dir")) / (v.name + ".png"), result.image);
      // v411's variants differ from it only in the column tile: compare them with it.
      if (v.name.rfind("v411_", 0) == 0 && v.name != "v411_aligned" &&
          std::find(chosen.begin(), chosen.end(), "v411_aligned") != chosen.end())
        result.row.baseline = "v411_aligned";
      table.add(result.row);
      if (fastest.row.variant.empty() || (result.row.verified && result.row.kernel_ms < fastest.row.kernel_ms))
        fastest = std::move(result);
    }

    // Step 4 (--trace): the instrumented twins record one work-group's addresses; the host
    // plays the GPU's memory system: warps of --warp work-items, 32-byte sectors of
    // 128-byte lines, 32 banks.
    if (options.given("trace")) {
      course::TraceFigures figures;  // pictures of the column passes' loads and tile reads
      std::string simd_source;
      const int simd = course::simd_width(dc.device, nullptr, &simd_source);
      std::cout << "\nAccess trace, warps of " << warp
                << " work-items, 32 banks of 4 bytes (this device's own SIMD width: "
                << (simd > 0 ? std::to_string(simd) + ", from " + simd_source : "not reported") << ")\n";
      for (const Variant& v : all) {
        if (!wanted(v, true)) continue;
        std::cout << "\n" << v.name << "\n";
        for (const Pass* pass : {&v.row, &v.column}) {
          const cl::Buffer& in = pass == &v.row ? buf.input : buf.intermediate;
          const cl::Buffer& out = pass == &v.row ? buf.intermediate : buf.output;
          cl::Kernel kernel = make_kernel(dc, *pass, " -D COURSE_TRACE", include, in, out, buf, r);
          std::size_t items = 1;
          for (std::size_t d = 0; d < pass->local.dimensions(); ++d) items *= pass->local[d];
          std::vector<int> raw(items * course::kTraceRecordsPerItem * course::kTraceFields, -1);
          cl::Buffer log(dc.context, raw.begin(), raw.end(), false);
          kernel.setArg(6, log);
          kernel.setArg(7, pass->trace_x);
          kernel.setArg(8, pass->trace_y);
          dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, pass->global, pass->local);
          dc.queue.enqueueReadBuffer(log, CL_TRUE, 0, raw.size() * sizeof(int), raw.data());
          const auto sites = course::analyse_trace(raw, static_cast<int>(items), warp);
          course::print_trace(std::cout,
                              pass->kernel + pass->defines + ", work-group (" + std::to_string(pass->trace_x) + ", " +
                                  std::to_string(pass->trace_y) + ") of " + std::to_string(items),
                              sites, true);
          course::print_trace_totals(std::cout, sites, warp);
          if (pass == &v.column) figures.add_column_pass(v.name, pass->kernel, sites);
        }
      }
      std::cout << "\n";
      figures.save(options.text("output-dir"), std::cout);
      std::cout << "\n";
    }

    // Step 5: the report, and the fastest verified result as the lesson's output.
    std::cout << "\n";
    table.print(std::cout, std::filesystem::path(options.text("output-dir")) / "results.txt");
    course::save_ladder_svg(std::filesystem::path(options.text("output-dir")) / "ladder.svg", table,
                            course::describe(dc.entry), std::cout);
    const auto saved = course::output_path(options, "blurred.png");
    course::save_png(saved, fastest.image);
    std::cout << "wrote " << course::shown_path(options.text("output-dir")) << "/<variant>.png\n  and "
              << course::shown_path(saved) << " (" << fastest.row.variant << ")\n";
    return ((table.all_verified()) ? course::kExitOk : course::kExitVerificationFailed);
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
