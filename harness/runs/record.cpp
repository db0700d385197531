#include "record.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <utility>

#include "errors.hpp"
#include "program.hpp"
#include "report.hpp"

namespace course {
namespace {

namespace fs = std::filesystem;

// A JSON string, quoted and escaped.
std::string json_text(const std::string& text) {
  std::string out = "\"";
  for (const unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\', out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20) {
      char code[8];
      std::snprintf(code, sizeof code, "\\u%04x", c);
      out += code;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// A JSON number, as short as reads back the same double; null for infinities and NaN.
std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, v).ptr;
  return std::string(text, end);
}

// `{"a": 1, "b": "x"}` from its members, each already JSON.
std::string object(const std::vector<std::pair<std::string, std::string>>& members, const std::string& indent) {
  std::string out = "{";
  for (std::size_t i = 0; i < members.size(); ++i)
    out += (i ? ",\n" : "\n") + indent + "  " + json_text(members[i].first) + ": " + members[i].second;
  return out + "\n" + indent + "}";
}

std::string array(const std::vector<std::string>& items, const std::string& indent) {
  if (items.empty()) return "[]";
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ",\n" : "\n") + indent + "  " + items[i];
  return out + "\n" + indent + "]";
}

std::string strings(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + json_text(items[i]);
  return out + "]";
}

// What a shell command printed, its last newline removed; "" when it could not run.
std::string command_output(const std::string& command) {
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
    if (pclose(pipe) != 0) out.clear();
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// An argument as a shell reads it back: quoted where it holds anything but plain characters.
std::string shell_word(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                              "_-+=.,/:%@") == std::string::npos)
    return word;
  std::string out = "'";
  for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The record of this process: written whole each time it grows.
struct Record {
  fs::path path;                    // empty: --record not given
  std::string command, commit, date;
  std::string program;  // how the command starts: "./course run 13"
  bool dirty = false;
  std::string device = "null";      // JSON
  std::string roofline = "null";    // the first table's with a copy bandwidth, JSON
  struct Table {
    std::pair<const void*, std::string> key;  // the table, its title
    std::string json;
    bool sweep = false;  // record_sweep()'s: kept after the others
  };
  std::vector<Table> tables;
  bool written = false;

  // Says so when the program ends having recorded nothing (it printed no results table).
  ~Record() {
    if (!path.empty() && !written)
      std::cerr << "note: --record " << path.string() << ": this run printed no results table, so nothing "
                << "was recorded\n";
  }

  void write() {
    std::vector<std::string> table_json;
    for (const auto& t : tables) table_json.push_back(t.json);
    const std::string text = object({{"format", std::string("1")},
                                     {"command", json_text(command)},
                                     {"commit", json_text(commit)},
                                     {"dirty", std::string(dirty ? "true" : "false")},
                                     {"date", json_text(date)},
                                     {"device", device},
                                     {"roofline", roofline},
                                     {"tables", array(table_json, "  ")}},
                                    "") +
                             "\n";
    const fs::path temporary = path.string() + ".tmp" + std::to_string(getpid());
    {
      std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
      out << text;
      out.close();
      if (!out) {
        std::error_code ignored;
        fs::remove(temporary, ignored);
        throw RecordError("cannot write the record '" + path.string() + "' (--record): writing " +
                          temporary.string() + " failed (disk full, or no permission?)");
      }
    }
    std::error_code ec;
    fs::rename(temporary, path, ec);
    if (ec) {
      fs::remove(temporary, ec);
      throw RecordError("cannot write the record '" + path.string() + "' (--record): " + ec.message());
    }
    written = true;
  }
};

Record& record() {
  static Record r;
  return r;
}

// Refuses a FILE that cannot be written, before the lesson does any work: a folder, a folder that
// cannot be made, one where no file can be created.
void start_record(const Options& options) {
  if (!options.given("record")) return;
  const std::string given = options.text("record");
  const fs::path path(given);
  std::error_code ec;
  if (given.empty() || given.back() == '/' || fs::is_directory(path, ec))
    throw RecordError("--record needs a file name, not the folder '" + given + "' (for example " +
                      (given.empty() ? std::string("run.json") : (path / "run.json").string()) + ")");
  const fs::path folder = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  if (!fs::is_directory(folder, ec)) fs::create_directories(folder, ec);
  if (!fs::is_directory(folder, ec))
    throw RecordError("cannot write the record '" + given + "' (--record): the folder '" + folder.string() +
                      "' does not exist and cannot be made" + (ec ? " (" + ec.message() + ")" : std::string()));
  if (access(folder.c_str(), W_OK) != 0)
    throw RecordError("cannot write the record '" + given + "' (--record): no permission to write in '" +
                      folder.string() + "'");

  Record& r = record();
  r.path = path;
  r.program = options.program();
  r.command = r.program;
  const auto& args = options.arguments();
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--record") {  // the command that repeats the run, without where it was recorded
      ++i;
      continue;
    }
    if (args[i].rfind("--record=", 0) == 0) continue;
    r.command += " " + shell_word(args[i]);
  }
  const std::string root = shell_word(project_root().string());
  r.commit = command_output("git -C " + root + " rev-parse HEAD 2>/dev/null");
  if (r.commit.empty()) r.commit = "unknown";
  else r.dirty = !command_output("git -C " + root + " status --porcelain --untracked-files=no 2>/dev/null").empty();
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  r.date = date;
  // From here on, every device the program opens and every results table it prints is recorded.
  on_device_opened(record_device);
  on_table_printed([](const ResultsTable& table, const std::vector<std::string>& head,
                      const std::vector<std::vector<std::string>>& cells,
                      const std::vector<std::string>& notes) { record_table(table, head, cells, notes); });
}

// The roofline a table was measured against.
std::string roofline_json(const Roofline& roof, const std::string& indent) {
  // The float copy: its fastest run is the yardstick, the median and slowest its spread.
  return object({{"copy_gbps", number(roof.copy.gbps)},
                 {"copy_median_gbps", number(roof.copy.median_gbps)},
                 {"copy_slowest_gbps", number(roof.copy.slowest_gbps)},
                 {"copy_runs", std::to_string(roof.copy.runs)},
                 {"copy_bytes", number(roof.copy.buffer_bytes)},
                 {"copy_ms", number(roof.copy.ms)},
                 {"copy_group", std::to_string(roof.copy.group)},
                 {"fma_gflops", number(roof.gflops)},
                 {"local_float_gloads", number(roof.local_gloads)},
                 {"local_float4_gloads", number(roof.local4_gloads)},
                 {"cache_bytes", number(roof.cache_bytes)},
                 {"reported_cache_bytes", number(roof.reported_cache_bytes)},
                 {"timer_ns", number(roof.timer_ns)},
                 {"shortest_ms", number(roof.shortest_ms())}},
                indent);
}

// One copy a table's rows divide by: the pixels it copies, its kernel and how it was timed.
std::string copy_json(PixelType pixels, const CopyYardstick& c, const std::string& indent) {
  return object({{"pixels", json_text(copy_label(pixels))},
                 {"kernel", json_text(copy_kernel_name(pixels))},
                 {"gbps", number(c.gbps)},
                 {"median_gbps", number(c.median_gbps)},
                 {"slowest_gbps", number(c.slowest_gbps)},
                 {"runs", std::to_string(c.runs)},
                 {"buffer_bytes", number(c.buffer_bytes)},
                 {"ms", number(c.ms)},
                 {"group", std::to_string(c.group)}},
                indent);
}

}  // namespace

void add_record_option(Options& options) {
  options.value("record", "FILE",
                "also write the results tables to FILE as JSON, with the command, commit, date and "
                "device (the runs the pages quote are such files: data/runs/)");
  options.after_parse(start_record);
}

void record_launcher(const std::string& launcher) {
  Record& r = record();
  if (r.path.empty() || r.command.rfind(r.program, 0) != 0) return;
  r.command = launcher + r.command.substr(r.program.size());
  r.program = launcher;
}

void record_device(const DeviceContext& dc) {
  Record& r = record();
  if (r.path.empty()) return;
  const cl::Device& d = dc.device;
  std::vector<std::pair<std::string, std::string>> members = {
      {"name", json_text(d.getInfo<CL_DEVICE_NAME>())},
      {"vendor", json_text(d.getInfo<CL_DEVICE_VENDOR>())},
      {"platform", json_text(dc.entry.platform_name)},
      {"type", json_text(device_type_name(dc.entry.type))},
      {"driver_version", json_text(d.getInfo<CL_DRIVER_VERSION>())},
      {"opencl_version", json_text(d.getInfo<CL_DEVICE_VERSION>())},
      {"compute_units", std::to_string(d.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>())},
      {"max_clock_mhz", std::to_string(d.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>())}};
  // On NVIDIA, the SM and memory clocks now and their maxima, as nvidia-smi reads them (a line a GPU).
  const std::string vendor = d.getInfo<CL_DEVICE_VENDOR>();
  if (vendor.find("NVIDIA") != std::string::npos &&
      !command_output("command -v nvidia-smi 2>/dev/null").empty()) {
    const std::string clocks =
        command_output("nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem "
                       "--format=csv,noheader,nounits 2>/dev/null");
    std::vector<std::string> lines;
    std::istringstream in(clocks);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    int mhz[4] = {0, 0, 0, 0};
    const char* names[4] = {"sm_clock_mhz", "max_sm_clock_mhz", "memory_clock_mhz", "max_memory_clock_mhz"};
    if (lines.size() == 1 &&
        std::sscanf(lines[0].c_str(), "%d , %d , %d , %d", &mhz[0], &mhz[1], &mhz[2], &mhz[3]) == 4)
      for (int i = 0; i < 4; ++i) members.push_back({names[i], std::to_string(mhz[i])});
    else if (!lines.empty())
      members.push_back({"nvidia_smi_clocks_mhz", strings(lines)});  // several GPUs: "SM, SM max, memory, its max"
  }
  r.device = object(members, "  ");
  r.write();
}

void record_compiler(const std::string& program, const std::string& target, const std::string& version) {
  Record& r = record();
  if (r.path.empty()) return;
  r.device = object({{"name", json_text(program)},
                     {"platform", json_text(target)},
                     {"type", json_text("compiler")},
                     {"driver_version", json_text(version)}},
                    "  ");
  r.write();
}

namespace {

// Adds a table to the record under `key`, replacing an earlier entry of the same key.
void add_table(const std::pair<const void*, std::string>& key, const std::string& title, const Roofline& roof,
               const std::vector<ResultRow>& results, const std::vector<std::string>& head,
               const std::vector<std::vector<std::string>>& cells, const std::vector<std::string>& notes,
               bool sweep) {
  Record& r = record();
  if (r.path.empty()) return;
  if (r.roofline == "null" && roof.copy.gbps > 0) r.roofline = roofline_json(roof, "  ");
  std::size_t kernel_column = 0;
  while (kernel_column < head.size() && head[kernel_column] != "kernel ms") ++kernel_column;
  const std::map<PixelType, CopyYardstick> copies = row_copies(roof, results);
  std::vector<std::string> rows;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const ResultRow& row = results[i];
    const std::vector<std::string> printed = i < cells.size() ? cells[i] : std::vector<std::string>{};
    // The marks as the table printed them after the kernel time: * too short, + in the cache;
    // a sweep prints none, so its rows' are what the results table would print.
    std::string marks;
    if (sweep) {
      if (std::isfinite(row.kernel_ms) && row.kernel_ms > 0) marks = time_marks(roof, row.kernel_ms, row.bytes);
    } else if (kernel_column < printed.size()) {
      const std::string& ms = printed[kernel_column];
      marks = ms.substr(ms.find_last_not_of("*+") + 1);
    }
    // The copy the row's "% of copy" and "roofline ms" divide by, when it has one.
    const auto copy = copies.find(row.copy);
    const bool divided = copy != copies.end() && row.bytes > 0 && copy->second.gbps > 0;
    std::vector<std::pair<std::string, std::string>> shown;
    for (std::size_t c = 0; c < head.size() && c < printed.size(); ++c) shown.push_back({head[c], json_text(printed[c])});
    rows.push_back(object({{"variant", json_text(row.variant)},
                           {"kernel_ms", number(row.kernel_ms)},
                           {"min_ms", number(row.min_ms)},
                           {"max_ms", number(row.max_ms)},
                           {"runs", std::to_string(row.runs)},
                           {"end_to_end_ms", row.end_to_end_ms < 0 ? "null" : number(row.end_to_end_ms)},
                           {"wall_ms", row.wall_ms < 0 ? "null" : number(row.wall_ms)},
                           {"bytes", number(row.bytes)},
                           {"flops", number(row.flops)},
                           {"pixels", number(row.pixels)},
                           {"max_error", number(row.max_error)},
                           {"verified", std::string(row.verified ? "true" : "false")},
                           {"baseline", json_text(row.baseline == "-" ? ""
                                               : row.baseline.empty() ? (i > 0 ? results.front().variant : "")
                                                                      : row.baseline)},
                           {"marks", json_text(marks)},
                           {"copy", divided ? json_text(copy_label(row.copy)) : "null"},
                           {"roofline_ms", divided ? number(roof.bound_ms(row, copy->second.gbps)) : "null"},
                           {"bound", divided ? json_text(roof.bound_name(row, copy->second.gbps)) : "null"},
                           {"local_loads", number(row.local_loads)},
                           {"local_load_bytes", std::to_string(row.local_load_bytes)},
                           {"local_floor_ms", number(roof.local_ms(row.local_loads, row.local_load_bytes))},
                           {"printed", object(shown, "          ")}},
                          "        "));
  }
  std::vector<std::string> copy_lines;
  for (const auto& [pixels, c] : copies) copy_lines.push_back(copy_json(pixels, c, "        "));
  std::vector<std::string> note_lines;
  for (const auto& note : notes) note_lines.push_back(json_text(note));
  const std::string json = object({{"title", json_text(title)},
                                   {"roofline", roofline_json(roof, "      ")},
                                   {"copies", array(copy_lines, "      ")},
                                   {"rows", array(rows, "      ")},
                                   {"notes", array(note_lines, "      ")}},
                                  "    ");
  auto it = std::find_if(r.tables.begin(), r.tables.end(), [&](const auto& t) { return t.key == key; });
  if (it != r.tables.end()) it->json = json;
  else if (sweep) r.tables.push_back({key, json, true});
  else r.tables.insert(std::find_if(r.tables.begin(), r.tables.end(), [](const auto& t) { return t.sweep; }),
                       {key, json, false});
  r.write();
}

}  // namespace

void record_table(const ResultsTable& table, const std::vector<std::string>& head,
                  const std::vector<std::vector<std::string>>& cells, const std::vector<std::string>& notes) {
  add_table({&table, table.title()}, table.title(), table.roof(), table.rows(), head, cells, notes, false);
}

void record_table(const std::string& title, const Roofline& roof, const std::vector<ResultRow>& rows,
                  const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& cells,
                  const std::vector<std::string>& notes) {
  add_table({nullptr, title}, title, roof, rows, head, cells, notes, false);
}

void record_sweep(const std::string& title, const Roofline& roof, const std::vector<ResultRow>& rows,
                  const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& cells,
                  const std::vector<std::string>& notes) {
  add_table({nullptr, title}, title, roof, rows, head, cells, notes, true);
}

}  // namespace course
