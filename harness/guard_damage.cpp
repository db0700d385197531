#include "guard_damage.hpp"

#include <cstring>
#include <vector>

namespace course {

void fill_pattern(unsigned char* out, std::size_t count, const void* pattern) {
  for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<const unsigned char*>(pattern)[i % 4];
}

std::string describe_guard_damage(const unsigned char* whole, std::size_t count, std::size_t guard,
                                  std::size_t element_bytes, const std::string& advice) {
  const std::size_t e = element_bytes;
  std::vector<unsigned char> expected((count + 2 * guard) * e);
  fill_pattern(expected.data(), expected.size(), &kGuardSentinel);
  const auto changed = [&](std::size_t element) {
    return std::memcmp(&whole[element * e], &expected[element * e], e) != 0;
  };
  std::size_t before = 0, after = 0, first_after = 0, last_before = 0;
  for (std::size_t i = 0; i < guard; ++i)
    if (changed(i) && before++ == 0) last_before = guard - i;
  for (std::size_t i = 0; i < guard; ++i)
    if (changed(guard + count + i) && after++ == 0) first_after = i;
  if (!before && !after) return "";
  const bool floats = e == sizeof(float);
  const auto amount = [&](std::size_t n) {
    return std::to_string(n) + (floats ? (n == 1 ? " value" : " values") : (n == 1 ? " byte" : " bytes"));
  };
  const std::string index = floats ? "index " : "byte ";
  std::string msg =
      "the kernel wrote outside its buffer of " + std::to_string(count) + (floats ? " floats:" : " bytes:");
  if (before)
    msg += " " + amount(before) + " before its start (as far as " + index + "-" + std::to_string(last_before) + ")";
  if (after)
    msg += " " + amount(after) + " past its end (first at " + index + std::to_string(count + first_after) + ")";
  return msg + ". " + (advice.empty() ? "The index of that write, or the bounds check before it, is wrong." : advice);
}

}  // namespace course
