#include "narrow_pixels.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <iomanip>
#include <iostream>

#include "measure.hpp"
#include "one_change.hpp"

namespace course {

PixelType pixel_type(const std::string& name) {
  if (name == "f32") return PixelType::f32;
  if (name == "u8") return PixelType::u8;
  if (name == "f16") return PixelType::f16;
  throw UsageError("--type takes f32, u8 or f16, not '" + name + "'");
}

std::string pixel_name(PixelType type) {
  return type == PixelType::u8 ? "u8" : type == PixelType::f16 ? "f16" : "f32";
}

std::uint16_t to_half(float value) {
  std::uint32_t b;
  std::memcpy(&b, &value, sizeof b);
  const std::uint16_t sign = static_cast<std::uint16_t>((b >> 16) & 0x8000u);
  b &= 0x7fffffffu;
  if (b > 0x7f800000u) return sign | 0x7e00u;   // NaN
  if (b >= 0x477ff000u) return sign | 0x7c00u;  // rounds past the largest half, 65504: infinity
  if (b < 0x38800000u)                          // below 2^-14: a subnormal half, a multiple of 2^-24
    return sign | static_cast<std::uint16_t>(std::nearbyint(std::fabs(value) * 16777216.0f));
  // Drop 13 mantissa bits rounding to nearest, ties to even, and move the exponent's bias from
  // 127 to 15; a carry out of the mantissa correctly bumps the exponent.
  const std::uint32_t rounded = b + 0xfffu + ((b >> 13) & 1u) - 0x38000000u;
  return sign | static_cast<std::uint16_t>(rounded >> 13);
}

float from_half(std::uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  float magnitude = exponent == 0    ? std::ldexp(static_cast<float>(mantissa), -24)
                    : exponent == 31 ? (mantissa ? NAN : INFINITY)
                                     : std::ldexp(static_cast<float>(1024 + mantissa), exponent - 25);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

std::vector<unsigned char> store_pixels(const GrayImage& image, PixelType type, GrayImage& stored) {
  stored = image;
  std::vector<unsigned char> bytes(image.pixels.size() * pixel_bytes(type));
  if (type == PixelType::f32) std::memcpy(bytes.data(), image.pixels.data(), bytes.size());
  for (std::size_t i = 0; type != PixelType::f32 && i < image.pixels.size(); ++i) {
    if (type == PixelType::u8) {
      bytes[i] = static_cast<unsigned char>(std::nearbyint(std::clamp(image.pixels[i], 0.0f, 255.0f)));
      stored.pixels[i] = bytes[i];
    } else {
      const std::uint16_t h = to_half(image.pixels[i]);
      std::memcpy(&bytes[2 * i], &h, 2);
      stored.pixels[i] = from_half(h);
    }
  }
  return bytes;
}

std::vector<float> load_pixels(const std::vector<unsigned char>& bytes, PixelType type) {
  std::vector<float> values(bytes.size() / pixel_bytes(type));
  if (type == PixelType::f32) std::memcpy(values.data(), bytes.data(), bytes.size());
  for (std::size_t i = 0; type != PixelType::f32 && i < values.size(); ++i) {
    if (type == PixelType::u8) {
      values[i] = bytes[i];
    } else {
      std::uint16_t h;
      std::memcpy(&h, &bytes[2 * i], 2);
      values[i] = from_half(h);
    }
  }
  return values;
}

GrayImage narrow_reference(const GrayImage& stored, const std::vector<float>& weights, PixelType type) {
  GrayImage reference = correlate_separable(stored, weights, weights);
  if (type == PixelType::u8)
    for (float& v : reference.pixels) v = std::nearbyint(std::clamp(v, 0.0f, 255.0f));
  return reference;
}

double narrow_tolerance(PixelType type) {
  // u8: the two passes round the row pass to levels too, half a level at most after the column
  // pass, and the result to a level; f16: a half has 11 significant bits, 1/16 at 128..255;
  // f32: the float rounding of 2 (2R + 1) multiply-adds in another order than the reference's.
  return type == PixelType::u8 ? 1.0 : type == PixelType::f16 ? 0.25 : 0.01;
}

std::string narrow_defines(PixelType type, int radius, int steps, int width) {
  const std::string pixels = type == PixelType::u8 ? " -D PIXELS_U8" : type == PixelType::f16 ? " -D PIXELS_F16" : "";
  return float4_defines(radius, steps, width) + pixels;
}

SinglePassShape single_pass_converted_shape(const DeviceContext& dc, int radius, int steps, std::size_t strip) {
  // Two float4 columns and `steps` rows per work-item. On a GPU 16x4 groups (128 columns) and
  // 64-row strips as single_pass_blocked's; on a CPU (a group is a loop on one core) narrow groups.
  const bool cpu = (dc.entry.type & CL_DEVICE_TYPE_CPU) != 0;
  const std::size_t budget = std::min<std::size_t>(32 * 1024, dc.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>());
  std::size_t gw = cpu ? 4 : 16, gh = cpu ? 1 : 4;
  // Local memory as the kernel declares it: `staged`, a tile's rows of 2 gw + 2 CHUNKS float4s in
  // two halves of HALF, and the ring, a tile's window of rows of 2 gw float4s.
  const auto local_bytes = [&] {
    const std::size_t chunks = (radius + 3) / 4, half = (gw + chunks + 3) / 8 * 8 + 4, tile_h = gh * steps;
    return (tile_h * 2 * half + (tile_h + 2 * radius) * 2 * gw) * 4 * sizeof(float);
  };
  while (gh > 1 && local_bytes() > budget) gh /= 2;
  while (gw > 1 && local_bytes() > budget) gw /= 2;
  SinglePassShape shape;
  shape.group = fit_work_group(dc.device, dc.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>(), gw, gh);
  shape.strip = round_up(strip > 0 ? strip : cpu ? 512 : 64, shape.group[1] * steps);  // whole tiles
  shape.defines = " -D GROUP_W=" + std::to_string(shape.group[0]) + " -D GROUP_H=" + std::to_string(shape.group[1]) +
                  " -D STRIP=" + std::to_string(shape.strip);
  return shape;
}

void print_single_pass_work(const DeviceContext& dc, int radius, int steps, std::ostream& out) {
  const SinglePassShape blocked = single_pass_blocked_shape(dc, radius, steps),
                        converted = single_pass_converted_shape(dc, radius, steps);
  const int blocked_strip = static_cast<int>(blocked.strip), converted_strip = static_cast<int>(converted.strip);
  const auto line = [&](const std::string& name, double fmas, double conversions, double loads) {
    out << "  " << std::left << std::setw(23) << name << std::right << std::fixed << std::setprecision(2)
        << std::setw(6) << fmas << std::setw(11) << conversions << std::setw(13) << loads << "\n";
  };
  out << "Work an output pixel, counted from the kernels' code (radius " << radius << ", " << steps
      << " steps,\nthe strips and groups of this device):\n"
      << "  variant                  FMAs  converted  local loads\n";
  line("single_pass_blocked", single_pass_fmas(radius, blocked_strip),
       single_pass_blocked_conversions(radius, blocked_strip), single_pass_blocked_local_loads(radius, steps));
  line("single_pass_converted", single_pass_fmas(radius, converted_strip),
       single_pass_converted_conversions(radius, converted_strip, static_cast<int>(converted.group[0])),
       single_pass_converted_local_loads(radius, steps, converted_strip));
  out.unsetf(std::ios::floatfield);
}

BlockedRung single_pass_converted_rung(const DeviceContext& dc, PixelType type, int radius, int steps, int width,
                                       int height, const cl::Buffer& input, const cl::Buffer& output,
                                       const cl::Buffer& weights, std::size_t strip, const std::string& extra) {
  const SinglePassShape shape = single_pass_converted_shape(dc, radius, steps, strip);
  BlockedRung rung;
  rung.kernel =
      cl::Kernel(build_course_program(dc, "kernels/12_narrow_pixels_and_cheaper_algorithms/single_pass_converted.cl",
                                      narrow_defines(type, radius, steps, width) + shape.defines + extra),
                 "single_pass_converted");
  if (rung.kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device) < shape.group[0] * shape.group[1])
    throw SkipLesson("single_pass_converted allows fewer work-items per group than it needs here");
  rung.kernel.setArg(0, input);
  rung.kernel.setArg(1, output);
  rung.kernel.setArg(2, weights);
  rung.kernel.setArg(3, width);
  rung.kernel.setArg(4, height);
  // Work-items: one per two float4s of a row (a group's 8 GROUP_W columns), GROUP_H per strip.
  const std::size_t items_x = (width + 7) / 8;
  const std::size_t items_y = (height + shape.strip - 1) / shape.strip * shape.group[1];
  rung.enqueue = [&dc, kernel = rung.kernel, g = shape.group, items_x, items_y]() mutable {
    return std::vector<cl::Event>{launch_2d(dc, kernel, items_x, items_y, g)};
  };
  return rung;
}

GrayImage run_narrow_ladder(const DeviceContext& dc, const GrayImage& image, const FilterSpec& filter, PixelType type,
                            int steps, int repeat, ResultsTable& table, const std::filesystem::path& pictures) {
  const int w = image.width, h = image.height, r = filter.radius;
  const std::size_t count = image.pixels.size(), bytes = count * pixel_bytes(type);
  GrayImage stored;
  std::vector<unsigned char> host = store_pixels(image, type, stored);
  const GrayImage reference = narrow_reference(stored, filter.weights, type);
  const double tolerance = narrow_tolerance(type);

  cl::Buffer input(dc.context, CL_MEM_READ_WRITE, bytes), intermediate(dc.context, CL_MEM_READ_WRITE, bytes),
      output(dc.context, CL_MEM_READ_WRITE, bytes);
  const cl::Buffer weights(dc.context, filter.weights.begin(), filter.weights.end(), true);
  cl::CommandQueue queue = dc.queue;
  queue.enqueueWriteBuffer(input, CL_TRUE, 0, bytes, host.data());

  const std::string folder = "kernels/05_unrolling_and_work_per_item/";
  const std::string defines = narrow_defines(type, r, steps, w);
  const cl::NDRange group = vector_group(dc);
  const SinglePassShape single = single_pass_blocked_shape(dc, r, steps);
  const cl::Program passes = build_course_program(dc, folder + "float4_passes.cl", defines);
  const cl::Program one_pass = build_course_program(dc, folder + "single_pass_blocked.cl", defines + single.defines);
  cl::Kernel copy(passes, "copy_pixels4"), row(passes, "row_pass_float4"), column(passes, "column_pass_float4"),
      blocked(one_pass, "single_pass_blocked");
  const auto args = [&](cl::Kernel& k, const cl::Buffer& in, const cl::Buffer& out) {
    k.setArg(0, in);
    k.setArg(1, out);
    k.setArg(2, weights);
    k.setArg(3, w);
    k.setArg(4, h);
  };
  args(copy, input, output);
  args(row, input, intermediate);
  args(column, intermediate, output);
  args(blocked, input, output);
  const std::size_t float4s = (w + 3) / 4;

  const std::string suffix = "_" + pixel_name(type);
  GrayImage fastest;
  double fastest_ms = 0;
  // Times one rung, reads its pixels back over a poisoned output (255 or a half NaN, so a skipped
  // pixel shows), verifies and adds its row.
  // `float4_loads`: the float4s the rung reads from local memory an output pixel (0: none).
  const auto measure = [&](const std::string& name, const std::function<std::vector<cl::Event>()>& enqueue,
                           int image_passes, bool filters, const std::string& baseline, double float4_loads = 0) {
    table.running(name + suffix);
    poison_output(queue, output, bytes, type);
    const Timing t = time_events(queue, enqueue, repeat);
    std::vector<unsigned char> back(bytes);
    const double end_to_end_ms =
        time_end_to_end(queue, input, host.data(), bytes, output, back.data(), bytes, enqueue, repeat).device_ms;
    GrayImage result{w, h, load_pixels(back, type)};
    RowWork work;
    work.variant = name + suffix;
    work.pixels = static_cast<double>(count);
    work.bytes = 2.0 * image_passes * bytes;
    work.flops = filters ? 2.0 * 2 * (2 * r + 1) * work.pixels : 0;  // a multiply-add per tap and direction
    work.baseline = baseline;
    work.copy = type;  // "% of copy" divides by the copy of the same pixels
    if (float4_loads > 0) work.local_loads = float4_loads * work.pixels, work.local_load_bytes = 16;
    const ResultRow row = result_row(
        work, t, end_to_end_ms,
        compare_images(result.pixels, (filters ? reference : stored).pixels, w, h, filters ? tolerance : 0.0),
        std::cout);
    table.add(row);
    if (filters) save_png(pictures / (row.variant + ".png"), result);
    if (filters && row.verified && (fastest.pixels.empty() || row.kernel_ms < fastest_ms))
      fastest = std::move(result), fastest_ms = row.kernel_ms;
  };
  measure(
      "copy", [&] { return std::vector<cl::Event>{launch_2d(dc, copy, float4s, h, group)}; }, 1, false, "");
  measure(
      "float4_passes",
      [&] {
        return std::vector<cl::Event>{launch_2d(dc, row, float4s, h, group),
                                      launch_2d(dc, column, float4s, (h + steps - 1) / steps, group)};
      },
      2, true, "-");
  // The single pass: a group per GROUP_W float4 columns and STRIP rows.
  const auto launch_single = [&](cl::Kernel& k) {
    return std::vector<cl::Event>{
        launch_2d(dc, k, float4s, (h + single.strip - 1) / single.strip * single.group[1], single.group)};
  };
  // Its float4 loads from the ring in local memory, counted from its code (one_change.hpp).
  const double ring_loads = single_pass_blocked_local_loads(r, steps);
  measure(
      "single_pass_blocked", [&] { return launch_single(blocked); }, 1, true, "float4_passes" + suffix, ring_loads);
  // One change to the single pass for each narrow type: 8-bit bytes widened to floats by the magic
  // number (float4_helpers.h, BYTES_BY_MAGIC), each byte widened five times at R = 8; halves
  // moved as one 8-byte word a float4 (HALF_BITS), where NVIDIA's compiler moves vloada_half4's
  // four halves two bytes at a time.
  const bool levels = type == PixelType::u8;
  const cl::Program changed_pass =
      build_course_program(dc, folder + "single_pass_blocked.cl",
                           defines + single.defines + (levels ? " -D BYTES_BY_MAGIC" : " -D HALF_BITS"));
  cl::Kernel changed(changed_pass, "single_pass_blocked");
  args(changed, input, output);
  measure(
      levels ? "single_pass_magic" : "single_pass_halfbits", [&] { return launch_single(changed); }, 1, true,
      "single_pass_blocked" + suffix, ring_loads);
  // The single pass converting each pixel once into local memory, two float4 columns a
  // work-item (single_pass_converted.cl), against single_pass_blocked of the same pixels.
  const BlockedRung converted = single_pass_converted_rung(dc, type, r, steps, w, h, input, output, weights);
  measure(
      "single_pass_converted", converted.enqueue, 1, true, "single_pass_blocked" + suffix,
      single_pass_converted_local_loads(r, steps, static_cast<int>(single_pass_converted_shape(dc, r, steps).strip)));
  return fastest.pixels.empty() ? GrayImage{w, h, load_pixels(host, type)} : fastest;
}

}  // namespace course
