/// @file tuning_cache.hpp
/// @brief Lesson 11's cache of tuned winners, read and written: a small JSON file under the
/// user's cache folder ($XDG_CACHE_HOME/opencl-course/tuning.json, else
/// ~/.cache/opencl-course/tuning.json). An entry is keyed by the device, its driver version, the
/// operation and the image's size class (the fastest parameters belong to one device and driver,
/// and change with the size), and holds the winner's parameters by name. Lesson 11 writes it; the
/// lessons whose kernels it tunes read their winner here and run it with their own host code.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "device.hpp"
#include "report.hpp"

namespace course {

/// @brief What a winner was tuned for.
struct TuningKey {
  std::string device;      ///< CL_DEVICE_NAME
  std::string driver;      ///< CL_DRIVER_VERSION
  std::string operation;   ///< e.g. "separable gaussian r=8 sigma=4.0", "median 3x3 u8"
  std::string size_class;  ///< e.g. "up to 2048x2048"
};

/// @brief The key for an operation on an image of width x height on the device: the size class
/// is the smallest power-of-two square the image fits in.
TuningKey tuning_key(const DeviceContext& dc, const std::string& operation, int width, int height);

/// @brief $XDG_CACHE_HOME/opencl-course/tuning.json, else $HOME/.cache/opencl-course/tuning.json.
std::filesystem::path tuning_cache_file();

/// @brief A winner's parameters, each by its name: {"variant", "buffer_warp"}, {"group_x", "32"}, ...
using TunedValues = std::vector<std::pair<std::string, std::string>>;

/// @brief The value of `name` in `winner`; "" when it has none.
std::string tuned_value(const TunedValues& winner, const std::string& name);

/// @brief The winner stored for `key`, if the file has one for this driver. A file that is not
/// valid JSON, an entry without a winner and an entry for another driver version are ignored,
/// each with one line to `out` saying why.
std::optional<TunedValues> stored_winner(const std::filesystem::path& file, const TuningKey& key, std::ostream& out);

/// @brief Stores `winner` (and its time) for `key`, replacing the entry for the same device,
/// operation and size class. Other entries are kept (a corrupt file is replaced). The file is
/// written whole to a temporary name and renamed, so a crash never leaves half a file.
void store_winner(const std::filesystem::path& file, const TuningKey& key, const TunedValues& winner,
                  double kernel_ms);

/// @brief "aligned_passes 32x2, 4 outputs, vector 4" (and ", strip 256" for a winner that walks
/// strips): a winner as the lessons' tables name it, after "tuned ".
std::string describe_winner(const TunedValues& winner);

/// @brief Prints that lesson 11 has tuned nothing for `operation` at this size on this device
/// yet, and the command that does (`op`: what its --op takes, "" where its default runs it).
void say_no_winner(const std::string& operation, const std::string& op, int width, int height, std::ostream& out);

/// @brief Prints which winner ran and how it fared (`row`: verified, its time; `skipped`: why it
/// was left out), and returns `row` named "tuned <describe_winner()>" when it ran (`skipped` "").
std::optional<ResultRow> report_winner(const TunedValues& winner, ResultRow row, const std::string& skipped,
                                       std::ostream& out);

}  // namespace course
