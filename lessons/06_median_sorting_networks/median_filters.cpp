#include "median_filters.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>

#include "errors.hpp"
#include "lesson.hpp"
#include "measure.hpp"
#include "program.hpp"
#include "reference.hpp"

namespace course {
namespace {

const char* kFolder = "kernels/06_median_sorting_networks/";

int next_power_of_two(int n) {
  int p = 1;
  while (p < n) p <<= 1;
  return p;
}

// How many values of a window x window matrix sorted along rows and columns can still be the
// median, and how many are certainly below it (see shared_sorted_rows.cl).
void count_candidates(int window, int* candidates, int* below) {
  const int middle = window * window / 2;
  *candidates = *below = 0;
  for (int r = 0; r < window; ++r)
    for (int c = 0; c < window; ++c) {
      const bool too_big = (r + 1) * (c + 1) > middle + 1;
      const bool too_small = (window - r) * (window - c) > middle + 1;
      if (too_small) ++*below;
      if (!too_big && !too_small) ++*candidates;
    }
}

}  // namespace

const std::vector<MedianVariant>& median_variants() {
  static const std::vector<MedianVariant> variants = {
      {"insertion_sort", "insertion_sort.cl", "median_insertion_sort", 0, false},
      {"bitonic_sort", "bitonic_sort.cl", "median_bitonic_sort", 0, false},
      {"network_3x3", "network_3x3.cl", "median_network_3x3", 3, false},
      {"network_3x3_rows", "network_3x3_rows.cl", "median_network_3x3_rows", 3, true},
      {"shared_sorted_rows", "shared_sorted_rows.cl", "median_shared_sorted_rows", 0, true},
      {"merged_columns", "merged_columns.cl", "median_merged_columns", 0, true, true},
      {"merged_pairs", "merged_columns.cl", "median_merged_columns", 0, true, true, true},
  };
  return variants;
}

std::vector<std::string> median_variant_names() {
  std::vector<std::string> names;
  for (const MedianVariant& v : median_variants()) names.push_back(v.name);
  return names;
}

const MedianVariant& median_variant(const std::string& name) {
  for (const MedianVariant& v : median_variants())
    if (v.name == name) return v;
  throw std::invalid_argument("no median variant " + name);
}

std::string odd_even_merge_steps(int runs, int length, int slot) {
  int parts = 1;  // the runs, padded with empty ones to a power of two
  while (parts < runs) parts *= 2;
  const int places = parts * slot;
  std::vector<bool> held(places, false);
  for (int r = 0; r < runs; ++r)
    for (int i = 0; i < length; ++i) held[r * slot + i] = true;
  std::string steps;
  const auto step = [&](int i, int j) {
    const std::string pair = "(" + std::to_string(i) + "," + std::to_string(j) + ")";
    if (held[i] && held[j]) {
      steps += "EXCHANGE" + pair;
    } else if (held[j]) {  // an empty place below a value: it moves down
      steps += "MOVE" + pair;
      held[i] = true;
      held[j] = false;
    }
  };
  // Neighbouring sorted parts of `part` places, merged into parts twice as long: first each place
  // against its partner in the other part, then at distances part / 2, ..., 1 the places whose
  // index divided by the distance is odd against the place one distance above.
  for (int part = slot; part < places; part *= 2)
    for (int first = 0; first < places; first += 2 * part) {
      for (int i = 0; i < part; ++i) step(first + i, first + i + part);
      for (int d = part / 2; d > 0; d /= 2)
        for (int i = d; i + d < 2 * part; ++i)
          if ((i / d) % 2 == 1) step(first + i, first + i + d);
    }
  return steps;
}

bool has_u16x2_min_max(const cl::Device& device) {
  if (device.getInfo<CL_DEVICE_VENDOR_ID>() != 0x10de &&
      device.getInfo<CL_DEVICE_VENDOR>().find("NVIDIA") == std::string::npos)
    return false;
  cl_uint major = 0;  // cl_nv_device_attribute_query: CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
  return clGetDeviceInfo(device(), 0x4000, sizeof major, &major, nullptr) == CL_SUCCESS && major >= 9;
}

int read_median_window(const Options& options) {
  const std::string limits =
      "the window must be odd, from " + std::to_string(kMinMedianWindow) + " to " + std::to_string(kMaxMedianWindow);
  int window = 0;
  try {
    window = options.integer("window", kMinMedianWindow, kMaxMedianWindow);
  } catch (const UsageError& e) {
    throw UsageError(std::string(e.what()) + " (" + limits + ")");
  }
  if (window % 2 == 0)
    throw UsageError("option '--window' is " + std::to_string(window) + ", but " + limits +
                     ": a median window needs a centre pixel");
  return window;
}

GrayImage quantize_to_8bit(const GrayImage& image) {
  GrayImage out = image;
  for (float& v : out.pixels) v = std::round(std::clamp(v, 0.0f, 255.0f));
  return out;
}

GrayImage add_salt_and_pepper(const GrayImage& image, double fraction, std::uint32_t seed) {
  GrayImage out = image;
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (float& v : out.pixels) {
    const double u = uniform(random);
    if (u < fraction) v = u < fraction / 2 ? 0.0f : 255.0f;
  }
  return out;
}

double psnr(const GrayImage& image, const GrayImage& clean) {
  const GrayImage a = quantize_to_8bit(image), b = quantize_to_8bit(clean);
  double sum = 0;
  for (std::size_t i = 0; i < a.pixels.size(); ++i) {
    const double d = static_cast<double>(a.pixels[i]) - b.pixels[i];
    sum += d * d;
  }
  if (sum == 0) return std::numeric_limits<double>::infinity();
  return 10.0 * std::log10(255.0 * 255.0 / (sum / static_cast<double>(a.pixels.size())));
}

MedianBlock median_block(const DeviceContext& dc, const MedianVariant& variant, int window, bool eight_bit,
                         int vector) {
  MedianBlock block;
  if (!variant.blocked) return block;
  // The device's preferred vector width for the pixel type, as a power of two up to 16.
  const int preferred = static_cast<int>(eight_bit ? dc.device.getInfo<CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR>()
                                                   : dc.device.getInfo<CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT>());
  const auto power_of_two = [](int n) {
    int p = 1;
    while (p * 2 <= std::min(n, 16)) p *= 2;
    return p;
  };
  if (variant.even_block) {
    // 8 outputs along a row, or 2 where the device prefers 8 or more lanes (a CPU's SIMD width);
    // the lanes the device prefers, as long as a work-item's row stays within 32 pixels (more
    // makes a CPU compiler's code, and its time, grow out of proportion).
    block.vector = vector > 0                                        ? std::max(2, std::min(vector, 16) / 2 * 2)
                   : power_of_two(preferred) >= 8 && !variant.packed ? 2
                                                                     : 8;
    block.lanes = variant.packed ? 2 : power_of_two(std::min(preferred, 32 / block.vector));
    block.strip = 2;
    return block;
  }
  block.vector = power_of_two(vector > 0 ? vector : preferred);
  block.strip = window <= 3 ? 8 : window <= 5 ? 4 : 2;
  // network_3x3_rows: four vectors side by side where the device takes vectors (a CPU), whose
  // independent networks the core overlaps (eight ran several times slower on PoCL).
  if (variant.name == "network_3x3_rows" && preferred > 1) block.lanes = 4;
  return block;
}

int median_row_pixels(const MedianBlock& block) {
  return block.vector * block.lanes;
}

std::string median_block_problem(const MedianVariant& variant, const MedianBlock& block) {
  if (!variant.blocked && (block.vector != 1 || block.strip != 1))
    return variant.name + " computes one output per work-item (outputs and vector 1 only)";
  if (variant.even_block && (block.vector % 2 != 0 || block.strip % 2 != 0))
    return variant.name + " computes outputs in pairs both ways (even outputs and vector)";
  if (variant.packed && block.lanes != 2) return variant.name + " holds two pixels in every value (2 lanes only)";
  return "";
}

std::string median_build_options(const DeviceContext& dc, const MedianVariant& variant, int window, bool eight_bit,
                                 const MedianBlock& block, int width) {
  std::string options = "-D WINDOW=" + std::to_string(window) + (eight_bit ? " -D PIXEL=uchar" : " -D PIXEL=float");
  if (variant.name == "bitonic_sort")
    options += " -D PADDED=" + std::to_string(next_power_of_two(window * window)) +
               (eight_bit ? " -D PIXEL_MAX=255" : " -D PIXEL_MAX=INFINITY");
  if (variant.name == "shared_sorted_rows") {
    int candidates = 0, below = 0;
    count_candidates(window, &candidates, &below);
    options += " -D STRIP=" + std::to_string(block.strip) + " -D VECTOR=" + std::to_string(block.vector) +
               " -D CANDIDATES=" + std::to_string(candidates) + " -D BELOW=" + std::to_string(below);
  }
  if (variant.name == "network_3x3_rows")
    options += " -D VECTOR=" + std::to_string(block.vector) + " -D LANES=" + std::to_string(block.lanes) +
               " -D STRIP=" + std::to_string(block.strip);
  if (variant.even_block) {
    const int slot = next_power_of_two(window);
    options += " -D VECTOR=" + std::to_string(block.vector) + " -D STRIP=" + std::to_string(block.strip) +
               " -D CORE_PLACES=" + std::to_string(next_power_of_two(window - 1)) +
               " -D CORE_STEPS=" + odd_even_merge_steps(window - 1, 1, 1) + " -D COLUMN_SLOT=" + std::to_string(slot) +
               " -D COLUMN_PLACES=" + std::to_string(next_power_of_two(window - 1) * slot) +
               " -D COLUMN_STEPS=" + odd_even_merge_steps(window - 1, window, slot);
    if (width % 4 == 0) options += " -D ALIGNED_ROWS";
    if (variant.packed)
      options += std::string(" -D PAIRS") + (has_u16x2_min_max(dc.device) ? " -D PTX_MIN_U16X2" : "");
    else if (block.lanes > 1)
      options += " -D LANES=" + std::to_string(block.lanes);
  }
  return options;
}

cl::Program build_median_program(const DeviceContext& dc, const MedianVariant& variant, int window, bool eight_bit,
                                 const MedianBlock& block, int width, std::string* options, std::string* note,
                                 BuildStats* stats) {
  *options = median_build_options(dc, variant, window, eight_bit, block, width);
  try {
    return build_course_program(dc, kFolder + variant.file, *options, stats);
  } catch (const KernelBuildError& e) {
    const std::string ptx = " -D PTX_MIN_U16X2";
    const std::size_t at = options->find(ptx);
    if (at == std::string::npos) throw;
    options->erase(at, ptx.size());
    // The first line of the log that says what went wrong.
    std::istringstream log(e.what());
    std::string line, said = "no reason given";
    while (std::getline(log, line))
      if ((line.find("error") != std::string::npos || line.find("Error") != std::string::npos) &&
          line.rfind("---", 0) != 0) {
        said = line;
        break;
      }
    *note = variant.name + ": the compiler refused min.u16x2 and max.u16x2 (" + said +
            "); built with ushort2 min and max instead";
    return build_course_program(dc, kFolder + variant.file, *options, stats);
  }
}

MedianRun run_median(const DeviceContext& dc, const MedianVariant& variant, const GrayImage& image, int window,
                     bool eight_bit, int repeat, std::size_t want_x, std::size_t want_y, int vector) {
  return run_median_block(dc, variant, image, window, eight_bit, repeat, want_x, want_y,
                          median_block(dc, variant, window, eight_bit, vector));
}

MedianRun run_median_block(const DeviceContext& dc, const MedianVariant& variant, const GrayImage& image, int window,
                           bool eight_bit, int repeat, std::size_t want_x, std::size_t want_y,
                           const MedianBlock& block) {
  if (variant.only_window && variant.only_window != window)
    throw std::invalid_argument(variant.name + " only computes a " + std::to_string(variant.only_window) + "x" +
                                std::to_string(variant.only_window) + " median");
  const int width = image.width, height = image.height;
  const std::size_t count = image.pixels.size();
  const std::size_t pixel_bytes = eight_bit ? 1 : 4;
  if (variant.packed && !eight_bit) throw std::invalid_argument(variant.name + " computes 8-bit pixels only");
  if (const std::string why = median_block_problem(variant, block); !why.empty()) throw std::invalid_argument(why);
  MedianRun run;
  run.block = block;
  std::string options;
  cl::Kernel kernel(build_median_program(dc, variant, window, eight_bit, run.block, width, &options, &run.note),
                    variant.kernel.c_str());
  run.used = kernel_resources(dc, kFolder + variant.file, options, variant.kernel);

  // The pixels as the kernel reads them: floats, or one byte per pixel.
  const std::size_t bytes = count * pixel_bytes;
  cl::Buffer input(dc.context, CL_MEM_READ_ONLY, bytes);
  cl::Buffer output(dc.context, CL_MEM_WRITE_ONLY, bytes);
  std::vector<std::uint8_t> bytes_in, bytes_out;
  run.result = GrayImage{width, height, std::vector<float>(count)};
  const void* host_in = image.pixels.data();
  void* host_out = run.result.pixels.data();
  if (eight_bit) {
    const GrayImage levels = quantize_to_8bit(image);
    bytes_in.assign(levels.pixels.begin(), levels.pixels.end());
    bytes_out.resize(count);
    host_in = bytes_in.data();
    host_out = bytes_out.data();
  }
  dc.queue.enqueueWriteBuffer(input, CL_TRUE, 0, bytes, host_in);
  kernel.setArg(0, input);
  kernel.setArg(1, output);
  kernel.setArg(2, width);
  kernel.setArg(3, height);

  const cl::NDRange group = fit_work_group(dc, kernel, want_x, want_y);
  run.local_x = group[0];
  run.local_y = group[1];
  const std::size_t row_pixels = median_row_pixels(run.block);
  const std::size_t items_x = (width + row_pixels - 1) / row_pixels;
  const std::size_t items_y = (height + run.block.strip - 1) / run.block.strip;
  const cl::NDRange global(round_up(items_x, run.local_x), round_up(items_y, run.local_y));
  const cl::NDRange local(run.local_x, run.local_y);
  cl::CommandQueue queue = dc.queue;
  // A poisoned output first, so that a pixel the kernel skips cannot pass on an earlier result.
  poison_output(queue, output, bytes, eight_bit ? PixelType::u8 : PixelType::f32);
  run.timing = time_events(
      queue,
      [&] {
        cl::Event done;
        queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &done);
        return std::vector<cl::Event>{done};
      },
      repeat);
  // End to end: upload, kernel and download, as a program that filters one image pays.
  run.end_to_end = time_events(
      queue,
      [&] {
        cl::Event upload, done, download;
        queue.enqueueWriteBuffer(input, CL_FALSE, 0, bytes, host_in, nullptr, &upload);
        queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &done);
        queue.enqueueReadBuffer(output, CL_FALSE, 0, bytes, host_out, nullptr, &download);
        return std::vector<cl::Event>{upload, done, download};
      },
      repeat);
  if (eight_bit) std::copy(bytes_out.begin(), bytes_out.end(), run.result.pixels.begin());
  return run;
}

GrayImage median_filter(const GrayImage& in, int window, unsigned threads) {
  const auto clamp_index = [](int i, int size) { return std::clamp(i, 0, size - 1); };
  if (window < 1 || window % 2 == 0) throw std::invalid_argument("median_filter: the window must be odd");
  const int r = window / 2;
  GrayImage out{in.width, in.height, std::vector<float>(in.pixels.size())};
  parallel_rows(in.height, threads, [&](int first, int last) {
    std::vector<float> values(static_cast<std::size_t>(window) * window);  // one per band
    for (int y = first; y < last; ++y)
      for (int x = 0; x < in.width; ++x) {
        std::size_t n = 0;
        for (int j = -r; j <= r; ++j)
          for (int i = -r; i <= r; ++i)
            values[n++] = in.at(clamp_index(x + i, in.width), clamp_index(y + j, in.height));
        std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
        out.pixels[static_cast<std::size_t>(y) * in.width + x] = values[values.size() / 2];
      }
  });
  return out;
}

}  // namespace course
