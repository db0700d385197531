// Lesson 03's pictures: the work-groups over the image, with one group's tile shown; and who
// copies which value of a tile in the four-load scheme.
#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>

#include "course.hpp"
#include "svg_figure.hpp"

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

// The four-load scheme over the image's first work-group (its top-left corner): the (W + 2R) x
// (H + 2R) tile, each cell in the colour of the work-item that copies it and labelled with its
// local id; the four loads' regions outlined (tiled_convolution.cl's tile[ly][lx], [ly][lx + W],
// [ly + H][lx], [ly + H][lx + W]); the group's own outputs dashed; the cells whose pixel lies
// outside the image hatched: their load is clamped to the nearest edge pixel.
std::string draw_four_loads_svg(int group_w, int group_h, int radius, int image_w, int image_h) {
  const int tile_w = group_w + 2 * radius, tile_h = group_h + 2 * radius;
  const int cell = tile_w > 40 || tile_h > 40 ? 12 : 30, left = 40, top = 78;
  const bool labels = cell >= 30;
  const int width = std::max(left + tile_w * cell + 40, 760), height = top + tile_h * cell + 124;
  const int loads[4] = {group_w * group_h, 2 * radius * group_h, group_w * 2 * radius, 4 * radius * radius};
  std::ostringstream svg;
  svg << course::svg_opening(width, height,
                             "The four-load scheme: who copies each value of a " + std::to_string(group_w) + "x" +
                                 std::to_string(group_h) + " group's tile, radius " + std::to_string(radius))
      << "<text x=\"20\" y=\"42\" font-size=\"12\" fill=\"#555\">tile " << tile_w << "x" << tile_h << " = "
      << tile_w * tile_h << " values: " << loads[0] << " + " << loads[1] << " + " << loads[2] << " + " << loads[3]
      << " loads</text>\n<text x=\"20\" y=\"58\" font-size=\"12\" fill=\"#555\">the image's first work-group: "
         "its tile starts "
      << radius << " pixels above and left of the image</text>\n"
      << "<defs><pattern id=\"clamped\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
         "patternTransform=\"rotate(45)\"><rect width=\"2\" height=\"6\" fill=\"#000\" "
         "fill-opacity=\"0.45\"/></pattern></defs>\n";
  for (int ty = 0; ty < tile_h; ++ty)
    for (int tx = 0; tx < tile_w; ++tx) {
      // The work-item that copies this cell, as the kernel's four stores place it.
      const int lx = tx < group_w ? tx : tx - group_w, ly = ty < group_h ? ty : ty - group_h;
      const int x = left + tx * cell, y = top + ty * cell;
      svg << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << cell - 1 << "\" height=\"" << cell - 1
          << "\" fill=\"" << course::svg_work_item_colour(lx, ly, group_w, group_h) << "\"/>";
      const int gx = tx - radius, gy = ty - radius;  // the pixel, before clamping
      if (gx < 0 || gy < 0 || gx >= image_w || gy >= image_h)
        svg << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << cell - 1 << "\" height=\"" << cell - 1
            << "\" fill=\"url(#clamped)\"/>";
      if (labels)
        svg << "<text x=\"" << x + cell / 2 << "\" y=\"" << y + cell / 2 + 3
            << "\" font-size=\"9\" text-anchor=\"middle\"" << (ly * 2 < group_h ? " fill=\"#fff\"" : "") << ">" << lx
            << "," << ly << "</text>";
      svg << "\n";
    }
  // The four loads' regions, and the outputs the group computes.
  const char* region_colour[4] = {"#000000", "#D55E00", "#0072B2", "#009E73"};
  const int region[4][4] = {{0, 0, group_w, group_h},
                            {group_w, 0, 2 * radius, group_h},
                            {0, group_h, group_w, 2 * radius},
                            {group_w, group_h, 2 * radius, 2 * radius}};
  for (int k = 0; k < 4; ++k)
    svg << "<rect x=\"" << left + region[k][0] * cell - 1 << "\" y=\"" << top + region[k][1] * cell - 1 << "\" width=\""
        << region[k][2] * cell + 1 << "\" height=\"" << region[k][3] * cell + 1 << "\" fill=\"none\" stroke=\""
        << region_colour[k] << "\" stroke-width=\"3\"/>\n";
  for (const char* stroke :
       {"stroke=\"#fff\" stroke-width=\"5\"", "stroke=\"#000\" stroke-width=\"2\" stroke-dasharray=\"7 5\""})
    svg << "<rect x=\"" << left + radius * cell - 1 << "\" y=\"" << top + radius * cell - 1 << "\" width=\""
        << group_w * cell + 1 << "\" height=\"" << group_h * cell + 1 << "\" fill=\"none\" " << stroke << "/>\n";
  // The legend: the four stores as the kernel writes them, the outputs, the clamped cells.
  const std::string texts[4] = {"load 1, every work-item: tile[ly][lx]", "load 2, if lx < 2R: tile[ly][lx + W]",
                                "load 3, if ly < 2R: tile[ly + H][lx]", "load 4, if both: tile[ly + H][lx + W]"};
  int y = top + tile_h * cell + 28;
  for (int k = 0; k < 4; ++k) {
    const int x = 20 + (k % 2) * 370, row = y + (k / 2) * 22;
    svg << "<rect x=\"" << x << "\" y=\"" << row - 11 << "\" width=\"14\" height=\"14\" fill=\"none\" stroke=\""
        << region_colour[k] << "\" stroke-width=\"3\"/><text x=\"" << x + 22 << "\" y=\"" << row
        << "\" font-size=\"12\">" << course::svg_escaped(texts[k]) << " (" << loads[k] << " values)</text>\n";
  }
  y += 44;
  svg << "<rect x=\"20\" y=\"" << y - 11 << "\" width=\"14\" height=\"14\" fill=\"#999\"/><rect x=\"20\" y=\"" << y - 11
      << "\" width=\"14\" height=\"14\" fill=\"url(#clamped)\"/><text x=\"42\" y=\"" << y
      << "\" font-size=\"12\">outside the image: the load is clamped to the nearest edge pixel</text>\n"
      << "<rect x=\"490\" y=\"" << y - 11
      << "\" width=\"14\" height=\"14\" fill=\"#fff\" stroke=\"#000\" "
         "stroke-width=\"2\" stroke-dasharray=\"4 3\"/><text x=\"512\" y=\""
      << y << "\" font-size=\"12\">the group's " << group_w << "x" << group_h << " outputs</text>\n"
      << "<text x=\"20\" y=\"" << y + 24
      << "\" font-size=\"12\" fill=\"#555\">each cell: the local id lx,ly of the work-item that copies it, in that "
         "work-item's colour (hue: lx, lightness: ly)</text>\n</svg>\n";
  return svg.str();
}
