// Lesson 08's picture: one work-group over its tile, which work-item samples which pixel of the
// input in each of the image variants' loading schemes, and how many samples each costs.
#pragma once

#include <string>

namespace course {

/// The SVG text: four panels of the group_w x group_h group's (group_w + 2r) x (group_h + 2r)
/// tile. Direct: each pixel with the number of the group's work-items that sample it (the
/// group's taps x work-items in all). One loader, two halves, cooperative: each pixel in the
/// colour of the work-item that samples it into the tile (image_blur.cl, cooperative_tile.cl),
/// labelled with its local id; the halves only where the group has a work-item per pixel of
/// the tile's top half.
std::string samples_svg(int group_w, int group_h, int radius);

}  // namespace course
