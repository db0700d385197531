// Lesson 09: affine and homography warps. Every output pixel asks a 3x3 matrix where it comes
// from in the input and blends the four input pixels around that point: through an image and a
// linear sampler, by hand on a buffer, and each with four output pixels per work-item (the
// thesis's layout). Look at: the warped pictures, and the kernel time next to upload + kernel +
// download (on a discrete GPU, a warp's transfers cost far more than its arithmetic).
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "course.hpp"
#include "transform_reference.hpp"

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

// A 2D work-group of up to 16x16 that this kernel and device allow.
cl::NDRange legal_local_size(const course::DeviceContext& dc, const cl::Kernel& kernel) {
  const std::size_t kernel_max = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
  const auto item_max = dc.device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  const std::size_t lx = std::max<std::size_t>(1, std::min({std::size_t(16), kernel_max, item_max[0]}));
  const std::size_t ly = std::max<std::size_t>(1, std::min({std::size_t(16), kernel_max / lx, item_max[1]}));
  return cl::NDRange(lx, ly);
}

struct Variant {
  std::string name;    // as the table shows it
  std::string kernel;  // kernel function
  bool image_input;    // image object + sampler, or plain buffer
  int pixels_per_item;
};

// One warp on the device: upload + kernel + download timed together by event profiling, the
// kernel's share read from its own events, the result checked against the CPU reference.
course::ResultRow run_variant(const course::DeviceContext& dc, const Variant& v, const course::RgbaImage& input,
                              const course::Transform& m, int out_width, int out_height,
                              const std::vector<float>& reference, int repeat, course::RgbaImage& result) {
  const std::string file = v.image_input ? "image_warp.cl" : "buffer_warp.cl";
  cl::Program program =
      course::build_course_program(dc, "kernels/09_affine_and_homography_warps/" + file,
                                   std::string("-D PROJECTIVE=") + (course::is_affine(m) ? "0" : "1"));
  cl::Kernel kernel(program, v.kernel.c_str());
  const std::size_t in_bytes = input.pixels.size(), out_bytes = std::size_t(out_width) * out_height * 4;
  cl::Buffer output(dc.context, CL_MEM_WRITE_ONLY, out_bytes);
  cl::Buffer input_buffer;
  cl::Image2D input_image;
  const auto row = [&](int r) { return cl_float4{{float(m[3 * r]), float(m[3 * r + 1]), float(m[3 * r + 2]), 0.0f}}; };
  int arg = 0;
  if (v.image_input) {
    input_image =
        cl::Image2D(dc.context, CL_MEM_READ_ONLY, cl::ImageFormat(CL_RGBA, CL_UNORM_INT8), input.width, input.height);
    kernel.setArg(arg++, input_image);
  } else {
    input_buffer = cl::Buffer(dc.context, CL_MEM_READ_ONLY, in_bytes);
    kernel.setArg(arg++, input_buffer);
  }
  kernel.setArg(arg++, input.width);  // both kinds take the picture's size as arguments
  kernel.setArg(arg++, input.height);
  kernel.setArg(arg++, output);
  kernel.setArg(arg++, out_width);
  kernel.setArg(arg++, out_height);
  for (int r = 0; r < 3; ++r) kernel.setArg(arg++, row(r));

  const cl::NDRange local = legal_local_size(dc, kernel);
  const int items_x = (out_width + v.pixels_per_item - 1) / v.pixels_per_item;
  const cl::NDRange global(course::round_up(items_x, local[0]), course::round_up(out_height, local[1]));
  cl::CommandQueue queue = dc.queue;
  const auto upload = [&](cl::Event* e) {
    if (v.image_input)
      queue.enqueueWriteImage(input_image, CL_FALSE, {0, 0, 0},
                              {std::size_t(input.width), std::size_t(input.height), 1}, 0, 0, input.pixels.data(),
                              nullptr, e);
    else
      queue.enqueueWriteBuffer(input_buffer, CL_FALSE, 0, in_bytes, input.pixels.data(), nullptr, e);
  };
  result = course::RgbaImage{out_width, out_height, std::vector<std::uint8_t>(out_bytes)};
  // The kernel's own events are kept too: its time is the median over the same runs (after
  // time_events' one warm-up run), so it can never exceed the round trip's.
  std::vector<cl::Event> kernel_events;
  const auto round_trip = [&] {
    std::vector<cl::Event> events(3);
    upload(&events[0]);
    queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &events[1]);
    queue.enqueueReadBuffer(output, CL_FALSE, 0, out_bytes, result.pixels.data(), nullptr, &events[2]);
    kernel_events.push_back(events[1]);
    return events;
  };
  const course::Timing total = course::time_events(queue, round_trip, repeat);
  std::vector<double> kernel_ms;
  for (std::size_t i = 1; i < kernel_events.size(); ++i) kernel_ms.push_back(course::event_ms(kernel_events[i]));

  // The sampler on a GPU blends with 8-bit fixed-point weights; the buffer kernels blend in float,
  // then round to 8 bits (0.5). Far from the origin a float source position is off by up to
  // 1/1000 of a pixel (measured: 0.8 levels at 8192x8192 on an H100), hence 1.0, not 0.5.
  const double tolerance = v.image_input ? 2.0 : 1.0;
  const std::vector<float> got(result.pixels.begin(), result.pixels.end());
  const course::Comparison c = course::compare_images(got, reference, out_width, out_height, tolerance, 4);
  if (!c.ok()) std::cout << "    " << v.name << ": " << c.describe() << "\n";
  course::ResultRow r;
  r.variant = v.name;
  r.kernel_ms = course::median(kernel_ms);
  r.end_to_end_ms = total.device_ms;
  r.pixels = double(out_width) * out_height;
  r.bytes = double(in_bytes + out_bytes);
  // The mapping (two rows of multiply-adds, plus a third and a division for a homography) and
  // the blend (a multiply-add per source pixel and channel: 4 x 4).
  r.flops = r.pixels * ((course::is_affine(m) ? 8 : 14) + 2 * 4 * 4);
  r.max_error = c.max_abs_error;
  r.verified = c.ok();
  return r;
}

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
    bool images = dc.device.getInfo<CL_DEVICE_IMAGE_SUPPORT>() == CL_TRUE;
    if (images) {
      std::vector<cl::ImageFormat> formats;
      dc.context.getSupportedImageFormats(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, &formats);
      images = std::any_of(formats.begin(), formats.end(), [](const cl::ImageFormat& f) {
        return f.image_channel_order == CL_RGBA && f.image_channel_data_type == CL_UNORM_INT8;
      });
    }
    if (!images) std::cout << "This device has no RGBA8 image support: only the buffer variants run.\n";

    // Step 2: the input, and the warps to run: (name, matrix, output size, input at that size).
    const course::RgbaImage original = course::input_rgba(options);
    // A warp of its own runs on the picture as it is: refuse one the device cannot hold now,
    // before the CPU reference spends its time on it (the presets shrink it to 720x576).
    if (one_transform)
      course::require_allocatable(dc, original.pixels.size(),
                                  course::input_description(options, original.width, original.height));
    if (images && (std::size_t(original.width) > dc.device.getInfo<CL_DEVICE_IMAGE2D_MAX_WIDTH>() ||
                   std::size_t(original.height) > dc.device.getInfo<CL_DEVICE_IMAGE2D_MAX_HEIGHT>())) {
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

    std::vector<Variant> variants = {{"buffer, bilinear by hand", "warp_buffer", false, 1},
                                     {"buffer, 4 pixels per item", "warp_buffer_x4", false, 4}};
    if (images) {
      variants.insert(variants.begin(), {"image + linear sampler", "warp_image", true, 1});
      variants.insert(variants.begin() + 1, {"image, 4 pixels per item", "warp_image_x4", true, 4});
    }

    // Step 3: every warp with every variant, each verified against the CPU reference.
    course::ResultsTable summary("09 all warps", 0);
    bool all_verified = true;
    for (const Preset& w : warps) {
      const bool resized = !one_transform && (original.width != w.width || original.height != w.height);
      const course::RgbaImage input = resized ? course::resize_bilinear(original, w.width, w.height) : original;
      const std::vector<float> reference = course::transform_bilinear(input, w.matrix, w.width, w.height);
      const std::size_t bytes = 2 * input.pixels.size();
      course::ResultsTable table(w.name + " (" + course::describe(w.matrix) + ") on " + std::to_string(w.width) + "x" +
                                     std::to_string(w.height) + " RGBA8",
                                 course::measure_roofline(dc, bytes));
      course::RgbaImage written;
      for (const Variant& v : variants) {
        course::RgbaImage result;
        table.running(v.name);
        course::ResultRow row = run_variant(dc, v, input, w.matrix, w.width, w.height, reference, repeat, result);
        table.add(row);
        row.variant = w.name + " " + row.variant;
        summary.add(row);
        if (v.kernel == "warp_buffer") written = result;
      }
      std::cout << "\n";
      table.print(std::cout);
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
      std::cout << "  wrote " << path.string() << "\n";
      all_verified = all_verified && table.all_verified();
    }

    // Step 5: the summary line for the tour, and the exit status.
    return ((all_verified) ? course::kExitOk : course::kExitVerificationFailed);
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
