#include "tuned_winner.hpp"

#include <iomanip>
#include <ostream>
#include <sstream>

#include "kernel_families.hpp"
#include "tuning_cache.hpp"

namespace lesson11 {
namespace {

// "aligned_passes 32x8, 4 outputs, vector 4", and ", strip 256" for a variant that walks strips.
std::string short_description(const tuning::Space& s, const tuning::Point& p) {
  const int strip = s.axis("strip") < 0 ? 0 : s.value(p, "strip");
  return s.text(p, 0) + " " + std::to_string(s.value(p, "group_x")) + "x" + std::to_string(s.value(p, "group_y")) +
         ", " + std::to_string(s.value(p, "outputs")) + " outputs, vector " + std::to_string(s.value(p, "vector")) +
         (strip > 0 ? ", strip " + std::to_string(strip) : "");
}

// Says that lesson 11 has tuned nothing for this operation and size here yet, and how to (`op`:
// what --op takes for it, "" where its default runs it).
void none_yet(const std::string& operation, const std::string& op, int width, int height,
              const std::filesystem::path& file, std::ostream& out) {
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  out << "no tuned parameters for " << operation << " at " << size << "\n  on this device yet (none in "
      << file.string() << "):\n  ./course run 11 --size " << size << (op.empty() ? "" : " --op " + op) << " finds them\n";
}

std::optional<course::ResultRow> run_cached(tuning::Family& family, const std::string& op,
                                            const course::DeviceContext& dc, int width, int height, std::ostream& out) {
  const std::filesystem::path file = default_cache_file();
  const CacheKey key = cache_key(dc, family.operation, width, height);
  const auto winner = load_winner(file, key, family.space, out);
  if (!winner) {
    none_yet(key.operation, op, width, height, file, out);
    return std::nullopt;
  }
  tuning::Tuner tuner(family);
  const tuning::Measurement& m = tuner.evaluate(*winner);
  const std::string what = short_description(family.space, *winner);
  std::ostringstream line;
  line << "lesson 11's tuned winner for this device: ";
  if (m.usable())
    line << "verified, " << std::setprecision(4) << m.kernel_ms << " ms";
  else
    line << (m.ran() ? "it does NOT match the CPU reference" : "no longer legal here (" + m.skipped + "), left out");
  out << line.str() << "\n  " << what << "\n  from " << file.string() << "\n";
  if (!m.ran()) return std::nullopt;
  course::RowWork work;
  work.variant = "tuned " + what;
  work.pixels = double(width) * height;
  work.bytes = family.bytes_moved(*winner);
  course::Timing kernel;
  kernel.device_ms = m.kernel_ms;  // the tuner's median; its spread is not kept
  return course::result_row(work, kernel, -1, m.max_error, m.verified);
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
    none_yet("separable " + filter.describe(), "", image.width, image.height, default_cache_file(), out);
    return std::nullopt;
  }
  const Setup setup = full_setup(dc, &image, &reference, repeat);
  return run_cached(*separable_family(setup, filter), "", dc, image.width, image.height, out);
}

std::optional<course::ResultRow> run_tuned_conv2d(const course::DeviceContext& dc, const course::GrayImage& image,
                                                  const course::GrayImage& reference, const course::FilterSpec& filter,
                                                  int repeat, std::ostream& out) {
  if (!std::filesystem::exists(default_cache_file())) {
    none_yet("conv2d " + filter.describe(), "conv2d", image.width, image.height, default_cache_file(), out);
    return std::nullopt;
  }
  const Setup setup = full_setup(dc, &image, &reference, repeat);
  const auto family = conv2d_family(setup, filter);
  auto row = run_cached(*family, "conv2d", dc, image.width, image.height, out);
  if (row) row->flops = family->flops;  // (2R+1)^2 multiply-adds a pixel, for the roofline
  return row;
}

std::optional<course::ResultRow> run_tuned_median(const course::DeviceContext& dc, const course::GrayImage& image,
                                                  const course::GrayImage& reference, int window, bool eight_bit,
                                                  int repeat, std::ostream& out) {
  const TunedOp* op = median_op(window, eight_bit);
  if (!op) return std::nullopt;
  const std::string flag = op->name == "median" ? "" : op->name;  // the default --op runs "median"
  if (!std::filesystem::exists(default_cache_file())) {
    none_yet(median_operation(window, eight_bit), flag, image.width, image.height, default_cache_file(), out);
    return std::nullopt;
  }
  const Setup setup = full_setup(dc, &image, &reference, repeat);
  auto row = run_cached(*median_family(setup, *op), flag, dc, image.width, image.height, out);
  if (row && eight_bit) row->copy = course::PixelType::u8;  // against the copy of 8-bit pixels
  return row;
}

std::optional<course::ResultRow> run_tuned_warp(const course::DeviceContext& dc, const course::RgbaImage& picture,
                                                const course::Transform& m, const std::vector<float>& reference,
                                                int repeat, std::ostream& out) {
  if (!std::filesystem::exists(default_cache_file())) {
    none_yet("warp bilinear RGBA8", "warp", picture.width, picture.height, default_cache_file(), out);
    return std::nullopt;
  }
  const Setup setup = full_setup(dc, nullptr, nullptr, repeat);
  return run_cached(*warp_family(setup, picture, m, &reference), "warp", dc, picture.width, picture.height, out);
}

}  // namespace lesson11
