/// @file build_costs.hpp
/// @brief What a compile-time radius costs: lesson 05's line of build times.
#pragma once

#include <iosfwd>
#include <string>

#include "course.hpp"

namespace course {

/// @brief Builds `file` for radii 1, 4, 12 and 16 twice each and prints one line: each new radius
/// is a new program to build; the same (source, options) a second time comes from the cache.
void print_radius_build_costs(const DeviceContext& dc, const std::string& file, std::ostream& out);

}  // namespace course
