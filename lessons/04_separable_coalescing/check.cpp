// Exercise 04's cases: the coalesced column pass whose block of outputs is BLOCK_H rows high in
// groups COL_H work-items high, against the CPU reference: blocks shorter than the group, as high,
// higher by a whole multiple and by a remainder; every radius the kernel allows (0..16);
// Gaussian, box and lopsided weights; random images whose sizes no work-group or block divides;
// local memory poisoned with NaN; guard bands around the output.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "checker.hpp"
#include "course.hpp"
#include "never_written.hpp"
#include "separable_host.hpp"
#include "trace_access.hpp"

namespace {

// The column pass as a group computes it from its tile, with the sum reading tile column
// `column(lx, ly, x)` of the work-item's local ids or its global x instead of lx: the flat index (r + k) * COL_W +
// column, so a column past COL_W lands in the next tile row. Tile row i holds image row y0 - R + i
// (clamped) of column x0 + c (the last column right of the image); rows past the BLOCK_H + 2R
// copied hold anything (NaN).
std::vector<float> tile_column_model(const course::GrayImage& in, const std::vector<float>& weights, int radius,
                                     int block_h, int col_w, int col_h, int (*column)(int lx, int ly, int x)) {
  const int w = in.width, h = in.height, copied = block_h + 2 * radius;
  std::vector<float> out(in.pixels.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int y0 = y / block_h * block_h, x0 = x / col_w * col_w, r = y - y0;
      const int flat = column(x - x0, r % col_h, x);
      double sum = 0;
      for (int k = 0; k <= 2 * radius; ++k) {
        const int at = (r + k) * col_w + flat, i = at / col_w, c = at % col_w;
        sum += i < copied
                   ? weights[k] *
                         in.pixels[std::size_t(std::clamp(y0 - radius + i, 0, h - 1)) * w + std::min(x0 + c, w - 1)]
                   : std::nan("");
      }
      out[std::size_t(y) * w + x] = float(sum);
    }
  return out;
}

// The typical mistakes: the weights read the wrong way round, and a tile one row short (the poison
// NaN of its missing last row reaches the last output row of every block).
std::vector<course::Mistake> column_mistakes(const course::GrayImage& in, const std::vector<float>& weights, int radius,
                                             int block_h, int col_w, int col_h) {
  const auto columns = course::Axis::columns;
  // The block's last `missing` output rows read rows of the tile never copied (NaN).
  const auto short_tile = [&in, weights, radius, block_h, columns](int missing) {
    return course::with_holes(course::one_pass_reference(in, weights, radius, columns), in, columns, block_h,
                              [block_h, missing](int y) { return y >= block_h - missing; });
  };
  return {
      {"ly for lx in the sum",
       "Every output equals the column pass whose sum reads the tile at column ly, the local id along y, where lx "
       "belongs: each work-item sums the column of its row's place in the group, not its own.",
       [&in, weights, radius, block_h, col_w, col_h] {
         return course::where_values_show(
             tile_column_model(in, weights, radius, block_h, col_w, col_h, [](int, int ly, int) { return ly; }),
             course::one_pass_reference(in, weights, radius, course::Axis::columns), 2e-3);
       },
       true},
      {"x for lx in the sum",
       "Every output equals the column pass whose sum reads the tile at column x, the global id, where lx belongs: "
       "the tile holds only the group's COL_W columns, so the groups after the first along x read other columns of "
       "it, or past it.",
       [&in, weights, radius, block_h, col_w, col_h] {
         return course::where_values_show(
             tile_column_model(in, weights, radius, block_h, col_w, col_h, [](int, int, int x) { return x; }),
             course::one_pass_reference(in, weights, radius, course::Axis::columns), 2e-3);
       },
       true},
      {"weights flipped",
       "The window is read the wrong way round: output y takes weights[k + radius] * in(y + k), not weights[radius - "
       "k].",
       [&in, weights, radius] {
         return course::one_pass_reference(in, std::vector<float>(weights.rbegin(), weights.rend()), radius,
                                           course::Axis::columns);
       }},
      {"tile one row short",
       "The tile is one row short: a block of BLOCK_H outputs reads BLOCK_H + 2 * radius rows, so the block's last "
       "output row reads a row never copied.",
       [short_tile] { return short_tile(1); }},
      {"copy stops at BLOCK_H + radius",
       "The tile copy stops radius rows short, at BLOCK_H + radius: a block of BLOCK_H outputs reads BLOCK_H + 2 * "
       "radius rows (radius above it and radius below), so its last radius output rows read rows never copied.",
       [short_tile, radius] {
         if (radius < 2) return std::vector<float>();  // one row short: the mistake above
         return short_tile(radius);
       }},
      {"halo left out",
       "The result is moved up by radius rows: output y holds the sum centred on row y + radius. The tile leaves out "
       "the halo above the block: tile row i holds image row y0 - radius + i.",
       [&in, weights, radius] {
         return course::one_pass_reference(in, weights, radius, course::Axis::columns, radius);
       }},
      {"one tap short",
       "The window is one tap short: the sum takes 2 * radius + 1 weighted rows, k from 0 to 2 * radius (<=, "
       "not <).",
       [&in, weights, radius] { return course::one_pass_reference(in, weights, radius, course::Axis::columns, 0, 1); }},
      {"halo taken off twice",
       "The halo is taken off twice: tile row i already holds image row y0 - radius + i, so output row r of the "
       "block reads tile rows r + k, k = 0 .. 2 * radius. With one more - radius the result moves radius rows down, "
       "and the block's first radius rows read before the start of the tile.",
       [&in, weights, radius, block_h, columns] {
         return course::with_holes(course::one_pass_reference(in, weights, radius, columns, -radius), in, columns,
                                   block_h, [radius](int y) { return y < radius; });  // a read before the tile
       },
       true},
      {"copy steps by COL_W",
       "The copy into the tile steps by COL_W, not COL_H: the COL_H work-items of a column copy rows ly, ly + "
       "COL_W, ..., so the rows between are never written (only rows i with i % COL_W < COL_H are).",
       [&in, weights, radius, block_h, col_w, col_h, columns] {
         if (col_w <= col_h) return std::vector<float>();  // every row written: no such failure
         return course::with_holes(
             course::one_pass_reference(in, weights, radius, columns), in, columns, block_h,
             course::window_reads_unwritten(radius, [col_w, col_h](int i) { return i % col_w < col_h; }));
       }},
  };
}

struct Layout {
  int col_w, col_h, block_h;
  std::vector<int> radii;
};

std::string defines_of(const Layout& layout) {
  return " -D COL_W=" + std::to_string(layout.col_w) + " -D COL_H=" + std::to_string(layout.col_h) +
         " -D BLOCK_H=" + std::to_string(layout.block_h);
}

// What is wrong with the reads one traced group made, or "": every read must lie inside the input
// buffer, and those of work-items right of the image (which store nothing, so their reads never
// show in the output) inside the rows and columns the group's work-items inside the image read.
std::string stray_read(const std::vector<course::TracedAccess>& reads, int width, int height, int first_x, int col_w) {
  const long count = static_cast<long>(width) * height;
  long row_min = count, row_max = -1, column_min = width, column_max = -1;
  for (const course::TracedAccess& a : reads)
    if (first_x + a.item % col_w < width && a.index >= 0 && a.index < count) {
      row_min = std::min<long>(row_min, a.index / width), row_max = std::max<long>(row_max, a.index / width);
      column_min = std::min<long>(column_min, a.index % width),
      column_max = std::max<long>(column_max, a.index % width);
    }
  const std::string tail =
      " Its outputs come out right, since it stores nothing, but on a GPU such a read can fault or read another "
      "buffer: a work-item right of the image must read a column inside it, min(x, width - 1).";
  for (const course::TracedAccess& a : reads) {
    const int x = first_x + a.item % col_w;
    const std::string who = "work-item x = " + std::to_string(x) + (x >= width ? ", right of the image," : "") +
                            " reads input[" + std::to_string(a.index) + "] (line " + std::to_string(a.line) + ")";
    if (a.index < 0 || a.index >= count)
      return "A read outside the input buffer: " + who + ", " + (a.index < 0 ? "before its start" : "past its end") +
             " (width * height = " + std::to_string(count) + " values)." + (x >= width ? tail : "");
    const long row = a.index / width, column = a.index % width;
    if (x >= width && row_max >= 0 && (row < row_min || row > row_max || column < column_min || column > column_max))
      return "A read outside the image: " + who + ", which is row " + std::to_string(row) + ", column " +
             std::to_string(column) + ", outside the rows " + std::to_string(row_min) + ".." + std::to_string(row_max) +
             " and columns " + std::to_string(column_min) + ".." + std::to_string(column_max) +
             " that the work-items of its group inside the image read (y * width + x with x >= width lands in the "
             "next row)." +
             tail;
  }
  return "";
}

// Passing means the technique: the reads of the groups on the image's right edge, traced (lesson
// 04's --trace machinery on the learner's kernel), stay inside the image, even those whose values
// no output uses.
void check_reads_inside(course::ExerciseCheck& check, const cl::Program& program, const Layout& layout, int radius,
                        int width, int height) {
  const course::DeviceContext& dc = check.device();
  const std::string name =
      "the reads of the groups on the right edge stay in the image (traced), r=" + std::to_string(radius) + ", " +
      std::to_string(width) + "x" + std::to_string(height) + " image, " + std::to_string(layout.col_w) + "x" +
      std::to_string(layout.col_h) + " work-groups computing " + std::to_string(layout.col_w) + "x" +
      std::to_string(layout.block_h) + " blocks";
  check.run_case(name, [&] {
    cl::Program traced_program;
    try {
      traced_program =
          course::build_traced_program(dc, program, "column_pass_block", {{"input", course::AccessKind::kGlobalRead}},
                                       "-D COURSE_POISON_LOCAL" + defines_of(layout));
    } catch (const std::runtime_error& e) {
      return check.pass(name, std::string("not traced: ") + e.what());
    }
    cl::Kernel kernel(traced_program, "column_pass_block");
    if (!check.group_fits(name, kernel, layout.col_w * layout.col_h)) return;
    const course::GrayImage image = course::random_gray(width, height, 4);
    const std::vector<float> weights = course::gaussian_weights(radius, radius / 2.0 + 0.5);
    course::ConvolutionBuffers buffers(dc, image.pixels, weights);
    const std::size_t groups_x = (width + layout.col_w - 1) / layout.col_w;
    const std::size_t groups_down = (height + layout.block_h - 1) / layout.block_h;
    course::set_args(kernel, buffers.input.buffer(), buffers.output.buffer(), buffers.taps.buffer(), width, height,
                     radius);
    for (const std::size_t group_y : {std::size_t(0), groups_down - 1}) {
      const std::vector<course::TracedAccess> reads = course::trace_group(
          dc, kernel, 6, cl::NDRange(groups_x * layout.col_w, groups_down * layout.col_h),
          cl::NDRange(layout.col_w, layout.col_h), static_cast<int>(groups_x - 1), static_cast<int>(group_y));
      const std::string why =
          stray_read(reads, width, height, static_cast<int>(groups_x - 1) * layout.col_w, layout.col_w);
      if (!why.empty())
        return check.fail(name, why,
                          "traced: work-group (" + std::to_string(groups_x - 1) + ", " + std::to_string(group_y) +
                              "), every global read of its work-items",
                          "");
    }
    check.pass(name);
  });
}

using Size = course::CaseSize;

// What the outputs nobody stored (still holding the mark) show, where exactly one of two mistakes
// leaves out those rows and no other: the block's origin taking the group's height COL_H for the
// block's BLOCK_H, or a loop over the block's rows that stops after a work-item's first (bounded by
// COL_H or stepping by BLOCK_H: the two leave out the same rows, so the sentence names neither).
// Else what a work-item stores, and what to check.
std::string never_stored(const std::vector<float>& got, Size size, const Layout& layout) {
  std::vector<bool> unwritten(size.height);
  for (int y = 0; y < size.height; ++y)
    unwritten[y] = course::is_never_written(got[static_cast<std::size_t>(y) * size.width]);
  const int groups_down = (size.height + layout.block_h - 1) / layout.block_h;
  // The rows left out by a kernel whose block starts at group_id(1) * `origin_step` (its global
  // id, group_id(1) * COL_H + ly, times BLOCK_H where `global_origin`) and whose work-item ly
  // stores rows r = ly, ly + `step`, ... while r < `bound`.
  const auto left_out = [&](int origin_step, int bound, int step, bool global_origin = false) {
    std::vector<bool> left(size.height, true);
    for (int g = 0; g < groups_down; ++g)
      for (int ly = 0; ly < layout.col_h; ++ly) {
        const int y0 = global_origin ? (g * layout.col_h + ly) * layout.block_h : g * origin_step;
        for (int r = ly; r < bound && y0 + r < size.height; r += step) left[y0 + r] = false;
      }
    return left;
  };
  const bool origin = unwritten == left_out(layout.col_h, layout.block_h, layout.col_h);
  const bool first_row_only = unwritten == left_out(layout.block_h, layout.col_h, layout.col_h) ||
                              unwritten == left_out(layout.block_h, layout.block_h, layout.block_h);
  if (layout.col_h > 1 && unwritten == left_out(0, layout.block_h, layout.col_h, true) && !origin && !first_row_only)
    return "The rows never written are those a block origin of get_global_id(1) * BLOCK_H leaves out: y0 is the "
           "group's, group_id(1) * BLOCK_H, the same for all its work-items.";
  if (origin && !first_row_only)
    return "The rows never written are those a block origin of group_id(1) * COL_H leaves out: a group's block "
           "of BLOCK_H rows starts at y0 = group_id(1) * BLOCK_H, not at the group's height COL_H.";
  if (first_row_only && !origin)
    return "Each work-item stores only to its first row, y0 + ly: rows y0 + ly + COL_H, y0 + ly + 2 * COL_H, ... "
           "(while r < BLOCK_H, step COL_H) are never written. Either the loop stops after its first row (its "
           "bound is BLOCK_H, its step COL_H), or the store's row does not move with it (y0 + r).";
  return "A group's block is output rows y0 = group_id(1) * BLOCK_H to y0 + BLOCK_H - 1, and work-item ly stores "
         "rows y0 + ly, y0 + ly + COL_H, ...; check y0 and that loop.";
}

// One case: the column pass of a `kind` ("gaussian", "box" or "lopsided") window of `radius` on a
// random image, against the CPU reference.
void run_column_case(course::ExerciseCheck& check, const cl::Program& program, const Layout& layout, int radius,
                     const std::string& kind, Size size, std::uint32_t seed) {
  const course::DeviceContext& dc = check.device();
  const std::vector<float> weights = kind == "gaussian" ? course::gaussian_weights(radius, std::max(0.5, radius / 2.0))
                                     : kind == "box"    ? course::box_weights(radius)
                                                        : course::lopsided_weights(radius);
  const std::string name = kind + " r=" + std::to_string(radius) + ", " + std::to_string(size.width) + "x" +
                           std::to_string(size.height) + " image, " + std::to_string(layout.col_w) + "x" +
                           std::to_string(layout.col_h) + " work-groups computing " + std::to_string(layout.col_w) +
                           "x" + std::to_string(layout.block_h) + " blocks";
  check.run_case(name, [&] {
    cl::Kernel kernel(program, "column_pass_block");
    if (!check.group_fits(name, kernel, layout.col_w * layout.col_h)) return;
    const course::GrayImage image = course::random_gray(size.width, size.height, seed);
    course::ConvolutionBuffers buffers(dc, image.pixels, weights);
    course::set_args(kernel, buffers.input.buffer(), buffers.output.buffer(), buffers.taps.buffer(), size.width,
                     size.height, radius);
    // One group per BLOCK_H rows of the image, each COL_H work-items high; one run on an output
    // marked never written (again when the report runs the kernel a second time).
    const std::size_t groups_down = (size.height + layout.block_h - 1) / layout.block_h;
    const std::size_t global_x = course::round_up(size.width, layout.col_w);
    const cl::NDRange global(global_x, groups_down * layout.col_h), local(layout.col_w, layout.col_h);
    const auto run = [&] { return buffers.run(dc, kernel, global, local); };
    const std::vector<float> got = run();
    if (const std::string damage = buffers.output.damaged_guards(); !damage.empty()) return check.fail(name, damage);
    // An output nobody stored still holds the mark it started with: named before any NaN is
    // blamed on the tile.
    std::vector<course::Mistake> mistakes =
        course::never_written_mistakes(got, size.width, never_stored(got, size, layout));
    for (course::Mistake& m : column_mistakes(image, weights, radius, layout.block_h, layout.col_w, layout.col_h))
      mistakes.push_back(std::move(m));
    course::CaseDetails details(std::move(mistakes));
    details.rerun = run;
    details.work_groups = global_x / layout.col_w * groups_down;
    // A group computes COL_W x BLOCK_H outputs from a tile of COL_W x (BLOCK_H + 2R).
    details.tile = {layout.col_w, layout.block_h, 0, radius};
    check.expect_image(name, got, course::one_pass_reference(image, weights, radius, course::Axis::columns), size.width,
                       size.height, 2e-3, 1, details);
  });
}

void check_column_pass_block(course::ExerciseCheck& check) {
  // Between them the layouts take every radius from 0 to 16 once, and the largest twice.
  const Layout layouts[] = {{32, 4, 16, {0, 5, 11}}, {16, 8, 3, {1, 6, 12}}, {8, 4, 13, {2, 7, 13, 16}},
                            {16, 16, 16, {3, 8}},    {3, 5, 11, {4, 9, 14}}, {64, 2, 1, {10, 16}},
                            {16, 8, 40, {15}}};
  const Size sizes[] = {{131, 63}, {1, 29}, {37, 1}, {61, 43}, {1, 1}, {17, 101}, {160, 3}, {97, 61}};
  std::uint32_t seed = 40;
  int n = 0;
  for (const Layout& layout : layouts) {
    cl::Program program = check.build("column_pass_block.cl", "-D COURSE_POISON_LOCAL" + defines_of(layout));
    // Two layouts also trace the reads of the groups on the right edge, on images no group width
    // divides (so work-items lie right of the image) and whose last block reaches the last row.
    if (layout.col_w == 16 && layout.block_h == 3) check_reads_inside(check, program, layout, 6, 61, 43);
    if (layout.col_w == 8 && layout.block_h == 13) check_reads_inside(check, program, layout, 7, 131, 65);
    for (int radius : layout.radii) {
      // Lopsided weights catch a window read the wrong way round, which symmetric ones hide.
      const std::string kind = n % 3 == 0 ? "gaussian" : n % 3 == 1 ? "box" : "lopsided";
      run_column_case(check, program, layout, radius, kind, sizes[n % 8], seed++);
      ++n;
    }
  }
}

}  // namespace

namespace exercise04 {

// A few of the cases, for the tests: one layout, a lopsided window, its traced reads.
void check_a_few_cases(course::ExerciseCheck& check) {
  const Layout layout{8, 4, 13, {7}};
  cl::Program program = check.build("column_pass_block.cl", "-D COURSE_POISON_LOCAL" + defines_of(layout));
  run_column_case(check, program, layout, 7, "lopsided", {61, 43}, 40);
  check_reads_inside(check, program, layout, 7, 131, 65);
}

}  // namespace exercise04

COURSE_EXERCISE("04", "04_separable_coalescing",
                "the coalesced column pass for blocks taller or shorter than the group: origin, tile, outputs",
                check_column_pass_block);
