// Lesson 09's picture: where a few output pixels come from, each warp drawn over its input.
#pragma once

#include <string>
#include <vector>

#include "transform_reference.hpp"

namespace course {

/// One warp to draw: its name, its matrix (output pixel -> source position), its output size
/// and its input (any size: drawn at the output's size, as the lesson resizes it).
struct WarpPicture {
  std::string name;
  Transform matrix{};
  int width = 0, height = 0;
  RgbaImage input;
};

/// The SVG text: a panel per warp, its input with the output's grid lines carried back through
/// the matrix (where the output samples) and five output pixels (the corners and the centre)
/// marked at their source positions; what falls outside the input samples black.
std::string sources_svg(const std::vector<WarpPicture>& warps);

}  // namespace course
