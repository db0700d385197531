/// @file json_value.hpp
/// @brief Just enough JSON to read back what the course writes (a run's record, which
/// harness/runs/record.cpp writes; the tuning cache): objects, arrays, strings, numbers, true,
/// false and null.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace course {

/// @brief The text is not JSON; what() says on which line and what was expected there.
struct JsonError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// @brief One JSON value, as much of JSON as a record uses: null, true and false, numbers,
/// strings, arrays and objects (members in the file's order).
struct JsonValue {
  enum class Kind { null, boolean, number, string, array, object } kind = Kind::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonValue> items;
  std::vector<std::pair<std::string, JsonValue>> members;

  /// @brief The member `name` of an object; nullptr when this is no object or has no such member.
  const JsonValue* find(const std::string& name) const;
};

/// @brief Parses `text` as one JSON document. Throws JsonError naming the line and what was
/// expected there.
JsonValue parse_json(const std::string& text);

}  // namespace course
