// libFuzzer target: whatever bytes a student's "image" holds, loading it, turning it gray and
// running the CPU references on it must end in a picture or an InputError, never in a crash,
// a sanitizer report, a hang or a wrong-sized result.
//
// course::load_gray reads files (through stb, as every lesson does), so each input is written
// to one temporary file per process and loaded from there: the very path a lesson takes.
#include "image.hpp"
#include "errors.hpp"
#include "reference.hpp"

#include <stb_image.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace {

const std::filesystem::path& scratch_file() {
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("course-fuzz-" + std::to_string(::getpid()) + ".img");
  return path;
}

void write_input(const std::uint8_t* data, std::size_t size) {
  FILE* f = std::fopen(scratch_file().c_str(), "wb");
  if (!f) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
}

// A finding in the harness's own terms: the loaders promised something they did not keep.
[[noreturn]] void broken_promise(const char* what) {
  std::fprintf(stderr, "broken promise: %s\n", what);
  std::abort();
}

void check_gray(const course::GrayImage& image) {
  if (image.width < 1 || image.height < 1) broken_promise("an image with an empty side");
  if (image.pixels.size() != static_cast<std::size_t>(image.width) * image.height)
    broken_promise("pixel count differs from width * height");
  for (float v : image.pixels)
    if (!(v >= 0.0f && v <= 255.5f)) broken_promise("a gray level outside [0, 255]");
}

// The CPU references that every lesson's results are checked against, on a small crop so
// that each input takes milliseconds.
void run_references(const course::GrayImage& image) {
  course::GrayImage crop{std::min(image.width, 24), std::min(image.height, 24), {}};
  for (int y = 0; y < crop.height; ++y)
    for (int x = 0; x < crop.width; ++x) crop.pixels.push_back(image.at(x, y));
  const auto gauss = course::gaussian_weights(2, 1.0);
  const course::GrayImage blurred = course::correlate_2d(crop, course::outer_product(gauss, gauss), 2);
  const course::GrayImage separable = course::correlate_separable(crop, gauss, gauss);
  const course::GrayImage median = course::median_filter(crop, 3);
  for (std::size_t i = 0; i < crop.pixels.size(); ++i) {
    if (std::fabs(blurred.pixels[i] - separable.pixels[i]) > 1e-2f) broken_promise("separable != 2D reference");
    if (!(median.pixels[i] >= 0.0f && median.pixels[i] <= 255.5f)) broken_promise("median outside [0, 255]");
  }
}

// The pixels a JPEG's frame header (SOFn) claims, found by walking its segments; 0 if none.
// stb's own stbi_info cannot be asked: on a JPEG it parses the Huffman tables first, which is
// exactly what the course must check before handing a file to stb.
std::int64_t jpeg_claimed_pixels(const std::uint8_t* data, std::size_t size) {
  std::size_t i = 0;
  while (i < size && data[i] == 0xFF) ++i;  // stb allows fill bytes before the start-of-image marker
  while (i + 9 < size) {
    if (data[i] != 0xFF || data[i + 1] == 0xFF || data[i + 1] == 0x00 || (data[i + 1] >= 0xD0 && data[i + 1] <= 0xD8)) {
      ++i;
      continue;
    }
    const unsigned marker = data[i + 1];
    if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC)
      return std::int64_t((data[i + 5] << 8) | data[i + 6]) * ((data[i + 7] << 8) | data[i + 8]);
    i += 2 + ((data[i + 2] << 8) | data[i + 3]);
  }
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The decoders are the target, not the allocator: an input whose header claims more than a
  // megapixel is skipped here (the size limit itself has its own tests).
  constexpr std::int64_t kLargest = 1 << 20;
  // JPEG and PNM headers are read by the course's own checks before stb sees them (stb 2.27
  // mishandles some), so they are not handed to stbi_info here; a PNM's size is bounded by its
  // data, which the course requires to be present.
  if (size >= 2 && data[0] == 0xFF && (data[1] == 0xFF || data[1] == 0xD8)) {
    if (jpeg_claimed_pixels(data, size) > kLargest) return 0;
  } else if (size >= 1 && data[0] == 'P') {
  } else if (int w = 0, h = 0, c = 0;
             stbi_info_from_memory(data, static_cast<int>(size), &w, &h, &c) && std::int64_t(w) * h > kLargest) {
    return 0;
  }

  write_input(data, size);
  course::GrayImage gray;
  try {
    gray = course::load_gray(scratch_file());
  } catch (const course::InputError&) {
    return 0;  // refused with a message: the expected outcome for most inputs
  }
  check_gray(gray);

  // The colour path must agree with the gray one on the same bytes.
  const course::RgbaImage rgba = course::load_rgba(scratch_file());
  if (rgba.width != gray.width || rgba.height != gray.height) broken_promise("RGBA and gray sizes differ");
  if (rgba.pixels.size() != static_cast<std::size_t>(rgba.width) * rgba.height * 4)
    broken_promise("RGBA byte count differs from width * height * 4");
  check_gray(course::to_gray(rgba));

  run_references(gray);
  return 0;
}
