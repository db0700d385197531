/// @file never_written.hpp
/// @brief A mark for outputs no work-item wrote: a NaN whose bits differ from the poison NaN that
/// local memory holds before the copy (and from any NaN computed from it). A check that fills its
/// output with the mark before a launch tells an output nobody stored from one read from a tile
/// before it was written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace course {

/// @brief The mark: a quiet NaN with a payload no arithmetic on the poison produces.
inline float never_written() {
  const std::uint32_t bits = 0x7fcbad00u;
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

/// @brief The index of the first of `values` that still holds the mark, or `values.size()`.
inline std::size_t first_never_written(const std::vector<float>& values) {
  const float mark = never_written();
  for (std::size_t i = 0; i < values.size(); ++i)
    if (std::memcmp(&values[i], &mark, sizeof mark) == 0) return i;
  return values.size();
}

}  // namespace course
