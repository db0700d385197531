// The two compiled variants of the host-side cases of exercise 07 (see cmake/Lesson07.cmake).
#pragma once

#include "checker.hpp"

namespace lesson07 {

/// The cases compiled against exercises/07_warps_and_occupancy/work_group_choice.hpp.
void work_group_cases_exercises(course::ExerciseCheck& check);
/// The cases compiled against solutions/07_warps_and_occupancy/work_group_choice.hpp.
void work_group_cases_solutions(course::ExerciseCheck& check);

}  // namespace lesson07
