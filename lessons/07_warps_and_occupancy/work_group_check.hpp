// Exercise 07, part b: the cases that try the learner's work-group choice (work_group_check.cpp).
#pragma once

#include "checker.hpp"

namespace lesson07 {

/// Tries choose_work_group_size() of the work_group_choice.hpp this program was compiled with.
void work_group_cases(course::ExerciseCheck& check);

}  // namespace lesson07
