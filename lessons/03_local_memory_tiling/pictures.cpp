// Lesson 03's picture: the work-groups over the image, with one group's tile shown.
#include <algorithm>
#include <cstdint>

#include "course.hpp"

// The image in gray with the work-group grid in blue; for one group near the centre, its output
// block tinted green and the halo around it, which the group also copies into its tile, orange.
course::RgbaImage draw_tiles(const course::GrayImage& image, std::size_t local_x, std::size_t local_y, int radius) {
  const int w = image.width, h = image.height;
  course::RgbaImage picture{w, h, std::vector<std::uint8_t>(static_cast<std::size_t>(w) * h * 4, 255)};
  const int group_x = static_cast<int>((w / 2) / local_x) * static_cast<int>(local_x);
  const int group_y = static_cast<int>((h / 2) / local_y) * static_cast<int>(local_y);
  const int block_right = group_x + static_cast<int>(local_x), block_bottom = group_y + static_cast<int>(local_y);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint8_t* p = &picture.pixels[(static_cast<std::size_t>(y) * w + x) * 4];
      const float g = std::clamp(image.at(x, y), 0.0f, 255.0f);
      const bool in_block = x >= group_x && x < block_right && y >= group_y && y < block_bottom;
      const bool in_tile =
          x >= group_x - radius && x < block_right + radius && y >= group_y - radius && y < block_bottom + radius;
      float r = g, gr = g, b = g;
      if (in_block)
        r = 0.4f * g, gr = 0.4f * g + 150, b = 0.4f * g;
      else if (in_tile)
        r = 0.4f * g + 150, gr = 0.4f * g + 90, b = 0.4f * g;
      else if (x % local_x == 0 || y % local_y == 0)
        r = 40, gr = 90, b = 255;
      p[0] = static_cast<std::uint8_t>(r), p[1] = static_cast<std::uint8_t>(gr), p[2] = static_cast<std::uint8_t>(b);
    }
  return picture;
}
