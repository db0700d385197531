#include "tuning_cache.hpp"

#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "errors.hpp"
#include "json_value.hpp"
#include "program.hpp"
#include "text_table.hpp"

namespace course {
namespace {

// The cache's JSON, read with the course's reader (base/json_value.hpp).
using Json = JsonValue;

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

std::string field(const Json& entry, const std::string& name) {
  const Json* v = entry.find(name);
  return v && v->kind == Json::Kind::string ? v->string : "";
}

bool same_place(const Json& entry, const TuningKey& key) {
  return field(entry, "device") == key.device && field(entry, "operation") == key.operation &&
         field(entry, "size_class") == key.size_class;
}

// The entries of a cache file; a file that cannot be read as the cache is an exception.
std::vector<Json> read_entries(const std::filesystem::path& file) {
  Json doc;
  try {
    doc = parse_json(read_text_file(file));
  } catch (const JsonError& e) {
    throw std::runtime_error(std::string("not valid JSON, ") + e.what());
  }
  const Json* entries = doc.kind == Json::Kind::object ? doc.find("entries") : nullptr;
  if (!entries || entries->kind != Json::Kind::array) throw std::runtime_error("it has no list of \"entries\"");
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
    const Json* winner = entry.find("winner");
    if (!winner || winner->kind != Json::Kind::object) {
      out << "ignoring the cached winner for " << key.operation << ": it has no \"winner\"\n";
      continue;
    }
    TunedValues values;
    for (const auto& [name, value] : winner->members) values.emplace_back(name, value.string);
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
      if (value.kind == Json::Kind::string)
        doc << quoted(value.string);
      else if (value.kind == Json::Kind::number)
        doc << value.number;
      else if (value.kind == Json::Kind::object) {
        doc << "{";
        for (std::size_t i = 0; i < value.members.size(); ++i)
          doc << (i ? ", " : "") << quoted(value.members[i].first) << ": " << quoted(value.members[i].second.string);
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
