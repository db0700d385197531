#include "tuned_winner.hpp"

#include <ostream>

#include "kernel_families.hpp"
#include "measure.hpp"
#include "winner_cache.hpp"

namespace lesson11 {
namespace {

std::optional<course::ResultRow> run_cached(tuning::Family& family, const std::string& op,
                                            const course::DeviceContext& dc, int width, int height, std::ostream& out) {
  const CacheKey key = cache_key(dc, family.operation, width, height);
  const auto winner = load_winner(default_cache_file(), key, family.space, out);
  if (!winner) {
    course::say_no_winner(key.operation, op, width, height, out);
    return std::nullopt;
  }
  tuning::Tuner tuner(family);
  const tuning::Measurement& m = tuner.evaluate(*winner);
  course::TunedValues values;
  for (std::size_t a = 0; a < family.space.axes.size(); ++a)
    values.emplace_back(family.space.axes[a].name, family.space.text(*winner, a));
  course::RowWork work;
  work.pixels = double(width) * height;
  work.bytes = family.bytes_moved(*winner);
  course::Timing kernel;
  kernel.device_ms = m.kernel_ms;  // the tuner's median; its spread is not kept
  return course::report_winner(values, course::result_row(work, kernel, -1, m.max_error, m.verified), m.skipped, out);
}

// The families' full spaces with every variant, so that the winner of any search lesson 11 ran is
// in them, and the caller's CPU reference.
Setup full_setup(const course::DeviceContext& dc, const course::GrayImage* image, const course::GrayImage* reference,
                 int repeat) {
  Setup setup;
  setup.dc = &dc;
  setup.image = image;
  setup.reference = reference;
  setup.repeat = repeat;
  setup.size = SpaceSize::full;
  setup.variants = all_variants();
  return setup;
}

}  // namespace

std::optional<course::ResultRow> run_tuned_separable(const course::DeviceContext& dc, const course::GrayImage& image,
                                                     const course::GrayImage& reference,
                                                     const course::FilterSpec& filter, int repeat, std::ostream& out) {
  if (!std::filesystem::exists(default_cache_file())) {  // nothing to look up: no buffers to make
    course::say_no_winner("separable " + filter.describe(), "", image.width, image.height, out);
    return std::nullopt;
  }
  const Setup setup = full_setup(dc, &image, &reference, repeat);
  return run_cached(*separable_family(setup, filter), "", dc, image.width, image.height, out);
}

std::optional<course::ResultRow> run_tuned_conv2d(const course::DeviceContext& dc, const course::GrayImage& image,
                                                  const course::GrayImage& reference, const course::FilterSpec& filter,
                                                  int repeat, std::ostream& out) {
  if (!std::filesystem::exists(default_cache_file())) {
    course::say_no_winner("conv2d " + filter.describe(), "conv2d", image.width, image.height, out);
    return std::nullopt;
  }
  const Setup setup = full_setup(dc, &image, &reference, repeat);
  const auto family = conv2d_family(setup, filter);
  auto row = run_cached(*family, "conv2d", dc, image.width, image.height, out);
  if (row) row->flops = family->flops;  // (2R+1)^2 multiply-adds a pixel, for the roofline
  return row;
}

}  // namespace lesson11
