/// @file diff_picture.hpp
/// @brief The picture a failed check case leaves behind: what the kernel wrote, what the
/// reference expected and their difference side by side, scaled up so a person can read it.
#pragma once

#include <cmath>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace course {

/// @brief Writes a PNG of three panels, each labelled: GOT (the kernel's values), EXPECTED (the
/// reference's) and DIFFERENCE (black where equal, red where off by more than `tolerance`,
/// brighter the further off). Values are shown on the expected image's range; NaN is magenta and
/// a value far outside that range (a guard band's sentinel) cyan. Pixels are scaled up with
/// nearest-neighbour so that the short side is at least 256 pixels (the long side at most 2048).
void save_diff_picture(const std::filesystem::path& path, const std::vector<float>& got,
                       const std::vector<float>& expected, int width, int height, double tolerance, int channels = 1);

/// @brief The scale factor save_diff_picture() uses for a `width` x `height` image.
int diff_picture_scale(int width, int height);

/// @brief How a wrong picture relates to the right one, where the relation holds at the pixels
/// it can be tested on: the right picture moved by up to `max_shift` pixels along x and y (output
/// (x, y) holds the expected value of (x + dx, y + dy)), or transposed (output (x, y) holds that of
/// (y, x)). A sentence naming the move, a likely cause worded as one; "" when neither holds. NaN
/// pixels of `got` are left out of the test (and named as its consequence), and the move must
/// hold at 90 % of the pixels compared and of the wrong ones: a picture's edges may differ.
std::string moved_picture(const std::vector<float>& got, const std::vector<float>& expected, int width, int height,
                          int channels, double tolerance, int max_shift);

/// @brief A line that every value of a wrong picture follows: got = a * expected + b, except values
/// clipped at the picture's lowest or highest value (`low`, `high`, each held by several values,
/// where the line passes them: a conversion to 8 bits saturates).
struct ScaleFit {
  double a = 1, b = 0;
  std::size_t on_line = 0, clipped = 0;     ///< values on the line, values clipped (none on it: no fit)
  double low = -HUGE_VAL, high = HUGE_VAL;  ///< the levels clipped at (infinite: none)
  bool found() const { return on_line > 0; }
};

/// @brief The line (a, b) that every finite value of `got` follows within `tolerance` (a least
/// squares line whose residuals are the tolerance and float rounding only), clipped at `got`'s
/// extremes where that is needed; not found when none fits or it is the identity. NaN values are
/// left out.
ScaleFit fit_scale(const std::vector<float>& got, const std::vector<float>& expected, double tolerance);

/// @brief Whether every finite value of `got` is what `fit` gives for its expected value, clipped
/// at the same levels: a case that cannot show the line itself (all its values clipped) agrees
/// with one another case showed.
bool follows_scale(const ScaleFit& fit, const std::vector<float>& got, const std::vector<float>& expected,
                   double tolerance);

/// @brief Whether every value of `got` is a * expected + b for one a and one b, exactly (fit_scale()):
/// a sentence naming the scale or the offset (and the values clipped), "" when no such line fits or
/// it is the identity. Without `counts`, the sentence leaves out how many values it holds at: the
/// same for every case the line fits (cases grouped by cause).
std::string scaled_values(const std::vector<float>& got, const std::vector<float>& expected, double tolerance,
                          bool counts = true);
/// @brief The same sentence for a line already fitted to `got` (fit_scale()): "" when not found.
std::string scaled_values(const ScaleFit& fit, const std::vector<float>& got, const std::vector<float>& expected,
                          double tolerance, bool counts = true);

/// @brief Whether the expected values are whole levels (8-bit pixels) and every wrong value is off
/// by exactly one level: a sentence naming the rounding and its direction, "" otherwise.
std::string off_by_one_level(const std::vector<float>& got, const std::vector<float>& expected, double tolerance);

}  // namespace course
