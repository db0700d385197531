// Lesson 02: the naive 2D convolution.
// One work-item per output pixel, every value read from global memory, the radius a kernel
// argument. Look at: how the NDRange covers the image (and the idle work-items past its edge),
// how many loads one pixel costs, and what swapping the two NDRange axes does to the time.
#include <iomanip>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "conv_lesson.hpp"
#include "course.hpp"
#include "ladder_chart.hpp"

namespace {

// The NDRange drawn over the image: each work-item one picture pixel, work-items with a pixel
// in gray (the input), the ones past the edge in red, work-group borders in blue.
course::RgbaImage draw_ndrange(const course::GrayImage& image, std::size_t global_x, std::size_t global_y,
                               std::size_t local_x, std::size_t local_y) {
  course::RgbaImage picture{static_cast<int>(global_x), static_cast<int>(global_y), {}};
  picture.pixels.assign(global_x * global_y * 4, 255);
  for (std::size_t y = 0; y < global_y; ++y)
    for (std::size_t x = 0; x < global_x; ++x) {
      std::uint8_t* p = &picture.pixels[(y * global_x + x) * 4];
      const bool inside = x < static_cast<std::size_t>(image.width) && y < static_cast<std::size_t>(image.height);
      const auto gray = inside ? static_cast<std::uint8_t>(image.at(static_cast<int>(x), static_cast<int>(y))) : 0;
      p[0] = inside ? gray : 220, p[1] = inside ? gray : 40, p[2] = inside ? gray : 40;
      if (x % local_x == 0 || y % local_y == 0) p[0] = 40, p[1] = 90, p[2] = 255;
    }
  return picture;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    // Step 0: options. The filter options are the same in every convolution lesson.
    const std::vector<std::string> variants = {"naive", "constant_weights", "swapped_axes", "unclamped_interior"};
    const std::map<std::string, std::string> kernel_of = {
        {"naive", "naive_convolution"},
        {"swapped_axes", "naive_convolution_swapped_axes"},
        {"constant_weights", "naive_convolution_constant_weights"},
        {"unclamped_interior", "naive_convolution_unclamped_interior"}};
    course::Options options("./course run 02",
                            "The naive 2D convolution: one work-item per pixel, all from global memory.");
    course::add_image_options(options, "02_naive_convolution");
    course::add_filter_options(options, 3);
    options.variant_option(variants);
    options.value("local", "WxH", "work-group size to ask for (made smaller if the device needs)", "16x16");
    options.value("output", "PATH", "write the filtered image here (default: one PNG per variant in --output-dir)");
    options.example("./course run 02 --radius 8 --filter box", "a 17x17 box blur of the default picture");
    options.example("./course run 02 --size 2048x2048 --radius 8 --variant naive", "the naive kernel on a big image");
    options.parse(argc, argv);
    const int repeat = options.integer("repeat", 1, 1000);
    const course::FilterSpec filter = course::read_filter(options, 16);
    const std::vector<std::string> chosen = options.chosen_variants(variants);
    const auto [want_x, want_y] = options.size("local", 1 << 16);

    // Step 1: the device, and the input with its CPU reference (summed in double).
    course::DeviceContext dc = course::open_device(options.text("device"));
    std::cout << "Device: " << course::describe(dc.entry) << "\n";
    const course::GrayImage image = course::input_gray(options, dc);
    const course::GrayImage reference = course::correlate_2d(image, filter.weights_2d(), filter.radius);
    std::cout << "Image " << image.width << "x" << image.height << ", filter " << filter.describe() << " ("
              << (2 * filter.radius + 1) << "x" << (2 * filter.radius + 1) << " weights)\n";

    // Step 2: one program holds all variants; the radius is an argument, so one build serves any filter.
    course::BuildStats build;
    cl::Program program =
        course::build_course_program(dc, "kernels/02_naive_convolution/naive_convolution.cl", "", &build);
    std::cout << "Built naive_convolution.cl in " << std::fixed << std::setprecision(1) << build.milliseconds
              << " ms\n";
    const course::ConvBuffers buffers(dc, image, filter.weights_2d());

    // Step 3: how the NDRange covers the image. The global size is rounded up to whole
    // work-groups, so some work-items have no pixel: that is what the bounds check is for.
    cl::Kernel naive(program, "naive_convolution");
    const cl::NDRange local = course::fit_work_group(dc, naive, want_x, want_y);
    const cl::NDRange global(course::round_up(image.width, local[0]), course::round_up(image.height, local[1]));
    const std::size_t idle = global[0] * global[1] - static_cast<std::size_t>(image.width) * image.height;
    std::cout << "\nNDRange: global " << global[0] << "x" << global[1] << " = "
              << (global[0] / local[0]) * (global[1] / local[1]) << " work-groups of " << local[0] << "x" << local[1]
              << ";\n  " << idle << " work-items fall past the image and leave at the bounds check\n"
              << "  work-item (gx, gy) = get_global_id(0), get_global_id(1) owns pixel\n"
              << "    x = gx, y = gy, stored at y * " << image.width << " + x\n"
              << "  group (" << 1 << ", " << 0 << "), local id (3, 2) -> global id (" << local[0] + 3 << ", 2)\n"
              << "    = get_group_id * get_local_size + get_local_id\n";
    if (global[0] <= 1024 && global[1] <= 1024)  // a picture of a huge NDRange would only cost time
      course::save_png(std::filesystem::path(options.text("output-dir")) / "ndrange.png",
                       draw_ndrange(image, global[0], global[1], local[0], local[1]));

    // Step 4: the loads one pixel costs. Neighbouring pixels share almost all of them, so the
    // caches (or, next lesson, local memory) must absorb a factor of (2R+1)^2.
    const double taps = (2.0 * filter.radius + 1) * (2.0 * filter.radius + 1);
    const double requested_mb = image.pixels.size() * 2 * taps * sizeof(float) / 1e6;
    std::cout << "Loads per output pixel: " << taps << " image values + " << taps << " weights = " << 2 * taps
              << ";\n  one run requests " << std::setprecision(1) << requested_mb
              << " MB from global memory for an image of " << buffers.bytes / 1e6 << " MB\n\n";

    // Step 5: run, time and verify every variant.
    course::ResultsTable table("Lesson 02: naive convolution, " + std::to_string(image.width) + "x" +
                                   std::to_string(image.height) + ", " + filter.describe(),
                               course::measure_roofline(dc));
    course::GrayImage result;
    for (const std::string& variant : chosen) {
      cl::Kernel kernel(program, kernel_of.at(variant).c_str());
      kernel.setArg(0, buffers.input);
      kernel.setArg(1, buffers.weights);
      kernel.setArg(2, buffers.output);
      kernel.setArg(3, image.width);
      kernel.setArg(4, image.height);
      kernel.setArg(5, filter.radius);
      // The swapped kernel reads its dimension 0 as y, so its NDRange is laid out the other way.
      const bool swapped = variant == "swapped_axes";
      const cl::NDRange group =
          course::fit_work_group(dc, kernel, swapped ? local[1] : local[0], swapped ? local[0] : local[1]);
      const cl::NDRange range(course::round_up(swapped ? image.height : image.width, group[0]),
                              course::round_up(swapped ? image.width : image.height, group[1]));
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

    // Step 6: the report, and the image the output contract asks for (the last variant's).
    table.print(std::cout, std::filesystem::path(options.text("output-dir")) / "results.txt");
    course::save_ladder_svg(std::filesystem::path(options.text("output-dir")) / "ladder.svg", table,
                            course::describe(dc.entry), std::cout);
    const auto saved = course::output_path(options, chosen.back() + ".png");
    course::save_png(saved, result);
    std::cout << "Wrote " << course::shown_path(saved) << "\n  and ndrange.png in " << options.text("output-dir")
              << "\n";
    return ((table.all_verified()) ? course::kExitOk : course::kExitVerificationFailed);
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
