/// @file input_error.hpp
/// @brief The error for input a student can fix (an unreadable image, a bad value): its message
/// says what is wrong, and the programs exit with status 2 for it (README's "Exit codes").
#pragma once

#include <stdexcept>

namespace course {

/// @brief An input the course cannot use: missing or broken image, unknown device, ...
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace course
