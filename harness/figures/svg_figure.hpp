/// @file svg_figure.hpp
/// @brief What the course's pictures share: an SVG document's opening, a legend entry, text made
/// safe for XML, and a file written whole or not at all. Each figure draws its own shapes.
#pragma once

#include <filesystem>
#include <string>

#include "image.hpp"

namespace course {

/// @brief `text` with &, <, > and " written as XML entities, for a title, a label or an attribute.
std::string svg_escaped(const std::string& text);

/// @brief The opening of an SVG document `width` x `height` (sans-serif, 13 px), a white page,
/// and `title` (escaped) at the top left.
std::string svg_opening(int width, int height, const std::string& title);

/// @brief A legend entry: a 12 px square of `colour` whose baseline is `y`, then `text` (escaped).
std::string svg_legend_entry(int x, int y, const std::string& colour, const std::string& text);

/// @brief The colour of work-item (lx, ly) of a w x h group: the hue follows lx, the lightness ly,
/// so neighbours differ and one work-item's cells share a colour across a figure.
std::string svg_work_item_colour(int lx, int ly, int w, int h);

/// @brief An <image> element showing `picture` in the box (x, y, w, h), the picture embedded as
/// a PNG (base64), so the SVG stays one file that a web page can show as it is.
std::string svg_embedded_picture(double x, double y, double w, double h, const RgbaImage& picture);

/// @brief Writes `text` to `path` through a temporary file renamed when complete, creating
/// missing folders, so a failed write leaves no half picture. Throws InputError when it cannot.
void save_svg_file(const std::filesystem::path& path, const std::string& text);

}  // namespace course
