#include "image.hpp"

#include "errors.hpp"
#include "image_format.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <new>
#include <optional>
#include <random>
#include <system_error>
#include <vector>

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#endif
#define STBI_FAILURE_USERMSG
// Only the formats the course documents: fewer decoders, fewer ways for a file to go wrong.
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_ONLY_PNM
#define STBI_ONLY_TGA
// Zeroed allocations: stb's PNM reader ignores a short read, and must never hand back
// uninitialised heap memory as pixels.
#define STBI_MALLOC(size) std::calloc(1, size)
#define STBI_REALLOC(pointer, size) std::realloc(pointer, size)
#define STBI_FREE(pointer) std::free(pointer)
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace course {
namespace {

using namespace image_format;

// Turns `from`-channel pixels (1 gray, 2 gray + alpha, 3 RGB, 4 RGBA) into `to`-channel ones,
// alpha 255 where the file has none; frees `data` and returns a buffer stbi_image_free() frees.
unsigned char* expand_channels(unsigned char* data, int width, int height, int from, int to) {
  const std::size_t pixels = static_cast<std::size_t>(width) * height;
  auto* out = static_cast<unsigned char*>(std::calloc(pixels, static_cast<std::size_t>(to)));
  if (!out) {
    stbi_image_free(data);
    throw std::bad_alloc();
  }
  for (std::size_t i = 0; i < pixels; ++i) {
    const unsigned char* p = data + i * from;
    unsigned char* q = out + i * to;
    const bool gray = from < 3;
    const unsigned char alpha = (from == 2 || from == 4) ? p[from - 1] : 255;
    q[0] = p[0];
    if (to >= 3) {
      q[1] = gray ? p[0] : p[1];
      q[2] = gray ? p[0] : p[2];
    }
    if (to == 2 || to == 4) q[to - 1] = alpha;
  }
  stbi_image_free(data);
  return out;
}

struct StbFree {
  void operator()(unsigned char* p) const { stbi_image_free(p); }
};

// Loads with stb after checking, from the header alone, that the size is sane: a file that
// claims 100000 x 100000 pixels is refused before anything is allocated.
std::unique_ptr<unsigned char, StbFree> load_pixels(const std::filesystem::path& path, int wanted_channels,
                                                    int& width, int& height, int* file_channels = nullptr) {
  const std::string name = path.string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError("cannot open '" + name + "': no such file");
  if (std::filesystem::is_directory(path, ec))
    throw InputError("cannot open '" + name + "': it is a folder, not an image file");
  if (std::filesystem::file_size(path, ec) == 0 && !ec)
    throw InputError("cannot read '" + name + "': the file is empty");
  FILE* file = std::fopen(name.c_str(), "rb");
  if (!file) throw InputError("cannot open '" + name + "': permission denied or unreadable");
  std::unique_ptr<FILE, int (*)(FILE*)> guard(file, &std::fclose);
  std::array<unsigned char, 34> head{};
  const std::size_t head_bytes = std::fread(head.data(), 1, head.size(), file);
  std::fseek(file, 0, SEEK_SET);
  const std::string format = format_name(head);
  auto too_big = [&](std::int64_t w, std::int64_t h) {
    return InputError("cannot use '" + name + "': its header says " + std::to_string(w) + "x" + std::to_string(h) +
                      " pixels, more than the course's limit of " + std::to_string(kMaxImagePixels) + " pixels");
  };
  const auto size = static_cast<std::int64_t>(std::filesystem::file_size(path, ec));
  PnmHeader pnm;
  // The course, not the decoder, decides whether the file is whole (harness/image_format.hpp).
  const Damage damage = damage_before_decoding(path, file, head, head_bytes, size, kMaxImagePixels, pnm);
  if (damage.width || damage.height) throw too_big(damage.width, damage.height);
  if (!damage.reason.empty()) throw InputError("cannot read '" + name + "': " + damage.reason);
  int channels = 0;
  if (!stbi_info_from_file(file, &width, &height, &channels))
    throw InputError("cannot read '" + name + "': not an image the course can read (PNG, JPEG, BMP, PGM/PPM, TGA)"
                     " or a damaged file (" + stbi_failure_reason() + ")");
  if (width < 1 || height < 1 || static_cast<std::int64_t>(width) * height > kMaxImagePixels)
    throw too_big(width, height);
  const bool sixteen_bit_pnm = pnm.binary && pnm.largest > 255;
  if (const std::string missing = damage_after_header(path, head, size, width, height); !missing.empty())
    throw InputError("cannot read '" + name + "': " + missing);
  std::fseek(file, 0, SEEK_SET);
  int w = 0, h = 0;
  // stb 2.27 converts the channels of a 16-bit PNM with its 8-bit routine and then reads past
  // the end of the result: such files are loaded with their own channels and expanded here.
  unsigned char* data = stbi_load_from_file(file, &w, &h, &channels, sixteen_bit_pnm ? 0 : wanted_channels);
  if (!data) {
    // stb tries the formats in turn, so its reason can be a stale "Not a PNG" about a JPEG.
    const std::string reason = stbi_failure_reason() ? stbi_failure_reason() : "";
    throw InputError("cannot read '" + name + "': the " + format + " data is damaged or cut off" +
                     (reason.empty() || reason.rfind("Not a", 0) == 0 ? std::string() : " (" + reason + ")"));
  }
  if (sixteen_bit_pnm && channels != wanted_channels) data = expand_channels(data, w, h, channels, wanted_channels);
  width = w;
  height = h;
  if (file_channels) *file_channels = channels;
  return std::unique_ptr<unsigned char, StbFree>(data);
}

float luma(std::uint8_t r, std::uint8_t g, std::uint8_t b) { return 0.299f * r + 0.587f * g + 0.114f * b; }

void write_atomically(const std::filesystem::path& path, const std::vector<unsigned char>& bytes) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) throw InputError("cannot create the folder '" + path.parent_path().string() + "': " + ec.message());
  if (std::filesystem::is_directory(path, ec))
    throw InputError("cannot write '" + path.string() + "': it is a folder");
  const std::filesystem::path temp = path.string() + ".tmp-" + std::to_string(std::random_device{}() % 1000000);
  {
    std::ofstream out(temp, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      std::filesystem::remove(temp, ec);
      throw InputError("cannot write '" + path.string() + "': the folder is not writable or the disk is full");
    }
  }
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    throw InputError("cannot write '" + path.string() + "': " + ec.message());
  }
}

void append_bytes(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<unsigned char>*>(context);
  auto* bytes = static_cast<unsigned char*>(data);
  out->insert(out->end(), bytes, bytes + size);
}

}  // namespace

void save_png(const std::filesystem::path& path, int width, int height, int channels, const std::uint8_t* data) {
  std::vector<unsigned char> png;
  if (!stbi_write_png_to_func(&append_bytes, &png, width, height, channels, data, width * channels))
    throw InputError("cannot encode '" + path.string() + "' as PNG");
  write_atomically(path, png);
}

GrayImage load_gray(const std::filesystem::path& path) {
  int w = 0, h = 0, channels = 0;
  auto data = load_pixels(path, 3, w, h, &channels);
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
  auto data = load_pixels(path, 4, w, h);
  RgbaImage out{w, h, {}};
  out.pixels.assign(data.get(), data.get() + static_cast<std::size_t>(w) * h * 4);
  return out;
}

GrayImage to_gray(const RgbaImage& image) {
  GrayImage out{image.width, image.height, std::vector<float>(static_cast<std::size_t>(image.width) * image.height)};
  for (std::size_t i = 0; i < out.pixels.size(); ++i) {
    const std::uint8_t* p = image.pixels.data() + 4 * i;
    out.pixels[i] = luma(p[0], p[1], p[2]);
  }
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

GrayImage random_gray(int width, int height, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(0.0f, 255.0f);
  GrayImage out{width, height, std::vector<float>(static_cast<std::size_t>(width) * height)};
  for (auto& v : out.pixels) v = dist(rng);
  return out;
}

namespace {
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

GrayImage synthetic_gray(int width, int height) {
  GrayImage out{width, height, std::vector<float>(static_cast<std::size_t>(width) * height)};
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) out.pixels[static_cast<std::size_t>(y) * width + x] = std::round(pattern(x, y, width, height, 0));
  return out;
}

RgbaImage synthetic_rgba(int width, int height) {
  RgbaImage out{width, height, std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height * 4)};
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < 4; ++c)
        out.pixels[(static_cast<std::size_t>(y) * width + x) * 4 + c] =
            c == 3 ? 255 : static_cast<std::uint8_t>(std::lround(pattern(x, y, width, height, c)));
  return out;
}

}  // namespace course
