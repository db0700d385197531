#include "warp_image_io.hpp"

#include <stb_image.h>
#include <stb_image_write.h>

#include <fstream>
#include <random>
#include <string>
#include <system_error>
#include <vector>

#include "errors.hpp"

namespace course {
namespace {

void append_png_bytes(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<unsigned char>*>(context);
  auto* bytes = static_cast<unsigned char*>(data);
  out->insert(out->end(), bytes, bytes + size);
}

}  // namespace

int image_file_channels(const std::filesystem::path& path) {
  int width = 0, height = 0, channels = 0;
  if (!stbi_info(path.string().c_str(), &width, &height, &channels) || channels < 1 || channels > 4)
    throw InputError("cannot read '" + path.string() + "' as an image");
  return channels;
}

void save_png_channels(const std::filesystem::path& path, const RgbaImage& image, int channels) {
  if (channels < 1 || channels > 4) throw InputError("a PNG holds 1 to 4 channels, not " + std::to_string(channels));
  static const int kept[4][4] = {{0}, {0, 3}, {0, 1, 2}, {0, 1, 2, 3}};
  const std::size_t pixels = static_cast<std::size_t>(image.width) * image.height;
  std::vector<unsigned char> packed(pixels * channels);
  for (std::size_t i = 0; i < pixels; ++i)
    for (int c = 0; c < channels; ++c) packed[i * channels + c] = image.pixels[i * 4 + kept[channels - 1][c]];
  std::vector<unsigned char> png;
  if (!stbi_write_png_to_func(&append_png_bytes, &png, image.width, image.height, channels, packed.data(),
                              image.width * channels))
    throw InputError("cannot encode '" + path.string() + "' as PNG");
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) throw InputError("cannot create the folder '" + path.parent_path().string() + "': " + ec.message());
  if (std::filesystem::is_directory(path, ec)) throw InputError("cannot write '" + path.string() + "': it is a folder");
  const std::filesystem::path temp = path.string() + ".tmp-" + std::to_string(std::random_device{}() % 1000000);
  {
    std::ofstream out(temp, std::ios::binary);
    out.write(reinterpret_cast<const char*>(png.data()), static_cast<std::streamsize>(png.size()));
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

}  // namespace course
