// Lesson 03: local-memory tiling.
// A work-group copies its output block plus a halo of R pixels into __local memory once, waits
// at a barrier, and computes every window from there. Look at: the global loads per work-group
// before and after (the seed's 288 -> 60), the two ways to load the tile, what kind of memory
// "local" is on this device, and whether tiling pays here (on an H100 1.11x at 8192x8192, docs/03; on a CPU, see).
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "conv_lesson.hpp"
#include "course.hpp"
#include "ladder_chart.hpp"
#include "svg_figure.hpp"

// pictures.cpp: the tiles drawn over the image; who copies each value of a tile in the four-load scheme.
course::RgbaImage draw_tiles(const course::GrayImage& image, std::size_t local_x, std::size_t local_y, int radius);
std::string draw_four_loads_svg(int group_w, int group_h, int radius, int image_w, int image_h);

namespace {

// Global loads of image values one W x H work-group makes: naive, every window from global
// memory; tiled, the (W + 2R) x (H + 2R) tile once.
void print_load_counts(std::size_t w, std::size_t h, int radius, const std::string& what) {
  const std::size_t taps = (2 * radius + 1) * (2 * radius + 1);
  const std::size_t naive = w * h * taps, tiled = (w + 2 * radius) * (h + 2 * radius);
  std::cout << "  " << std::left << std::setw(34) << what << std::right << std::setw(10) << naive << std::setw(10)
            << tiled << std::setw(9) << std::fixed << std::setprecision(1) << double(naive) / tiled << "x"
            << std::setw(13) << std::setprecision(2) << double(tiled) / (w * h) << "\n";
}

std::size_t tile_floats(const cl::NDRange& local, int radius) {
  return (local[0] + 2 * radius) * (local[1] + 2 * radius);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    // Step 0: options.
    const std::vector<std::string> variants = {"naive", "tiled_strided", "tiled_four_loads"};
    course::Options options("./course run 03",
                            "Convolution from a tile plus halo in local memory, against the naive kernel.");
    course::add_image_options(options, "03_local_memory_tiling");
    course::add_filter_options(options, 3);
    options.variant_option(variants);
    options.value("local", "WxH", "work-group size to ask for (made smaller if the device needs)", "16x16");
    options.value("output", "PATH", "write the filtered image here (default: one PNG per variant in --output-dir)");
    options.example("./course run 03 --radius 8", "a 17x17 Gaussian: the halo is as wide as the group");
    options.flag("figures", "also draw who copies each tile value in the four-load scheme: tile_loads.svg");
    options.example("./course run 03 --local 64x4 --variant tiled_strided", "a wide, flat tile");
    options.example("./course run 03 --figures --local 8x8 --radius 2", "the four loads of an 8x8 group's tile");
    options.parse(argc, argv);
    const int repeat = options.integer("repeat", 1, 1000);
    const course::FilterSpec filter = course::read_filter(options, 16);
    const std::vector<std::string> chosen = options.chosen_variants(variants);
    const auto [want_x, want_y] = options.size("local", 1 << 16);
    const int radius = filter.radius;

    // Step 1: the device, and what "local memory" is on it. A GPU has a small, fast on-chip
    // memory per compute unit; a CPU device (PoCL) has none, so local arrays are ordinary memory.
    course::DeviceContext dc = course::open_device(options.text("device"));
    const bool dedicated = dc.device.getInfo<CL_DEVICE_LOCAL_MEM_TYPE>() == CL_LOCAL;
    const std::size_t local_bytes = dc.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
    std::cout << "Device: " << course::describe(dc.entry) << "\n  local memory: " << (local_bytes >> 10) << " KiB, "
              << (dedicated ? "dedicated on-chip memory (CL_LOCAL):\n    a tile there is much faster to read than global memory"
                            : "CL_GLOBAL: ordinary memory,\n    cached like the image itself; a tile is one more copy")
              << "\n";

    // Step 2: the input and its CPU reference; the programs. The naive kernel is lesson 02's.
    const course::GrayImage image = course::input_gray(options, dc);
    const course::GrayImage reference = course::correlate_2d(image, filter.weights_2d(), radius);
    std::cout << "Image " << image.width << "x" << image.height << ", filter " << filter.describe() << "\n";
    cl::Program naive_program = course::build_course_program(dc, "kernels/02_naive_convolution/naive_convolution.cl");
    cl::Program tiled_program = course::build_course_program(dc, "kernels/03_local_memory_tiling/tiled_convolution.cl");
    const course::ConvBuffers buffers(dc, image, filter.weights_2d());

    // Step 3: the work-group shapes. The strided load works for any shape; the four-load scheme
    // needs groups at least 2R wide and tall, so it asks for larger groups when R is large.
    cl::Kernel strided(tiled_program, "tiled_convolution");
    cl::Kernel four_loads(tiled_program, "tiled_convolution_four_loads");
    const cl::NDRange local = course::fit_work_group(dc, strided, want_x, want_y);
    const cl::NDRange local_four = course::fit_work_group(dc, four_loads, std::max<std::size_t>(want_x, 2 * radius),
                                                          std::max<std::size_t>(want_y, 2 * radius));
    const bool four_fits = local_four[0] >= 2u * radius && local_four[1] >= 2u * radius;

    // Step 4: global loads per work-group, before and after tiling.
    std::cout << "\nGlobal loads of image values per work-group:\n  " << std::left << std::setw(34)
              << "work-group, filter" << std::right << std::setw(10) << "naive" << std::setw(10) << "tiled"
              << std::setw(10) << "saved" << std::setw(13) << "loads/pixel"
              << "\n";
    print_load_counts(8, 4, 1, "8x4, 3x3 (the PowerVR example)");
    const std::string taps = std::to_string(2 * radius + 1);
    print_load_counts(
        local[0], local[1], radius,
        std::to_string(local[0]) + "x" + std::to_string(local[1]) + ", " + taps + "x" + taps + " (this run)");
    std::cout << "  strided load: each of the " << local[0] * local[1] << " work-items copies up to "
              << ((local[0] + 2 * radius + local[0] - 1) / local[0]) *
                     ((local[1] + 2 * radius + local[1] - 1) / local[1])
              << " tile values;\n  four loads: " << local_four[0] << "x" << local_four[1] << " groups"
              << (four_fits ? "" : ", too small for this radius (needs W, H >= 2R)") << "\n\n";

    // Step 5: run, time and verify every variant.
    course::ResultsTable table("Lesson 03: local-memory tiling, " + std::to_string(image.width) + "x" +
                                   std::to_string(image.height) + ", " + filter.describe(),
                               course::measure_roofline(dc));
    // The tile must fit in local memory next to what the kernel itself uses: checked for every
    // chosen variant before any runs, so a refused tile leaves no picture behind.
    for (const std::string& variant : chosen) {
      const bool is_four = variant == "tiled_four_loads";
      if (variant == "naive" || (is_four && !four_fits)) continue;
      const cl::NDRange group = is_four ? local_four : local;
      const std::size_t bytes = tile_floats(group, radius) * sizeof(float);
      const std::size_t own = (is_four ? four_loads : strided).getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(dc.device);
      if (bytes + own > local_bytes)
        throw course::DeviceLimitError("a " + std::to_string(group[0]) + "x" + std::to_string(group[1]) +
                                       " tile with radius " + std::to_string(radius) + " needs " +
                                       std::to_string(bytes) + " bytes of local memory; " + "this device has " +
                                       std::to_string(local_bytes) + ". Try a smaller --local.");
    }
    course::GrayImage result;
    for (const std::string& variant : chosen) {
      const bool is_four = variant == "tiled_four_loads";
      if (is_four && !four_fits && chosen.size() == 1)
        throw course::DeviceLimitError("tiled_four_loads needs work-groups of at least " + std::to_string(2 * radius) +
                                       "x" + std::to_string(2 * radius) + " for radius " + std::to_string(radius) +
                                       "; this device allows " + std::to_string(local_four[0] * local_four[1]) +
                                       " work-items. Use a smaller --radius or --variant tiled_strided.");
      if (is_four && !four_fits) {
        std::cout << "tiled_four_loads: skipped, this device allows at most " << local_four[0] * local_four[1]
                  << " work-items per group, and the scheme needs " << 2 * radius << "x" << 2 * radius << "\n";
        continue;
      }
      cl::Kernel kernel = variant == "naive" ? cl::Kernel(naive_program, "naive_convolution")
                          : is_four          ? four_loads
                                             : strided;
      const cl::NDRange group = is_four ? local_four : local;
      kernel.setArg(0, buffers.input);
      kernel.setArg(1, buffers.weights);
      kernel.setArg(2, buffers.output);
      kernel.setArg(3, image.width);
      kernel.setArg(4, image.height);
      kernel.setArg(5, radius);
      if (variant != "naive") {
        const std::size_t bytes = tile_floats(group, radius) * sizeof(float);  // checked before the loop
        kernel.setArg(6, cl::Local(bytes));
        std::cout << variant << ": " << group[0] << "x" << group[1] << " groups, tile " << group[0] + 2 * radius << "x"
                  << group[1] + 2 * radius << " = " << bytes << " bytes of local memory\n";
      }
      const cl::NDRange range(course::round_up(image.width, group[0]), course::round_up(image.height, group[1]));
      // The launch: one work-item per output pixel, in group-sized work-groups. The helper times it
      // (kernel alone, then with the picture's trip to the device and back) and verifies it.
      const auto launch = [&] {
        std::vector<cl::Event> events(1);
        dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, range, group, nullptr, &events[0]);
        return events;
      };
      table.running(variant);
      course::conv_measure(dc, buffers, image, reference, variant, repeat, launch, table, result);
      if (!options.given("output"))
        course::save_png(std::filesystem::path(options.text("output-dir")) / (variant + ".png"), result);
    }

    // Step 6: the report, and the image the output contract asks for (the last variant's). The
    // tiles picture is written only now, so a refused variant leaves no file behind.
    if (image.width <= 1024 && image.height <= 1024)
      course::save_png(std::filesystem::path(options.text("output-dir")) / "tiles.png",
                       draw_tiles(image, local[0], local[1], radius));
    const auto tile_loads = std::filesystem::path(options.text("output-dir")) / "tile_loads.svg";
    if (options.given("figures") && four_fits)
      course::save_svg_file(
          tile_loads, draw_four_loads_svg(static_cast<int>(local_four[0]), static_cast<int>(local_four[1]), radius,
                                          image.width, image.height));
    else if (options.given("figures"))
      std::cout << "tile_loads.svg: not drawn, the groups are too small for the four-load scheme\n";
    std::cout << "\n";
    table.print(std::cout, std::filesystem::path(options.text("output-dir")) / "results.txt");
    course::save_ladder_svg(std::filesystem::path(options.text("output-dir")) / "ladder.svg", table,
                            course::describe(dc.entry), std::cout);
    if (!dedicated)
      std::cout << "On this device local memory is ordinary memory: the tile is one more copy\n"
                << "of data the caches already hold, and the barrier splits each work-group into\n"
                << "two loops over its work-items.\n";
    const auto saved = course::output_path(options, table.rows().back().variant + ".png");
    course::save_png(saved, result);
    std::cout << "Wrote " << course::shown_path(saved) << "\n  and tiles.png"
              << (options.given("figures") && four_fits ? ", tile_loads.svg" : "") << " in "
              << options.text("output-dir") << "\n";
    return ((table.all_verified()) ? course::kExitOk : course::kExitVerificationFailed);
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
