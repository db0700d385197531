#include "png_channels.hpp"

#include <string>
#include <vector>

#include "errors.hpp"

namespace course {

void save_png_channels(const std::filesystem::path& path, const RgbaImage& image, int channels) {
  if (channels < 1 || channels > 4) throw InputError("a PNG holds 1 to 4 channels, not " + std::to_string(channels));
  static const int kept[4][4] = {{0}, {0, 3}, {0, 1, 2}, {0, 1, 2, 3}};
  const std::size_t pixels = static_cast<std::size_t>(image.width) * image.height;
  std::vector<unsigned char> packed(pixels * channels);
  for (std::size_t i = 0; i < pixels; ++i)
    for (int c = 0; c < channels; ++c) packed[i * channels + c] = image.pixels[i * 4 + kept[channels - 1][c]];
  save_png(path, image.width, image.height, channels, packed.data());
}

}  // namespace course
