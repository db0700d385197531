// Exercise 01's cases: the crop-and-invert kernel on random interleaved RGB pictures, with crops
// of every shape (one pixel, one row, one column, the whole picture, a crop against the right and
// bottom edges), crop sizes no work-group divides, and guard bands around both buffers.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "checker.hpp"
#include "course.hpp"
#include "guard_damage.hpp"

namespace {

// The index of the red value of pixel (column, row) in a row-by-row RGB buffer whose rows are
// `row_length` pixels long: three floats a pixel, the rows before it, then the pixels before it.
long red_index(long column, long row, long row_length) {
  return 3 * (row * row_length + column);
}

// What the kernel must write: crop pixel (x, y) is 255 minus picture pixel (crop_x + x,
// crop_y + y), channel by channel, in a buffer whose rows are crop_width pixels long.
std::vector<float> crop_invert_rgb_reference(const std::vector<float>& rgb, int width, int crop_x, int crop_y,
                                             int crop_width, int crop_height) {
  std::vector<float> out(static_cast<std::size_t>(crop_width) * crop_height * 3);
  for (int y = 0; y < crop_height; ++y)
    for (int x = 0; x < crop_width; ++x)
      for (int c = 0; c < 3; ++c)
        out[red_index(x, y, crop_width) + c] = 255.0f - rgb[red_index(crop_x + x, crop_y + y, width) + c];
  return out;
}

// The crop as a kernel with a typical mistake computes it: picture value `source(x, y, c)` for
// crop pixel (x, y), inverted or not.
std::vector<float> crop_with_mistake(const std::vector<float>& rgb, int crop_width, int crop_height, bool invert,
                                     const std::function<std::size_t(int x, int y, int c)>& source) {
  std::vector<float> out(static_cast<std::size_t>(crop_width) * crop_height * 3);
  for (int y = 0; y < crop_height; ++y)
    for (int x = 0; x < crop_width; ++x)
      for (int c = 0; c < 3; ++c) {
        const std::size_t from = source(x, y, c);
        const float v = from < rgb.size() ? rgb[from] : course::kGuardSentinel;
        out[red_index(x, y, crop_width) + c] = invert ? 255.0f - v : v;
      }
  return out;
}

std::vector<course::Mistake> crop_mistakes(const std::vector<float>& rgb, int width, int crop_x, int crop_y,
                                           int crop_width, int crop_height) {
  auto model = [&rgb, crop_width, crop_height](bool invert, std::function<std::size_t(int, int, int)> source) {
    return [=, &rgb] { return crop_with_mistake(rgb, crop_width, crop_height, invert, source); };
  };
  const std::size_t w = width;
  return {
      {"not inverted", "The values are copied, not inverted: the negative of a value v is 255 - v.",
       model(false, [=](int x, int y, int c) { return ((crop_y + y) * w + crop_x + x) * 3 + c; })},
      {"no crop_x",
       "The crop's left edge crop_x is not added: crop pixel (x, y) is picture pixel (crop_x + x, crop_y + y).",
       model(true, [=](int x, int y, int c) { return ((crop_y + y) * w + x) * 3 + c; })},
      {"no crop_y",
       "The crop's top edge crop_y is not added: crop pixel (x, y) is picture pixel (crop_x + x, crop_y + y).",
       model(true, [=](int x, int y, int c) { return ((y)*w + crop_x + x) * 3 + c; })},
      {"no factor 3",
       "The picture's index lacks its factor of 3: each pixel is three floats, so pixel (px, py) starts at (py * width "
       "+ px) * 3.",
       model(true, [=](int x, int y, int c) { return (crop_y + y) * w + crop_x + x + c; })},
      {"crop offsets swapped",
       "The crop's offsets are swapped in the picture's index: crop_x is added to the row and crop_y to the column, "
       "where crop pixel (x, y) is picture pixel (crop_x + x, crop_y + y).",
       model(true, [=](int x, int y, int c) { return ((crop_x + y) * w + crop_y + x) * 3 + c; })},
      {"column not times 3",
       "Only the row part of the picture's index is multiplied by 3: the column crop_x + x then counts floats, not "
       "pixels, so each pixel is read from the wrong place. Pixel (px, py) starts at (py * width + px) * 3.",
       model(true, [=](int x, int y, int c) { return (crop_y + y) * w * 3 + crop_x + x + c; })},
      {"crop width as row length",
       "The picture's rows are `width` pixels long, not crop_width: the input index must use width.",
       model(true, [=](int x, int y, int c) { return ((crop_y + y) * std::size_t(crop_width) + crop_x + x) * 3 + c; })},
      {"red for every channel",
       "Every channel gets the red value's negative: the input index lacks + c, so all three channels read the "
       "pixel's first float.",
       model(true, [=](int x, int y, int) { return ((crop_y + y) * w + crop_x + x) * 3; })},
      {"channel loop short",
       "The blue channel (the third float of each pixel) is never written: the loop over the channels stops before "
       "c = 2 (c < 3 covers all three).",
       [=, &rgb] {
         std::vector<float> out = crop_with_mistake(rgb, crop_width, crop_height, true, [=](int x, int y, int c) {
           return ((crop_y + y) * w + crop_x + x) * 3 + c;
         });
         for (std::size_t i = 2; i < out.size(); i += 3) out[i] = NAN;
         return out;
       }},
  };
}

// What a kernel with a mistake in its ids or indices writes over the whole output buffer (the crop
// and the slack after it), simulated work-item by work-item over the NDRange: NaN where nothing
// is written, and `outside` set when a write lands before the buffer or past its end. A place
// two work-items write with different values is left to either (`either` marks it).
struct WriteModel {
  bool local_x = false, local_y = false;    // get_local_id where get_global_id belongs
  bool swap_from = false, swap_to = false;  // x and y swapped in the input or the output index
  bool to_rows_of_height = false;           // the output index (swapped or not) uses crop_height
  // The bounds check on x: 0 x < crop_width, 1 x <= crop_width (one past), 2 x < crop_height (the
  // other side's size), 3 none that the NDRange reaches (x compared with the picture's width, or
  // not at all); likewise on y, with crop_height and crop_width.
  int bound_x = 0, bound_y = 0;
  bool both_outside = false;  // a work-item leaves only when x and y are both outside the crop
  bool to_three_on_x = false;  // the output index multiplies only x by 3, not the whole pixel number
};

// Whether `v`, a work-item's x or y, passes a bounds check of kind `bound` (WriteModel) against
// its own side's size `own` and the other side's `other`.
bool inside(long v, int bound, long own, long other) {
  if (bound == 3) return true;
  return bound == 1 ? v <= own : v < (bound == 2 ? other : own);
}

struct SimulatedWrites {
  std::vector<float> values;
  std::vector<bool> either;
  bool outside = false;
};

SimulatedWrites simulate_writes(const WriteModel& m, const std::vector<float>& rgb, int width, int crop_x, int crop_y,
                                int crop_width, int crop_height, std::size_t global_x, std::size_t global_y,
                                std::size_t lx, std::size_t ly, std::size_t buffer_values) {
  SimulatedWrites s{std::vector<float>(buffer_values, NAN), std::vector<bool>(buffer_values, false), false};
  for (std::size_t gy = 0; gy < global_y; ++gy)
    for (std::size_t gx = 0; gx < global_x; ++gx) {
      const long x = long(m.local_x ? gx % lx : gx), y = long(m.local_y ? gy % ly : gy);
      const bool in_x = inside(x, m.bound_x, crop_width, crop_height),
                 in_y = inside(y, m.bound_y, crop_height, crop_width);
      if (m.both_outside ? !in_x && !in_y : !in_x || !in_y) continue;
      const long from =
          m.swap_from ? red_index(crop_x + y, crop_y + x, width) : red_index(crop_x + x, crop_y + y, width);
      const long to = m.to_three_on_x ? y * crop_width + 3 * x
                      : !m.swap_to    ? red_index(x, y, m.to_rows_of_height ? crop_height : crop_width)
                                      : red_index(y, x, m.to_rows_of_height ? crop_height : crop_width);
      for (int c = 0; c < 3; ++c) {
        const long f = from + c, t = to + c;
        // A read outside the picture finds the guard band's sentinel (or worse: then give up).
        const float v = f >= 0 && f < long(rgb.size()) ? 255.0f - rgb[f] : 255.0f - course::kGuardSentinel;
        if (t < 0 || t >= long(buffer_values)) {
          s.outside = true;
          continue;
        }
        if (!std::isnan(s.values[t]) && s.values[t] != v) s.either[t] = true;
        s.values[t] = v;
      }
    }
  return s;
}

// Whether the first `count` of `values` are `other`'s, NaN where it has NaN.
bool same_values(const std::vector<float>& values, const std::vector<float>& other, std::size_t count) {
  if (values.size() < count || other.size() < count) return false;
  for (std::size_t i = 0; i < count; ++i)
    if (std::isnan(values[i]) != std::isnan(other[i]) || (!std::isnan(values[i]) && values[i] != other[i]))
      return false;
  return true;
}

// The cause when the kernel's whole output buffer (`got`, crop and slack) is what a kernel with
// swapped x and y, local ids for global ones, or a wrong bounds check writes: "" when none of
// them matches, or when another of them with another cause, or some of `others` (the crop's other
// mistakes), write the same, which this case then cannot tell from it (a crop one pixel wide swaps
// x and y as using crop_width for the rows does; a crop one row high lets y = 1 through whether y
// is compared with crop_width or with crop_height by >): those are taken out of `others`, so that
// none is named.
std::string id_mistake(const std::vector<float>& got, bool wrote_outside, const std::vector<float>& rgb, int width,
                       int crop_x, int crop_y, int crop_width, int crop_height, std::size_t global_x,
                       std::size_t global_y, std::size_t lx, std::size_t ly,
                       std::vector<course::Mistake>& others) {
  const std::string swapped_to =
      "The output index swaps x and y: crop pixel (x, y) is stored after its row y times the crop's row length "
      "crop_width, plus x, pixels of 3 values.";
  const std::string swapped_from =
      "The input index swaps x and y: crop pixel (x, y) is picture pixel (crop_x + x, crop_y + y), in row crop_y + "
      "y of the picture's rows `width` pixels long, column crop_x + x.";
  const std::string swapped_both =
      "x and y are swapped in both indices: x is the column (the position along a row), y the row; pixel (x, y) of "
      "a row-by-row picture is at (y * row_length + x) * 3.";
  const std::string local =
      "get_local_id is used where get_global_id belongs: the local id starts again at 0 in every work-group, so "
      "every group works on the crop's first block and the rest is never written.";
  const std::string past = "The bounds check is off by one (> where >= belongs): it lets ";
  const std::string past_x = past + "x = crop_width through, a column past the crop; leave once x reaches crop_width.";
  const std::string past_y = past + "y = crop_height through, a row past the crop; leave once y reaches crop_height.";
  const std::string past_both = past + "x = crop_width and y = crop_height through, a column and a row past the "
                                       "crop; leave once x reaches crop_width or y crop_height.";
  const std::string other = "The bounds check compares ";
  const std::string other_x = other + "x with crop_height: x is the column, so leave once x reaches crop_width.";
  const std::string other_y = other + "y with crop_width: y is the row, so leave once y reaches crop_height.";
  const std::string other_both =
      other + "x with crop_height and y with crop_width: x is the column, bounded by crop_width, y the row.";
  // No bound the NDRange reaches: what the writes show, whatever x is compared with (if anything).
  const std::string loose = "The bounds check does not stop ";
  const std::string loose_x = loose + "x at crop_width: every work-item of the NDRange's overhang to the right of "
                                      "the crop writes, columns past the crop; leave once x reaches crop_width.";
  const std::string loose_y = loose + "y at crop_height: every work-item of the NDRange's overhang below the crop "
                                      "writes, rows past the crop; leave once y reaches crop_height.";
  const std::string loose_both = loose + "x at crop_width nor y at crop_height: every work-item of the NDRange "
                                         "writes; leave once x reaches crop_width or y crop_height.";
  const std::string both_outside =
      "The bounds check leaves only when x and y are both outside the crop: a work-item outside it in one direction "
      "alone (right of it, or below it) still writes. Leave when either one is outside.";
  const std::string rows_of_height =
      "The output's rows are crop_height pixels long in its index: the crop is stored row by row, crop_width pixels "
      "a row, so rows overlap or leave gaps wherever the crop is not square.";
  const std::string three_on_x =
      "Every value written is where an output index that multiplies only x by 3 puts it: crop pixel (x, y) starts "
      "at 3 times its whole pixel number (row y times crop_width, plus x), not at row y times crop_width plus 3x.";
  auto bounds = [](int x, int y) {
    WriteModel m;
    m.bound_x = x, m.bound_y = y;
    return m;
  };
  WriteModel either = {};
  either.both_outside = true;
  // Each bound beside the others that can write the same: a crop whose NDRange ends one column
  // past it writes that column whether x stops one too late or not at all.
  const std::pair<WriteModel, std::string> models[] = {
      {bounds(1, 0), past_x},  {bounds(0, 1), past_y},  {bounds(1, 1), past_both},
      {bounds(2, 0), other_x}, {bounds(0, 2), other_y}, {bounds(2, 2), other_both},
      {bounds(3, 0), loose_x}, {bounds(0, 3), loose_y}, {bounds(3, 3), loose_both},
      {either, both_outside},
      {{false, false, false, true, false}, swapped_to},   {{false, false, false, true, true}, swapped_to},
      {{false, false, true, false, false}, swapped_from}, {{false, false, true, true, false}, swapped_both},
      {{true, true, false, false, false}, local},         {{true, false, false, false, false}, local},
      {{false, true, false, false, false}, local},
      {{false, false, false, false, false, 0, 0, false, true}, three_on_x},
      {{false, false, false, false, true}, rows_of_height},
  };
  const SimulatedWrites right =
      simulate_writes({}, rgb, width, crop_x, crop_y, crop_width, crop_height, global_x, global_y, lx, ly, got.size());
  const std::size_t count = static_cast<std::size_t>(crop_width) * crop_height * 3;
  std::string found;
  bool ambiguous = false;
  for (const auto& [model, sentence] : models) {
    const SimulatedWrites s = simulate_writes(model, rgb, width, crop_x, crop_y, crop_width, crop_height, global_x,
                                              global_y, lx, ly, got.size());
    if (s.outside != wrote_outside) continue;
    bool same = true, differs = false;
    for (std::size_t i = 0; i < got.size() && same; ++i) {
      if (s.either[i]) continue;
      same = std::isnan(s.values[i]) ? std::isnan(got[i]) : got[i] == s.values[i];
    }
    // A model that writes what the right kernel writes names no mistake (a 1x1 crop swaps nothing).
    for (std::size_t i = 0; i < got.size() && !differs; ++i)
      differs = std::isnan(right.values[i]) != std::isnan(s.values[i]) ||
                (!std::isnan(s.values[i]) && right.values[i] != s.values[i]);
    if (!same || !(differs || s.outside)) continue;
    // Two models with different causes that both write this: the case cannot tell which.
    ambiguous = ambiguous || (!found.empty() && found != sentence);
    found = sentence;
    // (One that writes the right crop here is no rival: the writes past it tell them apart.)
    const auto alike = std::remove_if(others.begin(), others.end(), [&](const course::Mistake& other) {
      const std::vector<float> theirs = other.output();
      return same_values(s.values, theirs, count) && !same_values(right.values, theirs, count);
    });
    ambiguous = ambiguous || alike != others.end();
    others.erase(alike, others.end());
  }
  return ambiguous ? "" : found;
}

void check_crop_invert_rgb(course::ExerciseCheck& check) {
  const course::DeviceContext& dc = check.device();
  cl::Program program = check.build("crop_invert_rgb.cl");
  cl::Kernel kernel(program, "crop_invert_rgb");
  const std::size_t kernel_max = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);

  struct Case {
    int width, height, crop_x, crop_y, crop_width, crop_height, local_x, local_y;
  };
  // Crops that start at the origin and elsewhere, reach the right or bottom edge or not, and
  // are narrower than, as wide as, or wider than the picture's other crops: an index that uses
  // the picture's width for the crop (or the other way round), forgets the offset or the three
  // channels, or swaps x and y, shows in at least one of them.
  const Case cases[] = {
      {1, 1, 0, 0, 1, 1, 1, 1},         {7, 5, 6, 4, 1, 1, 4, 4},        {29, 1, 3, 0, 23, 1, 8, 2},
      {1, 23, 0, 4, 1, 19, 4, 4},       {37, 29, 5, 3, 17, 11, 8, 8},    {97, 61, 0, 0, 97, 61, 16, 4},
      {131, 67, 60, 20, 71, 47, 32, 1}, {61, 97, 13, 41, 48, 56, 1, 32}, {256, 3, 100, 1, 131, 2, 16, 16},
      {41, 43, 40, 0, 1, 43, 2, 8},     {53, 47, 0, 46, 53, 1, 16, 2},   {83, 79, 2, 7, 3, 61, 8, 8}};
  std::uint32_t seed = 101;
  for (const Case& c : cases) {
    const std::size_t lx = std::min<std::size_t>(c.local_x, kernel_max);
    const std::size_t ly = std::max<std::size_t>(1, std::min<std::size_t>(c.local_y, kernel_max / lx));
    const std::string name = std::to_string(c.crop_width) + "x" + std::to_string(c.crop_height) + " crop at (" +
                             std::to_string(c.crop_x) + ", " + std::to_string(c.crop_y) + ") of a " +
                             std::to_string(c.width) + "x" + std::to_string(c.height) + " RGB picture, " +
                             std::to_string(lx) + "x" + std::to_string(ly) + " work-groups";
    check.run_case(name, [&] {
      // Three random values per pixel: a picture of width*3 x height random gray levels.
      const std::vector<float> rgb = course::random_gray(c.width * 3, c.height, seed++).pixels;
      const std::size_t global_x = course::round_up(c.crop_width, lx), global_y = course::round_up(c.crop_height, ly);
      const std::size_t count = static_cast<std::size_t>(c.crop_width) * c.crop_height * 3;
      // A kernel without a bounds check writes as far as the NDRange overhangs the crop, which
      // can be more than a guard band holds: the output gets that much slack after the crop,
      // which must still hold NaN afterwards.
      const std::size_t slack = (global_y * std::max(c.width, c.crop_width) + global_x) * 3;
      course::GuardedBuffer input(dc, rgb.size()), output(dc, count + slack);
      input.write(rgb);
      kernel.setArg(0, input.buffer());
      kernel.setArg(1, output.buffer());
      kernel.setArg(2, c.width);
      kernel.setArg(3, c.crop_x);
      kernel.setArg(4, c.crop_y);
      kernel.setArg(5, c.crop_width);
      kernel.setArg(6, c.crop_height);
      dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global_x, global_y), cl::NDRange(lx, ly));
      dc.queue.finish();
      // The crop's own names: its bounds are crop_width and crop_height, not the picture's.
      const std::string damage = output.damaged_guards(
          "Every store must stay inside the crop's crop_width * crop_height * 3 values: check the bounds check (x "
          "against crop_width, y against crop_height), the output index (row y of crop_width pixels, column x) and "
          "the channel loop (c from 0 to 2).");
      std::vector<float> got = output.read();
      std::vector<course::Mistake> mistakes =
          crop_mistakes(rgb, c.width, c.crop_x, c.crop_y, c.crop_width, c.crop_height);
      // Swapped ids or local ids write into the wrong places, maybe outside the crop: named first,
      // with the damage or the pixels as evidence.
      if (const std::string why = id_mistake(got, !damage.empty(), rgb, c.width, c.crop_x, c.crop_y, c.crop_width,
                                             c.crop_height, global_x, global_y, lx, ly, mistakes);
          !why.empty()) {
        const std::vector<float> expected =
            crop_invert_rgb_reference(rgb, c.width, c.crop_x, c.crop_y, c.crop_width, c.crop_height);
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < count; ++i) wrong += !(got[i] == expected[i]);
        const auto past = std::count_if(got.begin() + count, got.end(), [](float v) { return !std::isnan(v); });
        return check.fail(name, why,
                          std::to_string(wrong) + " of " + std::to_string(count) + " values wrong or never written" +
                              (past ? "; " + std::to_string(past) + " written past the crop's last value" : "") +
                              (damage.empty() ? "" : "; some writes landed outside the output buffer"),
                          "");
      }
      if (!damage.empty()) return check.fail(name, damage);
      const auto written = std::find_if(got.begin() + count, got.end(), [](float v) { return !std::isnan(v); });
      if (written != got.end())
        return check.fail(name, "the kernel wrote past the crop's last value (at index " +
                                    std::to_string(written - got.begin()) + " of a crop of " + std::to_string(count) +
                                    " values). Every store must land inside the crop: check the bounds check (x "
                                    "against crop_width, y against crop_height), the output index (rows crop_width "
                                    "pixels wide, not the picture's width) and the channel loop (c from 0 to 2).");
      got.resize(count);
      const std::vector<float> expected =
          crop_invert_rgb_reference(rgb, c.width, c.crop_x, c.crop_y, c.crop_width, c.crop_height);
      check.expect_image(name, got, expected, c.crop_width, c.crop_height, 0.0, 3, {std::move(mistakes), {}});
    });
  }
}

}  // namespace

COURSE_EXERCISE("01", "01_platform_setup", "crop and invert an RGB picture: bounds, offsets, interleaved channels",
                check_crop_invert_rgb);
