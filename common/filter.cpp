#include "filter.hpp"

#include "errors.hpp"
#include "reference.hpp"

#include <algorithm>
#include <sstream>

namespace course {

std::vector<float> FilterSpec::weights_2d() const { return outer_product(weights, weights); }

std::string FilterSpec::describe() const {
  std::ostringstream out;
  out << kind << " r=" << radius;
  if (kind == "gaussian") out << " sigma=" << sigma;
  return out.str();
}

void add_filter_options(Options& options, int default_radius, double default_sigma, const std::string& default_kind) {
  options.value("filter", "NAME", "gaussian or box", default_kind);
  options.value("radius", "R", "filter radius: 2R+1 taps per dimension", std::to_string(default_radius));
  std::ostringstream sigma;
  sigma << default_sigma;
  options.value("sigma", "S", "Gaussian sigma in pixels (default: radius / 2, at least 0.5)",
                default_sigma > 0 ? sigma.str() : "");
}

FilterSpec read_filter(const Options& options, int max_radius) {
  FilterSpec f;
  f.kind = options.choice("filter", {"gaussian", "box"});
  f.radius = options.integer("radius", 0, max_radius);
  if (f.kind == "gaussian") {
    f.sigma = options.text("sigma").empty() ? std::max(0.5, f.radius / 2.0) : options.number("sigma", 1e-3, 1e3);
    f.weights = gaussian_weights(f.radius, f.sigma);
  } else {
    if (options.given("sigma")) throw UsageError("option '--sigma' only applies to --filter gaussian");
    f.weights = box_weights(f.radius);
  }
  return f;
}

}  // namespace course
