#include "diff_picture.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include "image.hpp"

namespace course {
namespace {

// A 5x7 bitmap font with the letters of the three labels, one row per byte (bit 4 = left).
const std::array<std::uint8_t, 7>& glyph(char c) {
  static const std::array<std::uint8_t, 7> blank{}, G{14, 17, 16, 23, 17, 17, 15}, O{14, 17, 17, 17, 17, 17, 14},
      T{31, 4, 4, 4, 4, 4, 4}, E{31, 16, 16, 30, 16, 16, 31}, X{17, 17, 10, 4, 10, 17, 17},
      P{30, 17, 17, 30, 16, 16, 16}, C{14, 17, 16, 16, 16, 17, 14}, D{30, 17, 17, 17, 17, 17, 30},
      I{14, 4, 4, 4, 4, 4, 14}, F{31, 16, 16, 30, 16, 16, 16}, R{30, 17, 17, 30, 20, 18, 17},
      N{17, 25, 21, 19, 17, 17, 17};
  switch (c) {
    case 'G':
      return G;
    case 'O':
      return O;
    case 'T':
      return T;
    case 'E':
      return E;
    case 'X':
      return X;
    case 'P':
      return P;
    case 'C':
      return C;
    case 'D':
      return D;
    case 'I':
      return I;
    case 'F':
      return F;
    case 'R':
      return R;
    case 'N':
      return N;
    default:
      return blank;
  }
}

struct Canvas {
  int width, height;
  std::vector<std::uint8_t> rgba;
  void set(int x, int y, std::array<std::uint8_t, 3> c) {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    std::uint8_t* p = &rgba[(static_cast<std::size_t>(y) * width + x) * 4];
    p[0] = c[0], p[1] = c[1], p[2] = c[2], p[3] = 255;
  }
  // Text in white, each font pixel `size` x `size` screen pixels.
  void text(int x, int y, const std::string& s, int size) {
    for (std::size_t k = 0; k < s.size(); ++k)
      for (int row = 0; row < 7; ++row)
        for (int col = 0; col < 5; ++col)
          if (glyph(s[k])[row] & (16 >> col))
            for (int dy = 0; dy < size; ++dy)
              for (int dx = 0; dx < size; ++dx)
                set(x + static_cast<int>(k) * 6 * size + col * size + dx, y + row * size + dy, {255, 255, 255});
  }
};

constexpr int kGap = 8;

}  // namespace

int diff_picture_scale(int width, int height) {
  const int short_side = std::max(1, std::min(width, height)), long_side = std::max(1, std::max(width, height));
  const int wanted = (256 + short_side - 1) / short_side;
  return std::max(1, std::min(wanted, 2048 / long_side));
}

void save_diff_picture(const std::filesystem::path& path, const std::vector<float>& got,
                       const std::vector<float>& expected, int width, int height, double tolerance, int channels) {
  const int scale = diff_picture_scale(width, height);
  const std::size_t pixels = static_cast<std::size_t>(width) * height;
  // The expected image's range: both images are shown on it, so that a wrong brightness shows.
  float lo = 0, hi = 0;
  bool first = true;
  for (std::size_t i = 0; i < pixels * channels; ++i)
    if (std::isfinite(expected[i])) {
      lo = first ? expected[i] : std::min(lo, expected[i]);
      hi = first ? expected[i] : std::max(hi, expected[i]);
      first = false;
    }
  if (hi - lo < 1e-6f) hi = lo + 1;
  const float span = hi - lo;
  auto shade = [&](const std::vector<float>& image, std::size_t p) -> std::array<std::uint8_t, 3> {
    std::array<std::uint8_t, 3> c{};
    for (int k = 0; k < 3; ++k) {
      const float v = image[p * channels + std::min(k, channels - 1)];
      if (std::isnan(v)) return {255, 0, 255};
      if (v < lo - 4 * span || v > hi + 4 * span) return {0, 255, 255};
      c[k] = static_cast<std::uint8_t>(std::clamp((v - lo) / span, 0.0f, 1.0f) * 255.0f + 0.5f);
    }
    return c;
  };
  const double red_at = 4 * std::max(tolerance, 1e-6);
  auto difference = [&](std::size_t p) -> std::array<std::uint8_t, 3> {
    double worst = 0;
    bool nan = false;
    for (int k = 0; k < channels; ++k) {
      const double g = got[p * channels + k], e = expected[p * channels + k];
      if (std::isnan(g) != std::isnan(e)) nan = true;
      if (!std::isnan(g) && !std::isnan(e)) worst = std::max(worst, std::fabs(g - e));
    }
    if (nan) return {255, 0, 255};
    if (worst <= tolerance) return {0, 0, 0};
    const double t = std::min(1.0, worst / red_at);
    return {static_cast<std::uint8_t>(96 + 159 * t), 0, 0};
  };

  const int panel_w = width * scale, panel_h = height * scale;
  const int label = std::max(1, std::min(3, panel_w / 70));  // font size: DIFFERENCE must fit a panel
  const int top = 7 * label + 2 * kGap;
  Canvas canvas{3 * panel_w + 4 * kGap, panel_h + top + kGap, {}};
  canvas.rgba.assign(static_cast<std::size_t>(canvas.width) * canvas.height * 4, 0);
  for (std::size_t i = 0; i < canvas.rgba.size(); i += 4)
    canvas.rgba[i] = canvas.rgba[i + 1] = canvas.rgba[i + 2] = 48, canvas.rgba[i + 3] = 255;
  const char* names[] = {"GOT", "EXPECTED", "DIFFERENCE"};
  for (int panel = 0; panel < 3; ++panel) {
    const int x0 = kGap + panel * (panel_w + kGap);
    canvas.text(x0, kGap, names[panel], label);
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        const std::size_t p = static_cast<std::size_t>(y) * width + x;
        const auto c = panel == 0 ? shade(got, p) : panel == 1 ? shade(expected, p) : difference(p);
        for (int dy = 0; dy < scale; ++dy)
          for (int dx = 0; dx < scale; ++dx) canvas.set(x0 + x * scale + dx, top + y * scale + dy, c);
      }
  }
  save_png(path, RgbaImage{canvas.width, canvas.height, std::move(canvas.rgba)});
}

}  // namespace course
