#include "warp_figure.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "errors.hpp"

namespace course {
namespace {

// A 128-byte line is 32 floats in 4 sectors of 8: one cell per float, a gap between sectors.
constexpr int kCell = 9, kSectorGap = 4, kRowHeight = 16, kRowGap = 5, kRowsShown = 8;
constexpr int kLabel = 64, kPanelWidth = kLabel + 32 * kCell + 3 * kSectorGap + 40, kTop = 74;
const char* const kRead = "#0072B2";   // Okabe-Ito blue
const char* const kAsked = "#F5C58A";  // a light orange
const char* const kIdle = "#F2F2F2";

std::string plural(long n, const std::string& word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

void draw_panel(std::ostringstream& svg, const WarpLoad& load, int x0, int rows_height) {
  std::map<long, std::set<int>> lines;  // line -> the floats of it the warp reads (0..31)
  std::set<long> sectors;
  for (const int a : load.addresses) {
    lines[a / 32].insert(a % 32);
    sectors.insert(a / 8);
  }
  svg << "<text x=\"" << x0 << "\" y=\"" << kTop - 26 << "\" font-weight=\"bold\">" << load.variant << "</text>\n";
  svg << "<text x=\"" << x0 << "\" y=\"" << kTop - 10 << "\" font-size=\"11\" fill=\"#555\">" << load.kernel << "</text>\n";
  int row = 0;
  const long first_line = lines.empty() ? 0 : lines.begin()->first;
  for (const auto& [line, floats] : lines) {
    if (row == kRowsShown) {
      svg << "<text x=\"" << x0 << "\" y=\"" << kTop + row * (kRowHeight + kRowGap) + 12 << "\" font-size=\"11\">... "
          << plural(static_cast<long>(lines.size()) - kRowsShown, "more line") << " like these</text>\n";
      break;
    }
    const int y = kTop + row * (kRowHeight + kRowGap);
    // Each line labelled with its distance from the first, in bytes: an image row apart, or the next line.
    svg << "<text x=\"" << x0 + kLabel - 6 << "\" y=\"" << y + 12 << "\" font-size=\"11\" text-anchor=\"end\">+"
        << (line - first_line) * 128 << " B</text>\n";
    for (int f = 0; f < 32; ++f) {
      const int x = x0 + kLabel + f * kCell + (f / 8) * kSectorGap;
      const bool read = floats.count(f) > 0;
      const bool asked = sectors.count(line * 4 + f / 8) > 0;
      svg << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << kCell - 1 << "\" height=\"" << kRowHeight
          << "\" fill=\"" << (read ? kRead : asked ? kAsked : kIdle) << "\"/>\n";
    }
    ++row;
  }
  const int y = kTop + rows_height + 18;
  svg << "<text x=\"" << x0 << "\" y=\"" << y << "\" font-size=\"12\">" << plural(static_cast<long>(load.addresses.size()), "float")
      << " read: " << plural(static_cast<long>(sectors.size()), "sector") << " of 32 B in "
      << plural(static_cast<long>(lines.size()), "line") << " of 128 B</text>\n";
}

}  // namespace

std::string warp_loads_svg(const std::vector<WarpLoad>& loads) {
  std::size_t most_lines = 1;
  for (const auto& load : loads) {
    std::set<long> lines;
    for (const int a : load.addresses) lines.insert(a / 32);
    most_lines = std::max(most_lines, std::min<std::size_t>(lines.size(), kRowsShown + 1));
  }
  const int rows_height = static_cast<int>(most_lines) * (kRowHeight + kRowGap);
  const int width = 20 + static_cast<int>(loads.size()) * kPanelWidth, height = kTop + rows_height + 70;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height << "\" viewBox=\"0 0 "
      << width << " " << height << "\" font-family=\"sans-serif\" font-size=\"13\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"20\" y=\"22\" font-size=\"15\">One warp-wide load of each column pass: where its 32 floats lie in "
         "32-byte sectors and 128-byte lines</text>\n";
  for (std::size_t i = 0; i < loads.size(); ++i) draw_panel(svg, loads[i], 20 + static_cast<int>(i) * kPanelWidth, rows_height);
  const int y = height - 22;
  svg << "<rect x=\"20\" y=\"" << y - 10 << "\" width=\"12\" height=\"12\" fill=\"" << kRead << "\"/>"
      << "<text x=\"38\" y=\"" << y << "\" font-size=\"12\">a float the warp reads</text>\n"
      << "<rect x=\"200\" y=\"" << y - 10 << "\" width=\"12\" height=\"12\" fill=\"" << kAsked << "\"/>"
      << "<text x=\"218\" y=\"" << y << "\" font-size=\"12\">the rest of a sector it asks for (moved, not used)</text>\n"
      << "<text x=\"560\" y=\"" << y << "\" font-size=\"12\">each row: one 128-byte line (its distance from the first), its 4 sectors of 8 floats</text>\n"
      << "</svg>\n";
  return svg.str();
}

void save_warp_loads_svg(const std::filesystem::path& path, const std::vector<WarpLoad>& loads) {
  const std::string text = warp_loads_svg(loads);
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  const auto partial = std::filesystem::path(path.string() + ".partial");
  bool written = false;
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    written = static_cast<bool>(out << text) && static_cast<bool>(out.flush());
  }
  if (written) std::filesystem::rename(partial, path, ec);
  if (!written || ec) {
    std::filesystem::remove(partial, ec);
    throw InputError("cannot write the picture '" + path.string() + "'");
  }
}

}  // namespace course
