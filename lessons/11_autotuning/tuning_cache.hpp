// Lesson 11: the tuned winners, kept between runs in a small JSON file under the user's cache
// folder ($XDG_CACHE_HOME/opencl-course/tuning.json, else ~/.cache/opencl-course/tuning.json).
// An entry is keyed by the device, its driver version, the operation and the image's size
// class: the fastest parameters belong to one device and driver, and change with the size.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>

#include "device.hpp"
#include "search_space.hpp"

namespace lesson11 {

/// What a winner was tuned for.
struct CacheKey {
  std::string device;      // CL_DEVICE_NAME
  std::string driver;      // CL_DRIVER_VERSION
  std::string operation;   // e.g. "separable gaussian r=8 sigma=4.0"
  std::string size_class;  // e.g. "up to 2048x2048"
};

/// The key for an operation on an image of width x height on the device: the size class is
/// the smallest power-of-two square the image fits in.
CacheKey cache_key(const course::DeviceContext& dc, const std::string& operation, int width, int height);

/// $XDG_CACHE_HOME/opencl-course/tuning.json, else $HOME/.cache/opencl-course/tuning.json.
std::filesystem::path default_cache_file();

/// The cached winner for `key` as a point of `space`, if the file has a usable one. A file that
/// is not valid JSON, an entry with missing fields or values outside the space, and an entry
/// for another driver version are ignored, each with one line to `out` saying why.
std::optional<tuning::Point> load_winner(const std::filesystem::path& file, const CacheKey& key,
                                         const tuning::Space& space, std::ostream& out);

/// Stores `winner` (and its time) for `key`, replacing the entry for the same device, operation
/// and size class. Other entries are kept (a corrupt file is replaced). The file is written
/// whole to a temporary name and renamed, so a crash never leaves half a file.
void store_winner(const std::filesystem::path& file, const CacheKey& key, const tuning::Space& space,
                  const tuning::Point& winner, double kernel_ms);

}  // namespace lesson11
