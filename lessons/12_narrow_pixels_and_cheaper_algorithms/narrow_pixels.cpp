#include "narrow_pixels.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
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

namespace {

// The pixels as stored (bytes or halves), and as the floats they stand for.
std::vector<unsigned char> store_pixels(const GrayImage& image, PixelType type, GrayImage& stored) {
  stored = image;
  std::vector<unsigned char> bytes(image.pixels.size() * pixel_bytes(type));
  for (std::size_t i = 0; i < image.pixels.size(); ++i) {
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
  for (std::size_t i = 0; i < values.size(); ++i) {
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

}  // namespace

GrayImage run_narrow_ladder(const DeviceContext& dc, const GrayImage& image, const FilterSpec& filter, PixelType type,
                            int steps, int repeat, ResultsTable& table, const std::filesystem::path& pictures) {
  const int w = image.width, h = image.height, r = filter.radius;
  const std::size_t count = image.pixels.size(), bytes = count * pixel_bytes(type);
  GrayImage stored;
  std::vector<unsigned char> host = store_pixels(image, type, stored);
  // The reference filters the stored pixels; 8-bit results are levels: the reference rounded.
  GrayImage reference = correlate_separable(stored, filter.weights, filter.weights);
  if (type == PixelType::u8)
    for (float& v : reference.pixels) v = std::nearbyint(std::clamp(v, 0.0f, 255.0f));
  // u8: the two passes round the row pass to levels too, half a level at most after the column
  // pass, and the result to a level; f16: a half has 11 significant bits, 1/16 at 128..255.
  const double tolerance = type == PixelType::u8 ? 1.0 : 0.25;

  cl::Buffer input(dc.context, CL_MEM_READ_WRITE, bytes), intermediate(dc.context, CL_MEM_READ_WRITE, bytes),
      output(dc.context, CL_MEM_READ_WRITE, bytes);
  const cl::Buffer weights(dc.context, filter.weights.begin(), filter.weights.end(), true);
  cl::CommandQueue queue = dc.queue;
  queue.enqueueWriteBuffer(input, CL_TRUE, 0, bytes, host.data());

  const std::string folder = "kernels/05_unrolling_and_work_per_item/";
  const std::string defines = " -D RADIUS=" + std::to_string(r) + " -D STEPS=" + std::to_string(steps) +
                              " -D ALIGNED_ROWS=" + (w % 4 == 0 ? "1" : "0") +
                              (type == PixelType::u8 ? " -D PIXELS_U8" : " -D PIXELS_F16") + " -I " +
                              locate_course_file(folder + "float4_helpers.h").parent_path().string();
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
  // 8-bit only: the same single pass widening its bytes to floats by the magic number
  // (float4_helpers.h, BYTES_BY_MAGIC): each byte is widened five times at R = 8.
  if (type == PixelType::u8) {
    const cl::Program magic_pass =
        build_course_program(dc, folder + "single_pass_blocked.cl", defines + single.defines + " -D BYTES_BY_MAGIC");
    cl::Kernel magic(magic_pass, "single_pass_blocked");
    args(magic, input, output);
    measure(
        "single_pass_magic", [&] { return launch_single(magic); }, 1, true, "single_pass_blocked" + suffix, ring_loads);
  }
  return fastest.pixels.empty() ? GrayImage{w, h, load_pixels(host, type)} : fastest;
}

}  // namespace course
