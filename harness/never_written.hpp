/// @file never_written.hpp
/// @brief A mark for outputs no work-item wrote: a NaN whose bits differ from the poison NaN that
/// local memory holds before the copy (and from any NaN computed from it). A check that fills its
/// output with the mark before a launch tells an output nobody stored from one read from a tile
/// before it was written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "checker.hpp"

namespace course {

/// @brief The mark: a quiet NaN with a payload no arithmetic on the poison produces.
inline float never_written() {
  const std::uint32_t bits = 0x7fcbad00u;
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

/// @brief Does `value` hold the mark, bit for bit?
inline bool is_never_written(float value) {
  const float mark = never_written();
  return std::memcmp(&value, &mark, sizeof mark) == 0;
}

/// @brief The index of the first of `values` that still holds the mark, or `values.size()`.
inline std::size_t first_never_written(const std::vector<float>& values) {
  for (std::size_t i = 0; i < values.size(); ++i)
    if (is_never_written(values[i])) return i;
  return values.size();
}

/// @brief The mistake "never written" when some output of an image `width` pixels wide still
/// holds the mark (none otherwise): its sentence names the first such pixel, then `stores`, what
/// the exercise's work-items store and what to check.
inline std::vector<Mistake> never_written_mistakes(const std::vector<float>& got, int width,
                                                   const std::string& stores) {
  const std::size_t i = first_never_written(got);
  if (i == got.size()) return {};
  return {{"never written",
           "Pixel (" + std::to_string(i % width) + ", " + std::to_string(i / width) +
               ") was never written: no work-item stored a value there. " + stores,
           [got] { return got; }}};
}

}  // namespace course
