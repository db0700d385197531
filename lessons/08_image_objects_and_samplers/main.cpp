// Lesson 08: image objects and samplers. An RGBA blur read through image2d_t and a sampler
// (pixel coordinates, clamp to edge, nearest) on reqd_work_group_size(8, 4, 1) groups; then the
// group's 10x6 tile cached in local memory, loaded by one work-item, by 30 in two halves, and by
// all; then the same on a plain buffer. Look at: the image formats, samples per group, and where
// images win or lose against buffers on this device.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "course.hpp"
#include "ladder_chart.hpp"
#include "png_channels.hpp"
#include "sample_figure.hpp"
#include "svg_figure.hpp"

namespace {

struct Variant {
  std::string name;    // as the table shows it
  std::string file;    // kernel file in kernels/08_image_objects_and_samplers/
  std::string kernel;  // kernel function
  bool image_input;    // image object + sampler, or plain buffer
  long samples;        // reads of the input per work-group, for the story
};

// Step 1's question: can this device hold an RGBA picture with 8 bits per channel as an image?
bool supports_rgba8(const cl::Context& context, cl_mem_flags flags) {
  std::vector<cl::ImageFormat> formats;
  context.getSupportedImageFormats(flags, CL_MEM_OBJECT_IMAGE2D, &formats);
  return std::any_of(formats.begin(), formats.end(), [](const cl::ImageFormat& f) {
    return f.image_channel_order == CL_RGBA && f.image_channel_data_type == CL_UNORM_INT8;
  });
}

// The centre of the input next to the same part blurred, each pixel drawn 2x2, so the blur is
// visible without a viewer's zoom: a 96x96 crop (smaller for small pictures).
course::RgbaImage detail_side_by_side(const course::RgbaImage& input, const course::RgbaImage& blurred) {
  const int side = std::min({96, input.width, input.height});
  const int x0 = (input.width - side) / 2, y0 = (input.height - side) / 2, zoom = 2;
  course::RgbaImage out{2 * side * zoom, side * zoom,
                        std::vector<std::uint8_t>(std::size_t(4) * side * side * zoom * zoom * 2)};
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x) {
      const course::RgbaImage& from = x < side * zoom ? input : blurred;
      const int sx = x0 + (x % (side * zoom)) / zoom, sy = y0 + y / zoom;
      for (int c = 0; c < 4; ++c)
        out.pixels[(std::size_t(y) * out.width + x) * 4 + c] =
            from.pixels[(std::size_t(sy) * input.width + sx) * 4 + c];
    }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    // Step 0: options. The blur is the filter options' box or Gaussian, 3x3 by default.
    course::Options options("./course run 08", "A blur through image objects and samplers, against buffers.");
    course::add_image_options(options, "08_image_objects_and_samplers", "data/astronaut.png");
    course::add_filter_options(options, 1);
    options.value("filter", "NAME", "gaussian or box", "box");
    options.value("group", "WxH", "work-group shape, fixed in the kernels by reqd_work_group_size", "8x4");
    options.flag("figures", "also draw who samples which pixel of a group's tile in each scheme: samples.svg");
    options.example("./course run 08", "the 3x3 mean blur on 8x4 work-groups");
    options.example("./course run 08 --radius 3 --filter gaussian --group 16x16", "a 7x7 Gaussian on 16x16 groups");
    options.parse(argc, argv);
    const int repeat = options.integer("repeat", 1, 1000);
    const course::FilterSpec filter = course::read_filter(options, 8);
    const auto [group_w, group_h] = options.size("group", 1024);

    // Step 1: the device. Images are optional in OpenCL: without them this lesson has nothing
    // to show, so it says so and exits with the "skipped" status.
    const course::DeviceContext dc = course::open_device(options.text("device"));
    std::cout << "Device: " << course::describe(dc.entry) << "\n";
    if (!dc.device.getInfo<CL_DEVICE_IMAGE_SUPPORT>())
      throw course::SkipLesson("this device has no image support (CL_DEVICE_IMAGE_SUPPORT is false)");
    std::vector<cl::ImageFormat> formats;
    dc.context.getSupportedImageFormats(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, &formats);
    std::cout << "Images: up to " << dc.device.getInfo<CL_DEVICE_IMAGE2D_MAX_WIDTH>() << " x "
              << dc.device.getInfo<CL_DEVICE_IMAGE2D_MAX_HEIGHT>() << " pixels, " << formats.size()
              << " read-only 2D formats,\n  " << dc.device.getInfo<CL_DEVICE_MAX_READ_IMAGE_ARGS>()
              << " image arguments per kernel\n";
    if (!supports_rgba8(dc.context, CL_MEM_READ_ONLY))
      throw course::SkipLesson("this device's images do not take CL_RGBA / CL_UNORM_INT8");
    std::cout << "CL_RGBA / CL_UNORM_INT8 read-only images: yes\n  (read_imagef returns 0..1 per channel)\n";

    // Step 2: the work-group shape must be legal here, and the tile must fit in local memory.
    const std::size_t group = std::size_t(group_w) * group_h;
    const auto item_max = dc.device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
    if (group > dc.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>() || std::size_t(group_w) > item_max[0] ||
        std::size_t(group_h) > item_max[1])
      throw course::DeviceLimitError(
          "option '--group': " + options.text("group") + " is more than this device allows (" +
          std::to_string(dc.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>()) + " work-items, " +
          std::to_string(item_max[0]) + " x " + std::to_string(item_max[1]) + ")");
    const int r = filter.radius, tile_w = group_w + 2 * r, tile_h = group_h + 2 * r;
    if (std::size_t(tile_w) * tile_h * 16 > dc.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>())
      throw course::DeviceLimitError("option '--group': a " + std::to_string(tile_w) + "x" + std::to_string(tile_h) +
                                     " tile of float4 does not fit in this device's local memory");
    const std::string defines = "-D RADIUS=" + std::to_string(r) + " -D GROUP_W=" + std::to_string(group_w) +
                                " -D GROUP_H=" + std::to_string(group_h);
    std::cout << "Filter " << filter.describe() << ", work-groups " << group_w << "x" << group_h << ", tile " << tile_w
              << "x" << tile_h << " = " << tile_w * tile_h << " pixels\n";

    // Step 3: the picture, its CPU reference (each channel blurred with borders clamped), and
    // the input both as an image object and as a buffer.
    const course::RgbaImage input = course::input_rgba(options);
    const int width = input.width, height = input.height;
    if (std::size_t(width) > dc.device.getInfo<CL_DEVICE_IMAGE2D_MAX_WIDTH>() ||
        std::size_t(height) > dc.device.getInfo<CL_DEVICE_IMAGE2D_MAX_HEIGHT>())
      throw course::InputError("the picture is " + std::to_string(width) + "x" + std::to_string(height) +
                               ", larger than this device's largest image; choose a smaller --input or --size");
    const std::size_t pixels = std::size_t(width) * height, bytes = pixels * 4;
    std::vector<float> reference(bytes);
    for (int c = 0; c < 4; ++c) {
      course::GrayImage channel{width, height, std::vector<float>(pixels)};
      for (std::size_t i = 0; i < pixels; ++i) channel.pixels[i] = input.pixels[i * 4 + c];
      const course::GrayImage blurred = course::correlate_2d(channel, filter.weights_2d(), r);
      for (std::size_t i = 0; i < pixels; ++i) reference[i * 4 + c] = blurred.pixels[i];
    }
    const std::vector<float> weights = filter.weights_2d();
    cl::Buffer weight_buffer(dc.context, weights.begin(), weights.end(), true);
    cl::Image2D input_image(dc.context, CL_MEM_READ_ONLY, cl::ImageFormat(CL_RGBA, CL_UNORM_INT8), width, height);
    cl::Buffer input_buffer(dc.context, CL_MEM_READ_ONLY, bytes),
        output = cl::Buffer(dc.context, CL_MEM_WRITE_ONLY, bytes);

    // Step 4: the variants. Samples per group: what each group reads from the input.
    const long taps = long(2 * r + 1) * (2 * r + 1), tile = long(tile_w) * tile_h;
    std::vector<Variant> variants = {
        {"image, direct", "image_blur.cl", "blur_image_direct", true, taps * long(group)},
        {"image, tile by one item", "image_blur.cl", "blur_image_tile_one_loader", true, tile},
        {"image, tile in two halves", "image_blur.cl", "blur_image_tile_two_halves", true, tile},
        {"image, cooperative tile", "cooperative_tile.cl", "blur_image_tile_cooperative", true, tile},
        {"buffer, direct", "buffer_blur.cl", "blur_buffer_direct", false, taps * long(group)},
        {"buffer, cooperative tile", "buffer_blur.cl", "blur_buffer_tiled", false, tile}};
    // Two halves need one work-item per pixel of the top half.
    if (long(tile_w) * ((tile_h + 1) / 2) > long(group)) variants.erase(variants.begin() + 2);

    course::ResultsTable table("08 blur of " + std::to_string(width) + "x" + std::to_string(height) + " RGBA8, " +
                                   filter.describe() + ", " + std::to_string(group_w) + "x" + std::to_string(group_h) +
                                   " groups",
                               course::measure_roofline(dc));
    cl::CommandQueue queue = dc.queue;
    const cl::NDRange local(group_w, group_h);
    const cl::NDRange global(course::round_up(width, group_w), course::round_up(height, group_h));
    course::RgbaImage result{width, height, std::vector<std::uint8_t>(bytes)};
    for (const Variant& v : variants) {
      cl::Program program =
          course::build_course_program(dc, "kernels/08_image_objects_and_samplers/" + v.file, defines);
      cl::Kernel kernel(program, v.kernel.c_str());
      if (v.image_input)
        kernel.setArg(0, input_image);
      else
        kernel.setArg(0, input_buffer);
      kernel.setArg(1, weight_buffer);
      kernel.setArg(2, output);
      kernel.setArg(3, width);
      kernel.setArg(4, height);
      const auto launch = [&](cl::Event* e) {
        queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, e);
      };
      std::cout << "  " << v.name << ": " << v.samples << " input samples per work-group\n";
      table.running(v.name);
      // Upload + kernel + download, timed by event profiling; the kernel's own events give its
      // time over the same runs (the first is time_events' warm-up).
      std::vector<cl::Event> kernel_events;
      course::poison_output(queue, output, bytes, course::PixelType::u8);  // a skipped pixel shows
      const course::Timing total = course::time_events(
          queue,
          [&] {
            std::vector<cl::Event> events(3);
            if (v.image_input)
              queue.enqueueWriteImage(input_image, CL_FALSE, {0, 0, 0}, {std::size_t(width), std::size_t(height), 1}, 0,
                                      0, input.pixels.data(), nullptr, &events[0]);
            else
              queue.enqueueWriteBuffer(input_buffer, CL_FALSE, 0, bytes, input.pixels.data(), nullptr, &events[0]);
            launch(&events[1]);
            queue.enqueueReadBuffer(output, CL_FALSE, 0, bytes, result.pixels.data(), nullptr, &events[2]);
            kernel_events.push_back(events[1]);
            return events;
          },
          repeat);
      std::vector<double> kernel_ms;
      for (std::size_t i = 1; i < kernel_events.size(); ++i) kernel_ms.push_back(course::event_ms(kernel_events[i]));

      // Step 5: verify. The kernels round to 8 bits, so half a level is the expected error.
      queue.enqueueReadBuffer(output, CL_TRUE, 0, bytes, result.pixels.data());
      const std::vector<float> got(result.pixels.begin(), result.pixels.end());
      course::RowWork work;
      work.variant = v.name;
      work.pixels = double(pixels);
      work.bytes = 2.0 * bytes;
      work.flops = 2.0 * taps * 4 * pixels;  // a multiply-add per tap and channel
      table.add(course::result_row(work, course::timing_of(kernel_ms), total.device_ms,
                                   course::compare_images(got, reference, width, height, 0.6, 4), std::cout));
      if (v.kernel == "blur_image_tile_cooperative") {
        const int channels =
            options.given("size") ? 3 : course::image_file_channels(course::resolve_input_path(options.text("input")));
        const std::filesystem::path folder = options.text("output-dir");
        course::save_png_channels(folder / "blurred.png", result, channels);
        course::save_png_channels(folder / "detail.png", detail_side_by_side(input, result), channels);
      }
    }

    // Step 6: the report.
    std::cout << "\n";
    table.print(std::cout, std::filesystem::path(options.text("output-dir")) / "results.txt");
    course::save_ladder_svg(std::filesystem::path(options.text("output-dir")) / "ladder.svg", table,
                            course::describe(dc.entry), std::cout);
    if (options.given("figures"))
      course::save_svg_file(std::filesystem::path(options.text("output-dir")) / "samples.svg",
                            course::samples_svg(group_w, group_h, r));
    std::cout << "wrote blurred.png, detail.png (input | blurred, centre at 2x)"
              << (options.given("figures") ? ", samples.svg" : "") << "\n  in " << options.text("output-dir") << "\n";
    return ((table.all_verified()) ? course::kExitOk : course::kExitVerificationFailed);
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
