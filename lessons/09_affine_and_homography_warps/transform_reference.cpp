#include "transform_reference.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "errors.hpp"
#include "reference.hpp"

namespace course {

Transform affine_matrix(const std::vector<double>& six) {
  if (six.size() != 6) throw UsageError("an affine map needs 6 numbers, got " + std::to_string(six.size()));
  return {six[0], six[1], six[2], six[3], six[4], six[5], 0.0, 0.0, 1.0};
}

bool is_affine(const Transform& m) {
  return m[6] == 0.0 && m[7] == 0.0 && m[8] == 1.0;
}

bool is_singular(const Transform& m) {
  const double det =
      m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
  double scale = 0;
  for (double v : m) scale = std::max(scale, std::fabs(v));
  // The determinant grows with the cube of the entries, so compare it with that cube.
  return !(scale > 0) || !std::isfinite(det) || std::fabs(det) <= 1e-12 * scale * scale * scale;
}

std::string describe(const Transform& m) {
  std::ostringstream s;
  s << m[0] << " " << m[1] << " " << m[2] << " / " << m[3] << " " << m[4] << " " << m[5];
  if (!is_affine(m)) s << " / " << m[6] << " " << m[7] << " " << m[8];
  return s.str();
}

bool source_position(const Transform& m, double x, double y, double& sx, double& sy) {
  const double w = m[6] * x + m[7] * y + m[8];
  if (w == 0.0) return false;
  sx = (m[0] * x + m[1] * y + m[2]) / w;
  sy = (m[3] * x + m[4] * y + m[5]) / w;
  return std::isfinite(sx) && std::isfinite(sy);
}

double sample_bilinear(const float* pixels, int width, int height, int channels, int channel, double sx, double sy) {
  // Beyond one pixel outside, every tap is outside: black (and no huge value reaches floor()).
  if (!(sx > -1.0 && sx < width && sy > -1.0 && sy < height)) return 0.0;
  const double fx0 = std::floor(sx), fy0 = std::floor(sy);
  const int x0 = static_cast<int>(fx0), y0 = static_cast<int>(fy0);
  const double fx = sx - fx0, fy = sy - fy0;
  auto tap = [&](int x, int y) -> double {
    if (x < 0 || y < 0 || x >= width || y >= height) return 0.0;
    return pixels[(static_cast<std::size_t>(y) * width + x) * channels + channel];
  };
  const double top = tap(x0, y0) * (1 - fx) + tap(x0 + 1, y0) * fx;
  const double bottom = tap(x0, y0 + 1) * (1 - fx) + tap(x0 + 1, y0 + 1) * fx;
  return top * (1 - fy) + bottom * fy;
}

std::vector<float> transform_bilinear(const std::vector<float>& pixels, int width, int height, int channels,
                                      const Transform& m, int out_width, int out_height, unsigned threads) {
  std::vector<float> out(static_cast<std::size_t>(out_width) * out_height * channels, 0.0f);
  parallel_rows(out_height, threads, [&](int first, int last) {
    for (int y = first; y < last; ++y)
      for (int x = 0; x < out_width; ++x) {
        double sx = 0, sy = 0;
        if (!source_position(m, x, y, sx, sy)) continue;
        for (int c = 0; c < channels; ++c)
          out[(static_cast<std::size_t>(y) * out_width + x) * channels + c] =
              static_cast<float>(sample_bilinear(pixels.data(), width, height, channels, c, sx, sy));
      }
  });
  return out;
}

GrayImage transform_bilinear(const GrayImage& in, const Transform& m, int out_width, int out_height) {
  return GrayImage{out_width, out_height, transform_bilinear(in.pixels, in.width, in.height, 1, m, out_width, out_height)};
}

std::vector<float> rgba_to_floats(const RgbaImage& in) {
  return std::vector<float>(in.pixels.begin(), in.pixels.end());
}

RgbaImage floats_to_rgba(const std::vector<float>& values, int width, int height) {
  RgbaImage out{width, height, std::vector<std::uint8_t>(values.size())};
  for (std::size_t i = 0; i < values.size(); ++i)
    out.pixels[i] = static_cast<std::uint8_t>(std::clamp(std::nearbyint(values[i]), 0.0f, 255.0f));
  return out;
}

std::vector<float> transform_bilinear(const RgbaImage& in, const Transform& m, int out_width, int out_height,
                                      unsigned threads) {
  return transform_bilinear(rgba_to_floats(in), in.width, in.height, 4, m, out_width, out_height, threads);
}

RgbaImage resize_bilinear(const RgbaImage& in, int width, int height) {
  const std::vector<float> pixels = rgba_to_floats(in);
  std::vector<float> out(static_cast<std::size_t>(width) * height * 4);
  const double scale_x = static_cast<double>(in.width) / width, scale_y = static_cast<double>(in.height) / height;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      // Centres aligned, positions clamped inside so the border keeps its colour.
      const double sx = std::clamp((x + 0.5) * scale_x - 0.5, 0.0, in.width - 1.0);
      const double sy = std::clamp((y + 0.5) * scale_y - 0.5, 0.0, in.height - 1.0);
      for (int c = 0; c < 4; ++c)
        out[(static_cast<std::size_t>(y) * width + x) * 4 + c] =
            static_cast<float>(sample_bilinear(pixels.data(), in.width, in.height, 4, c, sx, sy));
    }
  return floats_to_rgba(out, width, height);
}

bool read_transform(const Options& options, Transform& m) {
  const bool affine = options.given("affine"), homography = options.given("homography");
  if (affine && homography) throw UsageError("give either --affine or --homography, not both");
  if (!affine && !homography) return false;
  if (affine) {
    m = affine_matrix(options.numbers("affine", 6));
  } else {
    const std::vector<double> nine = options.numbers("homography", 9);
    std::copy(nine.begin(), nine.end(), m.begin());
  }
  if (is_singular(m))
    throw UsageError(std::string("option '--") + (affine ? "affine" : "homography") + "': the matrix " + describe(m) +
                     " is singular (its determinant is 0), so it squeezes the picture onto a line or a point");
  return true;
}

}  // namespace course
