#include "image.hpp"

#include "errors.hpp"
#include "image_format.hpp"
#include "png_encoder.hpp"
#include "parallel_rows.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace course {
namespace {
float luma(std::uint8_t r, std::uint8_t g, std::uint8_t b) { return 0.299f * r + 0.587f * g + 0.114f * b; }

// Rings, a diagonal edge and a checkerboard: something to see in every filter's output.
float pattern(int x, int y, int width, int height, int channel) {
  const double u = (x + 0.5) / width - 0.5, v = (y + 0.5) / height - 0.5;
  const double r = std::sqrt(u * u + v * v);
  double value = 128 + 90 * std::cos(60 * r * r + channel);
  if (u + v > 0.25) value = 0.5 * value + (channel == 0 ? 120 : 40);
  if (((x / 8) + (y / 8)) % 2 == 0 && u < -0.3) value = 255 - value;
  return static_cast<float>(std::clamp(value, 0.0, 255.0));
}
}  // namespace

void save_png(const std::filesystem::path& path, int width, int height, int channels, const std::uint8_t* data) {
  image_format::PngEncoder png(width, height, channels, data);  // bands of rows, compressed on every core
  parallel_rows(png.bands(), 0, [&](int first, int last) {
    for (int band = first; band < last; ++band) png.encode(band);
  });
  image_format::write_file(path, png.file());
}

GrayImage load_gray(const std::filesystem::path& path) {
  int w = 0, h = 0, channels = 0;
  auto data = image_format::decode(path, 3, w, h, kMaxImagePixels, &channels);
  GrayImage out{w, h, std::vector<float>(static_cast<std::size_t>(w) * h)};
  for (std::size_t i = 0; i < out.pixels.size(); ++i) {
    const unsigned char* p = data.get() + 3 * i;
    // A gray file keeps its exact levels; only colour goes through the luma weights.
    out.pixels[i] = channels <= 2 ? p[0] : luma(p[0], p[1], p[2]);
  }
  return out;
}

RgbaImage load_rgba(const std::filesystem::path& path) {
  int w = 0, h = 0;
  auto data = image_format::decode(path, 4, w, h, kMaxImagePixels);
  return RgbaImage{w, h, std::vector<std::uint8_t>(data.get(), data.get() + static_cast<std::size_t>(w) * h * 4)};
}

GrayImage to_gray(const RgbaImage& image) {
  GrayImage out{image.width, image.height, std::vector<float>(static_cast<std::size_t>(image.width) * image.height)};
  for (std::size_t i = 0; i < out.pixels.size(); ++i)
    out.pixels[i] = luma(image.pixels[4 * i], image.pixels[4 * i + 1], image.pixels[4 * i + 2]);
  return out;
}

void save_png(const std::filesystem::path& path, const GrayImage& image) {
  std::vector<unsigned char> bytes(image.pixels.size());
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const float v = image.pixels[i];
    // NaN becomes 0 rather than undefined behaviour in the conversion.
    bytes[i] = v > 0 ? static_cast<unsigned char>(std::lround(std::min(v, 255.0f))) : 0;
  }
  save_png(path, image.width, image.height, 1, bytes.data());
}

void save_png(const std::filesystem::path& path, const RgbaImage& image) {
  save_png(path, image.width, image.height, 4, image.pixels.data());
}

int image_file_channels(const std::filesystem::path& path) {
  const int channels = image_format::channels_in(path);
  if (channels < 1 || channels > 4) throw InputError("cannot read '" + path.string() + "' as an image");
  return channels;
}

GrayImage synthetic_gray(int width, int height) {
  GrayImage out{width, height, std::vector<float>(static_cast<std::size_t>(width) * height)};
  parallel_rows(height, 0, [&](int first, int last) {
    for (int y = first; y < last; ++y)
      for (int x = 0; x < width; ++x)
        out.pixels[static_cast<std::size_t>(y) * width + x] = std::round(pattern(x, y, width, height, 0));
  });
  return out;
}

RgbaImage synthetic_rgba(int width, int height) {
  RgbaImage out{width, height, std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height * 4)};
  parallel_rows(height, 0, [&](int first, int last) {
    for (int y = first; y < last; ++y)
      for (int x = 0; x < width; ++x)
        for (int c = 0; c < 4; ++c)
          out.pixels[(static_cast<std::size_t>(y) * width + x) * 4 + c] =
              c == 3 ? 255 : static_cast<std::uint8_t>(std::lround(pattern(x, y, width, height, c)));
  });
  return out;
}

}  // namespace course
