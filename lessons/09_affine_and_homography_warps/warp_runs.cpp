#include "warp_runs.hpp"

#include <algorithm>
#include <iostream>
#include <stdexcept>

#include "compare.hpp"
#include "errors.hpp"
#include "lesson.hpp"
#include "measure.hpp"
#include "program.hpp"
#include "timing.hpp"
#include "tuning_cache.hpp"

namespace course {
namespace {

// A 2D work-group of up to 16x16 that this kernel and device allow.
cl::NDRange legal_local_size(const DeviceContext& dc, const cl::Kernel& kernel) {
  const std::size_t kernel_max = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
  const auto item_max = dc.device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  const std::size_t lx = std::max<std::size_t>(1, std::min({std::size_t(16), kernel_max, item_max[0]}));
  const std::size_t ly = std::max<std::size_t>(1, std::min({std::size_t(16), kernel_max / lx, item_max[1]}));
  return cl::NDRange(lx, ly);
}

}  // namespace

const std::vector<WarpVariant>& warp_variants() {
  static const std::vector<WarpVariant> variants = {{"image + linear sampler", "warp_image", true, 1},
                                                    {"image, 4 pixels per item", "warp_image_x4", true, 4},
                                                    {"buffer, bilinear by hand", "warp_buffer", false, 1},
                                                    {"buffer, 4 pixels per item", "warp_buffer_x4", false, 4}};
  return variants;
}

bool rgba8_images(const DeviceContext& dc, int width, int height) {
  if (dc.device.getInfo<CL_DEVICE_IMAGE_SUPPORT>() != CL_TRUE) return false;
  if (std::size_t(width) > dc.device.getInfo<CL_DEVICE_IMAGE2D_MAX_WIDTH>() ||
      std::size_t(height) > dc.device.getInfo<CL_DEVICE_IMAGE2D_MAX_HEIGHT>())
    return false;
  std::vector<cl::ImageFormat> formats;
  dc.context.getSupportedImageFormats(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, &formats);
  return std::any_of(formats.begin(), formats.end(), [](const cl::ImageFormat& f) {
    return f.image_channel_order == CL_RGBA && f.image_channel_data_type == CL_UNORM_INT8;
  });
}

cl::Program build_warp_program(const DeviceContext& dc, const std::string& file, const Transform& m) {
  const std::string folder = "kernels/09_affine_and_homography_warps/";
  return build_course_program(dc, folder + file,
                              std::string("-D PROJECTIVE=") + (is_affine(m) ? "0" : "1") + " -I " +
                                  locate_course_file(folder + "four_pixels.h").parent_path().string());
}

ResultRow run_warp(const DeviceContext& dc, const WarpVariant& v, const RgbaImage& input, const Transform& m,
                   int out_width, int out_height, const std::vector<float>& reference, int repeat, RgbaImage& result,
                   const cl::NDRange& wanted_local) {
  const std::string file = v.image_input ? "image_warp.cl" : "buffer_warp.cl";
  cl::Program program = build_warp_program(dc, file, m);
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

  cl::NDRange local = wanted_local;
  if (local.dimensions() == 0) {
    local = legal_local_size(dc, kernel);
  } else if (const std::size_t most = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
             local[0] * local[1] > most) {
    throw DeviceLimitError("the compiled kernel allows " + std::to_string(most) + " work-items per group, not " +
                           std::to_string(local[0] * local[1]));
  }
  const int items_x = (out_width + v.pixels_per_item - 1) / v.pixels_per_item;
  const cl::NDRange global(round_up(items_x, local[0]), round_up(out_height, local[1]));
  cl::CommandQueue queue = dc.queue;
  const auto upload = [&](cl::Event* e) {
    if (v.image_input)
      queue.enqueueWriteImage(input_image, CL_FALSE, {0, 0, 0},
                              {std::size_t(input.width), std::size_t(input.height), 1}, 0, 0, input.pixels.data(),
                              nullptr, e);
    else
      queue.enqueueWriteBuffer(input_buffer, CL_FALSE, 0, in_bytes, input.pixels.data(), nullptr, e);
  };
  result = RgbaImage{out_width, out_height, std::vector<std::uint8_t>(out_bytes)};
  // The kernel's own events are kept too: its time is the median over the same runs (after
  // time_events' one warm-up run), so it can never exceed the round trip's.
  std::vector<cl::Event> kernel_events;
  poison_output(queue, output, out_bytes, PixelType::u8);  // a pixel the kernel skips shows
  const auto round_trip = [&] {
    std::vector<cl::Event> events(3);
    upload(&events[0]);
    queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &events[1]);
    queue.enqueueReadBuffer(output, CL_FALSE, 0, out_bytes, result.pixels.data(), nullptr, &events[2]);
    kernel_events.push_back(events[1]);
    return events;
  };
  const Timing total = time_events(queue, round_trip, repeat);
  std::vector<double> kernel_ms;
  for (std::size_t i = 1; i < kernel_events.size(); ++i) kernel_ms.push_back(event_ms(kernel_events[i]));

  // The sampler on a GPU blends with 8-bit fixed-point weights; the buffer kernels blend in float,
  // then round to 8 bits (0.5). Far from the origin a float source position is off by up to
  // 1/1000 of a pixel (measured: 0.8 levels at 8192x8192 on an H100), hence 1.0, not 0.5.
  const double tolerance = v.image_input ? 2.0 : 1.0;
  const std::vector<float> got(result.pixels.begin(), result.pixels.end());
  RowWork work;
  work.variant = v.name;
  work.pixels = double(out_width) * out_height;
  work.bytes = double(in_bytes + out_bytes);
  // The mapping (two rows of multiply-adds, plus a third and a division for a homography) and
  // the blend (a multiply-add per source pixel and channel: 4 x 4).
  work.flops = work.pixels * ((is_affine(m) ? 8 : 14) + 2 * 4 * 4);
  return result_row(work, timing_of(kernel_ms), total.device_ms,
                    compare_images(got, reference, out_width, out_height, tolerance, 4), std::cout);
}

std::optional<ResultRow> run_tuned_warp(const DeviceContext& dc, const RgbaImage& picture, const Transform& m,
                                        const std::vector<float>& reference, int repeat, std::ostream& out) {
  const std::string operation = "warp bilinear RGBA8";
  const int w = picture.width, h = picture.height;
  const auto winner = stored_winner(tuning_cache_file(), tuning_key(dc, operation, w, h), out);
  if (!winner) {
    say_no_winner(operation, "warp", w, h, out);
    return std::nullopt;
  }
  ResultRow row;
  std::string skipped;
  try {
    // The winner's variant: an image or a buffer read, 1 or 4 output pixels a work-item.
    const std::string name = tuned_value(*winner, "variant");
    const int per_item = std::stoi(tuned_value(*winner, "outputs"));
    const auto variant = std::find_if(warp_variants().begin(), warp_variants().end(), [&](const WarpVariant& v) {
      return (name == "image_warp" ? v.image_input : name == "buffer_warp" && !v.image_input) &&
             v.pixels_per_item == per_item;
    });
    if (variant == warp_variants().end())
      throw std::invalid_argument(name + " with " + std::to_string(per_item) + " outputs is no variant of lesson 09");
    if (variant->image_input && !rgba8_images(dc, w, h))
      throw std::invalid_argument("no RGBA8 images of " + std::to_string(w) + "x" + std::to_string(h) + " here");
    RgbaImage result;
    row = run_warp(dc, *variant, picture, m, w, h, reference, repeat, result,
                   cl::NDRange(std::stoul(tuned_value(*winner, "group_x")), std::stoul(tuned_value(*winner, "group_y"))));
  } catch (const std::logic_error& e) {
    skipped = e.what();
  } catch (const DeviceLimitError& e) {  // the compiled kernel's own limit: never launched
    skipped = e.what();
  }
  return report_winner(*winner, row, skipped, out);
}

}  // namespace course
