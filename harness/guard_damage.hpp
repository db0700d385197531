/// @file guard_damage.hpp
/// @brief Reading guard bands: the sentinel they hold, and the sentence that says where a kernel
/// wrote outside its buffer. Shared by GuardedBuffer (the checker's) and the guard layer (the
/// lessons', preloaded).
#pragma once

#include <cstddef>
#include <string>

namespace course {

/// @brief The sentinel in the guards: an unusual value that no filter of the course produces.
/// Byte buffers hold its four bytes over and over.
constexpr float kGuardSentinel = -12345.5f;

/// @brief Fills `count` bytes at `out` with the four bytes of `pattern`, over and over.
void fill_pattern(unsigned char* out, std::size_t count, const void* pattern);

/// @brief "" when the guards around a buffer still hold the sentinel, else a sentence saying how
/// far before its start or past its end a kernel wrote.
/// @param whole the bytes of the whole allocation: guard, buffer, guard.
/// @param count the buffer's length in elements; @p guard each guard's length in elements.
/// @param element_bytes 4 (floats) or 1 (bytes): the unit the sentence counts in.
/// @param advice what to check, in the kernel's own names ("": the index of that write, or the
/// bounds check before it).
std::string describe_guard_damage(const unsigned char* whole, std::size_t count, std::size_t guard,
                                  std::size_t element_bytes, const std::string& advice = "");

}  // namespace course
