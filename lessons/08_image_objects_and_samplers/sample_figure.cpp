#include "sample_figure.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include "svg_figure.hpp"

namespace course {

std::string samples_svg(int group_w, int group_h, int radius) {
  const int tile_w = group_w + 2 * radius, tile_h = group_h + 2 * radius, group = group_w * group_h;
  const int taps = (2 * radius + 1) * (2 * radius + 1), half_h = (tile_h + 1) / 2;
  const bool halves = tile_w * half_h <= group;
  const int cell = std::clamp(340 / tile_w, 10, 34), panel_w = std::max(tile_w * cell + 40, 400);
  const int panel_h = tile_h * cell + 64, top = 56;
  const bool labels = cell >= 30;
  // Who samples tile pixel (tx, ty) into the tile, for each scheme: a flat work-item id, -1 for none.
  std::vector<int> one(tile_w * tile_h, 0), half(tile_w * tile_h, -1), cooperative(tile_w * tile_h);
  for (int t = 0; t < tile_w * tile_h; ++t) {
    cooperative[t] = t % group;  // for (t = flat; t < TILE_W * TILE_H; t += GROUP_W * GROUP_H)
    const int tx = t % tile_w, ty = t / tile_w;
    if (halves) half[t] = (ty < half_h ? ty : ty - half_h) * tile_w + tx;  // flat = ty * TILE_W + tx, and HALF_H below
  }
  std::ostringstream svg;
  const int width = 20 + 2 * panel_w, height = top + 2 * panel_h + 70;
  svg << svg_opening(width, height,
                     "One " + std::to_string(group_w) + "x" + std::to_string(group_h) + " work-group over its " +
                         std::to_string(tile_w) + "x" + std::to_string(tile_h) + " tile: who samples which pixel")
      << "<text x=\"20\" y=\"40\" font-size=\"12\" fill=\"#555\">" << taps * group << " samples when every work-item "
      << "reads its own " << taps << ", against " << tile_w * tile_h
      << " when the group samples its tile once</text>\n";
  auto panel = [&](int k, const std::string& title, const std::string& note, auto&& fill, auto&& label, auto&& dark) {
    const int x0 = 20 + (k % 2) * panel_w, y0 = top + (k / 2) * panel_h + 20;
    svg << "<text x=\"" << x0 << "\" y=\"" << y0 << "\" font-weight=\"bold\">" << svg_escaped(title)
        << "</text><text x=\"" << x0 << "\" y=\"" << y0 + 16 << "\" font-size=\"11\" fill=\"#555\">"
        << svg_escaped(note) << "</text>\n";
    for (int ty = 0; ty < tile_h; ++ty)
      for (int tx = 0; tx < tile_w; ++tx) {
        const int x = x0 + tx * cell, y = y0 + 26 + ty * cell;
        svg << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << cell - 1 << "\" height=\"" << cell - 1
            << "\" fill=\"" << fill(tx, ty) << "\"/>";
        if (labels)
          svg << "<text x=\"" << x + cell / 2 << "\" y=\"" << y + cell / 2 + 4
              << "\" font-size=\"10\" text-anchor=\"middle\"" << (dark(tx, ty) ? " fill=\"#fff\"" : "") << ">"
              << label(tx, ty) << "</text>";
        svg << "\n";
      }
    // The group's own outputs: the tile less its halo.
    svg << "<rect x=\"" << x0 + radius * cell - 1 << "\" y=\"" << y0 + 26 + radius * cell - 1 << "\" width=\""
        << group_w * cell + 1 << "\" height=\"" << group_h * cell + 1
        << "\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>\n";
  };
  auto id_colour = [&](int flat) {
    return flat < 0 ? std::string("#eee") : svg_work_item_colour(flat % group_w, flat / group_w, group_w, group_h);
  };
  auto id_label = [&](int flat) {
    return flat < 0 ? std::string() : std::to_string(flat % group_w) + "," + std::to_string(flat / group_w);
  };
  auto dark_id = [&](int flat) {
    return flat >= 0 && 2 * (flat / group_w) < group_h;
  };  // svg_work_item_colour's darker half
  // Direct: how many of the group's windows cover each pixel.
  auto covered = [&](int tx, int ty) {
    const int across = std::min(tx, group_w - 1) - std::max(tx - 2 * radius, 0) + 1;
    const int down = std::min(ty, group_h - 1) - std::max(ty - 2 * radius, 0) + 1;
    return across * down;
  };
  panel(
      0, "image, direct: " + std::to_string(taps * group) + " samples",
      "each pixel: how many work-items sample it (darker: more)",
      [&](int tx, int ty) { return "hsl(210,60%," + std::to_string(92 - 50 * covered(tx, ty) / taps) + "%)"; },
      [&](int tx, int ty) { return std::to_string(covered(tx, ty)); },
      [&](int tx, int ty) { return 2 * covered(tx, ty) > taps; });
  panel(
      1, "image, tile by one item: " + std::to_string(tile_w * tile_h) + " samples",
      "work-item 0,0 samples them all while the others wait",
      [&](int tx, int ty) { return id_colour(one[ty * tile_w + tx]); },
      [&](int tx, int ty) { return id_label(one[ty * tile_w + tx]); },
      [&](int tx, int ty) { return dark_id(one[ty * tile_w + tx]); });
  if (halves)
    panel(
        2, "image, tile in two halves: " + std::to_string(tile_w * tile_h) + " samples",
        std::to_string(tile_w * half_h) + " work-items sample a pixel of the top half and the one " +
            std::to_string(half_h) + " rows below",
        [&](int tx, int ty) { return id_colour(half[ty * tile_w + tx]); },
        [&](int tx, int ty) { return id_label(half[ty * tile_w + tx]); },
        [&](int tx, int ty) { return dark_id(half[ty * tile_w + tx]); });
  panel(
      halves ? 3 : 2, "image, cooperative tile: " + std::to_string(tile_w * tile_h) + " samples",
      "work-item n samples pixels n, n + " + std::to_string(group) + ", ... of the tile, row by row",
      [&](int tx, int ty) { return id_colour(cooperative[ty * tile_w + tx]); },
      [&](int tx, int ty) { return id_label(cooperative[ty * tile_w + tx]); },
      [&](int tx, int ty) { return dark_id(cooperative[ty * tile_w + tx]); });
  const int y = height - 38;
  svg << "<rect x=\"20\" y=\"" << y - 11
      << "\" width=\"14\" height=\"14\" fill=\"none\" stroke=\"#000\" "
         "stroke-width=\"2\" stroke-dasharray=\"4 3\"/><text x=\"42\" y=\""
      << y << "\" font-size=\"12\">the group's " << group_w << "x" << group_h
      << " outputs; the rest of the tile is its halo</text>\n<text x=\"20\" y=\"" << y + 18
      << "\" font-size=\"12\">a label lx,ly: the work-item that samples the pixel into the tile (colour: "
         "hue by lx, lightness by ly)</text>\n</svg>\n";
  return svg.str();
}

}  // namespace course
