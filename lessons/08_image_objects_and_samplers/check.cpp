// Exercise 08's cases: one level of an image pyramid (the picture halved, each output pixel a
// weighted sum around input pixel (2x, 2y)) from a tile the whole work-group loads, on random
// RGBA images with random (asymmetric) weights, odd and even sizes no work-group divides, every
// radius from 0 to 4 and group shapes the lesson's kernels do not use, with local memory
// poisoned by NaN and guard bands around the output.
#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>

#include "checker.hpp"
#include "course.hpp"

namespace {

// Random weights that sum to 1 and differ from tap to tap, so a mirrored or shifted index
// shows up as a wrong sum.
std::vector<float> random_weights(int radius, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.1f, 1.0f);
  std::vector<float> w((2 * radius + 1) * (2 * radius + 1));
  float sum = 0;
  for (float& v : w) sum += (v = u(rng));
  for (float& v : w) v /= sum;
  return w;
}

// The CPU reference: output (x, y) of each channel is the weighted sum of the input pixels
// (2x - radius + i, 2y - radius + j), positions outside clamped to the nearest edge pixel.
std::vector<float> reference_pyramid_down(const course::RgbaImage& in, const std::vector<float>& weights, int radius,
                                          int out_width, int out_height) {
  const int taps = 2 * radius + 1;
  std::vector<float> out(std::size_t(out_width) * out_height * 4);
  for (int y = 0; y < out_height; ++y)
    for (int x = 0; x < out_width; ++x)
      for (int c = 0; c < 4; ++c) {
        double sum = 0;
        for (int j = 0; j < taps; ++j)
          for (int i = 0; i < taps; ++i) {
            const int sx = std::clamp(2 * x - radius + i, 0, in.width - 1);
            const int sy = std::clamp(2 * y - radius + j, 0, in.height - 1);
            sum += double(weights[j * taps + i]) * in.pixels[(std::size_t(sy) * in.width + sx) * 4 + c];
          }
        out[(std::size_t(y) * out_width + x) * 4 + c] = float(sum);
      }
  return out;
}

// What a kernel with a mistake in where its windows lie computes: output (x, y) of each channel is
// the weighted sum of the input centred on (centre_x(x), centre_y(y)) instead of (2x, 2y),
// positions outside clamped, limited to 0..255 as the saturating conversion does.
std::vector<float> pyramid_down_centred(const course::RgbaImage& in, const std::vector<float>& weights, int radius,
                                        int out_width, int out_height, const std::function<int(int)>& centre_x,
                                        const std::function<int(int)>& centre_y) {
  const int taps = 2 * radius + 1;
  std::vector<float> out(std::size_t(out_width) * out_height * 4);
  for (int y = 0; y < out_height; ++y)
    for (int x = 0; x < out_width; ++x)
      for (int c = 0; c < 4; ++c) {
        double sum = 0;
        for (int j = 0; j < taps; ++j)
          for (int i = 0; i < taps; ++i) {
            const int sx = std::clamp(centre_x(x) - radius + i, 0, in.width - 1);
            const int sy = std::clamp(centre_y(y) - radius + j, 0, in.height - 1);
            sum += double(weights[j * taps + i]) * in.pixels[(std::size_t(sy) * in.width + sx) * 4 + c];
          }
        out[(std::size_t(y) * out_width + x) * 4 + c] = float(std::clamp(sum, 0.0, 255.0));
      }
  return out;
}

// What a kernel computes whose tile is `tile_w` x `tile_h` elements, element t loaded from the
// input at the group's origin plus load(t) (column, row; with `swapped`, at the origin's (y, x)
// plus (row, column): a read_imagef whose coordinates are swapped), and whose sums read element
// (2 ly + j) * row + 2 lx + i, `row` elements a tile row (tile_w unless said): NaN (any value)
// where that lies past the tile.
std::vector<float> pyramid_from_tile(const course::RgbaImage& in, const std::vector<float>& weights, int radius,
                                     int out_width, int out_height, int group_w, int group_h, int tile_w, int tile_h,
                                     const std::function<std::pair<int, int>(int)>& load, int read_offset = 0,
                                     int row = 0, bool swapped = false) {
  if (row == 0) row = tile_w;
  const int taps = 2 * radius + 1;
  std::vector<float> out(std::size_t(out_width) * out_height * 4);
  for (int y = 0; y < out_height; ++y)
    for (int x = 0; x < out_width; ++x) {
      const int lx = x % group_w, ly = y % group_h;
      // The group's first output is (x - lx, y - ly); its tile starts twice that, less the radius.
      const int left = 2 * (x - lx) - radius, top = 2 * (y - ly) - radius;
      for (int c = 0; c < 4; ++c) {
        double sum = 0;
        for (int j = 0; j < taps; ++j)
          for (int i = 0; i < taps; ++i) {
            const int t = (2 * ly + j) * row + 2 * lx + i + read_offset;
            if (t >= tile_w * tile_h) sum = NAN;
            const auto [tx, ty] = load(t);
            const int sx = std::clamp(swapped ? top + ty : left + tx, 0, in.width - 1),
                      sy = std::clamp(swapped ? left + tx : top + ty, 0, in.height - 1);
            sum += double(weights[j * taps + i]) * in.pixels[(std::size_t(sy) * in.width + sx) * 4 + c];
          }
        out[(std::size_t(y) * out_width + x) * 4 + c] = std::isnan(sum) ? NAN : float(std::clamp(sum, 0.0, 255.0));
      }
    }
  return out;
}

// A sum converted by truncation is below the exact one by less than 1 wherever it is wrong; one not
// scaled by 255 is 0 or 1 everywhere. (A pixel 0 in every channel, the poison NaN of a tile element
// read before anyone loaded it or never loaded, the checker names itself: details.tile.)
std::string pyramid_diagnosis(const std::vector<float>& got, const std::vector<float>& expected) {
  bool truncated = true, unscaled = true, bright = false, ones = false;
  for (std::size_t i = 0; i < got.size(); ++i) {
    // Rounded down, the exact sum give or take float rounding.
    const double e = expected[i], lo = std::floor(std::clamp(e - 0.01, 0.0, 255.0)),
                 hi = std::floor(std::clamp(e + 0.01, 0.0, 255.0));
    truncated = truncated && (got[i] == lo || got[i] == hi);
    unscaled = unscaled && (got[i] == 0 || got[i] == 1);
    bright = bright || expected[i] > 2;
    ones = ones || got[i] == 1;
  }
  if (truncated)
    return "The sum is converted by truncation: convert_uchar4_sat drops the fraction (37.9 becomes 37). Round to the "
           "nearest with convert_uchar4_sat_rte.";
  if (unscaled && ones && bright)
    return "The sum is not scaled by 255: read_imagef gives 0..1 for an 8-bit image, so every output is 0 or 1. "
           "Convert sum * 255.0f.";
  return "";
}

void check_pyramid_down(course::ExerciseCheck& check) {
  const course::DeviceContext& dc = check.device();
  if (!dc.device.getInfo<CL_DEVICE_IMAGE_SUPPORT>())
    throw course::SkipLesson("this device has no image support, so exercise 08 cannot run here");

  struct Shape {
    int group_w, group_h, radius;
  };
  // Every radius the exercise takes (0 to 4) on 8x4 groups, then shapes the lesson's blur never
  // runs: wide, tall, one row, one column, and sides that are not powers of two.
  const Shape shapes[] = {{8, 4, 0},  {8, 4, 1},  {8, 4, 2},  {8, 4, 3}, {8, 4, 4},   {16, 8, 2},
                          {4, 16, 2}, {32, 1, 1}, {1, 16, 2}, {5, 3, 2}, {16, 16, 3}, {7, 9, 4}};
  using Size = course::CaseSize;
  // Input sizes: one pixel, one row or column, odd and even sides, halves no group divides.
  const Size sizes[] = {{1, 1}, {1, 23}, {29, 1}, {2, 2}, {3, 5}, {37, 29}, {97, 61}, {64, 32}};
  const std::size_t device_max = dc.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  std::uint32_t seed = 8;
  for (const Shape& s : shapes) {
    const std::string shape =
        std::to_string(s.group_w) + "x" + std::to_string(s.group_h) + " groups, radius " + std::to_string(s.radius);
    if (std::size_t(s.group_w) * s.group_h > device_max) {
      check.pass(shape, "skipped: more work-items than this device allows in a group");
      continue;
    }
    cl::Program program = check.build(
        "pyramid_down.cl", "-D COURSE_POISON_LOCAL -D RADIUS=" + std::to_string(s.radius) +
                               " -D GROUP_W=" + std::to_string(s.group_w) + " -D GROUP_H=" + std::to_string(s.group_h));
    cl::Kernel kernel(program, "pyramid_down");
    const std::vector<float> weights = random_weights(s.radius, seed);
    cl::Buffer weight_buffer(dc.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, weights.size() * sizeof(float),
                             const_cast<float*>(weights.data()));
    for (const Size& size : sizes) {
      const int out_w = (size.width + 1) / 2, out_h = (size.height + 1) / 2;
      const std::string name = std::to_string(size.width) + "x" + std::to_string(size.height) + " -> " +
                               std::to_string(out_w) + "x" + std::to_string(out_h) + ", " + shape;
      check.run_case(name, [&] {
        const course::RgbaImage image = course::random_rgba(size.width, size.height, seed++);
        cl::Image2D input(dc.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, cl::ImageFormat(CL_RGBA, CL_UNORM_INT8),
                          size.width, size.height, 0, const_cast<std::uint8_t*>(image.pixels.data()));
        course::GuardedBuffer output(dc, std::size_t(out_w) * out_h);
        kernel.setArg(0, input);
        kernel.setArg(1, weight_buffer);
        kernel.setArg(2, output.buffer());
        kernel.setArg(3, out_w);
        kernel.setArg(4, out_h);
        const cl::NDRange global(course::round_up(out_w, s.group_w), course::round_up(out_h, s.group_h));
        // One run on an output of NaN (again when the report runs the kernel a second time).
        const auto run = [&] {
          output.write(std::vector<float>(std::size_t(out_w) * out_h, NAN));
          dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, cl::NDRange(s.group_w, s.group_h));
          dc.queue.finish();
          return course::pixel_bytes_as_values(output.read());
        };
        const std::vector<float> got = run();
        if (const std::string damage = output.damaged_guards(); !damage.empty()) return check.fail(name, damage);
        const std::vector<float> expected = reference_pyramid_down(image, weights, s.radius, out_w, out_h);
        course::CaseDetails details;
        details.rerun = run;
        details.work_groups = global[0] / s.group_w * (global[1] / s.group_h);
        // A group computes GROUP_W x GROUP_H outputs, two input pixels apart, from a tile of
        // (2 GROUP_W - 1 + 2R) x (2 GROUP_H - 1 + 2R); the poison NaN comes out as 0 in a uchar4.
        details.tile = {s.group_w, s.group_h, s.radius, s.radius, 2, true};
        // Where a kernel with a typical mistake centres output (x, y)'s window, along one axis of a
        // group `size` outputs wide: the right place, 2x; an origin without the factor 2 (each group
        // shifted back by group_id * size); an origin without the halo (RADIUS further on); a tile
        // read without the factor 2 (output l of the group at tile element l, not 2l).
        const int r = s.radius;
        const std::function<int(int, int)> right = [](int v, int) { return 2 * v; };
        const std::function<int(int, int)> halved = [](int v, int size) { return 2 * v - v / size * size; };
        const std::function<int(int, int)> no_halo = [r](int v, int) { return 2 * v + r; };
        const std::function<int(int, int)> unscaled = [](int v, int size) { return 2 * v - v % size; };
        const std::pair<std::function<int(int, int)>, std::string> placements[] = {
            {halved,
             "The tile starts at the wrong place: a group's outputs read the input from 2 * group_id * GROUP - "
             "RADIUS (two input pixels per output), not group_id * GROUP - RADIUS."},
            {no_halo,
             "The result is moved by RADIUS input pixels: each output holds the sum centred RADIUS pixels right of "
             "or below input (2x, 2y). The tile's origin leaves out the halo: it starts at 2 * group_id * GROUP - "
             "RADIUS."},
            {unscaled,
             "The sums read the tile without the factor 2: output (lx, ly) is centred on input (2x, 2y), which is "
             "tile element (2 * lx + RADIUS, 2 * ly + RADIUS), not (lx + RADIUS, ly + RADIUS)."},
        };
        const int gw = s.group_w, gh = s.group_h;
        // An origin that moves by the other axis's group size: 2 * group_id(1) * GROUP_W along y.
        if (gw != gh)
          for (const auto& [along_x, along_y] : {std::pair{true, false}, {false, true}, {true, true}})
            details.mistakes.push_back(
                {along_x && along_y ? "both origins with the other group size"
                 : along_x          ? "origin_x with GROUP_H"
                                    : "origin_y with GROUP_W",
                 std::string("The tile starts at the wrong place: ") +
                     (along_x && along_y ? "origin_x moves by 2 * GROUP_H per group and origin_y by 2 * GROUP_W"
                      : along_x          ? "origin_x moves by 2 * GROUP_H per group"
                                         : "origin_y moves by 2 * GROUP_W per group") +
                     ", but each must move by its own axis's group size: twice GROUP_W per group along x, twice "
                     "GROUP_H along y.",
                 [&image, weights, r, out_w, out_h, gw, gh, along_x, along_y] {
                   return pyramid_down_centred(
                       image, weights, r, out_w, out_h,
                       [&](int x) { return along_x ? 2 * (x / gw * gh + x % gw) : 2 * x; },
                       [&](int y) { return along_y ? 2 * (y / gh * gw + y % gh) : 2 * y; });
                 }});
        for (const auto& [wrong, sentence] : placements)
          for (const auto& [along_x, along_y] : {std::pair{true, false}, {false, true}, {true, true}}) {
            const auto& fx = along_x ? wrong : right;
            const auto& fy = along_y ? wrong : right;
            details.mistakes.push_back(
                {"window placed wrong", sentence, [&image, weights, r, out_w, out_h, fx, fy, gw, gh] {
                   return pyramid_down_centred(
                       image, weights, r, out_w, out_h, [&](int x) { return fx(x, gw); },
                       [&](int y) { return fy(y, gh); });
                 }});
          }
        // The tile one column and one row short; its elements loaded from positions counted in
        // rows of GROUP_W, not TILE_W.
        const int tile_w = 2 * gw - 1 + 2 * r, tile_h = 2 * gh - 1 + 2 * r;
        // A kernel whose tile is tw x th, element t loaded from load(t), read `offset` elements late;
        // `any`: reads past the tile are any value.
        using Load = std::function<std::pair<int, int>(int)>;
        const auto from_tile = [&](const char* what, const std::string& sentence, int tw, int th, Load load, int offset,
                                   bool any, int row = 0, bool swapped = false) {
          details.mistakes.push_back({what, sentence,
                                      [&image, weights, r, out_w, out_h, gw, gh, tw, th, load, offset, row, swapped] {
                                        return pyramid_from_tile(image, weights, r, out_w, out_h, gw, gh, tw, th, load,
                                                                 offset, row, swapped);
                                      },
                                      any});
        };
        const Load rows_of_tile_w = [tile_w](int t) { return std::pair{t % tile_w, t / tile_w}; };
        // The sums step from one tile row to the next by another size than TILE_W, the length of a row.
        const std::pair<const char*, int> other_rows[] = {{"TILE_H", tile_h}, {"GROUP_W", gw}, {"GROUP_H", gh}};
        for (const auto& [row_name, row] : other_rows)
          if (row != tile_w)
            from_tile("tile rows read as", 
                      std::string("The sums step from one tile row to the next by ") + row_name +
                          " elements: a row of the tile is TILE_W elements long, so each row starts TILE_W elements "
                          "after the one above it.",
                      tile_w, tile_h, rows_of_tile_w, 0, true, row);
        from_tile("load swaps x and y",
                  "The tile is loaded with x and y swapped: tile element (tx, ty) holds input (origin_x + tx, "
                  "origin_y + ty), and read_imagef takes the column first, (int2)(x, y).",
                  tile_w, tile_h, rows_of_tile_w, 0, false, 0, true);
        // The load's tx and ty swapped in the input position (not its origins): element (tx, ty) holds
        // input (origin_x + ty, origin_y + tx), the block turned over its diagonal.
        from_tile(
            "load swaps tx and ty",
            "Every output equals the level whose tile holds the block turned over its diagonal: the load "
            "adds ty to origin_x and tx to origin_y, where tile element (tx, ty) holds input (origin_x + tx, "
            "origin_y + ty).",
            tile_w, tile_h,
            [tile_w](int t) {
              return std::pair{t / tile_w, t % tile_w};
            },
            0, false);
        from_tile("load steps by 2",
                  "The tile is loaded from every second input pixel: tile element (tx, ty) must hold input "
                  "(origin_x + tx, origin_y + ty), the neighbouring pixels; the sums already step by 2 (2 * lx + i).",
                  tile_w, tile_h, [tile_w](int t) { return std::pair{2 * (t % tile_w), 2 * (t / tile_w)}; }, 0, false);
        // The origin taken from the work-item's global id (2 * gx - RADIUS), not its group's: each
        // work-item loads its elements (tx = lx, lx + GROUP_W, ...) from an origin 2 * lx further on.
        for (const auto& [along_x, along_y] : {std::pair{true, false}, {false, true}, {true, true}})
          from_tile(
              along_x && along_y ? "origins from the global ids"
              : along_x          ? "origin_x from the global id"
                                 : "origin_y from the global id",
              std::string("The tile starts at each work-item's own place: ") +
                  (along_x && along_y ? "origin_x and origin_y come"
                   : along_x          ? "origin_x comes"
                                      : "origin_y comes") +
                  " from the work-item's global id, so every work-item loads its share of the tile from an "
                  "origin of its own (work-item lx from 2 * lx further on). The tile's origin is one for the "
                  "whole group: it follows from get_group_id, the group's first output.",
              tile_w, tile_h,
              [tile_w, gw, gh, along_x = along_x, along_y = along_y](int t) {
                const int tx = t % tile_w, ty = t / tile_w;
                return std::pair{along_x ? tx + 2 * (tx % gw) : tx, along_y ? ty + 2 * (ty % gh) : ty};
              },
              0, false);
        from_tile(
            "tile one short",
            "The tile is one column and one row short: the group's first output reads from input 2 * 0 - "
            "RADIUS, its last from 2 * (GROUP - 1) + RADIUS, and TILE_W spans both (likewise TILE_H). The last "
            "column's sums run into the next row of the tile and the last row's past its end.",
            tile_w - 1, tile_h - 1,
            [tile_w](int t) {
              return std::pair{t % (tile_w - 1), t / (tile_w - 1)};
            },
            0, true);
        // The tile sized as for a filter that keeps the size: GROUP + 2R along x, y or both.
        for (const auto& [along_x, along_y] : {std::pair{true, true}, {true, false}, {false, true}}) {
          const int tw = along_x ? gw + 2 * r : tile_w, th = along_y ? gh + 2 * r : tile_h;
          if (tw == tile_w && th == tile_h) continue;
          const std::string sides = along_x && along_y ? "TILE_W is GROUP_W + 2 * RADIUS and TILE_H GROUP_H + 2 * RADIUS"
                                    : along_x          ? "TILE_W is GROUP_W + 2 * RADIUS"
                                                       : "TILE_H is GROUP_H + 2 * RADIUS";
          from_tile(along_x && along_y ? "tile of a same-size filter"
                    : along_x          ? "tile of a same-size filter along x"
                                       : "tile of a same-size filter along y",
                    "The tile is too small for halving: " + sides +
                        ", as for a filter that keeps the size, but a group's outputs read inputs 2 * 0 - RADIUS to 2 "
                        "* (GROUP - 1) + RADIUS, and TILE_W must span them all (likewise TILE_H).",
                    tw, th, [tw](int t) { return std::pair{t % tw, t / tw}; }, 0, true);
        }
        // The tile's width sized from the group's height (copied from TILE_H's line). (TILE_H sized from
        // GROUP_W changes only values read past the tile, which no model can tell: Oclgrind names that read.)
        if (gw != gh) {
          const int tw = 2 * gh - 1 + 2 * r;
          from_tile("TILE_W from GROUP_H",
                    "The tile's width is sized from the group's height: TILE_W counts the input columns a row of "
                    "the group's outputs reads, which follow from GROUP_W (GROUP_H belongs in TILE_H).",
                    tw, tile_h, [tw](int t) { return std::pair{t % tw, t / tw}; }, 0, true);
        }
        if (gw != tile_w)
          from_tile(
              "tile rows of GROUP_W",
              "The copy places tile element t at column t % GROUP_W, row t / GROUP_W of the input block: a row "
              "of the tile is TILE_W elements long, so element t is column t % TILE_W, row t / TILE_W.",
              tile_w, tile_h,
              [gw](int t) {
                return std::pair{t % gw, t / gw};
              },
              0, false);
        // The sums read the tile RADIUS elements right of where output (lx, ly)'s window starts.
        from_tile(
            "tile read RADIUS late",
            "The sums read the tile RADIUS elements too far right: tile element (2 * lx, 2 * ly) already holds "
            "input (2x - RADIUS, 2y - RADIUS), the window's first pixel, so the window starts there, not RADIUS "
            "further.",
            tile_w, tile_h,
            [tile_w](int t) {
              return std::pair{t % tile_w, t / tile_w};
            },
            r, true);
        // The weights read transposed: w(i, j) taken from row i, column j.
        std::vector<float> transposed(weights.size());
        const int taps = 2 * r + 1;
        for (int j = 0; j < taps; ++j)
          for (int i = 0; i < taps; ++i) transposed[j * taps + i] = weights[i * taps + j];
        details.mistakes.push_back(
            {"weights transposed",
             "The weights are read transposed: the weight of tap (i, j) is weights[j * TAPS + i], row j, column i, "
             "not weights[i * TAPS + j].",
             [&image, transposed, r, out_w, out_h] {
               return pyramid_down_centred(
                   image, transposed, r, out_w, out_h, [](int x) { return 2 * x; }, [](int y) { return 2 * y; });
             }});
        details.mistakes.push_back(
            {"scaled by 256",
             "The sum is scaled by 256, not 255: read_imagef gives level / 255 for an 8-bit image, so the level is "
             "sum * 255.0f.",
             [&expected] {
               std::vector<float> out(expected.size());
               for (std::size_t i = 0; i < out.size(); ++i)
                 out[i] = float(std::clamp(expected[i] * 256.0 / 255.0, 0.0, 255.0));
               return out;
             }});
        // The load's rows bounded by the tile's width: rows TILE_W on never loaded hold the poison,
        // which every output reading them turns to 0.
        if (tile_w < tile_h)
          details.mistakes.push_back(
              {"tile rows up to TILE_W",
               "The tile's bottom rows are never loaded: the load's loop over the tile's rows stops at TILE_W, the "
               "tile's width, where the rows run to TILE_H.",
               [&expected, out_w, gh, r, tile_w] {
                 std::vector<float> out = expected;
                 for (std::size_t i = 0; i < out.size(); ++i)
                   if (2 * (int(i / 4 / out_w) % gh) + 2 * r >= tile_w) out[i] = 0;
                 return out;
               }});
        details.diagnose = [&expected](const std::vector<float>& values) {
          return pyramid_diagnosis(values, expected);
        };
        check.expect_image(name, got, expected, out_w, out_h, 0.6, 4, details);
      });
    }
  }
}

}  // namespace

COURSE_EXERCISE("08", "08_image_objects_and_samplers",
                "one pyramid level: the halved picture's tile, its cooperative load and barrier, and its sum",
                check_pyramid_down);
