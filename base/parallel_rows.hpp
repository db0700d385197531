/// @file parallel_rows.hpp
/// @brief The course's one parallel loop: rows of a picture shared out over the cores.
#pragma once

#include <functional>

namespace course {

/// @brief Calls body(first, last) for bands of rows that cover [0, rows) once each, on `threads`
/// std::threads (0: one per core), and returns when all have ended. A body that computes each
/// row by the same code whatever its band gives the same bits on any number of threads. An
/// exception thrown in a band is thrown again here, once every band has ended.
void parallel_rows(int rows, unsigned threads, const std::function<void(int first, int last)>& body);

}  // namespace course
