// Exercise 05's cases: the row pass with STEPS outputs per work-item spread ROW_W apart, for every
// radius from 0 to 16 (each one a new build, since the radius is a compile-time constant),
// several outputs-per-work-item counts (spans that divide no image width among them), several
// work-group shapes, Gaussian, box and lopsided weights, random images of odd sizes, local
// memory poisoned with NaN, and guard bands around the input, the weights and the output.
#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "checker.hpp"
#include "course.hpp"
#include "never_written.hpp"
#include "separable_host.hpp"
#include "trace_access.hpp"

namespace {

// The row pass as a row of a group computes it from its line, with a slip in an index: output u of
// the span (x - x0) sums weights[k] * line[read(u, k)], and line[i] holds image column x0 - RADIUS
// + held(i) (clamped); a read outside the line's SPAN + 2 * RADIUS values is any value (NaN).
std::vector<float> line_model(const course::GrayImage& in, const std::vector<float>& weights, int radius, int span,
                              const std::function<int(int u, int k)>& read, const std::function<int(int i)>& held) {
  const int w = in.width, line = span + 2 * radius;
  std::vector<float> out(in.pixels.size());
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < w; ++x) {
      const int x0 = x / span * span;
      double sum = 0;
      for (int k = 0; k <= 2 * radius; ++k) {
        const int i = read(x - x0, k);
        sum += i < 0 || i >= line
                   ? std::nan("")
                   : weights[k] * in.pixels[std::size_t(y) * w + std::clamp(x0 - radius + held(i), 0, w - 1)];
      }
      out[std::size_t(y) * w + x] = float(sum);
    }
  return out;
}

// The typical mistakes, each as the output it gives (NaN: a value read from a line element never
// copied, which holds the poison).
std::vector<course::Mistake> row_mistakes(const course::GrayImage& in, const std::vector<float>& weights, int radius,
                                          int span, int row_w, int row_h) {
  const auto rows = course::Axis::rows;
  // The outputs (NaN) whose window reads a line element that `written` says nobody copied; a line
  // `missing` values short at its end.
  const auto unwritten = [&in, weights, radius, span, rows](std::function<bool(int)> written) {
    return course::with_holes(course::one_pass_reference(in, weights, radius, rows), in, rows, span,
                              course::window_reads_unwritten(radius, std::move(written)));
  };
  const auto short_line = [unwritten, line = span + 2 * radius](int missing) {
    return unwritten([line, missing](int i) { return i < line - missing; });
  };
  // The row pass of lines copied from other rows: output row y's from the input's row row_of(y).
  const auto rows_from = [&in, weights, radius](std::function<int(int)> row_of) {
    course::GrayImage moved = in;
    for (std::size_t i = 0; i < moved.pixels.size(); ++i)
      moved.pixels[i] = in.pixels[std::size_t(row_of(int(i / in.width))) * in.width + i % in.width];
    return course::one_pass_reference(moved, weights, radius, course::Axis::rows);
  };
  return {
      {"step's offset left out",
       "Each step computes step 0's output: the sum reads the line at lx + k at every step, the step's offset "
       "s * ROW_W within the span left out of the line's index.",
       [&in, weights, radius, span, row_w] {
         return line_model(
             in, weights, radius, span, [row_w](int u, int k) { return u % row_w + k; }, [](int i) { return i; });
       }},
      {"copy by lx",
       "Every output equals the row pass whose line holds, at each of its values, the pixel of the copying "
       "work-item's own lx: the copy indexes the image with lx where the loop's i belongs, so each work-item "
       "copies one pixel again and again.",
       [&in, weights, radius, span, row_w] {
         return line_model(
             in, weights, radius, span, [](int u, int k) { return u + k; }, [row_w](int i) { return i % row_w; });
       }},
      {"halo taken off twice",
       "The halo is taken off twice: line[i] already holds pixel x0 - RADIUS + i, so output x reads line[x - x0 + k]; "
       "one more - RADIUS moves the result RADIUS pixels right, and a span's first RADIUS outputs read before it.",
       [&in, weights, radius, span, rows] {
         return course::with_holes(course::one_pass_reference(in, weights, radius, rows, -radius), in, rows, span,
                                   [radius](int x) { return x < radius; });
       },
       true},
      {"copy steps by ROW_H",
       "The copy into the line steps by ROW_H, not ROW_W: the ROW_W work-items of a row copy line[lx], line[lx + "
       "ROW_H], ..., so with ROW_H = " +
           std::to_string(row_h) + " > ROW_W = " + std::to_string(row_w) +
           " the elements between are never written (in each line only those i with i % ROW_H < ROW_W are).",
       [unwritten, row_w, row_h] {
         if (row_h <= row_w) return std::vector<float>();  // every element written: no such failure
         return unwritten([row_w, row_h](int i) { return i % row_h < row_w; });
       }},
      {"line from row ly",
       "Every row of outputs equals the image row of its work-items' ly: the copy into the line reads image row ly "
       "(the row in the group) where y belongs, so only the first group down the image reads its own rows.",
       [rows_from, row_h] { return rows_from([row_h](int y) { return y % row_h; }); }},
      {"line from row 0",
       "Every row of outputs equals row 0's: the copy into the line reads the image without y * width, so every row "
       "of work-items copies the image's first row.",
       [rows_from] { return rows_from([](int) { return 0; }); }},
      {"weights flipped",
       "The window is read backwards: output x takes weights[k + RADIUS] * in(x + k), not weights[RADIUS - k].",
       [&in, weights, radius, rows] {
         return course::one_pass_reference(in, std::vector<float>(weights.rbegin(), weights.rend()), radius, rows);
       }},
      {"line one value short",
       "The line is one value short: a span of ROW_W * STEPS outputs reads ROW_W * STEPS + 2 * RADIUS values, so the "
       "span's last output reads a value never copied.",
       [short_line] { return short_line(1); }},
      {"line two halos short",
       "The line is 2 * RADIUS values short: the copy stops at the span's ROW_W * STEPS outputs, but they read "
       "ROW_W * STEPS + 2 * RADIUS values (a halo on both sides), the last never copied: copy i < LINE.",
       [short_line, radius] { return short_line(2 * radius); }},
      {"line one halo short",
       "The line is RADIUS values short: a span of ROW_W * STEPS outputs reads ROW_W * STEPS + 2 * RADIUS values (a "
       "halo on both sides), so the span's last RADIUS outputs read values never copied.",
       [short_line, radius] { return short_line(radius); }},
      {"halo left out",
       "The result is moved left by RADIUS pixels: output x holds the sum centred on x + RADIUS. The line leaves out "
       "the halo before the span: line[i] holds image pixel x0 - RADIUS + i.",
       [&in, weights, radius] { return course::one_pass_reference(in, weights, radius, course::Axis::rows, radius); }},
      {"one tap short",
       "The window is one tap short: the sum takes 2 * RADIUS + 1 values, k from 0 to 2 * RADIUS (<=, not <).",
       [&in, weights, radius] { return course::one_pass_reference(in, weights, radius, course::Axis::rows, 0, 1); }},
  };
}

// The build options of one layout: the radius, the outputs per work-item and the group's shape.
std::string row_options(int radius, int steps, int row_w, int row_h) {
  return "-D COURSE_POISON_LOCAL -D RADIUS=" + std::to_string(radius) + " -D STEPS=" + std::to_string(steps) +
         " -D ROW_W=" + std::to_string(row_w) + " -D ROW_H=" + std::to_string(row_h);
}

// What is wrong with the accesses of one traced group, or "": at each step the ROW_W work-items of
// a row of the group must store ROW_W neighbouring pixels, and each load of the line must read
// ROW_W neighbouring values (clamped ones may repeat), so that a warp's access is one run of
// consecutive addresses.
std::string uncoalesced(const std::vector<course::TracedAccess>& accesses, int row_w, int width) {
  // (kind, line, row of the group, n-th access of that line by a work-item) -> the addresses
  std::map<std::tuple<int, int, int, int>, std::set<int>> runs;
  std::map<std::tuple<int, int, int>, int> seen;  // (kind, line, work-item) -> accesses so far
  for (const course::TracedAccess& a : accesses)
    runs[{int(a.kind), a.line, a.item / row_w, seen[{int(a.kind), a.line, a.item}]++}].insert(a.index);
  for (const auto& [key, addresses] : runs) {
    const int first = *addresses.begin(), last = *addresses.rbegin();
    if (last - first + 1 == static_cast<int>(addresses.size())) continue;
    const bool store = std::get<0>(key) == static_cast<int>(course::AccessKind::kGlobalWrite);
    std::string listed;  // the first four columns, then "..."
    int shown = 0;
    for (auto a = addresses.begin(); a != addresses.end() && shown <= 4; ++a, ++shown)
      listed += (shown ? ", " : "") + (shown == 4 ? std::string("...") : std::to_string(*a % width));
    return std::string("The ") + (store ? "stores" : "loads") +
           " are not coalesced: at one step the ROW_W = " + std::to_string(row_w) + " work-items of a row " +
           (store ? "store" : "load") + " columns " + listed + " (line " + std::to_string(std::get<1>(key)) + "), " +
           std::to_string(*std::next(addresses.begin()) - first) + " apart, not ROW_W neighbouring ones. " +
           (store ? "Each work-item's outputs lie side by side, so a warp's stores spread over several times as many "
                    "memory segments: work-item lx owns outputs x0 + lx + s * ROW_W, s = 0 .. STEPS - 1."
                  : "Copy the line with work-item lx on values lx, lx + ROW_W, lx + 2 * ROW_W, ...");
  }
  return "";
}

// Passing means the technique: one group's global loads and stores, traced (lesson 04's --trace
// machinery on the learner's kernel), run in ROW_W neighbouring addresses at every step, which
// the output alone cannot show.
void check_coalesced(course::ExerciseCheck& check, int radius, int steps, int row_w, int row_h, int width, int height) {
  const course::DeviceContext& dc = check.device();
  const std::string options = row_options(radius, steps, row_w, row_h);
  const std::string name =
      "a row of work-items loads and stores neighbouring pixels at each step (traced), r=" + std::to_string(radius) +
      ", " + std::to_string(steps) + " outputs per work-item, " + std::to_string(row_w) + "x" + std::to_string(row_h) +
      " work-groups";
  cl::Program program = check.build("row_pass_spread_steps.cl", options);
  check.run_case(name, [&] {
    cl::Program traced_program;
    try {
      traced_program = course::build_traced_program(
          dc, program, "row_pass_spread_steps",
          {{"input", course::AccessKind::kGlobalRead}, {"output", course::AccessKind::kGlobalWrite}}, options);
    } catch (const std::runtime_error& e) {
      return check.pass(name, std::string("not traced: ") + e.what());
    }
    cl::Kernel kernel(traced_program, "row_pass_spread_steps");
    if (!check.group_fits(name, kernel, row_w * row_h)) return;
    const course::GrayImage image = course::random_gray(width, height, 5);
    const std::vector<float> weights = course::gaussian_weights(radius, radius / 2.0 + 0.5);
    course::ConvolutionBuffers buffers(dc, image.pixels, weights);
    course::set_args(kernel, buffers.input.buffer(), buffers.output.buffer(), buffers.taps.buffer(), width, height);
    // The first group, whose whole span lies inside the image; a work-item a ROW_W * STEPS span.
    const cl::NDRange global(course::round_up(width, row_w * steps) / steps, course::round_up(height, row_h)),
        local(row_w, row_h);
    const std::vector<course::TracedAccess> accesses = course::trace_group(dc, kernel, 5, global, local, 0, 0);
    if (const std::string why = uncoalesced(accesses, row_w, width); !why.empty())
      return check.fail(name, why, "traced: work-group (0, 0), every global load and store of its work-items", "");
    check.pass(name);
  });
}

// The outputs the first span of the first row holds (those no work-item stored still hold the
// mark), tried against work-items whose STEPS outputs lie d apart, x0 + lx + s * d: where one d
// other than ROW_W gives exactly those, a sentence naming it as the likely cause, else what a
// work-item stores and what to check.
std::string step_of_stores(const std::vector<float>& got, int width, int row_w, int steps) {
  const int span = std::min(row_w * steps, width);
  std::vector<bool> written(span);
  for (int k = 0; k < span; ++k) written[k] = !course::is_never_written(got[k]);
  const bool whole = std::find(written.begin(), written.end(), false) == written.end();  // no hole to tell by
  for (int d = 1; !whole && d < row_w * steps; ++d) {
    std::vector<bool> stored(span, false);
    for (int lx = 0; lx < row_w; ++lx)
      for (int s = 0; s < steps; ++s)
        if (lx + s * d < span) stored[lx + s * d] = true;
    if (d != row_w && stored == written)
      return "In the first span the outputs written are those of work-items whose outputs lie " + std::to_string(d) +
             " apart (x0 + lx + s * " + std::to_string(d) + "), not ROW_W = " + std::to_string(row_w) +
             ": likely the step between a work-item's outputs is wrong; work-item lx stores x0 + lx + s * ROW_W.";
  }
  return "A group's span is outputs x0 = group_id(0) * SPAN to x0 + SPAN - 1, and work-item lx stores x0 + lx + s * "
         "ROW_W; check x0, the step between a work-item's outputs (ROW_W) and the store's bound.";
}

// One case: the row pass of a `kind` ("gaussian", "box" or "lopsided") window of `radius`, built
// with that layout, on a random image, against the CPU reference.
void run_row_case(course::ExerciseCheck& check, int radius, int steps, int row_w, int row_h, const std::string& kind,
                  course::CaseSize size, std::uint32_t seed) {
  const course::DeviceContext& dc = check.device();
  const std::vector<float> weights = kind == "gaussian" ? course::gaussian_weights(radius, std::max(0.5, radius / 2.0))
                                     : kind == "box"    ? course::box_weights(radius)
                                                        : course::lopsided_weights(radius);
  const std::string name = kind + " r=" + std::to_string(radius) + ", " + std::to_string(steps) +
                           " outputs per work-item, " + std::to_string(size.width) + "x" + std::to_string(size.height) +
                           " image, " + std::to_string(row_w) + "x" + std::to_string(row_h) +
                           " work-groups (spans of " + std::to_string(row_w * steps) + " outputs)";
  cl::Program program = check.build("row_pass_spread_steps.cl", row_options(radius, steps, row_w, row_h));
  check.run_case(name, [&] {
    cl::Kernel kernel(program, "row_pass_spread_steps");
    if (!check.group_fits(name, kernel, row_w * row_h)) return;
    const course::GrayImage image = course::random_gray(size.width, size.height, seed);
    course::ConvolutionBuffers buffers(dc, image.pixels, weights);
    course::set_args(kernel, buffers.input.buffer(), buffers.output.buffer(), buffers.taps.buffer(), size.width,
                     size.height);
    // One group per span of ROW_W * STEPS outputs along a row, each ROW_W work-items wide; one run
    // on an output marked never written (again when the report runs the kernel a second time).
    const std::size_t spans = (size.width + row_w * steps - 1) / (row_w * steps);
    const std::size_t global_y = course::round_up(size.height, row_h);
    const cl::NDRange global(spans * row_w, global_y), local(row_w, row_h);
    const auto run = [&] { return buffers.run(dc, kernel, global, local); };
    const std::vector<float> got = run();
    if (const std::string damage = buffers.output.damaged_guards(); !damage.empty()) return check.fail(name, damage);
    // An output nobody stored still holds the mark it started with: named before any NaN is
    // blamed on the tile.
    std::vector<course::Mistake> mistakes =
        course::never_written_mistakes(got, size.width, step_of_stores(got, size.width, row_w, steps));
    for (course::Mistake& m : row_mistakes(image, weights, radius, row_w * steps, row_w, row_h))
      mistakes.push_back(std::move(m));
    course::CaseDetails details(std::move(mistakes));
    details.rerun = run;
    details.work_groups = spans * (global_y / row_h);
    // Each row of a group computes a span of ROW_W * STEPS outputs from its line of SPAN + 2R values.
    details.tile = {row_w * steps, row_h, radius, 0};
    check.expect_image(name, got, course::one_pass_reference(image, weights, radius, course::Axis::rows), size.width,
                       size.height, 2e-3, 1, details);
  });
}

void check_row_pass_spread_steps(course::ExerciseCheck& check) {
  const course::CaseSize sizes[] = {{131, 67}, {1, 29}, {37, 1}, {61, 43}, {1, 1}, {301, 7}, {17, 101}, {64, 3}};
  const int steps_choices[] = {4, 1, 8, 3, 5};
  const int groups[][2] = {{16, 4}, {8, 8}, {32, 1}, {1, 16}, {5, 3}, {64, 2}};
  std::uint32_t seed = 50;
  for (int radius = 0; radius <= 16; ++radius) {
    // Lopsided weights catch a window read the wrong way round, which symmetric ones hide.
    const std::string kind = radius % 3 == 0 ? "gaussian" : radius % 3 == 1 ? "box" : "lopsided";
    run_row_case(check, radius, steps_choices[radius % 5], groups[radius % 6][0], groups[radius % 6][1], kind,
                 sizes[radius % 8], seed++);
  }
  // Right outputs are not enough: the exercise is about where each work-item's outputs lie.
  check_coalesced(check, 2, 4, 16, 4, 131, 67);
  check_coalesced(check, 5, 3, 8, 8, 61, 43);
}

}  // namespace

namespace exercise05 {

// A few of the cases, for the tests: one layout on a lopsided window, and its traced accesses.
void check_a_few_cases(course::ExerciseCheck& check) {
  run_row_case(check, 5, 3, 8, 8, "lopsided", {61, 43}, 50);
  check_coalesced(check, 5, 3, 8, 8, 61, 43);
}

}  // namespace exercise05

COURSE_EXERCISE("05", "05_unrolling_and_work_per_item",
                "several outputs per work-item, spread for coalesced stores, with a compile-time radius",
                check_row_pass_spread_steps);
