// Lesson 06: median filters with sorting networks.
// The same median computed six ways: insertion sort per pixel, a full bitonic sort, the 3x3
// network of 19 branch-free compare-exchanges, the same network on vectors of pixels along a row
// (the CPU's rung), sorted rows shared between neighbouring outputs, and sorted columns merged
// once for pairs of outputs both ways (8-bit pixels also two to a value). Look at: the speed-up ladder (same answer, every pixel checked), and with `--noise 0.1`
// the PSNR of median against Gaussian on salt-and-pepper noise. Where lesson 11 (autotuning) has
// stored faster parameters for this device, the 3x3 and 5x5 medians run with them last.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "course.hpp"
#include "ladder_chart.hpp"
#include "median_filters.hpp"
#include "network_figure.hpp"
#include "svg_figure.hpp"
#include "tuned_median.hpp"

namespace {

// The sigma OpenCV picks for a K x K Gaussian when given none: a fair blur of the same reach.
double gaussian_sigma_for_window(int window) {
  return 0.3 * ((window - 1) * 0.5 - 1) + 0.8;
}

// Runs the Gaussian yardstick of the noise demo on the device.
course::GrayImage gaussian_blur(const course::DeviceContext& dc, const course::GrayImage& image,
                                const std::vector<float>& weights_2d, int radius) {
  cl::Program program = course::build_course_program(dc, "kernels/06_median_sorting_networks/gaussian_blur.cl",
                                                     "-D RADIUS=" + std::to_string(radius));
  cl::Kernel blur(program, "gaussian_blur");
  const std::size_t bytes = image.pixels.size() * sizeof(float);
  cl::Buffer input(dc.context, image.pixels.begin(), image.pixels.end(), true);
  cl::Buffer weights(dc.context, weights_2d.begin(), weights_2d.end(), true);
  cl::Buffer output(dc.context, CL_MEM_WRITE_ONLY, bytes);
  blur.setArg(0, input);
  blur.setArg(1, output);
  blur.setArg(2, weights);
  blur.setArg(3, image.width);
  blur.setArg(4, image.height);
  const cl::NDRange group = course::fit_work_group(dc, blur, 64, 4);
  dc.queue.enqueueNDRangeKernel(
      blur, cl::NullRange,
      cl::NDRange(course::round_up(image.width, group[0]), course::round_up(image.height, group[1])), group);
  course::GrayImage out{image.width, image.height, std::vector<float>(image.pixels.size())};
  dc.queue.enqueueReadBuffer(output, CL_TRUE, 0, bytes, out.pixels.data());
  return out;
}

// "out/median.png" -> "out/median-noisy.png".
std::filesystem::path beside(const std::filesystem::path& path, const std::string& suffix) {
  return path.parent_path() / (path.stem().string() + suffix + ".png");
}

// What each kernel takes per work-item: the registers and spills NVIDIA's compiler reports (a
// window too large for the registers spills to memory), and the private memory the driver reports.
struct KernelUse {
  std::string row;
  course::MedianBlock block;
  course::KernelResources used;
};
void print_kernel_use(const std::vector<KernelUse>& runs, int window) {
  std::cout << "\nWhat each kernel takes per work-item (" << window << "x" << window << "):\n";
  bool any_registers = false;
  for (const auto& [name, block, k] : runs) {
    any_registers = any_registers || k.registers >= 0;
    std::cout << "  " << std::left << std::setw(26) << name << " " << course::median_row_pixels(block) << "x"
              << block.strip << " outputs, registers " << (k.registers >= 0 ? std::to_string(k.registers) : "-")
              << ", spilled " << (k.spill_bytes >= 0 ? std::to_string(k.spill_bytes) + " bytes" : "-") << ",\n"
              << std::string(29, ' ') << "private " << k.private_bytes << " bytes, local " << k.local_bytes
              << " bytes\n"
              << k.compiler_report;
  }
  if (!any_registers)
    std::cout << "  (registers and spills: this driver reports none;\n   NVIDIA's does, with -cl-nv-verbose)\n";
}

}  // namespace

int main(int argc, char** argv) {
  try {
    // Step 1: options.
    course::Options options("./course run 06", "Median filters: insertion sort, bitonic sort, sorting networks.");
    course::add_image_options(options, "06_median_sorting_networks");
    options.value("window", "K", "median of the K x K window: K odd, from 3 to 9", "3");
    options.value("format", "NAME", "pixels as float, u8 (one byte) or both", "both");
    options.variant_option(course::median_variant_names());
    options.value("noise", "P",
                  "first set a fraction P (0 to 1) of the pixels to 0 or 255, and compare with a Gaussian");
    options.value("seed", "N", "seed of the noise", "1");
    options.value("local", "WxH", "work-group shape to aim for (kept within the device's limits)", "64x4");
    options.value("vector", "N",
                  "blocked variants: outputs per work-item along a row (1 to 16; default: the device's preferred "
                  "vector width for shared_sorted_rows; 8 for the merged ones, 2 for merged_columns where the device "
                  "prefers 8 lanes or more; the merged ones take even numbers only)");
    options.value("output", "PNG", "the filtered 8-bit image (default <output-dir>/median.png)");
    options.flag("untuned", "leave out lesson 11's tuned winners for the 3x3 and 5x5 medians");
    options.flag("figures", "also draw the 3x3 network and merged_columns' shared sorted columns: network.svg");
    options.example("./course run 06 --window 5", "the 5x5 median, every variant");
    options.example("./course run 06 --noise 0.1 --output out/clean.png", "salt and pepper on 10% of the pixels");
    options.example("./course run 06 --size 2048x2048 --format float", "the benchmark size");
    options.parse(argc, argv);
    const int window = course::read_median_window(options);
    const int repeat = options.integer("repeat", 1, 1000);
    const auto [local_x, local_y] = options.size("local", 1 << 16);
    const int vector = options.given("vector") ? std::stoi(options.choice("vector", {"1", "2", "4", "8", "16"})) : 0;
    const std::string format = options.choice("format", {"float", "u8", "both"});
    const std::vector<std::string> chosen = options.chosen_variants(course::median_variant_names());
    if (chosen.size() == 1 && course::median_variant(chosen[0]).only_window == 3 && window != 3)
      throw course::UsageError("option '--variant " + chosen[0] + "' needs --window 3 (it is the 3x3 network)");
    if (chosen == std::vector<std::string>{"merged_pairs"} && format == "float")
      throw course::UsageError("option '--variant merged_pairs' needs 8-bit pixels (--format u8 or both)");
    const bool noisy = options.given("noise");
    const double noise = noisy ? options.number("noise", 0.0, 1.0) : 0.0;
    const int seed = options.integer("seed", 0, 1 << 30);
    if (options.given("seed") && !noisy) throw course::UsageError("option '--seed' only applies with --noise");

    // Step 2: the device, and the image as 8-bit gray levels (plus its noise, when asked).
    const course::DeviceContext dc = course::open_device(options.text("device"));
    const course::GrayImage clean = course::quantize_to_8bit(course::input_gray(options, dc));
    const course::GrayImage image = noisy ? course::add_salt_and_pepper(clean, noise, seed) : clean;
    std::cout << "Device: " << course::describe(dc.entry) << "\nImage: " << image.width << "x" << image.height
              << ", median of " << window << "x" << window;
    if (noisy)
      std::cout << ", with salt and pepper on " << std::fixed << std::setprecision(2) << noise * 100
                << "% of the pixels";
    std::cout << "\n";

    // Step 3: the CPU reference, std::nth_element on every window.
    const course::GrayImage expected = course::median_filter(image, window);

    // Step 4: every variant on every pixel type, each verified exactly (a median picks one of
    // the input values, so there is no rounding to forgive).
    course::ResultsTable table("Median " + std::to_string(window) + "x" + std::to_string(window) + ", " +
                                   std::to_string(image.width) + "x" + std::to_string(image.height),
                               course::measure_roofline(dc));
    course::GrayImage result;
    std::vector<KernelUse> used;  // each row's kernel, for the register report
    for (const std::string pixels : {"float", "u8"}) {
      if (format != "both" && format != pixels) continue;
      const bool eight_bit = pixels == "u8";
      for (const course::MedianVariant& variant : course::median_variants()) {
        if (std::find(chosen.begin(), chosen.end(), variant.name) == chosen.end() ||
            (variant.only_window && variant.only_window != window) || (variant.packed && !eight_bit))
          continue;
        table.running(variant.name + " " + pixels);
        const course::MedianRun run =
            course::run_median(dc, variant, image, window, eight_bit, repeat, local_x, local_y, vector);
        if (!run.note.empty()) std::cout << run.note << "\n";
        course::RowWork work;
        work.variant = variant.name + " " + pixels;
        work.pixels = double(image.pixels.size());
        work.bytes = 2.0 * image.pixels.size() * (eight_bit ? 1 : 4);
        work.baseline = "insertion_sort " + pixels;  // each pixel type against its own slowest rung
        work.copy = eight_bit ? course::PixelType::u8 : course::PixelType::f32;  // and its own copy
        const course::ResultRow row = course::result_row(
            work, run.timing, run.end_to_end.device_ms,
            course::compare_images(run.result.pixels, expected.pixels, image.width, image.height, 0.0), std::cout);
        table.add(row);
        used.push_back({row.variant, run.block, run.used});
        result = run.result;
      }
      // Lesson 11 searches the launch parameters per device; when it has stored a winner for
      // this median on this device and size, it runs too, verified like every variant.
      if (!options.given("untuned"))
        if (auto tuned = course::run_tuned_median(dc, image, expected, window, eight_bit, repeat, std::cout)) {
          tuned->variant += " " + pixels;
          tuned->baseline = "insertion_sort " + pixels;
          table.add(*tuned);
        }
    }
    table.print(std::cout, std::filesystem::path(options.text("output-dir")) / "results.txt");
    course::save_ladder_svg(std::filesystem::path(options.text("output-dir")) / "ladder.svg", table,
                            course::describe(dc.entry), std::cout);
    print_kernel_use(used, window);
    if (options.given("figures")) {  // the network as network_3x3.cl writes it, and merged_columns' tiles
      std::vector<std::string> stages;
      const auto steps = course::read_network(
          course::read_text_file(course::locate_course_file("kernels/06_median_sorting_networks/network_3x3.cl")),
          stages);
      const auto picture = std::filesystem::path(options.text("output-dir")) / "network.svg";
      course::save_svg_file(picture, course::network_svg(steps, stages, window, vector > 1 ? vector : 8));
      std::cout << "wrote " << course::shown_path(picture) << "\n";
    }

    // Step 5: the ladder, each variant against the insertion sort on the same pixels.
    for (const auto& row : table.rows()) {
      const std::string pixels = row.variant.substr(row.variant.rfind(' ') + 1);
      for (const auto& base : table.rows())
        if (base.variant == "insertion_sort " + pixels && row.kernel_ms > 0) {
          std::ostringstream line;
          line << "  " << std::left << std::setw(26) << row.variant << " " << std::fixed << std::setprecision(1)
               << base.kernel_ms / row.kernel_ms << "x the insertion sort";
          std::cout << (line.str().size() > 80 ? course::wrap(line.str(), 80, "  ", "    ") : line.str() + "\n");
        }
    }

    // Step 6: the noise demo. A Gaussian of the same reach averages the outliers into their
    // neighbours; the median throws them away.
    bool gaussian_ok = true;
    const auto saved = course::output_path(options, "median.png");
    if (noisy) {
      const int radius = window / 2;
      const std::vector<float> weights =
          course::outer_product(course::gaussian_weights(radius, gaussian_sigma_for_window(window)),
                                course::gaussian_weights(radius, gaussian_sigma_for_window(window)));
      const course::GrayImage blurred = gaussian_blur(dc, image, weights, radius);
      const course::Comparison check = course::compare_images(
          blurred.pixels, course::correlate_2d(image, weights, radius).pixels, image.width, image.height, 1e-3);
      gaussian_ok = check.ok();
      std::cout << "\nGaussian blur (sigma " << std::fixed << std::setprecision(2) << gaussian_sigma_for_window(window)
                << ") against the CPU: " << check.describe() << "\n"
                << "PSNR against the clean image (higher is better):\n"
                << "  noisy            " << course::psnr(image, clean) << " dB\n"
                << "  median " << window << "x" << window << "       " << course::psnr(result, clean) << " dB\n"
                << "  gaussian " << window << "x" << window << "     " << course::psnr(blurred, clean) << " dB\n";
      course::save_png(beside(saved, "-noisy"), image);
      course::save_png(beside(saved, "-gaussian"), blurred);
      std::cout << "wrote " << course::shown_path(beside(saved, "-noisy")) << " and "
                << course::shown_path(beside(saved, "-gaussian")) << "\n";
    }

    // Step 7: the filtered image, and the summary line for the tour.
    course::save_png(saved, result);
    std::cout << "wrote " << course::shown_path(saved) << "\n";
    return ((table.all_verified() && gaussian_ok) ? course::kExitOk : course::kExitVerificationFailed);
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
