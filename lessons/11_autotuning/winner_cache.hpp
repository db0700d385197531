// Lesson 11: its winners in the cache of tuned winners (common/filters/tuning_cache.hpp, which
// the lessons it tunes read): a point of a search space stored by its axes' names and values.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>

#include "search_space.hpp"
#include "tuning_cache.hpp"

namespace lesson11 {

using CacheKey = course::TuningKey;

/// The key for an operation on an image of width x height on the device (course::tuning_key()).
inline CacheKey cache_key(const course::DeviceContext& dc, const std::string& operation, int width, int height) {
  return course::tuning_key(dc, operation, width, height);
}

/// $XDG_CACHE_HOME/opencl-course/tuning.json, else $HOME/.cache/opencl-course/tuning.json.
inline std::filesystem::path default_cache_file() {
  return course::tuning_cache_file();
}

/// The cached winner for `key` as a point of `space`, if the file has a usable one. What
/// course::stored_winner() ignores, and a winner with values outside the space, are ignored,
/// each with one line to `out` saying why.
std::optional<tuning::Point> load_winner(const std::filesystem::path& file, const CacheKey& key,
                                         const tuning::Space& space, std::ostream& out);

/// Stores `winner` (and its time) for `key`, by the names and values of the space's axes.
void store_winner(const std::filesystem::path& file, const CacheKey& key, const tuning::Space& space,
                  const tuning::Point& winner, double kernel_ms);

}  // namespace lesson11
