#include "json_value.hpp"

#include <algorithm>
#include <cstdlib>

namespace course {

const JsonValue* JsonValue::find(const std::string& name) const {
  for (const auto& [key, value] : members)
    if (key == name) return &value;
  return nullptr;
}

namespace {

// A recursive-descent reader over the text, which says on which line it stopped.
class JsonReader {
 public:
  explicit JsonReader(const std::string& text) : text_(text) {}

  JsonValue document() {
    JsonValue v = value();
    skip_space();
    if (at_ < text_.size()) fail("the text goes on after the JSON document");
    return v;
  }

 private:
  const std::string& text_;
  std::size_t at_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    const long line = 1 + std::count(text_.begin(), text_.begin() + static_cast<long>(std::min(at_, text_.size())), '\n');
    throw JsonError("line " + std::to_string(line) + ": " + what);
  }
  void skip_space() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\r' || text_[at_] == '\t'))
      ++at_;
  }
  bool take(const char* word) {
    const std::size_t n = std::char_traits<char>::length(word);
    if (text_.compare(at_, n, word) != 0) return false;
    at_ += n;
    return true;
  }
  JsonValue value() {
    skip_space();
    if (at_ >= text_.size()) fail("the text ends where a value was expected");
    JsonValue v;
    const char c = text_[at_];
    if (c == '{') {
      v.kind = JsonValue::Kind::object, ++at_;
      skip_space();
      if (take("}")) return v;
      do {
        skip_space();
        if (at_ >= text_.size() || text_[at_] != '"') fail("a member's name in quotes was expected");
        std::string name = string();
        skip_space();
        if (!take(":")) fail("':' was expected after \"" + name + "\"");
        v.members.emplace_back(std::move(name), value());
        skip_space();
      } while (take(","));
      if (!take("}")) fail("',' or '}' was expected in an object");
    } else if (c == '[') {
      v.kind = JsonValue::Kind::array, ++at_;
      skip_space();
      if (take("]")) return v;
      do v.items.push_back(value());
      while ((skip_space(), take(",")));
      if (!take("]")) fail("',' or ']' was expected in an array");
    } else if (c == '"') {
      v.kind = JsonValue::Kind::string, v.string = string();
    } else if (take("true")) {
      v.kind = JsonValue::Kind::boolean, v.boolean = true;
    } else if (take("false")) {
      v.kind = JsonValue::Kind::boolean;
    } else if (take("null")) {
      v.kind = JsonValue::Kind::null;
    } else {
      const char* start = text_.c_str() + at_;
      char* end = nullptr;
      v.kind = JsonValue::Kind::number, v.number = std::strtod(start, &end);
      if (end == start || !(c == '-' || (c >= '0' && c <= '9'))) fail(std::string("no JSON value starts with '") + c + "'");
      at_ += static_cast<std::size_t>(end - start);
    }
    return v;
  }
  std::string string() {
    ++at_;  // the opening quote
    std::string out;
    while (at_ < text_.size() && text_[at_] != '"') {
      char c = text_[at_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_ >= text_.size()) break;
      c = text_[at_++];
      const std::string plain = "\"\\/bfnrt", meant = "\"\\/\b\f\n\r\t";
      if (const auto k = plain.find(c); k != std::string::npos) {
        out += meant[k];
      } else if (c == 'u' && at_ + 4 <= text_.size()) {  // \uXXXX, as UTF-8 (the record escapes only controls)
        const unsigned code = static_cast<unsigned>(std::strtoul(text_.substr(at_, 4).c_str(), nullptr, 16));
        at_ += 4;
        if (code < 0x80) out += static_cast<char>(code);
        else if (code < 0x800) out += static_cast<char>(0xC0 | code >> 6), out += static_cast<char>(0x80 | (code & 0x3F));
        else
          out += static_cast<char>(0xE0 | code >> 12), out += static_cast<char>(0x80 | ((code >> 6) & 0x3F)),
              out += static_cast<char>(0x80 | (code & 0x3F));
      } else {
        fail(std::string("'\\") + c + "' is no escape of a JSON string");
      }
    }
    if (!take("\"")) fail("a string is not closed");
    return out;
  }
};

}  // namespace

JsonValue parse_json(const std::string& text) {
  return JsonReader(text).document();
}

}  // namespace course
