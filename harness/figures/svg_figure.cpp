#include "svg_figure.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

#include "errors.hpp"
#include "png_encoder.hpp"

namespace course {

std::string svg_escaped(const std::string& text) {
  std::string out;
  for (const char c : text)
    out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : c == '"' ? "&quot;" : std::string(1, c);
  return out;
}

std::string svg_opening(int width, int height, const std::string& title) {
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << " " << height << "\" font-family=\"sans-serif\" font-size=\"13\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"20\" y=\"22\" font-size=\"15\">" << svg_escaped(title) << "</text>\n";
  return svg.str();
}

std::string svg_legend_entry(int x, int y, const std::string& colour, const std::string& text) {
  std::ostringstream svg;
  svg << "<rect x=\"" << x << "\" y=\"" << y - 10 << "\" width=\"12\" height=\"12\" fill=\"" << colour << "\"/>"
      << "<text x=\"" << x + 18 << "\" y=\"" << y << "\" font-size=\"12\">" << svg_escaped(text) << "</text>\n";
  return svg.str();
}

std::string svg_work_item_colour(int lx, int ly, int w, int h) {
  const int hue = 360 * lx / std::max(w, 1), lightness = 42 + 40 * ly / std::max(h, 1);
  return "hsl(" + std::to_string(hue) + ",70%," + std::to_string(lightness) + "%)";
}

std::string svg_embedded_picture(double x, double y, double w, double h, const RgbaImage& picture) {
  image_format::PngEncoder png(picture.width, picture.height, 4, picture.pixels.data());
  for (int band = 0; band < png.bands(); ++band) png.encode(band);
  const std::vector<unsigned char> bytes = png.file();
  static const char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string base64;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const unsigned n =
        bytes[i] << 16 | (i + 1 < bytes.size() ? bytes[i + 1] << 8 : 0) | (i + 2 < bytes.size() ? bytes[i + 2] : 0);
    base64 += kDigits[n >> 18 & 63];
    base64 += kDigits[n >> 12 & 63];
    base64 += i + 1 < bytes.size() ? kDigits[n >> 6 & 63] : '=';
    base64 += i + 2 < bytes.size() ? kDigits[n & 63] : '=';
  }
  std::ostringstream svg;
  svg << "<image x=\"" << x << "\" y=\"" << y << "\" width=\"" << w << "\" height=\"" << h
      << "\" preserveAspectRatio=\"none\" href=\"data:image/png;base64," << base64 << "\"/>\n";
  return svg.str();
}

void save_svg_file(const std::filesystem::path& path, const std::string& text) {
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
