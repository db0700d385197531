#include "tuning_cache.hpp"

#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "errors.hpp"
#include "program.hpp"
#include "text_table.hpp"

namespace course {
namespace {

// Just enough JSON for the cache: objects, arrays, strings, numbers, true/false/null.
struct Json {
  enum Kind { null, boolean, number, string, array, object } kind = null;
  double num = 0;
  std::string str;
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> members;

  const Json* get(const std::string& name) const {
    for (const auto& [key, value] : members)
      if (key == name) return &value;
    return nullptr;
  }
};

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}
  Json document() {
    Json value = parse();
    skip();
    if (i_ != s_.size()) fail("text after the end of the document");
    return value;
  }

 private:
  const std::string& s_;
  std::size_t i_ = 0;

  [[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error("not valid JSON at byte " + std::to_string(i_) + ": " + what);
  }
  void skip() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
  }
  bool eat(char c) {
    skip();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  std::string text() {
    if (!eat('"')) fail("expected a string");
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c == '\\') {
        if (i_ >= s_.size()) break;
        c = s_[i_++];
        if (c == 'n')
          c = '\n';
        else if (c == 't')
          c = '\t';
        else if (c == 'u')
          fail("\\u escapes are not used by this cache");
      }
      out += c;
    }
    if (i_ >= s_.size()) fail("a string that never ends");
    ++i_;
    return out;
  }
  Json parse() {
    skip();
    if (i_ >= s_.size()) fail("the document ends early");
    Json v;
    const char c = s_[i_];
    if (c == '{') {
      ++i_;
      v.kind = Json::object;
      if (eat('}')) return v;
      do {
        std::string key = text();
        if (!eat(':')) fail("expected ':'");
        v.members.emplace_back(key, parse());
      } while (eat(','));
      if (!eat('}')) fail("expected ',' or '}'");
    } else if (c == '[') {
      ++i_;
      v.kind = Json::array;
      if (eat(']')) return v;
      do v.items.push_back(parse());
      while (eat(','));
      if (!eat(']')) fail("expected ',' or ']'");
    } else if (c == '"') {
      v.kind = Json::string;
      v.str = text();
    } else if (s_.compare(i_, 4, "true") == 0 || s_.compare(i_, 5, "false") == 0) {
      v.kind = Json::boolean;
      v.num = s_[i_] == 't';
      i_ += s_[i_] == 't' ? 4 : 5;
    } else if (s_.compare(i_, 4, "null") == 0) {
      i_ += 4;
    } else {
      const char* start = s_.c_str() + i_;
      char* end = nullptr;
      v.num = std::strtod(start, &end);
      if (end == start) fail("unexpected character '" + std::string(1, c) + "'");
      v.kind = Json::number;
      i_ += static_cast<std::size_t>(end - start);
    }
    return v;
  }
};

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

std::string field(const Json& entry, const std::string& name) {
  const Json* v = entry.get(name);
  return v && v->kind == Json::string ? v->str : "";
}

bool same_place(const Json& entry, const TuningKey& key) {
  return field(entry, "device") == key.device && field(entry, "operation") == key.operation &&
         field(entry, "size_class") == key.size_class;
}

// The entries of a cache file; a file that cannot be read as the cache is an exception.
std::vector<Json> read_entries(const std::filesystem::path& file) {
  const Json doc = Parser(read_text_file(file)).document();
  const Json* entries = doc.kind == Json::object ? doc.get("entries") : nullptr;
  if (!entries || entries->kind != Json::array) throw std::runtime_error("it has no list of \"entries\"");
  return entries->items;
}

}  // namespace

TuningKey tuning_key(const DeviceContext& dc, const std::string& operation, int width, int height) {
  int side = 1;
  while (side < width || side < height) side *= 2;
  return TuningKey{dc.device.getInfo<CL_DEVICE_NAME>(), dc.device.getInfo<CL_DRIVER_VERSION>(), operation,
                  "up to " + std::to_string(side) + "x" + std::to_string(side)};
}

std::filesystem::path tuning_cache_file() {
  std::filesystem::path base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home)
    base = std::filesystem::path(home) / ".cache";
  else
    base = std::filesystem::temp_directory_path();
  return base / "opencl-course" / "tuning.json";
}

std::optional<TunedValues> stored_winner(const std::filesystem::path& file, const TuningKey& key, std::ostream& out) {
  if (!std::filesystem::exists(file)) return std::nullopt;
  std::vector<Json> entries;
  try {
    entries = read_entries(file);
  } catch (const std::exception& e) {
    out << "ignoring the tuning cache " << file.string() << ": " << e.what() << "\n";
    return std::nullopt;
  }
  for (const Json& entry : entries) {
    if (!same_place(entry, key)) continue;
    if (field(entry, "driver") != key.driver) {
      out << "ignoring the cached winner for " << key.operation << ": it was tuned with driver '"
          << field(entry, "driver") << "', this is '" << key.driver << "'\n";
      continue;
    }
    const Json* winner = entry.get("winner");
    if (!winner || winner->kind != Json::object) {
      out << "ignoring the cached winner for " << key.operation << ": it has no \"winner\"\n";
      continue;
    }
    TunedValues values;
    for (const auto& [name, value] : winner->members) values.emplace_back(name, value.str);
    return values;
  }
  return std::nullopt;
}

std::string tuned_value(const TunedValues& winner, const std::string& name) {
  for (const auto& [key, value] : winner)
    if (key == name) return value;
  return "";
}

void store_winner(const std::filesystem::path& file, const TuningKey& key, const TunedValues& winner,
                  double kernel_ms) {
  std::vector<Json> kept;
  if (std::filesystem::exists(file)) {
    try {
      kept = read_entries(file);
    } catch (const std::exception&) {
      // Reported when it was loaded; replaced by a file holding only this entry.
    }
  }
  std::ostringstream doc;
  doc << "{\n  \"format\": \"opencl-course tuning cache 1\",\n  \"entries\": [";
  bool first = true;
  auto separator = [&] {
    doc << (first ? "\n" : ",\n");
    first = false;
  };
  // Earlier entries, unless they are the one being replaced, written back field by field.
  for (const Json& entry : kept) {
    if (same_place(entry, key)) continue;
    separator();
    doc << "    {";
    for (std::size_t m = 0; m < entry.members.size(); ++m) {
      const auto& [name, value] = entry.members[m];
      doc << (m ? ", " : "") << quoted(name) << ": ";
      if (value.kind == Json::string)
        doc << quoted(value.str);
      else if (value.kind == Json::number)
        doc << value.num;
      else if (value.kind == Json::object) {
        doc << "{";
        for (std::size_t i = 0; i < value.members.size(); ++i)
          doc << (i ? ", " : "") << quoted(value.members[i].first) << ": " << quoted(value.members[i].second.str);
        doc << "}";
      } else
        doc << "null";
    }
    doc << "}";
  }
  separator();
  doc << "    {\"device\": " << quoted(key.device) << ", \"driver\": " << quoted(key.driver)
      << ", \"operation\": " << quoted(key.operation) << ", \"size_class\": " << quoted(key.size_class)
      << ", \"kernel_ms\": " << std::setprecision(6) << kernel_ms << ", \"winner\": {";
  for (std::size_t a = 0; a < winner.size(); ++a)
    doc << (a ? ", " : "") << quoted(winner[a].first) << ": " << quoted(winner[a].second);
  doc << "}}\n  ]\n}\n";

  std::filesystem::create_directories(file.parent_path());
  const std::filesystem::path temporary = file.string() + ".tmp";
  {
    std::ofstream outfile(temporary, std::ios::binary | std::ios::trunc);
    outfile << doc.str();
    if (!outfile) throw InputError("cannot write the tuning cache '" + temporary.string() + "'");
  }
  std::filesystem::rename(temporary, file);
}

std::string describe_winner(const TunedValues& winner) {
  const std::string strip = tuned_value(winner, "strip");
  return tuned_value(winner, "variant") + " " + tuned_value(winner, "group_x") + "x" + tuned_value(winner, "group_y") +
         ", " + tuned_value(winner, "outputs") + " outputs, vector " + tuned_value(winner, "vector") +
         (strip.empty() || strip == "none" ? "" : ", strip " + strip);
}

void say_no_winner(const std::string& operation, const std::string& op, int width, int height, std::ostream& out) {
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  out << "no tuned parameters for " << operation << " at " << size << "\n  on this device yet (none in "
      << tuning_cache_file().string() << "):\n  ./course run 11 --size " << size << (op.empty() ? "" : " --op " + op)
      << " finds them\n";
}

std::optional<ResultRow> report_winner(const TunedValues& winner, ResultRow row, const std::string& skipped,
                                       std::ostream& out) {
  std::ostringstream line;
  line << "lesson 11's tuned winner for this device: ";
  if (!skipped.empty())
    line << "left out, no longer legal here: " << skipped;
  else if (row.verified)
    line << "verified, " << std::setprecision(4) << row.kernel_ms << " ms";
  else
    line << "it does NOT match the CPU reference";
  // The reason may be long: wrapped to 80 columns, as everything a lesson prints.
  out << wrap(line.str()) << "  " << describe_winner(winner) << "\n  from " << tuning_cache_file().string() << "\n";
  if (!skipped.empty()) return std::nullopt;
  row.variant = "tuned " + describe_winner(winner);
  return row;
}

}  // namespace course
