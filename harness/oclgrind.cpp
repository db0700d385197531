#include "oclgrind.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

namespace course {
namespace {

bool executable(const std::filesystem::path& file) { return access(file.c_str(), X_OK) == 0; }

// "Global(3,1,0) Local(3,1,0) Group(0,0,0)" -> "work-item (3, 1) of group (0, 0)".
std::string work_item(const std::string& text) {
  static const std::regex parts(R"(Local\((\d+),(\d+),(\d+)\)\s+Group\((\d+),(\d+),(\d+)\))");
  std::smatch m;
  if (!std::regex_search(text, m, parts)) return "";
  auto coords = [&m](int first) {
    std::string out = "(" + m[first].str() + ", " + m[first + 1].str();
    if (m[first + 2].str() != "0") out += ", " + m[first + 2].str();
    return out + ")";
  };
  return "work-item " + coords(1) + " of group " + coords(4);
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// Line `line` of `file` (looked for in `folder` by its name), trimmed; "" when it cannot be read.
std::string source_line(const std::filesystem::path& folder, const std::string& file, int line) {
  std::ifstream in(folder / std::filesystem::path(file).filename());
  std::string text;
  for (int n = 1; n <= line && std::getline(in, text); ++n)
    if (n == line) return trim(text);
  return "";
}

// "line 37 (`tile[t] = input[...];`)": the line quoted, shortened at a space when long.
std::string quoted(const std::filesystem::path& folder, const OclgrindSite& site) {
  std::string text = source_line(folder, site.file, site.line);
  if (text.size() > 64) {
    const auto space = text.rfind(' ', 60);
    text = text.substr(0, space == std::string::npos || space < 20 ? 60 : space) + " ...";
  }
  return "line " + std::to_string(site.line) + (text.empty() ? "" : " (`" + text + "`)");
}

// The bytes of one element of an OpenCL C scalar or vector type ("float", "uchar4"); 0 if unknown.
std::size_t type_bytes(const std::string& type) {
  static const std::regex parts(R"(^(u?char|u?short|half|u?int|float|u?long|double)(\d*)$)");
  std::smatch m;
  if (!std::regex_match(type, m, parts)) return 0;
  const std::string base = m[1];
  const std::size_t one = base.find("char") != std::string::npos                            ? 1
                          : base.find("short") != std::string::npos || base == "half"       ? 2
                          : base.find("long") != std::string::npos || base == "double"      ? 8
                                                                                            : 4;
  const std::size_t lanes = m[2].length() ? std::stoul(m[2]) : 1;
  return one * (lanes == 3 ? 4 : lanes);
}

}  // namespace

std::pair<std::string, std::size_t> accessed_argument(const std::string& source, const std::string& kernel,
                                                      const std::string& line, bool write) {
  // The kernel's parameter list: "__kernel void NAME(...)".
  const std::regex head("(__)?kernel\\s+void\\s+" + kernel + "\\s*\\(");
  std::smatch m;
  if (kernel.empty() || !std::regex_search(source, m, head)) return {"", 0};
  const std::size_t open = m.position(0) + m.length(0), close = source.find(')', open);
  if (close == std::string::npos) return {"", 0};
  static const std::regex pointer(R"(\b(__)?(global|constant)\s+(const\s+)?(\w+)\s*\*\s*(restrict\s+)?(\w+)\s*$)");
  std::vector<std::pair<std::string, std::size_t>> found;
  std::istringstream params(source.substr(open, close - open));
  for (std::string param; std::getline(params, param, ',');) {
    if (!std::regex_search(param, m, pointer)) continue;
    const std::string name = m[6];
    // name[ on the line, on the left of an assignment (a store) or not (a load).
    const std::regex use("\\b" + name + "\\s*\\[[^\\]]*\\]\\s*(=[^=])?");
    for (auto it = std::sregex_iterator(line.begin(), line.end(), use); it != std::sregex_iterator(); ++it)
      if ((*it)[1].matched == write) {
        found.push_back({name, type_bytes(m[4])});
        break;
      }
  }
  return found.size() == 1 ? found.front() : std::pair<std::string, std::size_t>{"", 0};
}

std::string oclgrind_launcher() {
  if (const char* chosen = std::getenv("COURSE_OCLGRIND"); chosen && *chosen)
    return std::string(chosen) == "none" || !executable(chosen) ? "" : chosen;
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && executable(std::filesystem::path(dir) / "oclgrind"))
      return (std::filesystem::path(dir) / "oclgrind").string();
  return "";
}

std::string oclgrind_missing_line() {
  return "Oclgrind is not installed, so races and reads outside a buffer are found only when they change the "
         "output (Debian 12 and Ubuntu package it: ./course setup installs it; Debian 13 does not).";
}

std::vector<OclgrindFinding> parse_oclgrind_log(const std::string& log) {
  static const std::regex race(R"(^(Read-write|Write-write) data race at (\w+) memory address 0x([0-9a-fA-F]+))");
  static const std::regex invalid(R"(^Invalid (read|write) of size (\d+) at (\w+) memory address 0x([0-9a-fA-F]+))");
  static const std::regex index(R"(^Index \((-?\d+)\) exceeds static array size \((\d+)\))");
  static const std::regex at(R"(At line (\d+) (?:\(column \d+\) )?of (.*):\s*$)");
  std::vector<OclgrindFinding> out;
  std::istringstream lines(log);
  std::string line;
  OclgrindFinding* current = nullptr;
  auto start = [&](OclgrindFinding::Kind kind) {
    out.push_back({});
    current = &out.back();
    current->kind = kind;
    current->headline = trim(line);
  };
  while (std::getline(lines, line)) {
    std::smatch m;
    if (std::regex_search(line, m, race)) {
      start(OclgrindFinding::Kind::kRace);
      current->space = m[2];
    } else if (std::regex_search(line, m, invalid)) {
      start(OclgrindFinding::Kind::kOutOfBounds);
      current->read = m[1] == "read";
      current->access_bytes = std::stoul(m[2]);
      current->space = m[3];
      const std::uint64_t address = std::stoull(m[4], nullptr, 16);
      current->buffer = address >> 48;  // Oclgrind's 64-bit addresses: buffer number, then offset
      current->offset = address & ((std::uint64_t(1) << 48) - 1);
    } else if (std::regex_search(line, m, index)) {
      start(OclgrindFinding::Kind::kArrayIndex);
      current->index = std::stoll(m[1]);
      current->extent = std::stoll(m[2]);
    } else if (line.rfind("Work-group divergence detected", 0) == 0) {
      start(OclgrindFinding::Kind::kBarrier);
    } else if (!line.empty() && line[0] != '\t' && line[0] != ' ' &&
               line.rfind("Previous work-items", 0) != 0) {
      current = nullptr;  // "Oclgrind: N errors generated", a message we do not read
    } else if (current) {
      const std::string t = trim(line);
      if (t.rfind("Kernel:", 0) == 0) {
        current->kernel = trim(t.substr(7));
      } else if (t.find("Global(") != std::string::npos && t.find("Local(") != std::string::npos) {
        current->sites.push_back({work_item(t), "", 0, false});
      } else if (std::regex_search(t, m, at)) {
        if (current->sites.empty() || current->sites.back().line != 0) current->sites.push_back({});
        current->sites.back().line = std::stoi(m[1]);
        current->sites.back().file = trim(m[2]);
      } else if (t.rfind("store ", 0) == 0 || t.find(" store ") != std::string::npos) {
        if (current->sites.empty() || current->sites.back().line != 0) current->sites.push_back({});
        current->sites.back().store = true;
      }
    }
  }
  // The same error at the same lines, reported for many addresses: keep the first.
  std::vector<OclgrindFinding> unique;
  for (const OclgrindFinding& f : out) {
    bool seen = false;
    for (const OclgrindFinding& u : unique) {
      bool same = u.kind == f.kind && u.sites.size() == f.sites.size();
      for (std::size_t i = 0; same && i < f.sites.size(); ++i) same = u.sites[i].line == f.sites[i].line;
      seen = seen || same;
    }
    if (!seen) unique.push_back(f);
  }
  return unique;
}

OclgrindRun run_under_oclgrind(const std::vector<std::string>& command, int timeout_s) {
  OclgrindRun run;
  const std::string launcher = oclgrind_launcher();
  if (launcher.empty() || command.empty()) return run;
  std::string log_file = (std::filesystem::temp_directory_path() / "course-oclgrind-XXXXXX").string();
  const int fd = mkstemp(log_file.data());
  if (fd < 0) return run;
  close(fd);
  std::vector<std::string> args = {launcher, "--data-races", "--max-errors", "16", "--log", log_file};
  args.insert(args.end(), command.begin(), command.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const auto began = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    const int null = open("/dev/null", O_RDWR);
    if (null >= 0) dup2(null, 0), dup2(null, 1), dup2(null, 2);
    setenv("LIBC_FATAL_STDERR_", "1", 1);  // glibc's abort message to stderr (here /dev/null), not the terminal
    execv(argv[0], argv.data());
    _exit(127);
  }
  if (pid > 0) {
    run.started = true;
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() - began > std::chrono::seconds(timeout_s)) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        run.timed_out = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  std::ifstream in(log_file);
  std::ostringstream text;
  text << in.rdbuf();
  run.log = text.str();
  std::error_code ignored;
  std::filesystem::remove(log_file, ignored);
  return run;
}

std::string oclgrind_cause(const std::vector<OclgrindFinding>& findings, const std::filesystem::path& folder,
                           const std::string& which, const std::map<std::uint64_t, std::size_t>& buffer_bytes) {
  using Kind = OclgrindFinding::Kind;
  const std::string by = "On Oclgrind's simulated device, " + which + " shows ";
  for (const OclgrindFinding& f : findings) {
    if (f.sites.empty() || f.sites.front().line == 0) continue;
    const OclgrindSite& first = f.sites.front();
    if (f.kind == Kind::kRace && f.sites.size() >= 2 && f.sites[1].line != 0) {
      // The store first: "line A writes what line B reads".
      OclgrindSite writer = first, other = f.sites[1];
      if (!writer.store && other.store) std::swap(writer, other);
      const bool both_write = writer.store && other.store;
      const std::string memory = f.space == "local" ? "__local memory" : f.space + " memory";
      std::string s = by + "a data race on " + memory + ": " + writer.work_item + " writes at " +
                      quoted(folder, writer) + " an element that " + other.work_item +
                      (both_write ? " also writes" : " reads") + " at " + quoted(folder, other) +
                      ", with no barrier between";
      if (f.space == "local" && !both_write)
        s += ": a work-item read the tile before every work-item had written it. Put barrier(CLK_LOCAL_MEM_FENCE) "
             "between the copy into the tile and the reads, where every work-item of the group reaches it.";
      else if (f.space == "local")
        s += ". Each element of the tile needs one writer, or a barrier between the two writes.";
      else
        s += ".";
      if (f.space != "local")
        s += " Two work-items of a launch must not write the same place, nor one read what another writes.";
      return s;
    }
    if (f.kind == Kind::kOutOfBounds) {
      // The argument the line reads or writes, and the index against its size, where known.
      std::string text;
      {
        std::ifstream in(folder / std::filesystem::path(first.file).filename());
        std::ostringstream all;
        all << in.rdbuf();
        text = all.str();
      }
      const auto [name, element] = accessed_argument(text, f.kernel, source_line(folder, first.file, first.line), !f.read);
      const std::size_t unit = element ? element : f.access_bytes ? f.access_bytes : 4;
      const auto bytes = buffer_bytes.find(f.buffer);
      std::string what = "element " + std::to_string(f.offset / unit) + ", past the end of the buffer";
      if (!name.empty()) {
        what = "`" + name + "[" + std::to_string(f.offset / unit) + "]`";
        if (bytes != buffer_bytes.end() && bytes->second >= unit)
          what += ", but `" + name + "` holds " + std::to_string(bytes->second / unit) + " elements (indices 0 to " +
                  std::to_string(bytes->second / unit - 1) + ")";
        else
          what += ", past the end of `" + name + "`";
      }
      return by + "a " + (f.read ? "read" : "write") + " outside " +
             (name.empty() ? "a " + f.space + " buffer" : "the buffer `" + name + "` (an argument of " + f.kernel + ")") +
             " at " + quoted(folder, first) + ": " + first.work_item + (f.read ? " reads " : " writes ") + what + ". " +
             (f.read ? "Its value never reaches a right output here, but on a GPU such a read can fault or read "
                       "another buffer: clamp the index into the image (or skip the read)."
                     : "Check that index against the buffer's size before the write.");
    }
    if (f.kind == Kind::kArrayIndex)
      return by + "an index outside an array at " + quoted(folder, first) + ": " + first.work_item + " uses index " +
             std::to_string(f.index) + " of an array of " + std::to_string(f.extent) + " elements (0 to " +
             std::to_string(f.extent - 1) + ").";
    if (f.kind == Kind::kBarrier)
      return by + "a barrier that not every work-item of a group reaches, at " + quoted(folder, first) +
             (first.work_item.empty() ? "" : " (" + first.work_item + ")") +
             ": every work-item of a group must reach each barrier, so a `return` or a branch that depends on the "
             "work-item must come after it.";
  }
  return "";
}

}  // namespace course
