/// @file course.hpp
/// @brief The whole common helper in one include, for lessons from 02 on.
#pragma once

#include "compare.hpp"
#include "device.hpp"
#include "errors.hpp"
#include "filter.hpp"
#include "image.hpp"
#include "lesson.hpp"
#include "measure.hpp"
#include "options.hpp"
#include "program.hpp"
#include "reference.hpp"
#include "report.hpp"
#include "timing.hpp"
