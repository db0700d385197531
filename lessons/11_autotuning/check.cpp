// Exercise 11's cases: the learner's legality filter and hill-climbing step (tile_search.hpp,
// compiled into this program from the folder it checks), tried on simulated devices and on
// cost landscapes with no timing noise. The filter must agree with the device's limits on every
// candidate of the space; the climb must never time an illegal candidate, must only move to a
// faster neighbour, and, restarted within a budget, must find the fastest legal candidate.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "checker.hpp"
#include "search_space.hpp"
#include "tile_search.hpp"

namespace {

using exercise11::TileLimits;

struct SimulatedDevice {
  const char* name;
  TileLimits limits;
};

const SimulatedDevice kDevices[] = {
    {"a GPU with 1024 work-items a group and 48 KiB of local memory, radius 4", {1024, 1024, 1024, 1024, 48 << 10, 4}},
    {"the same GPU, a kernel its registers limit to 256 work-items", {1024, 1024, 1024, 256, 48 << 10, 4}},
    {"a CPU (PoCL): 4096 work-items, 256 KiB of local memory, radius 8", {4096, 4096, 4096, 4096, 256 << 10, 8}},
    {"a device whose items may be at most 128 x 8, 32 KiB, radius 8", {1024, 128, 8, 1024, 32 << 10, 8}},
    {"a small GPU: 256 work-items, 16 KiB of local memory, radius 2", {256, 256, 256, 256, 16 << 10, 2}},
    // 4608 bytes hold a 32 x 8 tile with its halo of 8 exactly (48 x 24 floats): many tiles fit
    // with the halo counted once (tile + R) but not with a halo on both sides (tile + 2R), and
    // the candidate whose tile fills the memory to the last byte is legal.
    {"a device with 4608 bytes of local memory (a 32x8 tile and its halo exactly), radius 8",
     {1024, 1024, 1024, 1024, 4608, 8}},
};

tuning::Space tile_space() {
  tuning::Space space;
  space.axes = {{"group_x", {8, 16, 32, 64, 128, 256}, {}},
                {"group_y", {1, 2, 4, 8, 16}, {}},
                {"outputs", {1, 2, 4, 8}, {}},
                {"vector", {1, 2, 4, 8}, {}}};
  return space;
}

// How a simulated device takes a launch. A real one counts the halo on both sides of the tile's
// width and of its height (`halo_x` = `halo_y` = 2), checks the compiled
// kernel's own limit and runs a tile that fills its local memory to the last byte; each typical
// mistake of a legality filter is a device that does one of these differently.
struct DeviceModel {
  std::size_t halo_x = 2, halo_y = 2;
  bool kernel_limit = true, full_is_legal = true;
  const char* across = "vector";     // the axis whose value times group_x gives the tile's width
  const char* down = "outputs";      // the axis whose value times group_y gives its height
  int item_limits = 0;               // 1: group_x held to the y item size; 2: each to the other's
  std::size_t unit = sizeof(float);  // bytes a tile element takes (1: floats counted as bytes)
  // The limit a group that reaches it exactly breaks (>= for >): 1 the x item size, 2 the y item
  // size, 3 the device's work-items, 4 the compiled kernel's (0: none).
  int at_limit = 0;
  bool add_across = false, add_down = false;  // the tile's width group_x + vector (height group_y + outputs)
};

// How many input pixels along one axis `outputs` consecutive outputs read, each `reach` pixels
// before and after itself, counting the reach on `sides` of the run (2: before the first output
// and after the last).
std::size_t pixels_read(std::size_t outputs, std::size_t reach, std::size_t sides) {
  const std::size_t before = sides > 0 ? reach : 0, after = sides > 1 ? reach : 0;
  return before + outputs + after;
}

// What the simulated device answers when the host launches candidate p: "" when it runs, else the
// error and why. Judged from the launch (its local size, and the local memory its group's loads
// take), from the device's side.
std::string launch_error(const tuning::Space& s, const tuning::Point& p, const TileLimits& device,
                         const DeviceModel& model = {}) {
  const std::size_t local[2] = {std::size_t(s.value(p, "group_x")), std::size_t(s.value(p, "group_y"))};
  const std::size_t items = local[0] * local[1];
  std::ostringstream why;
  const std::size_t max_x = model.item_limits ? device.max_item_size_y : device.max_item_size_x;
  const std::size_t max_y = model.item_limits == 2 ? device.max_item_size_x : device.max_item_size_y;
  // Over a limit, or with `at_limit` at it too.
  const auto over = [&model](std::size_t value, std::size_t limit, int which) {
    return value > limit || (model.at_limit == which && value == limit);
  };
  if (over(local[0], max_x, 1) || over(local[1], max_y, 2))
    why << "the device's item sizes are at most " << device.max_item_size_x << " x " << device.max_item_size_y;
  else if (over(items, device.device_max_work_group_size, 3))
    why << items << " work-items, over the device's " << device.device_max_work_group_size;
  else if (model.kernel_limit && over(items, device.kernel_work_group_size, 4))
    why << items << " work-items, over the compiled kernel's " << device.kernel_work_group_size;
  else {
    const std::size_t across = s.value(p, model.across), down = s.value(p, model.down);
    const std::size_t loaded =
        pixels_read(model.add_across ? local[0] + across : local[0] * across, device.radius, model.halo_x) *
        pixels_read(model.add_down ? local[1] + down : local[1] * down, device.radius, model.halo_y);
    const std::size_t bytes = loaded * model.unit, memory = device.local_mem_bytes;
    if (model.full_is_legal ? bytes > memory : bytes >= memory)
      why << "its tile with the halo is " << bytes << " bytes of local memory, the device has " << memory;
  }
  return why.str();
}

bool runs(const tuning::Space& s, const tuning::Point& p, const TileLimits& device) {
  return launch_error(s, p, device).empty();
}

// The typical mistakes of a legality filter: when the learner's verdicts agree with one on every
// candidate of a device, the report names that mistake.
struct LegalityMistake {
  const char* sentence;
  DeviceModel model;
};

const LegalityMistake kLegalityMistakes[] = {
    {"The halo is counted once: the tile needs `radius` pixels on every side, so its size is (group_x * vector + 2 * "
     "radius) x (group_y * outputs + 2 * radius) floats, not + radius.",
     {1, 1, true, true}},
    {"The tile's width counts the halo once: `radius` pixels lie left and right of the tile, so it is group_x * "
     "vector + 2 * radius floats wide, not + radius.",
     {1, 2, true, true}},
    {"The tile's height counts the halo once: `radius` pixels lie above and below the tile, so it is group_y * "
     "outputs + 2 * radius floats high, not + radius.",
     {2, 1, true, true}},
    {"The tile's halo is left out: the tile is (group_x * vector + 2 * radius) x (group_y * outputs + 2 * radius) "
     "floats, halo included.",
     {0, 0, true, true}},
    {"A tile that fills local memory to the last byte is legal: it fits when its bytes are <= the local memory size "
     "(reject with >, not >=).",
     {2, 2, true, false}},
    {"The compiled kernel's own limit is not checked: CL_KERNEL_WORK_GROUP_SIZE (kernel_work_group_size) can be "
     "smaller than the device's maximum, when the kernel needs many registers.",
     {2, 2, false, true}},
    {"The tile's sides are swapped: its width is group_x * vector columns and its height group_y * outputs rows "
     "(each with the halo), not group_x * outputs and group_y * vector.",
     {2, 2, true, true, "outputs", "vector"}},
    {"The tile's width uses outputs: it is group_x * vector columns wide (the vector is along x) and group_y * "
     "outputs rows high, each with the halo.",
     {2, 2, true, true, "outputs", "outputs"}},
    {"The tile's height uses vector: it is group_y * outputs rows high (the outputs are along y) and group_x * "
     "vector columns wide, each with the halo.",
     {2, 2, true, true, "vector", "vector"}},
    {"group_x is held to the limit of y: it must be at most max_item_size_x, and group_y at most max_item_size_y.",
     {2, 2, true, true, "vector", "outputs", 1}},
    {"The item sizes are swapped: group_x must be at most max_item_size_x, and group_y at most max_item_size_y.",
     {2, 2, true, true, "vector", "outputs", 2}},
    {"The tile is counted in floats, not bytes: its elements are floats of sizeof(float) = 4 bytes each, and "
     "local memory is given in bytes.",
     {2, 2, true, true, "vector", "outputs", 0, 1}},
    {"The tile's width adds vector to group_x: a group of group_x work-items, each vector pixels wide, spans "
     "group_x * vector columns, plus the halo.",
     {2, 2, true, true, "vector", "outputs", 0, sizeof(float), 0, true, false}},
    {"The tile's height adds outputs to group_y: a group of group_y rows of work-items, each outputs rows high, "
     "spans group_y * outputs rows, plus the halo.",
     {2, 2, true, true, "vector", "outputs", 0, sizeof(float), 0, false, true}},
    {"A group as wide as the device's x item size is legal: reject group_x only above max_item_size_x (>, not "
     ">=).",
     {2, 2, true, true, "vector", "outputs", 0, sizeof(float), 1}},
    {"A group as high as the device's y item size is legal: reject group_y only above max_item_size_y (>, not "
     ">=).",
     {2, 2, true, true, "vector", "outputs", 0, sizeof(float), 2}},
    {"A group of exactly the device's most work-items is legal: reject it only above device_max_work_group_size "
     "(>, not >=).",
     {2, 2, true, true, "vector", "outputs", 0, sizeof(float), 3}},
    {"A group of exactly the compiled kernel's most work-items is legal: reject it only above "
     "kernel_work_group_size (>, not >=).",
     {2, 2, true, true, "vector", "outputs", 0, sizeof(float), 4}},
};

// The candidates one step from `here` on one axis, found by trying each axis both ways.
std::vector<tuning::Point> one_step_away(const tuning::Space& s, const tuning::Point& here) {
  std::vector<tuning::Point> around;
  for (std::size_t axis = 0; axis < here.size(); ++axis)
    for (const int step : {-1, 1}) {
      tuning::Point q = here;
      q[axis] += step;
      if (q[axis] >= 0 && q[axis] < int(s.axes[axis].values.size())) around.push_back(q);
    }
  return around;
}

std::string show(const tuning::Space& s, const tuning::Point& p) {
  return "group " + s.text(p, 0) + "x" + s.text(p, 1) + ", " + s.text(p, 2) + " outputs, vector " + s.text(p, 3);
}

// Deterministic costs over the axes' indices: bowls whose centre may lie outside the limits.
// A tiny term that differs for every candidate leaves no ties, so the steepest step is unique;
// a landscape with `ties` leaves it out and puts its centre halfway between candidates, so that
// neighbours cost the same (a step may take either, but never moves to an equal one).
struct Landscape {
  const char* name;
  double centre[4];
  double weight[4];
  bool ties = false;
};

const Landscape kLandscapes[] = {
    {"a bowl around 64x4 work-items, 4 outputs, vector 2", {3, 2, 2, 1}, {1, 1, 1, 1}},
    {"a bowl around 32x8, 8 outputs, vector 1, steeper in x", {2, 3, 3, 0}, {3, 1, 0.5, 2}},
    {"a slope towards the largest tiles, whose best candidates break the limits", {7, 6, 5, 5}, {1.0, 0.8, 0.6, 0.4}},
    {"a bowl centred between candidates, so that neighbours tie", {2.5, 1.5, 1.5, 0.5}, {1, 1, 1, 1}, true},
};

double landscape_cost(const Landscape& l, const tuning::Point& p) {
  double cost = 1;
  for (int a = 0; a < 4; ++a) cost += l.weight[a] * (p[a] - l.centre[a]) * (p[a] - l.centre[a]);
  return l.ties ? cost : cost + 1e-6 * (((p[0] * 5 + p[1]) * 4 + p[2]) * 4 + p[3]);
}

// How a hill-climbing step may decide: the solution's step is the default; each other is a typical
// slip in writing it, modelled on the same neighbours and costs.
struct StepModel {
  const char* step;           // which step: "with the legality test inverted"
  const char* how;            // what it does, and the fix
  bool test_legality = true;  // false: every neighbour is timed, the illegal ones too
  bool legal_timed = true;    // false: the legality test inverted, only the illegal neighbours timed
  bool beat_here = true;      // false: the bar starts at infinity, not at here's cost
  bool lower_wins = true;     // false: the comparison inverted, the higher cost kept
  bool first_faster = false;  // true: the first neighbour faster than here is taken, not the fastest
  bool bar_zero = false;      // true: the bar starts at 0, here untimed (no cost beats it)
  bool moves = true;          // false: the bar is lowered but `chosen` is never set, so it stays here
};

const StepModel kStepModels[] = {
    {"with the legality test inverted",
     "it times only the neighbours why_illegal rejects and skips the legal ones, so it never moves to a legal "
     "neighbour (time those whose reason is empty)",
     true, false},
    {"with no legality test",
     "it times every neighbour, the illegal ones too (skip those why_illegal rejects, before timing them)", false},
    {"with the comparison inverted", "of here and its legal neighbours it keeps the slowest (a lower cost must win)",
     true, true, true, false},
    {"that does not weigh here's own cost",
     "it moves to its fastest legal neighbour even where that is slower than here (start from here's cost, not "
     "infinity)",
     true, true, false},
    {"that stops at the first faster neighbour", "it takes the first legal neighbour faster than here, not the fastest",
     true, true, true, true, true},
    {"whose best cost starts at 0",
     "no time is below 0, so it never moves (the bar to beat is here's own time, measured first)", true, true, true,
     true, false, true},
    {"that never sets chosen",
     "it lowers the bar to a faster neighbour's time but never moves there (set chosen = next with lowest = t)", true,
     true, true, true, false, false, false},
};

// One step of the climb as `model` decides it from `here`: where it moves, and the candidates it
// times (`cost` is the case's, from the device's side: infinity for an illegal candidate).
std::pair<tuning::Point, std::set<tuning::Point>> model_step(const tuning::Space& space, const tuning::Point& from,
                                                             const TileLimits& limits, const StepModel& model,
                                                             const std::function<double(const tuning::Point&)>& cost) {
  std::pair<tuning::Point, std::set<tuning::Point>> step{from, {}};  // where it moves, what it times
  double bar = std::numeric_limits<double>::infinity();
  if (model.bar_zero)
    bar = 0;
  else if (model.beat_here)
    bar = cost(from), step.second.insert(from);
  const std::vector<tuning::Point> around = tuning::neighbours(space, from);
  for (const auto& q : around) {
    if (model.test_legality && runs(space, q, limits) != model.legal_timed) continue;
    const double q_cost = cost(q);
    step.second.insert(q);
    if (model.lower_wins ? q_cost < bar : q_cost > bar) {
      bar = q_cost;
      if (model.moves) step.first = q;
      if (model.first_faster) break;
    }
  }
  return step;
}

// One call of the learner's climb_step: where it started, the candidates it timed (here too), where it went.
struct Step {
  tuning::Point here;
  std::set<tuning::Point> timed;
  tuning::Point next;
};

// The sentence of the one step model that decides every step as the learner's did (the same
// neighbours timed, the same move), "either ... or ..." where two do, "" where none or more.
std::string step_model_cause(const tuning::Space& space, const TileLimits& limits, const std::vector<Step>& steps,
                             const std::function<double(const tuning::Point&)>& cost) {
  // The models test legality as the device judges it: where the learner's own filter judges a
  // neighbour otherwise, the steps show the filter's mistake, and no step model is named.
  const tuning::Space& searched = space;
  for (const Step& step : steps) {
    const std::vector<tuning::Point> around = tuning::neighbours(searched, step.here);
    for (const auto& q : around) {
      const std::string reason = exercise11::why_illegal(searched, q, limits);
      if (reason.empty() != runs(searched, q, limits)) return "";
    }
  }
  std::vector<const StepModel*> alike;
  for (const StepModel& model : kStepModels) {
    bool same = !steps.empty();
    for (const Step& step : steps) {
      if (!same) break;
      const auto [next, timed] = model_step(space, step.here, limits, model, cost);
      same = next == step.next && timed == step.timed;
    }
    if (same) alike.push_back(&model);
  }
  if (alike.size() == 1)
    return std::string("Every step equals the step ") + alike[0]->step + ": " + alike[0]->how + ".";
  if (alike.size() == 2)
    return std::string("Every step equals two steps, and no step here tells them apart: either the step ") +
           alike[0]->step + " (" + alike[0]->how + ") or the step " + alike[1]->step + " (" + alike[1]->how + ").";
  return "";
}

void legality_cases(course::ExerciseCheck& check, const tuning::Space& candidates) {
  for (const SimulatedDevice& device : kDevices) {
    const std::string name = std::string("legality filter on ") + device.name;
    check.run_case(name, [&] {
      std::string problems;
      int wrong = 0;
      for (std::size_t i = 0; i < candidates.size(); ++i) {
        const tuning::Point p = candidates.point(i);
        const std::string expected = launch_error(candidates, p, device.limits);
        const std::string got = exercise11::why_illegal(candidates, p, device.limits);
        if (expected.empty() == got.empty()) continue;
        if (wrong++ < 3)
          problems +=
              "\n    " + show(candidates, p) + ": " +
              (got.empty() ? "you call it legal, but " + expected : "you reject it ('" + got + "'), but it is legal");
      }
      if (wrong) {
        // A typical mistake that gives the learner's verdict on every candidate is the cause. Where
        // several do on this device, only one that does so on every device can be it: with none
        // or more than one such, this device cannot tell which, and none is named.
        const auto agrees = [&candidates](const LegalityMistake& m, const TileLimits& limits) {
          for (std::size_t i = 0; i < candidates.size(); ++i) {
            const tuning::Point p = candidates.point(i);
            const std::string student = exercise11::why_illegal(candidates, p, limits);
            if (launch_error(candidates, p, limits, m.model).empty() != student.empty()) return false;
          }
          return true;
        };
        std::vector<const LegalityMistake*> alike;
        for (const LegalityMistake& m : kLegalityMistakes)
          if (agrees(m, device.limits)) alike.push_back(&m);
        if (alike.size() > 1)
          alike.erase(std::remove_if(alike.begin(), alike.end(),
                                     [&agrees](const LegalityMistake* m) {
                                       for (const SimulatedDevice& other : kDevices)
                                         if (!agrees(*m, other.limits)) return true;
                                       return false;
                                     }),
                      alike.end());
        const std::string cause = alike.size() == 1 ? alike[0]->sentence : "";
        return check.fail(name, cause,
                          std::to_string(wrong) + " of " + std::to_string(candidates.size()) +
                              " candidates judged wrongly:" + problems,
                          "");
      }
      check.pass(name);
    });
  }
}

void climbing_cases(course::ExerciseCheck& check, const tuning::Space& space) {
  const std::size_t budget = 64;  // candidates timed per landscape: an eighth of the space
  for (const SimulatedDevice& device : kDevices)
    for (const Landscape& landscape : kLandscapes) {
      const std::string name = std::string("hill climbing on ") + landscape.name + ", " + device.name;
      check.run_case(name, [&] {
        // The fastest legal candidate, found the long way.
        tuning::Point optimum;
        double optimum_cost = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < space.size(); ++i) {
          const tuning::Point p = space.point(i);
          if (runs(space, p, device.limits) && landscape_cost(landscape, p) < optimum_cost)
            optimum = p, optimum_cost = landscape_cost(landscape, p);
        }
        // The cost function handed to climb_step: it records every candidate timed.
        std::map<tuning::Point, double> timed;
        std::vector<Step> steps;  // every call of climb_step, for the step models
        std::string illegal;
        std::size_t found_after = 0;  // timings until the optimum was first timed
        auto cost = [&](const tuning::Point& p) {
          if (!steps.empty()) steps.back().timed.insert(p);
          if (const std::string why = launch_error(space, p, device.limits); !why.empty()) {
            if (illegal.empty()) illegal = show(space, p) + ": " + why;
            return std::numeric_limits<double>::infinity();
          }
          timed[p] = landscape_cost(landscape, p);
          if (timed[p] <= optimum_cost && !found_after) found_after = timed.size();  // the optimum, or one as fast
          return timed[p];
        };
        // Climbs from the smallest candidate, then from random legal starts, until the optimum is
        // found or the budget spent.
        std::mt19937 random(11);
        tuning::Point start(4, 0);
        for (int climb = 0; !found_after && timed.size() < budget && climb < 50; ++climb) {
          tuning::Point here = start;
          for (int step = 0; step < 64; ++step) {
            steps.push_back({here, {}, here});
            const tuning::Point next = exercise11::climb_step(space, here, device.limits, cost);
            steps.back().next = next;
            // A wrong step: the step model that decides every step as the learner's did names the cause.
            const auto fail = [&](const std::string& what) {
              const auto model_cost = [&](const tuning::Point& p) {
                return runs(space, p, device.limits) ? landscape_cost(landscape, p)
                                                     : std::numeric_limits<double>::infinity();
              };
              check.fail(name, step_model_cause(space, device.limits, steps, model_cost), what, "");
            };
            if (!illegal.empty()) return fail("climb_step timed an illegal candidate, " + illegal);
            if (next == here) {
              // A peak: no legal neighbour may be faster.
              for (const auto& q : one_step_away(space, here))
                if (runs(space, q, device.limits) && landscape_cost(landscape, q) < landscape_cost(landscape, here))
                  return fail("climb_step stayed at " + show(space, here) + ", but its legal neighbour " +
                              show(space, q) + " is faster");
              break;
            }
            int moved = 0;
            for (std::size_t a = 0; a < 4; ++a) moved += std::abs(next[a] - here[a]);
            if (moved != 1 || !runs(space, next, device.limits))
              return fail("climb_step moved from " + show(space, here) + " to " + show(space, next) +
                          ", which is not a legal neighbour (one axis, one step)");
            if (landscape_cost(landscape, next) > landscape_cost(landscape, here))
              return fail("climb_step moved from " + show(space, here) + " to the slower " + show(space, next));
            if (landscape_cost(landscape, next) == landscape_cost(landscape, here))
              return fail("climb_step moved from " + show(space, here) + " to " + show(space, next) +
                          ", which is only as fast: a step moves only to a faster neighbour (<, not <=), "
                          "or a climb between equal candidates goes round in circles");
            for (const auto& q : one_step_away(space, here))
              if (runs(space, q, device.limits) && landscape_cost(landscape, q) < landscape_cost(landscape, next))
                return fail("climb_step moved from " + show(space, here) + " to " + show(space, next) +
                            ", but its legal neighbour " + show(space, q) +
                            " is faster still: a step takes the fastest neighbour");
            here = next;
          }
          do start = space.point(random() % space.size());
          while (!runs(space, start, device.limits));
        }
        // The optimum must have been timed within the budget.
        if (!found_after || found_after > budget) {
          auto best = timed.begin();
          for (auto it = timed.begin(); it != timed.end(); ++it)
            if (it->second < best->second) best = it;
          return check.fail(name, "the fastest legal candidate is " + show(space, optimum) + "; within " +
                                      std::to_string(budget) + " timings the climbs found " +
                                      (timed.empty() ? std::string("nothing") : show(space, best->first)));
        }
        check.pass(name, "found after " + std::to_string(found_after) + " timings");
      });
    }
}

void check_tuning_exercise(course::ExerciseCheck& check) {
  const tuning::Space space = tile_space();
  legality_cases(check, space);
  climbing_cases(check, space);
}

}  // namespace

COURSE_EXERCISE("11", "11_autotuning", "a legality filter and a hill-climbing step for a tiled kernel's tuner",
                check_tuning_exercise);
