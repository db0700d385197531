#include "compare.hpp"

#include "image.hpp"
#include "reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace course {

std::string Comparison::describe(std::size_t lines) const {
  std::ostringstream out;
  if (ok()) {
    out << "max error " << max_abs_error << ", all " << total << " values within " << tolerance;
    return out.str();
  }
  out << wrong << " of " << total << " values off by more than " << tolerance << " (max error " << max_abs_error
      << ")";
  for (std::size_t i = 0; i < first.size() && i < lines; ++i) {
    const auto& m = first[i];
    out << "\n    (" << m.x << ", " << m.y << ")";
    if (m.channel) out << " channel " << m.channel;
    out << " got " << m.got << " expected " << m.expected;
    if (std::isnan(m.got)) out << "  (nan: never written, or computed from unset local memory)";
  }
  return out.str();
}

Comparison compare_images(const float* got, const float* expected, int width, int height, double tolerance,
                          int channels) {
  Comparison c;
  c.tolerance = tolerance;
  c.total = static_cast<std::size_t>(width) * height * channels;
  const std::size_t row = static_cast<std::size_t>(width) * channels;
  auto difference = [&](std::size_t i) {
    const double g = got[i], e = expected[i];
    return std::isnan(g) || std::isnan(e) ? std::numeric_limits<double>::infinity() : std::fabs(g - e);
  };
  // Each row's largest difference and wrong values, on every core; then, in row order, the
  // first mismatches from the rows that have any.
  std::vector<std::pair<double, std::size_t>> rows(height);
  parallel_rows(height, 0, [&](int first, int last) {
    for (int y = first; y < last; ++y)
      for (std::size_t i = y * row; i < (y + 1) * row; ++i) {
        const double diff = difference(i);
        rows[y].first = std::max(rows[y].first, diff);
        rows[y].second += diff > tolerance;
      }
  });
  for (std::size_t y = 0; y < rows.size(); ++y) {
    c.max_abs_error = std::max(c.max_abs_error, rows[y].first);
    c.wrong += rows[y].second;
    for (std::size_t i = y * row; rows[y].second > 0 && c.first.size() < 10 && i < (y + 1) * row; ++i)
      if (difference(i) > tolerance)
        c.first.push_back(Mismatch{static_cast<int>(i / channels % width), static_cast<int>(y),
                                   static_cast<int>(i % channels), got[i], expected[i]});
  }
  return c;
}

Comparison compare_images(const std::vector<float>& got, const std::vector<float>& expected, int width,
                          int height, double tolerance, int channels) {
  const std::size_t n = static_cast<std::size_t>(width) * height * channels;
  if (got.size() < n || expected.size() < n) throw std::invalid_argument("compare_images: image sizes differ");
  return compare_images(got.data(), expected.data(), width, height, tolerance, channels);
}

}  // namespace course
