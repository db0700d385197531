/// @file input_error.hpp
/// @brief The errors for input a student can fix (an unreadable image, a bad value, a mistake on
/// the command line): their message says what is wrong, and the programs exit with status 2 for
/// them (README's "Exit codes").
#pragma once

#include <stdexcept>

namespace course {

/// @brief An input the course cannot use: missing or broken image, unknown device, ...
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// @brief A mistake on the command line: unknown option, bad value, out-of-range number.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace course
