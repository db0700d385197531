// Exercise 07's cases. Part a: the re-dealt Bayer mosaic kernel must run a single class in every
// SIMD group of WARP work-items, handle every pixel exactly once and give the same picture as
// each pixel through its own class's curve (random data, sizes no group divides, several group
// shapes, every SIMD width from 8 to 64). Part b: the work-group choice, tried on the limits of
// simulated devices (work_group_check.cpp).
#include <algorithm>
#include <numeric>
#include <set>
#include <sstream>

#include "checker.hpp"
#include "course.hpp"
#include "lesson07.hpp"
#include "work_group_check.hpp"

namespace {

// The CPU reference of part a: every pixel of the mosaic through the curve of its Bayer class.
std::vector<float> bayer_curves_reference(const course::GrayImage& mosaic, int steps) {
  std::vector<float> out(mosaic.pixels.size());
  for (int y = 0; y < mosaic.height; ++y)
    for (int x = 0; x < mosaic.width; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * mosaic.width + x;
      out[i] = lesson07::apply_curve(mosaic.pixels[i], (y % 2) * 2 + x % 2, steps);
    }
  return out;
}

std::string item_name(std::size_t item, std::size_t global_x) {
  return "(" + std::to_string(item % global_x) + ", " + std::to_string(item / global_x) + ")";
}

// What the recorded tables say about a dealing that leaves a pixel out: a class outside 0..3, or
// the run of 4 * WARP work-items meant to cover the missed pixel's columns covering others. ""
// when they show neither.
std::string dealing_cause(const std::vector<float>& classes, const std::vector<float>& taken, std::size_t global_x,
                          int warp, int width, std::size_t missed, std::size_t count) {
  for (std::size_t item = 0; item < classes.size(); ++item)
    if (classes[item] < 0 || classes[item] > 3)
      return "Work-item " + item_name(item, global_x) + " ran class " + std::to_string(long(classes[item])) +
             ", but there are four classes, 0 to 3: a run's four SIMD groups take one each, its position in the run "
             "(gx % (4 * WARP)) divided by WARP.";
  if (missed >= count) return "";  // no pixel missed: one handled twice
  // The run that should hold the missed pixel: 2 * WARP columns per run, two pixel rows per row of items.
  const std::size_t px = missed % width, py = missed / width, run = px / (2 * warp), gy = py / 2;
  long low = -1, high = -1;
  for (std::size_t gx = run * 4 * warp; gx < (run + 1) * 4 * warp && gx < global_x; ++gx) {
    const float p = taken[gy * global_x + gx];
    if (p < 0) continue;
    const long column = long(p) % width;
    low = low < 0 ? column : std::min(low, column), high = std::max(high, column);
  }
  const long first = long(run) * 2 * warp;
  if (low < 0 || low == first) return "";
  return "The run of work-items " + std::to_string(run * 4 * warp) + " to " + std::to_string((run + 1) * 4 * warp - 1) +
         " along x handled columns " + std::to_string(low) + " to " + std::to_string(high) +
         ", but its columns start "
         "at " +
         std::to_string(first) +
         ": a run of 4 * WARP work-items covers 2 * WARP columns, so its first "
         "column is half of gx - position.";
}

// How often each pixel was handled: "N pixels by no work-item and M twice or more" (either part
// left out when 0).
std::string coverage(const std::vector<float>& taken, std::size_t count) {
  std::vector<int> times(count, 0);
  for (float p : taken)
    if (p >= 0 && std::size_t(p) < count) ++times[std::size_t(p)];
  const auto none = std::count(times.begin(), times.end(), 0);
  const auto more = std::count_if(times.begin(), times.end(), [](int t) { return t > 1; });
  std::string text;
  if (none > 0) text = std::to_string(none) + (none == 1 ? " pixel" : " pixels") + " handled by no work-item";
  if (more > 0)
    text += (text.empty() ? std::to_string(more) + (more == 1 ? " pixel handled" : " pixels handled")
                          : " and " + std::to_string(more)) +
            " twice or more";
  return text;
}

// A dealing whose classes repeat too soon along x: the SIMD groups of a run of 4 * WARP work-items
// must run the four classes, and the classes of the first row's groups show the period they
// repeat with. "" when all four classes ran (or the table is too short to tell).
std::string class_period_cause(const std::vector<float>& classes, std::size_t global_x, int warp,
                               const std::string& covered) {
  const std::size_t groups = global_x / warp;
  std::vector<float> first_row;
  for (std::size_t g = 0; g < groups; ++g) first_row.push_back(classes[g * warp]);
  const std::set<float> ran(first_row.begin(), first_row.end());
  if (ran.size() >= 4 || groups < 4) return "";
  std::size_t period = 1;
  while (period < groups && !std::equal(first_row.begin() + period, first_row.end(), first_row.begin())) ++period;
  std::ostringstream why;
  why << "Only class" << (ran.size() == 1 ? "" : "es");
  const std::vector<float> listed(ran.begin(), ran.end());
  for (std::size_t k = 0; k < listed.size(); ++k)
    why << (k == 0 ? " " : k + 1 == listed.size() ? " and " : ", ") << listed[k];
  std::size_t span = 1;  // SIMD groups in a row that run the first class
  while (span < first_row.size() && first_row[span] == first_row[0]) ++span;
  if (period < 4)
    why << " ran: along a row the SIMD groups' classes repeat every " << period << " groups (" << period
        << " * WARP work-items), not every 4, so the other classes' pixels are left out (" << covered
        << "). Likely the work-item's place in its run wraps too early: a run is 4 * WARP work-items.";
  else
    why << " ran: along a row " << span << " SIMD groups in a row run class " << first_row[0]
        << ", where each of a run's 4 groups runs a class of its own, so the other classes' pixels are left out ("
        << covered << "). Likely the class is the place in the run divided by " << span
        << " * WARP, not by WARP.";
  return why.str();
}

// Runs of 4 * WARP work-items whose first columns are not 2 * WARP apart: neighbouring runs then
// overlap (too close) or leave columns between them (too far). "" when they are (or fewer than
// two runs reach the image).
std::string run_stride_cause(const std::vector<float>& taken, std::size_t global_x, int warp, int width,
                             const std::string& covered) {
  std::vector<long> first_column;  // of each run, over every row of work-items; -1: none
  for (std::size_t item = 0; item < taken.size(); ++item) {
    if (taken[item] < 0) continue;
    const std::size_t run = item % global_x / (4 * warp);
    if (first_column.size() <= run) first_column.resize(run + 1, -1);
    const long column = long(taken[item]) % width;
    if (first_column[run] < 0 || column < first_column[run]) first_column[run] = column;
  }
  if (first_column.size() < 2 || first_column[0] < 0 || first_column[1] < 0) return "";
  const long apart = first_column[1] - first_column[0];
  if (apart == 2 * warp) return "";
  return "The runs of 4 * WARP work-items along x start " + std::to_string(apart) + " columns apart (run 0 at column " +
         std::to_string(first_column[0]) + ", run 1 at " + std::to_string(first_column[1]) +
         "), not 2 * WARP = " + std::to_string(2 * warp) + ", so neighbouring runs " +
         (apart < 2 * warp ? "overlap" : "leave columns between them") + " (" + covered +
         "). Likely a run's first column is computed wrong: each run covers 2 * WARP columns.";
}

// How a dealing of the pixels may go wrong: the solution's dealing is the default; each other is a
// typical slip in writing it.
struct Dealing {
  const char* sentence;
  bool lane_wraps = true;      // false: the lane is the place in the run, not reduced modulo WARP
  bool halved = true;          // false: a run's first column is its first work-item's gx, not half of it
  bool column_by_row = false;  // true: the column's parity taken from colour / 2 (the class's row)
  bool row_by_column = false;  // true: the row taken from colour % 2 (the class's column parity)
  bool own_gx = false;         // true: a run's first column is half the work-item's own gx
};

const Dealing kDealings[] = {
    {"Every work-item took the pixel it would with its lane not reduced modulo WARP: the lane is the place in "
     "the run, so the lanes of a run's 2nd to 4th SIMD groups take columns past the run's 2 * WARP, and the "
     "pixels they should take are left out.",
     false},
    {"Every work-item took the pixel it would if a run's first column were its first work-item's gx, not half of "
     "it: a run of 4 * WARP work-items covers 2 * WARP columns, so runs that far apart leave columns between "
     "them.",
     true, false},
    {"Every work-item took the pixel it would with the column's parity taken from colour / 2, the class's row, "
     "where colour % 2 belongs: classes 1 and 2 take pixels of the other class, or the same ones twice.",
     true, true, true},
    {"Every work-item took the pixel it would with the row taken from colour % 2, the class's column parity, "
     "where colour / 2 belongs: classes 1 and 2 take pixels of the other class, or the same ones twice.",
     true, true, false, true},
    {"Every work-item took the pixel it would with the class's row and column parity swapped (the column from "
     "colour / 2, the row from colour % 2): classes 1 and 2 take each other's pixels.",
     true, true, true, true},
    {"Every work-item took the pixel it would if a run's first column were half its own gx, not half its run's "
     "first work-item's (gx less its place in the run): each then lies half its place in the run too far right.",
     true, true, false, false, true},
};

// The pixel each work-item of a global_x x global_y launch takes with `dealing` (y * width + x,
// -1 outside the picture), as the kernel records it: run, class and lane from gx, rows from gy.
std::vector<float> dealt_pixels(std::size_t global_x, std::size_t global_y, int warp, int width, int height,
                                const Dealing& dealing) {
  std::vector<float> taken(global_x * global_y);
  for (std::size_t gy = 0; gy < global_y; ++gy)
    for (std::size_t gx = 0; gx < global_x; ++gx) {
      const int place = int(gx % (4 * warp)), kind = place / warp;  // the place in the run, the class
      const int lane = dealing.lane_wraps ? place % warp : place;
      const int first = dealing.own_gx ? int(gx) / 2 : dealing.halved ? (int(gx) - place) / 2 : int(gx) - place;
      const int x = first + 2 * lane + (dealing.column_by_row ? kind / 2 : kind % 2);
      const int y = 2 * int(gy) + (dealing.row_by_column ? kind % 2 : kind / 2);
      taken[gy * global_x + gx] = x < width && y < height ? float(y * width + x) : -1.0f;
    }
  return taken;
}

// The dealings that would show on this launch (their pixels differ from the right dealing's), and
// those that give every work-item the class and the pixel the learner's did (each dealing runs
// class gx % (4 * WARP) / WARP), by name and sentence, for ExerciseCheck::fail_by_models().
std::pair<std::vector<std::string>, std::vector<std::pair<std::string, std::string>>> dealing_models(
    const std::vector<float>& classes, const std::vector<float>& taken, std::size_t global_x, int warp, int width,
    int height) {
  bool right_classes = true;
  for (std::size_t item = 0; item < classes.size(); ++item)
    right_classes = right_classes && classes[item] == float(item % global_x % (4 * warp) / warp);
  const std::size_t global_y = taken.size() / global_x;
  const std::vector<float> right = dealt_pixels(global_x, global_y, warp, width, height, Dealing{});
  std::pair<std::vector<std::string>, std::vector<std::pair<std::string, std::string>>> models;
  for (const Dealing& dealing : kDealings) {
    const std::vector<float> dealt = dealt_pixels(global_x, global_y, warp, width, height, dealing);
    if (dealt == right) continue;  // this launch cannot show it
    models.first.push_back(dealing.sentence);
    if (right_classes && dealt == taken) models.second.push_back({dealing.sentence, dealing.sentence});
  }
  return models;
}

// A work-item that ran one class on a pixel of another: "" when every one ran its pixel's own.
std::string class_mismatch(const std::vector<float>& classes, const std::vector<float>& taken, int width,
                           std::size_t global_x) {
  for (std::size_t item = 0; item < classes.size(); ++item) {
    if (taken[item] < 0) continue;
    const long p = long(taken[item]), x = p % width, y = p / width, own = (y % 2) * 2 + x % 2;
    if (classes[item] != float(own))
      return "Work-item " + item_name(item, global_x) + " ran class " + std::to_string(long(classes[item])) +
             " on pixel (" + std::to_string(x) + ", " + std::to_string(y) +
             "), whose class is (y % 2) * 2 + x % 2 = " + std::to_string(own) +
             ": the pixel a work-item takes must be one of its own class (colour % 2 is its "
             "column's parity, colour / 2 its row's).";
  }
  return "";
}

// Part a for one SIMD width: Bayer mosaics of sizes no group divides, several group shapes.
void check_uniform_branch(course::ExerciseCheck& check, int warp, std::uint32_t& seed) {
  const course::DeviceContext& dc = check.device();
  const int steps = 4;  // enough to tell the classes apart; the check is about who runs what
  cl::Program program =
      check.build("warp_uniform_branch.cl", "-D WARP=" + std::to_string(warp) + " -D STEPS=" + std::to_string(steps));
  cl::Kernel kernel(program, "bayer_between_warps");
  const std::size_t kernel_max = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
  using Size = course::CaseSize;
  const Size sizes[] = {{1, 1}, {1, 9}, {9, 1}, {2, 2}, {37, 23}, {131, 67}, {128, 32}, {200, 3}};
  // Work-groups one SIMD group wide and 1 to 4 rows tall, or 2 and 4 SIMD groups wide.
  const std::size_t shapes[][2] = {{1, 1}, {2, 2}, {1, 4}, {4, 1}, {2, 1}, {1, 3}, {2, 2}, {1, 2}};
  int shape = 0;
  for (const Size& size : sizes) {
    const std::size_t lx = shapes[shape][0] * warp, ly = shapes[shape][1];
    shape = (shape + 1) % 8;
    const std::string name = "WARP " + std::to_string(warp) + ", " + std::to_string(size.width) + "x" +
                             std::to_string(size.height) + " mosaic, groups of " + std::to_string(lx) + "x" +
                             std::to_string(ly);
    // Every case records the same three parts, passed, failed or skipped, so that the count of
    // cases is the same from run to run whatever the kernel does.
    const std::string parts[] = {name + ": one class per SIMD group", name + ": every pixel once", name + ": output"};
    check.run_case(name, [&] {
      if (lx * ly > kernel_max) {
        for (const std::string& part : parts)
          check.pass(part, "skipped: the device allows " + std::to_string(kernel_max) + " work-items");
        return;
      }
      // A run of 4 * WARP work-items for every 2 * WARP columns, a row of work-items for every
      // two rows of pixels, each side rounded up to whole work-groups.
      const std::size_t runs = (size.width + 2 * warp - 1) / (2 * warp);
      const std::size_t global_x = course::round_up(runs * 4 * warp, std::lcm(lx, std::size_t(4) * warp));
      const std::size_t global_y = course::round_up((size.height + 1) / 2, ly);
      const std::size_t items = global_x * global_y;
      const course::GrayImage mosaic = course::random_gray(size.width, size.height, seed++);
      course::GuardedBuffer input(dc, mosaic.pixels.size()), output(dc, mosaic.pixels.size());
      course::GuardedBuffer curves(dc, items), pixels(dc, items);
      input.write(mosaic.pixels);
      kernel.setArg(0, input.buffer());
      kernel.setArg(1, output.buffer());
      kernel.setArg(2, size.width);
      kernel.setArg(3, size.height);
      kernel.setArg(4, curves.buffer());
      kernel.setArg(5, pixels.buffer());
      dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global_x, global_y), cl::NDRange(lx, ly));
      dc.queue.finish();
      for (const course::GuardedBuffer* buffer : {&input, &output, &curves, &pixels})
        if (const std::string damage = buffer->damaged_guards(); !damage.empty()) {
          for (const std::string& part : parts) check.fail(part, damage);
          return;
        }

      // One class per SIMD group: WARP neighbouring work-items of a row, inside one work-group.
      const std::vector<float> classes = curves.read();
      std::string split;
      for (std::size_t first = 0; first < items && split.empty(); first += warp) {
        std::set<float> seen(classes.begin() + first, classes.begin() + first + warp);
        if (seen.size() > 1) {
          std::ostringstream why;
          why << "work-items " << item_name(first, global_x) << " to " << item_name(first + warp - 1, global_x)
              << " (one SIMD group) ran classes";
          for (float c : seen) why << " " << c;
          why << ": the branch still splits inside the group";
          split = why.str();
        }
      }
      split.empty() ? check.pass(parts[0]) : check.fail(parts[0], split);

      // Every pixel handled by exactly one work-item.
      const std::vector<float> taken = pixels.read();
      const std::size_t count = mosaic.pixels.size();
      std::vector<std::size_t> first_taker(count, items);
      std::pair<std::size_t, std::size_t> twice{0, 0};  // two work-items that handled one pixel
      std::string once;
      for (std::size_t item = 0; item < items && once.empty(); ++item) {
        if (taken[item] < 0) continue;
        const std::size_t p = static_cast<std::size_t>(taken[item]);
        if (p >= count) {
          once = "work-item " + item_name(item, global_x) + " reports pixel " + std::to_string(p) + ", outside";
          break;
        }
        if (first_taker[p] != items) {
          twice = {first_taker[p], item};
          once = "pixel (" + std::to_string(p % size.width) + ", " + std::to_string(p / size.width) +
                 ") was handled twice, by work-items " + item_name(first_taker[p], global_x) + " and " +
                 item_name(item, global_x);
          break;
        }
        first_taker[p] = item;
      }
      std::size_t missed = count;
      for (std::size_t p = 0; p < count && once.empty(); ++p)
        if (first_taker[p] == items) {
          once = "pixel (" + std::to_string(p % size.width) + ", " + std::to_string(p / size.width) +
                 ") was handled by no work-item";
          missed = p;
        }
      if (once.empty()) {
        check.pass(parts[1]);
      } else {
        std::string why = dealing_cause(classes, taken, global_x, warp, size.width, missed, count);
        auto [tried, matched] = dealing_models(classes, taken, global_x, warp, size.width, size.height);
        // A dealing that gives exactly these pixels says more than which run starts where.
        const bool by_model = !matched.empty() && (why.empty() || why.compare(0, 8, "The run ") == 0);
        if (by_model) {
          why.clear();
        } else if (why.empty()) {
          // Two rows of work-items on one row of pixels: each row of work-items has two rows of its own.
          if (twice.first != twice.second && twice.first / global_x != twice.second / global_x)
            why = "Two rows of work-items, " + std::to_string(twice.first / global_x) + " and " +
                  std::to_string(twice.second / global_x) +
                  ", reach the same row of pixels: row gy of work-items "
                  "covers the two pixel rows 2 * gy and 2 * gy + 1: classes 0 and 1 the first, 2 and 3 the second.";
          const std::string covered = coverage(taken, count);
          if (why.empty()) why = class_period_cause(classes, global_x, warp, covered);
          if (why.empty()) why = run_stride_cause(taken, global_x, warp, size.width, covered);
        }
        check.fail_by_models(parts[1], why, once, std::move(tried), std::move(matched));
      }

      // The same picture as giving every pixel the curve of its own class.
      course::CaseDetails details;
      details.diagnose = [&classes, &taken, width = size.width, global_x](const std::vector<float>&) {
        return class_mismatch(classes, taken, width, global_x);
      };
      check.expect_image(parts[2], output.read(), bayer_curves_reference(mosaic, steps), size.width, size.height, 1e-3,
                         1, details);
    });
  }
}

void check_warps_exercise(course::ExerciseCheck& check) {
  std::uint32_t seed = 70;
  // Part a, for the SIMD widths of CPUs and GPUs.
  for (const int warp : {8, 16, 32, 64}) check_uniform_branch(check, warp, seed);
  // Part b: the C++ header, compiled into this check program from the folder it checks.
  lesson07::work_group_cases(check);
}

}  // namespace

COURSE_EXERCISE("07", "07_warps_and_occupancy",
                "a branch that splits only between warps, and a legal work-group size chosen at run time",
                check_warps_exercise);
