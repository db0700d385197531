// Lesson 11: a search space of launch parameters, as the lesson's tuner and exercise 11 see it.
// Each parameter is an axis with a short list of values (work-group width, outputs per
// work-item, ...); a candidate is one index into every axis. Neighbours differ in one axis by
// one step, which is all a hill climber needs to know about the space.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tuning {

/// One parameter and the values the search may give it. `labels`, when not empty, names each
/// value (the kernel variants); otherwise the value itself is shown.
struct Axis {
  std::string name;
  std::vector<int> values;
  std::vector<std::string> labels;
};

/// A candidate: for each axis, the index of its value.
using Point = std::vector<int>;

/// The axes of one kernel family's parameters.
struct Space {
  std::vector<Axis> axes;

  /// The number of candidates: the product of the axes' lengths.
  std::size_t size() const {
    std::size_t n = 1;
    for (const Axis& axis : axes) n *= axis.values.size();
    return n;
  }
  /// Candidate number `index` of size(), the first axis changing slowest.
  Point point(std::size_t index) const {
    Point p(axes.size());
    for (std::size_t a = axes.size(); a-- > 0;) {
      p[a] = static_cast<int>(index % axes[a].values.size());
      index /= axes[a].values.size();
    }
    return p;
  }
  /// The position of `name` among the axes; -1 when there is none.
  int axis(const std::string& name) const {
    for (std::size_t a = 0; a < axes.size(); ++a)
      if (axes[a].name == name) return static_cast<int>(a);
    return -1;
  }
  /// The value `p` gives the axis called `name`.
  int value(const Point& p, const std::string& name) const {
    const int a = axis(name);
    return axes[a].values[p[a]];
  }
  /// The text of one axis's value: its label, else the number.
  std::string text(const Point& p, std::size_t a) const {
    return axes[a].labels.empty() ? std::to_string(axes[a].values[p[a]]) : axes[a].labels[p[a]];
  }
  /// "vector_passes_64x4_o8_v4": the name a recorded search table gives a candidate (the variant,
  /// the group shape, then each other axis by its first letter and value; a value "none" left out).
  std::string name(const Point& p) const {
    std::string s;
    const int x = axis("group_x"), y = axis("group_y");
    for (std::size_t a = 0; a < axes.size(); ++a) {
      const std::string part = static_cast<int>(a) == x   ? text(p, a) + (y >= 0 ? "x" + text(p, y) : "")
                               : static_cast<int>(a) == y ? (x >= 0 ? "" : "y" + text(p, a))
                               : axes[a].name == "variant" ? text(p, a)
                               : text(p, a) == "none"      ? ""
                                                           : axes[a].name.substr(0, 1) + text(p, a);
      if (!part.empty()) s += (s.empty() ? "" : "_") + part;
    }
    return s;
  }
  /// "variant=vector_passes group_x=64 group_y=4 outputs=8 vector=4".
  std::string describe(const Point& p) const {
    std::string s;
    for (std::size_t a = 0; a < axes.size(); ++a) s += (a ? " " : "") + axes[a].name + "=" + text(p, a);
    return s;
  }
};

/// Every candidate one step away from `p` along one axis (up to two per axis).
inline std::vector<Point> neighbours(const Space& space, const Point& p) {
  std::vector<Point> result;
  for (std::size_t a = 0; a < space.axes.size(); ++a)
    for (const int step : {-1, +1}) {
      const int i = p[a] + step;
      if (i < 0 || i >= static_cast<int>(space.axes[a].values.size())) continue;
      Point q = p;
      q[a] = i;
      result.push_back(q);
    }
  return result;
}

}  // namespace tuning
