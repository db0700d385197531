/// @file check_speed.hpp
/// @brief After a pass: how fast the learner's kernel is beside the reference solution.
#pragma once

#include <filesystem>
#include <string>

#include "checker.hpp"

namespace course {

/// @brief Runs the largest case that passed with the learner's files of `folder` and with the
/// reference solution's, taking turns, and times every kernel launch of the case with event
/// profiling (median of 5 runs after a warm-up, each run's launches summed). Returns one line:
/// "speed on case 12 (...): yours 3.2 ms, the reference 1.1 ms: 2.9x slower", with "within
/// noise" when the two runs' ranges overlap; "" when the tree has no solutions/ or the case
/// launched no kernel.
std::string compare_speed(const ExerciseCheck& check, const ExerciseInfo& exercise, const std::filesystem::path& folder);

}  // namespace course
