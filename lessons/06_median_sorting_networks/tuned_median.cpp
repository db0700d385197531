#include "tuned_median.hpp"

#include <ostream>
#include <stdexcept>

#include "median_filters.hpp"
#include "tuning_cache.hpp"

namespace course {

std::optional<ResultRow> run_tuned_median(const DeviceContext& dc, const GrayImage& image, const GrayImage& reference,
                                          int window, bool eight_bit, int repeat, std::ostream& out) {
  if (window != 3 && window != 5) return std::nullopt;  // the medians lesson 11 tunes
  const std::string size = std::to_string(window) + "x" + std::to_string(window);
  const std::string operation = "median " + size + (eight_bit ? " u8" : " float");
  // Lesson 11's --op for it: median (its default), median5, median-u8, median5-u8.
  const std::string op = window == 3 && !eight_bit ? "" : std::string("median") + (window == 5 ? "5" : "") +
                                                              (eight_bit ? "-u8" : "");
  const auto winner = stored_winner(tuning_cache_file(), tuning_key(dc, operation, image.width, image.height), out);
  if (!winner) {
    say_no_winner(operation, op, image.width, image.height, out);
    return std::nullopt;
  }
  ResultRow row;
  std::string skipped;
  try {
    // The block as lesson 11 searched it: the lanes lesson 06 chooses for the vector, the vector
    // and the strip ("outputs") from the winner, in the winner's group.
    const MedianVariant& variant = median_variant(tuned_value(*winner, "variant"));
    const int vector = std::stoi(tuned_value(*winner, "vector"));
    MedianBlock block = median_block(dc, variant, window, eight_bit, vector);
    block.vector = vector;
    block.strip = std::stoi(tuned_value(*winner, "outputs"));
    const std::size_t gx = std::stoul(tuned_value(*winner, "group_x")), gy = std::stoul(tuned_value(*winner, "group_y"));
    const MedianRun run = run_median_block(dc, variant, image, window, eight_bit, repeat, gx, gy, block);
    if (run.local_x != gx || run.local_y != gy)
      throw std::invalid_argument("its " + std::to_string(gx) + "x" + std::to_string(gy) +
                                  " groups are more than the compiled kernel allows");
    const Comparison check = compare_images(run.result.pixels, reference.pixels, image.width, image.height, 0.0);
    row = ResultRow{"", run.timing.device_ms, run.end_to_end.device_ms, double(image.pixels.size()),
                    2.0 * image.pixels.size() * (eight_bit ? 1 : 4), check.max_abs_error, check.ok()};
    row.spread(run.timing);
    row.copy = eight_bit ? PixelType::u8 : PixelType::f32;  // against the copy of its own pixels
  } catch (const std::logic_error& e) {  // a variant, block or number lesson 06 does not have
    skipped = e.what();
  }
  return report_winner(*winner, row, skipped, out);
}

}  // namespace course
