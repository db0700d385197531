// Exercise 09's cases: two samplings the lesson does not ship, both reading the nearest edge
// pixel outside the input: bicubic (Catmull-Rom) by hand on a buffer, and nearest-neighbour
// through an image sampler. Affine maps and homographies (a shift, a rotation with zoom, a zoom
// out with shear that reaches far outside, a zoom in, two perspective maps) on random RGBA
// images whose input and output sizes differ, with several work-group shapes and guarded outputs.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "checker.hpp"
#include "course.hpp"
#include "transform_reference.hpp"

namespace {

// A rotation by `degrees` and a zoom by `scale` about the picture's centre (output -> source).
course::Transform rotation_about_centre(double degrees, double scale, int width, int height) {
  const double a = degrees * 3.14159265358979 / 180, c = scale * std::cos(a), s = scale * std::sin(a);
  const double cx = (width - 1) / 2.0, cy = (height - 1) / 2.0;
  return {c, -s, cx - c * cx + s * cy, s, c, cy - s * cx - c * cy, 0, 0, 1};
}

// One input pixel's channel, coordinates clamped to the input (the nearest edge pixel outside).
double texel_clamped(const course::RgbaImage& in, int x, int y, int c) {
  x = std::clamp(x, 0, in.width - 1);
  y = std::clamp(y, 0, in.height - 1);
  return in.pixels[(std::size_t(y) * in.width + x) * 4 + c];
}

// One input pixel's channel with the clamps swapped: x clamped into 0 .. height - 1 and y into
// 0 .. width - 1, at y * width + x; NaN (any value) where that lies outside the input.
double texel_clamps_swapped(const course::RgbaImage& in, int x, int y, int c) {
  const std::size_t at = std::size_t(std::clamp(y, 0, in.width - 1)) * in.width + std::clamp(x, 0, in.height - 1);
  return at < std::size_t(in.width) * in.height ? in.pixels[at * 4 + c] : std::nan("");
}

// Catmull-Rom's weights of the taps at -1, 0, 1, 2 for a fraction t, each polynomial in Horner's form.
std::array<double, 4> catmull_rom(double t) {
  return {0.5 * t * (-1 + t * (2 - t)), 0.5 * (2 + t * t * (-5 + 3 * t)), 0.5 * t * (1 + t * (4 - 3 * t)),
          0.5 * t * t * (t - 1)};
}

// The typical mistakes of a bicubic sampler by hand: none, by default.
struct BicubicMistake {
  bool fractions_swapped = false;  // the x fraction's weights used along y and the other way round
  int one_axis = 0;                // 1: the x fraction's weights used along both axes, 2: the y fraction's
  bool truncated = false;          // the position rounded toward zero instead of down
  bool rounded = false;            // the position rounded to the nearest instead of down
  bool taps_cast_x = false;        // the taps' first x from a cast toward zero, the fraction from floor
  bool taps_cast_y = false;        // likewise along y
  int taps_x = 4, taps_y = 4;      // taps along each axis (three is one short)
  bool black_border = false;       // taps outside the input read as black, not as the nearest edge pixel
  int first_tap = -1;              // where the taps start, from floor(position)
  bool clamps_swapped = false;     // a tap's x clamped to the input's height and its y to its width
  bool converted_down = false;     // the sum converted to 0..255 by truncation, not to the nearest
  bool clamped_inside = false;     // the position clamped into the input (0 .. width - 1), not -2 .. width + 1
  bool rows_from_x = false;        // the taps' first row from floor(x), not floor(y)
  bool x_fraction_negated = false;  // the x weights of floor(x) - x, not x - floor(x)
};

// The CPU reference of warp_bicubic: 4 x 4 taps, clamped to the input, the sum limited to 0..255
// as the kernel's saturating conversion does; black where the map divides by 0. With `mistake`,
// what a kernel with that mistake computes.
std::vector<float> transform_bicubic_reference(const course::RgbaImage& in, const course::Transform& m, int out_w,
                                               int out_h, const BicubicMistake& mistake = {}) {
  const bool fractions_swapped = mistake.fractions_swapped, truncated = mistake.truncated;
  std::vector<float> out(std::size_t(out_w) * out_h * 4, 0.0f);
  for (int y = 0; y < out_h; ++y)
    for (int x = 0; x < out_w; ++x) {
      double sx = 0, sy = 0;
      if (!course::source_position(m, x, y, sx, sy)) continue;
      const double outside = mistake.clamped_inside ? 0.0 : 2.0;  // how far past its edge a position stays
      sx = std::clamp(sx, -outside, in.width - 1.0 + outside);
      sy = std::clamp(sy, -outside, in.height - 1.0 + outside);
      const auto base = [&](double s) {
        return truncated ? std::trunc(s) : mistake.rounded ? std::round(s) : std::floor(s);
      };
      const double bx = base(sx), by = base(sy), row_base = mistake.rows_from_x ? bx : by;
      std::array<double, 4> weight_x = catmull_rom(mistake.x_fraction_negated ? bx - sx : sx - bx),
                            weight_y = catmull_rom(sy - by);
      if (fractions_swapped) std::swap(weight_x, weight_y);
      if (mistake.one_axis) weight_x = weight_y = mistake.one_axis == 1 ? weight_x : weight_y;
      for (int c = 0; c < 4; ++c) {
        double sum = 0;
        for (int tap = 0; tap < 16; ++tap) {  // row j, column i of the 4 x 4 taps, row by row
          const int i = tap % 4, j = tap / 4;
          const int tx = int(mistake.taps_cast_x ? std::trunc(sx) : bx) + mistake.first_tap + i,
                    ty = int(mistake.taps_cast_y ? std::trunc(sy) : row_base) + mistake.first_tap + j;
          const bool outside = tx < 0 || ty < 0 || tx >= in.width || ty >= in.height;
          if (i < mistake.taps_x && j < mistake.taps_y && !(mistake.black_border && outside))
            sum += weight_y[j] * weight_x[i] *
                   (mistake.clamps_swapped ? texel_clamps_swapped(in, tx, ty, c) : texel_clamped(in, tx, ty, c));
        }
        const double level = std::clamp(sum, 0.0, 255.0);
        // Truncation gives a level in (v - 1, v]: v - 0.5 lies within the cases' tolerance of it, where
        // floor(v) would not when the device's float sum falls just under an integer that ours reaches.
        out[(std::size_t(y) * out_w + x) * 4 + c] = float(mistake.converted_down ? std::max(level - 0.5, 0.0) : level);
      }
    }
  return out;
}

// The CPU reference of warp_nearest: the pixel whose centre is nearest, clamped to the input.
// The models of the typical mistakes take one way where a position lies within float rounding of a
// pixel edge, and the device may take the other (below): a case one of them does not reproduce does
// not contradict it.
void approximate(std::vector<course::Mistake>& mistakes) {
  for (course::Mistake& m : mistakes) m.approximate = true;
}

// A position within 1/256 pixel of halfway between two centres may go either way on the device
// (float arithmetic, a sampler's fixed-point coordinates): there `got` decides which of the two
// is expected, so only a colour from neither pixel counts as wrong.
std::vector<float> transform_nearest_reference(const course::RgbaImage& in, const course::Transform& m, int out_w,
                                               int out_h, const std::vector<float>& got) {
  std::vector<float> out(std::size_t(out_w) * out_h * 4, 0.0f);
  auto candidates = [](double s, int size) {
    const double shifted = std::clamp(s, -1.0, double(size)) + 0.5;
    const double nearest = std::floor(shifted);
    std::vector<int> c{std::clamp(int(nearest), 0, size - 1)};
    if (shifted - nearest < 1.0 / 256) c.push_back(std::clamp(int(nearest) - 1, 0, size - 1));
    if (nearest + 1 - shifted < 1.0 / 256) c.push_back(std::clamp(int(nearest) + 1, 0, size - 1));
    return c;
  };
  for (int y = 0; y < out_h; ++y)
    for (int x = 0; x < out_w; ++x) {
      double sx = 0, sy = 0;
      if (!course::source_position(m, x, y, sx, sy)) continue;
      const std::size_t at = (std::size_t(y) * out_w + x) * 4;
      const std::vector<int> xs = candidates(sx, in.width), ys = candidates(sy, in.height);
      bool matched = false;
      for (int cy : ys)
        for (int cx : xs) {
          bool same = true;
          for (int c = 0; c < 4; ++c) same = same && got[at + c] == float(texel_clamped(in, cx, cy, c));
          if (same && !matched) {
            matched = true;
            for (int c = 0; c < 4; ++c) out[at + c] = got[at + c];
          }
        }
      if (!matched)
        for (int c = 0; c < 4; ++c) out[at + c] = float(texel_clamped(in, xs[0], ys[0], c));
    }
  return out;
}

// Nearest-neighbour without the half-pixel shift: the sampler's pixel i covers [i, i + 1), so
// position p without + 0.5 takes pixel floor(p) instead of the nearest centre. With
// `black_border` (and the shift), a sampler that gives black outside the input instead of the
// nearest edge pixel (CLK_ADDRESS_CLAMP).
std::vector<float> transform_nearest_unshifted(const course::RgbaImage& in, const course::Transform& m, int out_w,
                                               int out_h, bool black_border = false, double shift = 0.0,
                                               bool bounds_swapped = false) {
  // With `bounds_swapped`, the position's clamp takes x up to the height and y up to the width
  // before the sampler clamps to the edge.
  const double bound_x = bounds_swapped ? in.height : in.width, bound_y = bounds_swapped ? in.width : in.height;
  std::vector<float> out(std::size_t(out_w) * out_h * 4, 0.0f);
  for (int y = 0; y < out_h; ++y)
    for (int x = 0; x < out_w; ++x) {
      double sx = 0, sy = 0;
      if (!course::source_position(m, x, y, sx, sy)) continue;
      if (black_border) shift = 0.5;
      const int px = int(std::floor(std::clamp(sx, -1.0, bound_x) + shift));
      const int py = int(std::floor(std::clamp(sy, -1.0, bound_y) + shift));
      const bool black = black_border && (px < 0 || py < 0 || px >= in.width || py >= in.height);
      for (int c = 0; c < 4; ++c)
        out[(std::size_t(y) * out_w + x) * 4 + c] = black ? 0.0f : float(texel_clamped(in, px, py, c));
    }
  return out;
}

// Where output pixel (x, y) samples: its source position, the pixel it lies in and the fractions.
std::string source_of(const course::Transform& m, const course::Mismatch& wrong) {
  double sx = 0, sy = 0;
  if (!course::source_position(m, wrong.x, wrong.y, sx, sy)) return "  its source position divides by 0";
  char text[200];
  std::snprintf(text, sizeof text,
                "  output pixel (%d, %d) samples source position (%.3f, %.3f): pixel (%.0f, %.0f) with fractions "
                "x %.3f, y %.3f",
                wrong.x, wrong.y, sx, sy, std::floor(sx), std::floor(sy), sx - std::floor(sx), sy - std::floor(sy));
  return text;
}

// On a picture of one pixel every tap reads that pixel, so the output is the pixel times the sum
// of the weights along x times the sum along y: a ratio other than 1, the same in every channel
// the sum does not saturate, shows weights that do not sum to 1. "" where it cannot tell.
std::string weights_not_one(const course::RgbaImage& in, const std::vector<float>& expected,
                            const std::vector<float>& got) {
  if (in.width != 1 || in.height != 1) return "";
  double ratio = -1;
  for (std::size_t i = 0; i < got.size() && i < expected.size(); ++i) {
    if (expected[i] < 8 || got[i] <= 0 || got[i] >= 255) continue;  // too small to tell, or saturated
    const double r = got[i] / expected[i];
    if (ratio >= 0 && std::fabs(r - ratio) > 0.02) return "";
    if (ratio < 0) ratio = r;
  }
  if (ratio < 0 || std::fabs(ratio - 1) < 0.02) return "";
  char text[400];
  std::snprintf(text, sizeof text,
                "On a picture of one pixel every tap reads that pixel, and each output is %.2f times it: the product "
                "of the sums of the weights along x and along y, which must each be 1. cubic_weights(t) does not "
                "give Catmull-Rom's four weights (they sum to 1 for every t).",
                ratio);
  return text;
}

// Nearest-neighbour outputs that are blends: a wrong pixel whose every channel lies between those
// of the 2 x 2 pixels around its position, and equals none of them. "" where any does not, or where
// every wrong value lies within a level of the right one (a scale or a rounding, not a blend).
std::string blended(const course::RgbaImage& in, const course::Transform& m, int out_w, int out_h,
                    const std::vector<float>& got) {
  const std::vector<float> nearest = transform_nearest_reference(in, m, out_w, out_h, got);
  std::size_t wrong = 0;
  bool far = false;  // some value more than a level off
  for (int y = 0; y < out_h; ++y)
    for (int x = 0; x < out_w; ++x) {
      const std::size_t at = (std::size_t(y) * out_w + x) * 4;
      bool same = true;
      for (int c = 0; c < 4; ++c) same = same && got[at + c] == nearest[at + c];
      if (same) continue;
      for (int c = 0; c < 4; ++c) far = far || std::fabs(got[at + c] - nearest[at + c]) > 1;
      double sx = 0, sy = 0;
      if (!course::source_position(m, x, y, sx, sy)) return "";
      const int px = int(std::floor(std::clamp(sx, -1.0, double(in.width)))),
                py = int(std::floor(std::clamp(sy, -1.0, double(in.height))));
      for (int c = 0; c < 4; ++c) {
        double low = 255, high = 0;
        for (int j = 0; j < 2; ++j)
          for (int i = 0; i < 2; ++i) {
            const double v = texel_clamped(in, px + i, py + j, c);
            low = std::min(low, v), high = std::max(high, v);
          }
        if (got[at + c] < low - 1 || got[at + c] > high + 1) return "";
      }
      ++wrong;
    }
  if (wrong == 0 || !far) return "";
  return "Every wrong pixel (" + std::to_string(wrong) +
         ") is a blend of the 2 x 2 pixels around its position, not "
         "one of them: the sampler may filter linearly (CLK_FILTER_LINEAR, where nearest-neighbour needs "
         "CLK_FILTER_NEAREST), or the colour is blended by hand.";
}

void check_transform_samplings(course::ExerciseCheck& check) {
  const course::DeviceContext& dc = check.device();
  const bool images = dc.device.getInfo<CL_DEVICE_IMAGE_SUPPORT>() == CL_TRUE;

  struct Kernel {
    std::string file, function;
    bool image_input;
  };
  const Kernel kernels[] = {{"bicubic_warp.cl", "warp_bicubic", false}, {"nearest_warp.cl", "warp_nearest", true}};
  struct Size {
    int in_w, in_h, out_w, out_h;
  };
  const Size sizes[] = {{1, 1, 1, 1}, {1, 17, 1, 17}, {23, 1, 23, 1}, {2, 3, 5, 4}, {37, 29, 41, 31}, {97, 61, 83, 67}};
  const std::size_t locals[][2] = {{16, 16}, {8, 4}, {32, 1}, {1, 8}, {5, 3}, {7, 7}};

  std::uint32_t seed = 9;
  int shape = 0;
  for (const Kernel& k : kernels) {
    if (k.image_input && !images) {
      check.pass(k.function, "skipped: this device has no image support");
      continue;
    }
    for (int projective = 0; projective <= 1; ++projective) {
      cl::Program program = check.build(k.file, "-D PROJECTIVE=" + std::to_string(projective));
      cl::Kernel kernel(program, k.function.c_str());
      const std::size_t kernel_max = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
      for (const Size& size : sizes) {
        std::vector<std::pair<std::string, course::Transform>> warps;
        if (projective) {
          warps = {{"gentle homography", {1, 0.1, 2, 0.05, 0.9, 1, 0.004, -0.003, 1}},
                   {"steep homography", {0.9, -0.2, 3, 0.1, 1.1, -2, 0.02, 0.015, 0.8}}};
        } else {
          warps = {{"shift by (0.3, -0.7)", {1, 0, 0.3, 0, 1, -0.7, 0, 0, 1}},
                   {"rotation by 30 degrees", rotation_about_centre(30, 1.2, size.in_w, size.in_h)},
                   {"zoom out with shear", {1.7, 0.3, -5, -0.2, 1.4, -3, 0, 0, 1}},
                   {"zoom in by 3.3", {0.3, 0, -0.6, 0, 0.3, 0.2, 0, 0, 1}}};
        }
        for (const auto& [what, m] : warps) {
          const std::size_t lx = std::min(locals[shape % 6][0], kernel_max);
          const std::size_t ly = std::max<std::size_t>(1, std::min(locals[shape % 6][1], kernel_max / lx));
          ++shape;
          const std::string name = k.function + ", " + what + ", " + std::to_string(size.in_w) + "x" +
                                   std::to_string(size.in_h) + " -> " + std::to_string(size.out_w) + "x" +
                                   std::to_string(size.out_h) + ", " + std::to_string(lx) + "x" + std::to_string(ly) +
                                   " groups";
          check.run_case(name, [&] {
            const course::RgbaImage image = course::random_rgba(size.in_w, size.in_h, seed++);
            course::GuardedBuffer output(dc, std::size_t(size.out_w) * size.out_h);
            cl::Buffer input_buffer;
            cl::Image2D input_image;
            if (k.image_input) {
              input_image = cl::Image2D(dc.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                        cl::ImageFormat(CL_RGBA, CL_UNORM_INT8), size.in_w, size.in_h, 0,
                                        const_cast<std::uint8_t*>(image.pixels.data()));
              kernel.setArg(0, input_image);
            } else {
              input_buffer = cl::Buffer(dc.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, image.pixels.size(),
                                        const_cast<std::uint8_t*>(image.pixels.data()));
              kernel.setArg(0, input_buffer);
            }
            kernel.setArg(1, size.in_w);
            kernel.setArg(2, size.in_h);
            kernel.setArg(3, output.buffer());
            kernel.setArg(4, size.out_w);
            kernel.setArg(5, size.out_h);
            for (int r = 0; r < 3; ++r)
              kernel.setArg(6 + r, cl_float4{{float(m[3 * r]), float(m[3 * r + 1]), float(m[3 * r + 2]), 0.0f}});
            dc.queue.enqueueNDRangeKernel(
                kernel, cl::NullRange, cl::NDRange(course::round_up(size.out_w, lx), course::round_up(size.out_h, ly)),
                cl::NDRange(lx, ly));
            dc.queue.finish();
            if (const std::string damage = output.damaged_guards(); !damage.empty()) return check.fail(name, damage);
            const std::vector<float> got = course::pixel_bytes_as_values(output.read());
            course::CaseDetails details;
            const course::Transform matrix = m;
            details.explain_first = [matrix](const course::Mismatch& wrong) { return source_of(matrix, wrong); };
            const int ow = size.out_w, oh = size.out_h;
            if (k.image_input) {
              details.mistakes = {
                  {"no half-pixel shift",
                   "The sampler reads pixel floor(position), as without the half-pixel shift: a sampler's pixel i "
                   "covers [i, i + 1), so its centre is at i + 0.5; read at position + 0.5 (the position itself, "
                   "not rounded first) to get the pixel whose centre is nearest.",
                   [&image, matrix, ow, oh] { return transform_nearest_unshifted(image, matrix, ow, oh); }},
                  {"black border",
                   "Outside the input the sampler gives black, not the nearest edge pixel: use "
                   "CLK_ADDRESS_CLAMP_TO_EDGE, not CLK_ADDRESS_CLAMP (whose border colour is black).",
                   [&image, matrix, ow, oh] { return transform_nearest_unshifted(image, matrix, ow, oh, true); }},
                  {"shifted the wrong way",
                   "The half-pixel shift goes the wrong way: the sampler's pixel i covers [i, i + 1), so the pixel "
                   "whose centre is nearest to p is the one p + 0.5 falls in, not p - 0.5.",
                   [&image, matrix, ow, oh] {
                     return transform_nearest_unshifted(image, matrix, ow, oh, false, -0.5);
                   }},
                  {"clamp bounds swapped",
                   "Every output equals the nearest pixel with the position's clamp bounds swapped: x is held "
                   "to -1 .. in_height and y to -1 .. in_width, where x belongs in -1 .. in_width and y in -1 .. "
                   "in_height.",
                   [&image, matrix, ow, oh] {
                     if (image.width == image.height) return std::vector<float>();  // no telling on a square
                     return transform_nearest_unshifted(image, matrix, ow, oh, false, 0.5, true);
                   }},
                  {"not times 255",
                   "Every value is 0 or 1: read_imagef of an 8-bit image gives each channel in 0 .. 1, and the "
                   "result is stored without being multiplied by 255 (converted to an 8-bit level, v / 255 becomes "
                   "0 below a half and 1 from a half on).",
                   [&image, matrix, ow, oh] {
                     const std::vector<float> none(std::size_t(ow) * oh * 4, std::nanf(""));  // no pick by got
                     std::vector<float> levels = transform_nearest_reference(image, matrix, ow, oh, none);
                     for (float& v : levels) v = v >= 128 ? 1.0f : 0.0f;
                     return levels;
                   }},
                  {"times 256",
                   "The colour is scaled by 256, not 255: read_imagef of an 8-bit image gives level / 255 in each "
                   "channel, so it is times 255 that gives the level back (times 256 is up to one level too high).",
                   [&image, matrix, ow, oh] {
                     const std::vector<float> none(std::size_t(ow) * oh * 4, std::nanf(""));  // no pick by got
                     std::vector<float> levels = transform_nearest_reference(image, matrix, ow, oh, none);
                     for (float& v : levels) v = std::min(255.0f, std::nearbyint(v / 255.0f * 256.0f));
                     return levels;
                   }}};
              details.diagnose = [&image, matrix, ow, oh](const std::vector<float>& got) {
                return blended(image, matrix, ow, oh, got);
              };
              approximate(details.mistakes);
              check.expect_image(name, got, transform_nearest_reference(image, m, size.out_w, size.out_h, got),
                                 size.out_w, size.out_h, 0.0, 4, details);
            } else {
              details.mistakes = {
                  // Swapping the taps' x and y, tap (i, j) read at (x0 + j, y0 + i), gives the same sum, term
                  // for term: no output tells the two apart, so the sentence names both.
                  {"fractions swapped",
                   "The x weights meet the taps' y offsets: either the fractions are swapped (the weights along x "
                   "come from the x fraction, p.x - floor(p.x), those along y from the y fraction) or the taps' x and "
                   "y are (tap i, j, weighed by x weight i and y weight j, lies at x0 + i, y0 + j). Both give this "
                   "output.",
                   [&image, matrix, ow, oh] {
                     BicubicMistake swapped;
                     swapped.fractions_swapped = true;
                     return transform_bicubic_reference(image, matrix, ow, oh, swapped);
                   }},
                  {"truncated",
                   "The position is rounded toward zero, not down: for a position left of or above the image (-0.5, "
                   "say) the taps start at floor(p) - 1, so use floor(), not a cast to int.",
                   [&image, matrix, ow, oh] {
                     BicubicMistake truncated;
                     truncated.truncated = true;
                     return transform_bicubic_reference(image, matrix, ow, oh, truncated);
                   }}};
              BicubicMistake rounded;
              rounded.rounded = true;
              details.mistakes.push_back(
                  {"rounded",
                   "The position is rounded to the nearest pixel, not down: the fractions then run from -0.5 to 0.5 "
                   "and the taps start a pixel late wherever the fraction is at least 0.5; the four taps lie at -1, "
                   "0, 1 and 2 from floor(position), weighed by the fraction p - floor(p).",
                   [&image, matrix, ow, oh, rounded] {
                     return transform_bicubic_reference(image, matrix, ow, oh, rounded);
                   }});
              // One axis's weights on both: a sum that multiplies across[j] * across[i] (or down by down).
              for (const int axis : {1, 2}) {
                BicubicMistake one;
                one.one_axis = axis;
                const std::string kept = axis == 1 ? "x" : "y", lost = axis == 1 ? "y" : "x";
                details.mistakes.push_back(
                    {"the " + kept + " weights on both axes",
                     "The " + kept + " fraction's weights are used along both axes: tap (i, j) is weighed by " + kept +
                         " weight i times " + kept + " weight j, where the weights along " + lost +
                         " belong to the " + lost + " fraction.",
                     [&image, matrix, ow, oh, one] { return transform_bicubic_reference(image, matrix, ow, oh, one); }});
              }
              // Three taps along x, along y, or both: each loop must run over all four.
              for (const auto& [taps_x, taps_y] : {std::pair{3, 4}, {4, 3}, {3, 3}}) {
                BicubicMistake short_taps;
                short_taps.taps_x = taps_x, short_taps.taps_y = taps_y;
                details.mistakes.push_back(
                    {"three taps",
                     "The sum takes three taps, not four, along " +
                         std::string(taps_x == 3 && taps_y == 3 ? "each axis"
                                     : taps_x == 3              ? "x"
                                                                : "y") +
                         ": bicubic interpolation weighs the 4 x 4 pixels at -1, 0, 1 and 2 from floor(position).",
                     [&image, matrix, ow, oh, short_taps] {
                       return transform_bicubic_reference(image, matrix, ow, oh, short_taps);
                     }});
              }
              // A bicubic sampler with one mistake made, as the reference would make it.
              const auto add = [&](const char* what, const char* sentence, const BicubicMistake& made, bool any) {
                details.mistakes.push_back({what, sentence,
                                            [&image, matrix, ow, oh, made] {
                                              return transform_bicubic_reference(image, matrix, ow, oh, made);
                                            },
                                            any});
              };
              BicubicMistake late, swapped_clamps, down, black, inside, rows_from_x;
              inside.clamped_inside = true;
              rows_from_x.rows_from_x = true;
              BicubicMistake negated;
              negated.x_fraction_negated = true;
              add("x fraction negated",
                  "The x fraction has the wrong sign: the weights along x take t = x - floor(x), from 0 to 1, not "
                  "floor(x) - x.",
                  negated, false);
              late.first_tap = 0;
              swapped_clamps.clamps_swapped = true;
              down.converted_down = true;
              black.black_border = true;
              // The taps placed from a cast toward zero while the fractions come from floor: wrong only
              // where the position is negative, on the axis (or axes) cast.
              BicubicMistake cast_x, cast_y, cast_both;
              cast_x.taps_cast_x = cast_both.taps_cast_x = true;
              cast_y.taps_cast_y = cast_both.taps_cast_y = true;
              const std::string cast_tail =
                  ": right where the position is at or past 0, one pixel off left of or above the image, where a "
                  "cast rounds toward zero and floor rounds down (the fractions use floor, the taps must too).";
              const std::string cast_x_text =
                  "Every output equals the sample whose taps start from a cast to int of "
                  "the x position, not its floor" +
                  cast_tail;
              const std::string cast_y_text =
                  "Every output equals the sample whose taps start from a cast to int of "
                  "the y position, not its floor" +
                  cast_tail;
              const std::string cast_both_text =
                  "Every output equals the sample whose taps start from a cast to int "
                  "of the position, not its floor" +
                  cast_tail;
              add("taps from a cast", cast_both_text.c_str(), cast_both, false);
              add("x taps from a cast", cast_x_text.c_str(), cast_x, false);
              add("y taps from a cast", cast_y_text.c_str(), cast_y, false);
              add("taps start late",
                  "The taps start one pixel late: the four taps lie at -1, 0, 1 and 2 from floor(position), so the "
                  "first is at floor(position) - 1.",
                  late, false);
              // A clamp that swaps the sizes may read outside the input: those taps are any value.
              add("clamps swapped",
                  "The taps' clamps swap width and height: a tap's x lies in 0 .. in_width - 1 and its y in 0 .. "
                  "in_height - 1.",
                  swapped_clamps, true);
              add("converted by truncation",
                  "The sum is converted by truncation: convert_uchar4_sat drops the fraction, convert_uchar4_sat_rte "
                  "rounds to the nearest level.",
                  down, false);
              add("rows from the x position",
                  "The taps' rows start from the x position's floor: the four rows of taps lie around the y "
                  "position, from the row above floor(y), as the columns lie around x.",
                  rows_from_x, false);
              add("position clamped into the input",
                  "The position is clamped into the input, 0 .. in_width - 1 (and likewise y), not -2 .. in_width "
                  "+ 1: near an edge and past it the fractions are lost, so the sample there is the edge pixel's, "
                  "not the blend of the taps around the position.",
                  inside, false);
              add("black border",
                  "Taps outside the input read black instead of the nearest edge pixel: clamp each tap's x into 0 .. "
                  "in_width - 1 and its y into 0 .. in_height - 1.",
                  black, false);
              details.diagnose = [&image, matrix, ow, oh](const std::vector<float>& got) {
                return weights_not_one(image, transform_bicubic_reference(image, matrix, ow, oh), got);
              };
              approximate(details.mistakes);
              check.expect_image(name, got, transform_bicubic_reference(image, m, size.out_w, size.out_h), size.out_w,
                                 size.out_h, 0.6, 4, details);
            }
          });
        }
      }
    }
  }
}

}  // namespace

COURSE_EXERCISE("09", "09_affine_and_homography_warps",
                "bicubic sampling by hand and nearest-neighbour by sampler, both clamped to the edge",
                check_transform_samplings);
