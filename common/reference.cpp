#include "reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace course {
namespace {
int clamp_index(int i, int size) { return i < 0 ? 0 : (i >= size ? size - 1 : i); }
}  // namespace

std::vector<float> gaussian_weights(int radius, double sigma) {
  if (radius < 0 || !(sigma > 0)) throw std::invalid_argument("gaussian_weights: radius >= 0 and sigma > 0");
  std::vector<double> g(2 * radius + 1);
  double sum = 0;
  for (int i = -radius; i <= radius; ++i) sum += g[i + radius] = std::exp(-(double)i * i / (2 * sigma * sigma));
  std::vector<float> out(g.size());
  for (std::size_t i = 0; i < g.size(); ++i) out[i] = static_cast<float>(g[i] / sum);
  return out;
}

std::vector<float> box_weights(int radius) {
  if (radius < 0) throw std::invalid_argument("box_weights: radius >= 0");
  return std::vector<float>(2 * radius + 1, 1.0f / (2 * radius + 1));
}

std::vector<float> outer_product(const std::vector<float>& row, const std::vector<float>& column) {
  std::vector<float> out(row.size() * column.size());
  for (std::size_t j = 0; j < column.size(); ++j)
    for (std::size_t i = 0; i < row.size(); ++i) out[j * row.size() + i] = row[i] * column[j];
  return out;
}

GrayImage correlate_2d(const GrayImage& in, const std::vector<float>& weights, int radius, unsigned threads) {
  const int taps = 2 * radius + 1;
  if (weights.size() != static_cast<std::size_t>(taps) * taps)
    throw std::invalid_argument("correlate_2d: need (2R+1)^2 weights");
  GrayImage out{in.width, in.height, std::vector<float>(in.pixels.size())};
  parallel_rows(in.height, threads, [&](int first, int last) {
    for (int y = first; y < last; ++y)
      for (int x = 0; x < in.width; ++x) {
        double sum = 0;
        for (int j = -radius; j <= radius; ++j)
          for (int i = -radius; i <= radius; ++i)
            sum += static_cast<double>(weights[(j + radius) * taps + (i + radius)]) *
                   in.at(clamp_index(x + i, in.width), clamp_index(y + j, in.height));
        out.pixels[static_cast<std::size_t>(y) * in.width + x] = static_cast<float>(sum);
      }
  });
  return out;
}

GrayImage correlate_separable(const GrayImage& in, const std::vector<float>& row_weights,
                              const std::vector<float>& column_weights, unsigned threads) {
  const int rr = static_cast<int>(row_weights.size() / 2), rc = static_cast<int>(column_weights.size() / 2);
  std::vector<double> rows(in.pixels.size());
  parallel_rows(in.height, threads, [&](int first, int last) {
    for (int y = first; y < last; ++y)
      for (int x = 0; x < in.width; ++x) {
        double sum = 0;
        for (int i = -rr; i <= rr; ++i)
          sum += static_cast<double>(row_weights[i + rr]) * in.at(clamp_index(x + i, in.width), y);
        rows[static_cast<std::size_t>(y) * in.width + x] = sum;
      }
  });
  // The column pass reads the rows of other bands: it starts once the row pass has ended in all.
  GrayImage out{in.width, in.height, std::vector<float>(in.pixels.size())};
  parallel_rows(in.height, threads, [&](int first, int last) {
    for (int y = first; y < last; ++y)
      for (int x = 0; x < in.width; ++x) {
        double sum = 0;
        for (int j = -rc; j <= rc; ++j)
          sum += static_cast<double>(column_weights[j + rc]) *
                 rows[static_cast<std::size_t>(clamp_index(y + j, in.height)) * in.width + x];
        out.pixels[static_cast<std::size_t>(y) * in.width + x] = static_cast<float>(sum);
      }
  });
  return out;
}

}  // namespace course
