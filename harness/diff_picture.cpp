#include "diff_picture.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

namespace course {
namespace {

// Whether `got` equals `expected` within the tolerance (relative slack too: float sums round).
bool close(double got, double expected, double tolerance) {
  return std::isfinite(got) && std::isfinite(expected) &&
         std::fabs(got - expected) <= tolerance + 1e-6 + 1e-5 * std::fabs(expected);
}

// A number as a report prints it: at most four significant digits.
std::string short_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

// "x", "x + 3", "x - 3".
std::string coordinate(const char* name, int offset) {
  if (offset == 0) return name;
  return std::string(name) + (offset > 0 ? " + " : " - ") + std::to_string(std::abs(offset));
}

// How well `got` matches the expected picture read at partner(x, y): pixels compared (those whose
// partner lies in the picture, `got` finite), matched, and the same for the wrong ones (those that
// differ from the expected pixel at their own place).
struct MoveFit {
  std::size_t compared = 0, matched = 0, wrong = 0, wrong_matched = 0, nan = 0;
  bool holds(std::size_t valid) const {
    return compared >= 4 && 4 * compared >= valid && 10 * matched >= 9 * compared && wrong >= 2 &&
           10 * wrong_matched >= 9 * wrong;
  }
};

template <class Partner>
MoveFit fit_move(const std::vector<float>& got, const std::vector<float>& expected, int width, int height,
                 int channels, double tolerance, std::size_t valid, Partner partner) {
  MoveFit f;
  const auto same = [&](std::size_t p, std::size_t q) {
    for (int c = 0; c < channels; ++c)
      if (!close(got[p * channels + c], expected[q * channels + c], tolerance)) return false;
    return true;
  };
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const std::size_t p = static_cast<std::size_t>(y) * width + x;
      bool finite = true;
      for (int c = 0; c < channels; ++c) finite = finite && std::isfinite(got[p * channels + c]);
      if (!finite) {
        ++f.nan;
        continue;
      }
      int px = 0, py = 0;
      if (!partner(x, y, px, py) || px < 0 || py < 0 || px >= width || py >= height) continue;
      const std::size_t q = static_cast<std::size_t>(py) * width + px;
      const bool right_here = same(p, p), moved = same(p, q);
      ++f.compared, f.matched += moved;
      if (!right_here) ++f.wrong, f.wrong_matched += moved;
      if (f.compared - f.matched > valid / 10 + 1) return f;  // cannot hold: stop early
    }
  return f;
}

}  // namespace

std::string moved_picture(const std::vector<float>& got, const std::vector<float>& expected, int width, int height,
                          int channels, double tolerance, int max_shift) {
  const std::size_t pixels = static_cast<std::size_t>(width) * height;
  if (got.size() < pixels * channels || expected.size() < pixels * channels) return "";
  std::size_t valid = 0;
  for (std::size_t p = 0; p < pixels; ++p) {
    bool finite = true;
    for (int c = 0; c < channels; ++c) finite = finite && std::isfinite(got[p * channels + c]);
    valid += finite;
  }
  const auto evidence = [](const MoveFit& f, const std::string& at) {
    return ": output (x, y) holds the right value of " + at + " at " + std::to_string(f.matched) + " of the " +
           std::to_string(f.compared) + " pixels where that lies in the picture" +
           (f.nan > 0 ? " (" + std::to_string(f.nan) + " NaN pixels left out)" : std::string()) + ". ";
  };
  // Transposed: (x, y) holds (y, x), tested off the diagonal.
  const MoveFit t = fit_move(got, expected, width, height, channels, tolerance, valid, [](int x, int y, int& px, int& py) {
    px = y, py = x;
    return x != y;
  });
  if (t.holds(valid))
    return "The result is the right picture transposed" + evidence(t, "(y, x)") +
           "Likely x and y are swapped in an index: where the input is read (or a tile copied) or where the output "
           "is stored.";
  // Moved: the smallest move that holds, nearest first.
  for (int distance = 1; distance <= 2 * max_shift; ++distance)
    for (int dy = -std::min(distance, max_shift); dy <= std::min(distance, max_shift); ++dy)
      for (int sign : {1, -1}) {
        const int dx = sign * (distance - std::abs(dy));
        if (std::abs(dx) > max_shift || (dx == 0 && sign < 0)) continue;
        if ((dy != 0 && height == 1) || (dx != 0 && width == 1)) continue;
        const MoveFit f = fit_move(got, expected, width, height, channels, tolerance, valid,
                                   [dx, dy](int x, int y, int& px, int& py) {
                                     px = x + dx, py = y + dy;
                                     return true;
                                   });
        if (!f.holds(valid)) continue;
        std::string move;
        const auto part = [&move](int n, const char* one, const char* many, const char* positive,
                                  const char* negative) {
          if (n == 0) return;
          move += (move.empty() ? "" : " and ") + std::string(n > 0 ? positive : negative) + " by " +
                  std::to_string(std::abs(n)) + " " + (std::abs(n) == 1 ? one : many);
        };
        part(dy, "row", "rows", "up", "down");
        part(dx, "column", "columns", "left", "right");
        return "The result is the right picture moved " + move +
               evidence(f, "(" + coordinate("x", dx) + ", " + coordinate("y", dy) + ")") +
               "Likely an index adds an offset of that size once too often or leaves it out: where the reads start "
               "(a tile's origin, the index into the tile) or where the result is stored." +
               (f.nan > 0 ? " The NaN pixels then read, so moved, memory that nobody wrote." : "");
      }
  return "";
}

namespace {

// The slack of a line's residuals: the case's tolerance and float rounding, never more.
double line_slack(double a, double b, double largest, double tolerance) {
  return tolerance + 1e-4 * (std::fabs(a) * largest + std::fabs(b) + 1);
}

// Whether value `y` is what the line gives for `x`, clipped at `low` and `high`: on the line, or at
// a clip level that the line reaches or passes there.
bool on_clipped_line(double x, double y, double a, double b, double low, double high, double slack) {
  const double line = a * x + b;
  if (y == high && std::isfinite(high)) return line >= high - slack;
  if (y == low && std::isfinite(low)) return line <= low + slack;
  return std::fabs(y - line) <= slack;
}

}  // namespace

ScaleFit fit_scale(const std::vector<float>& got, const std::vector<float>& expected, double tolerance) {
  const std::size_t n = std::min(got.size(), expected.size());
  double top = -HUGE_VAL, bottom = HUGE_VAL, largest = 0;
  std::size_t at_top = 0, at_bottom = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(got[i]) || !std::isfinite(expected[i])) continue;
    largest = std::max(largest, std::fabs(double(expected[i])));
    if (got[i] > top) top = got[i], at_top = 0;
    if (got[i] < bottom) bottom = got[i], at_bottom = 0;
    at_top += got[i] == top, at_bottom += got[i] == bottom;
  }
  // Unclipped first; a level is clipped at only where several values hold it exactly.
  for (const auto& [low, high] : {std::pair{-HUGE_VAL, HUGE_VAL}, std::pair{-HUGE_VAL, top},
                                  std::pair{bottom, HUGE_VAL}, std::pair{bottom, top}}) {
    if ((std::isfinite(high) && at_top < 2) || (std::isfinite(low) && at_bottom < 2)) continue;
    double count = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, least = HUGE_VAL, most = -HUGE_VAL;
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isfinite(got[i]) || !std::isfinite(expected[i]) || got[i] == high || got[i] == low) continue;
      const double x = expected[i], y = got[i];
      count += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
      least = std::min(least, x), most = std::max(most, x);
    }
    if (count < 3 || most - least < 1e-3) continue;
    const double a = (count * sxy - sx * sy) / (count * sxx - sx * sx), b = (sy - a * sx) / count;
    // The line through every value, with its numbers rounded where it still holds (values rounded
    // to levels move a least squares line a little: 4, not 4.008).
    const auto line = [&](double a, double b) {
      ScaleFit f;
      f.a = a, f.b = b, f.low = low, f.high = high;
      const double slack = line_slack(a, b, largest, tolerance);
      for (std::size_t i = 0; i < n; ++i) {
        if (!std::isfinite(got[i]) || !std::isfinite(expected[i])) continue;
        if (!on_clipped_line(expected[i], got[i], a, b, low, high, slack)) return ScaleFit{};
        (got[i] == high || got[i] == low ? f.clipped : f.on_line)++;
      }
      return f;
    };
    ScaleFit f;
    for (const double step : {1.0, 0.1, 0.01, 0.0})
      if (f = step > 0 ? line(std::round(a / step) * step, std::round(b / step) * step) : line(a, b); f.found()) break;
    const bool unscaled = std::fabs(f.a - 1) < 1e-3, unmoved = std::fabs(f.b) <= tolerance + 1e-3 * (most - least);
    if (!f.found() || (unscaled && unmoved) || std::fabs(f.a) < 1e-3) continue;
    return f;
  }
  return {};
}

bool follows_scale(const ScaleFit& fit, const std::vector<float>& got, const std::vector<float>& expected,
                   double tolerance) {
  if (!fit.found()) return false;
  double largest = 0;
  std::size_t compared = 0;
  for (std::size_t i = 0; i < got.size() && i < expected.size(); ++i)
    if (std::isfinite(expected[i])) largest = std::max(largest, std::fabs(double(expected[i])));
  const double slack = line_slack(fit.a, fit.b, largest, tolerance);
  for (std::size_t i = 0; i < got.size() && i < expected.size(); ++i) {
    if (!std::isfinite(expected[i])) continue;
    if (!std::isfinite(got[i]) || !on_clipped_line(expected[i], got[i], fit.a, fit.b, fit.low, fit.high, slack))
      return false;
    ++compared;
  }
  return compared > 0;
}

std::string scaled_values(const std::vector<float>& got, const std::vector<float>& expected, double tolerance,
                          bool counts) {
  return scaled_values(fit_scale(got, expected, tolerance), got, expected, tolerance, counts);
}

std::string scaled_values(const ScaleFit& f, const std::vector<float>& got, const std::vector<float>& expected,
                          double tolerance, bool counts) {
  if (!f.found()) return "";
  const double a = f.a, b = f.b;
  double least = HUGE_VAL, most = -HUGE_VAL;  // the expected values' spread
  for (std::size_t i = 0; i < got.size() && i < expected.size(); ++i)
    if (std::isfinite(got[i]) && std::isfinite(expected[i]))
      least = std::min(least, double(expected[i])), most = std::max(most, double(expected[i]));
  const bool unscaled = std::fabs(a - 1) < 1e-3, unmoved = std::fabs(b) <= tolerance + 1e-3 * (most - least);
  std::string levels;  // the clip levels
  if (std::isfinite(f.low)) levels = short_number(f.low);
  if (std::isfinite(f.high)) levels += (levels.empty() ? "" : " or ") + short_number(f.high);
  // The line as an equation, and the values it holds at (or, without `counts`, only the levels clipped).
  const auto evidence = [&](const std::string& equation) {
    if (!counts) return f.clipped > 0 ? " (those at " + levels + " clipped)" : std::string();
    if (f.clipped == 0) return " (" + equation + " at all " + std::to_string(f.on_line) + " values)";
    return " (" + equation + " at the " + std::to_string(f.on_line) + " values it leaves inside the range; the other " +
           std::to_string(f.clipped) + " are " + levels + ", where the line passes that: clipped)";
  };
  const std::string sign = b > 0 ? "plus " : "minus ", op = b > 0 ? "+ " : "- ", offset = short_number(std::fabs(b));
  if (unscaled)
    return "Every value is the right one " + sign + offset + evidence("got = expected " + op + offset) +
           ": likely a constant in the formula is off by " + offset + ".";
  if (unmoved && std::fabs(a + 1) < 1e-3)
    return "Every value is the right one's negative" + evidence("got = -expected") +
           ": likely the two terms of a difference are the wrong way round (a - b where b - a belongs).";
  if (unmoved)
    return "Every value is " + short_number(a) + " times the right one" +
           evidence("got = " + short_number(a) + " * expected") +
           ": likely a scale factor in the formula is wrong or missing (in a filter, weights that sum to " +
           short_number(a) + ", not 1, give this).";
  return "Every value is " + short_number(a) + " times the right one " + sign + offset +
         evidence("got = " + short_number(a) + " * expected " + op + offset) +
         ": likely the formula's scale and a constant in it are off.";
}

std::string off_by_one_level(const std::vector<float>& got, const std::vector<float>& expected, double tolerance) {
  if (tolerance >= 1) return "";
  std::size_t up = 0, down = 0, compared = 0;
  for (std::size_t i = 0; i < got.size() && i < expected.size(); ++i) {
    if (!std::isfinite(expected[i])) continue;
    if (std::fabs(expected[i] - std::round(expected[i])) > 1e-6) return "";  // not whole levels
    ++compared;
    if (close(got[i], expected[i], tolerance)) continue;
    if (!std::isfinite(got[i])) return "";
    const double off = double(got[i]) - expected[i];
    if (std::fabs(std::fabs(off) - 1) > 1e-3) return "";  // further off: not a rounding
    (off > 0 ? up : down)++;
  }
  if (up + down == 0) return "";
  const std::string count = std::to_string(up + down) + " of the " + std::to_string(compared) + " values";
  if (down == 0)
    return "Every wrong value is exactly one level too high (" + count +
           "), none further off, as a rounding mistake gives: likely too much is added before an integer division "
           "(half the divisor rounds to the nearest level), or the result is rounded up.";
  if (up == 0)
    return "Every wrong value is exactly one level too low (" + count +
           "), none further off, as a rounding mistake gives: likely the result is rounded down (truncated) where "
           "it should go to the nearest level.";
  return "Every wrong value is exactly one level off (" + count + ", " + std::to_string(up) + " too high, " +
         std::to_string(down) + " too low), none further: likely the rounding differs from rounding to the nearest level.";
}

}  // namespace course
