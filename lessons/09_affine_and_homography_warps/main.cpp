// Lesson 09: affine and homography warps. Every output pixel asks a 3x3 matrix where it comes
// from in the input and blends the four input pixels around that point: through an image and a
// linear sampler, by hand on a buffer, and each with four output pixels per work-item (the
// thesis's layout). Look at: the warped pictures, and the kernel time next to upload + kernel +
// download (on a discrete GPU, a warp's transfers cost far more than its arithmetic). With a map
// given on the command line, lesson 11's work-group shape for this device runs too, if it has one.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "course.hpp"
#include "ladder_chart.hpp"
#include "png_channels.hpp"  // lesson 08's
#include "source_figure.hpp"
#include "svg_figure.hpp"
#include "transform_reference.hpp"
#include "warp_runs.hpp"

namespace {

// The 2010 thesis's (docs/references.md) matrices and image sizes, with what it measured on an NVIDIA GT240 (tables 7.1
// and 7.2: kernel, and transfers + kernel, in ms).
struct Preset {
  std::string name;
  course::Transform matrix;
  int width, height;
  double thesis_kernel_ms, thesis_total_ms;
};
const std::vector<Preset> kPresets = {
    {"A1", {2, 1.5, -800, 0, 2, -300, 0, 0, 1}, 720, 576, 0.29, 1.59},
    {"A2", {2, 1.5, -300, 0, 2, -100, 0, 0, 1}, 360, 288, 0.09, 1.00},
    {"H1", {3, 1.2, -600, 0, 3, -100, -0.01, -0.01, 10}, 720, 576, 0.35, 1.72},
    {"H2", {6, 1.2, -100, 0, 6, -100, -0.01, -0.01, 10}, 360, 288, 0.10, 1.03},
};

}  // namespace

int main(int argc, char** argv) {
  try {
    // Step 0: options. Either one warp given on the command line, or the thesis's presets.
    course::Options options("./course run 09", "Affine and homography warps with bilinear interpolation.");
    course::add_image_options(options, "09_affine_and_homography_warps", "data/astronaut.png");
    options.value("affine", "A11,...,A23", "warp by this affine map (6 numbers, output pixel -> source position)");
    options.value("homography", "H11,...,H33", "warp by this homography (9 numbers, output pixel -> source position)");
    options.value("preset", "NAME", "without --affine/--homography: all, A1, A2, H1 or H2 (the thesis's)", "all");
    options.value("output", "FILE", "with --affine/--homography: where the warped PNG goes");
    options.flag("untuned", "with --affine/--homography: leave out lesson 11's tuned winner");
    options.flag("figures", "also draw where a few output pixels come from, over the input: sources.svg");
    options.example("./course run 09", "the thesis's four presets at its image sizes");
    options.example("./course run 09 --input data/coffee.png --output rotated.png --affine 0.94,-0.34,60,0.34,0.94,-40",
                    "rotate by 20 degrees");
    options.parse(argc, argv);
    const int repeat = options.integer("repeat", 1, 1000);
    course::Transform given{};
    const bool one_transform = course::read_transform(options, given);
    if (!one_transform && options.given("output")) throw course::UsageError("--output needs --affine or --homography");
    const std::string preset_name = options.choice("preset", {"all", "A1", "A2", "H1", "H2"});

    // Step 1: the device, and whether it can hold RGBA8 images for the sampler variants.
    const course::DeviceContext dc = course::open_device(options.text("device"));
    std::cout << "Device: " << course::describe(dc.entry) << "\n";
    bool images = course::rgba8_images(dc, 1, 1);
    if (!images) std::cout << "This device has no RGBA8 image support: only the buffer variants run.\n";

    // Step 2: the input, and the warps to run: (name, matrix, output size, input at that size).
    const course::RgbaImage original = course::input_rgba(options);
    // A warp of its own runs on the picture as it is: refuse one the device cannot hold now,
    // before the CPU reference spends its time on it (the presets shrink it to 720x576).
    if (one_transform) course::require_allocatable(dc, original.pixels.size(),
                                                    course::input_description(options, original.width, original.height));
    if (images && !course::rgba8_images(dc, original.width, original.height)) {
      images = !one_transform;  // the presets resize the input to at most 720x576
      if (!images)
        std::cout << "The picture is larger than this device's largest image: only the buffer variants run.\n";
    }
    const int channels =
        options.given("size") ? 3 : course::image_file_channels(course::resolve_input_path(options.text("input")));
    std::vector<Preset> warps;
    if (one_transform)
      warps.push_back(
          {course::is_affine(given) ? "affine" : "homography", given, original.width, original.height, 0, 0});
    else
      for (const Preset& p : kPresets)
        if (preset_name == "all" || preset_name == p.name) warps.push_back(p);

    std::vector<course::WarpVariant> variants;
    for (const course::WarpVariant& v : course::warp_variants())
      if (images || !v.image_input) variants.push_back(v);

    // Step 3: every warp with every variant, each verified against the CPU reference.
    course::ResultsTable summary("09 all warps", 0);
    bool all_verified = true;
    std::vector<course::WarpPicture> pictures;  // for --figures
    for (const Preset& w : warps) {
      const bool resized = !one_transform && (original.width != w.width || original.height != w.height);
      const course::RgbaImage input = resized ? course::resize_bilinear(original, w.width, w.height) : original;
      const std::vector<float> reference = course::transform_bilinear(input, w.matrix, w.width, w.height);
      if (options.given("figures"))  // the input small: the picture shows where samples come from, not detail
        pictures.push_back({w.name, w.matrix, w.width, w.height,
                            course::resize_bilinear(input, 200, std::max(1, 200 * w.height / w.width))});
      course::ResultsTable table(w.name + " (" + course::describe(w.matrix) + ") on " + std::to_string(w.width) + "x" +
                                     std::to_string(w.height) + " RGBA8",
                                 course::measure_roofline(dc));
      course::RgbaImage written;
      for (const course::WarpVariant& v : variants) {
        course::RgbaImage result;
        table.running(v.name);
        course::ResultRow row = course::run_warp(dc, v, input, w.matrix, w.width, w.height, reference, repeat, result);
        table.add(row);
        row.variant = w.name + " " + row.variant;
        summary.add(row);
        if (v.kernel == "warp_buffer") written = result;
      }
      // Lesson 11 searches the variant and work-group shape per device; when it has stored a
      // winner for this device and size, it runs too, verified like the others.
      if (one_transform && !options.given("untuned"))
        if (auto tuned = course::run_tuned_warp(dc, input, w.matrix, reference, repeat, std::cout)) table.add(*tuned);
      std::cout << "\n";
      table.print(std::cout, std::filesystem::path(options.text("output-dir")) / ("results_" + w.name + ".txt"));
      course::save_ladder_svg(std::filesystem::path(options.text("output-dir")) / ("ladder_" + w.name + ".svg"), table,
                              course::describe(dc.entry), std::cout);
      if (w.thesis_total_ms > 0)
        std::cout << "  the thesis on a GT240: kernel " << w.thesis_kernel_ms << " ms, transfers + kernel "
                  << w.thesis_total_ms << " ms\n";

      // Step 4: the pictures: the warped image keeps the input's channels.
      const auto path = one_transform ? course::output_path(options, "warped.png")
                                      : std::filesystem::path(options.text("output-dir")) / (w.name + ".png");
      course::save_png_channels(path, written, channels);
      if (resized)
        course::save_png_channels(std::filesystem::path(options.text("output-dir")) /
                                      ("input_" + std::to_string(w.width) + "x" + std::to_string(w.height) + ".png"),
                                  input, channels);
      std::cout << "  wrote " << course::shown_path(path) << "\n";
      all_verified = all_verified && table.all_verified();
    }

    if (options.given("figures")) {
      const auto path = std::filesystem::path(options.text("output-dir")) / "sources.svg";
      course::save_svg_file(path, course::sources_svg(pictures));
      std::cout << "wrote " << course::shown_path(path) << "\n";
    }

    // Step 5: the summary line for the tour, and the exit status.
    return ((all_verified) ? course::kExitOk : course::kExitVerificationFailed);
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
