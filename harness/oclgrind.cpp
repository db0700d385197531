#include "oclgrind.hpp"

#include <CL/cl.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <regex>
#include <sstream>
#include <thread>
#include <tuple>

namespace course {
namespace {
std::mutex arguments_mutex;
std::vector<BufferArgument> arguments;
}  // namespace
}  // namespace course

// The kernel arguments that may be buffers, for a report that names the buffer an access missed:
// the check program stands between its cases and the OpenCL library (as check_speed.cpp does for
// launches), passes every call on and keeps each argument of a handle's size, matched against the
// buffers it made only when a report needs one (a value that is no buffer is never looked into).
extern "C" CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint index, size_t size,
                                                          const void* value) {
  using Set = decltype(&clSetKernelArg);
  static const auto next = reinterpret_cast<Set>(dlsym(RTLD_NEXT, "clSetKernelArg"));
  if (!next) return CL_INVALID_OPERATION;
  const cl_int status = next(kernel, index, size, value);
  char name[256] = {};
  if (status == CL_SUCCESS && size == sizeof(cl_mem) && value &&
      clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name - 1, name, nullptr) == CL_SUCCESS) {
    std::lock_guard<std::mutex> lock(course::arguments_mutex);
    course::arguments.push_back({name, static_cast<int>(index), *static_cast<const void* const*>(value)});
  }
  return status;
}

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
std::string quoted(const std::filesystem::path& folder, const OclgrindSite& site, std::size_t longest = 64) {
  std::string text = source_line(folder, site.file, site.line);
  if (text.size() > longest) {
    const auto space = text.rfind(' ', longest - 4);
    text = text.substr(0, space == std::string::npos || space < 20 ? longest - 4 : space) + " ...";
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

// A parameter of a kernel, or a __local array declared in its body.
struct Declared {
  std::string space;  // "global", "constant", "local" or "" (private, a value)
  std::string type, name;
};

// The kernel's parameters in order, from "__kernel void NAME(...)" in `source`; empty when not found.
std::vector<Declared> kernel_parameters(const std::string& source, const std::string& kernel, std::size_t* body = nullptr) {
  const std::regex head("(__)?kernel\\s+void\\s+" + kernel + "\\s*\\(");
  std::smatch m;
  if (kernel.empty() || !std::regex_search(source, m, head)) return {};
  const std::size_t open = m.position(0) + m.length(0), close = source.find(')', open);
  if (close == std::string::npos) return {};
  if (body) *body = close;
  static const std::regex param(R"(^\s*(?:(?:__)?(global|constant|local)\s+)?(?:const\s+)?(\w+)\s*(\*?)\s*(?:const\s+|restrict\s+)*(\w+)\s*$)");
  std::vector<Declared> out;
  std::istringstream params(source.substr(open, close - open));
  for (std::string text; std::getline(params, text, ',');) {
    std::string flat = std::regex_replace(text, std::regex(R"(\s+)"), " ");
    flat = std::regex_replace(flat, std::regex(R"(\b(__)?(read_only|write_only|read_write)\s)"), "");
    if (std::regex_search(flat, m, param))
      out.push_back({m[1].str(), m[2].str(), m[4].str()});
    else
      out.push_back({"", "", ""});
  }
  return out;
}

// The __local arrays of the kernel in the order Oclgrind numbers local memory: the arrays declared
// in its body, then its __local pointer parameters.
std::vector<Declared> local_arrays(const std::string& source, const std::string& kernel) {
  std::size_t body = 0;
  const std::vector<Declared> params = kernel_parameters(source, kernel, &body);
  std::vector<Declared> out;
  if (params.empty() && body == 0) return out;
  const std::size_t next = source.find("kernel", body);
  const std::string text = source.substr(body, next == std::string::npos ? std::string::npos : next - body);
  static const std::regex array(R"((?:^|[^\w])(?:__)?local\s+(?:const\s+)?(\w+)\s+(\w+)\s*\[)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), array); it != std::sregex_iterator(); ++it)
    out.push_back({"local", (*it)[1].str(), (*it)[2].str()});
  for (const Declared& p : params)
    if (p.space == "local") out.push_back(p);
  return out;
}

}  // namespace

std::vector<BufferArgument> buffer_arguments() {
  std::lock_guard<std::mutex> lock(arguments_mutex);
  return arguments;
}

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
  return "Without Oclgrind (./course setup installs it, but Debian 13 has none), races and reads outside a "
         "buffer show only where they change the output.";
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
      // Oclgrind's 64-bit addresses: buffer number, then a 48-bit offset. An offset in the top half
      // is an access before the start of the next buffer (index -1 of buffer N is buffer N - 1's
      // last byte address): counted back to that buffer, negative.
      const std::int64_t span = std::int64_t(1) << 48;
      current->buffer = address >> 48;
      current->offset = static_cast<std::int64_t>(address & (span - 1));
      if (current->offset >= span / 2) current->offset -= span, current->buffer += 1;
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

pid_t start_silenced(const std::vector<std::string>& command, const std::vector<std::string>& environment) {
  if (command.empty()) return -1;
  std::vector<char*> argv;
  for (const std::string& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (char** e = environ; *e; ++e) {
    const std::string variable(*e);
    const std::string name = variable.substr(0, variable.find('=') + 1);
    if (std::none_of(environment.begin(), environment.end(),
                     [&name](const std::string& v) { return v.compare(0, name.size(), name) == 0; }))
      envp.push_back(*e);
  }
  for (const std::string& v : environment) envp.push_back(const_cast<char*>(v.c_str()));
  envp.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    const int null = open("/dev/null", O_RDWR);
    if (null >= 0) dup2(null, STDIN_FILENO), dup2(null, STDOUT_FILENO), dup2(null, STDERR_FILENO);
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  return pid;
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
  const auto began = std::chrono::steady_clock::now();
  // glibc's abort message to stderr (here /dev/null), not the terminal.
  const pid_t pid = start_silenced(args, {"LIBC_FATAL_STDERR_=1"});
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

namespace {

// Floor division: index -1 for byte offsets -4 .. -1 of 4-byte elements.
std::int64_t element_index(std::int64_t offset, std::size_t unit) {
  const auto u = static_cast<std::int64_t>(unit);
  return offset >= 0 ? offset / u : -((-offset + u - 1) / u);
}

// A clamp in the kernel's text whose upper end is a bare name: `clamp(x + i, 0, width)` lets the
// index reach width, one past the last element (width - 1). The first such clamp, in the line
// `line` first, then anywhere in `text`; "" when there is none.
std::string clamp_to_size(const std::string& line, const std::string& text) {
  static const std::regex open_ended(R"(clamp\(((?:[^;()]|\([^;()]*\))*),\s*0\s*,\s*([A-Za-z_]\w*)\s*\))");
  // An index kept from below only: `max(x + i, 0)` with no bound above.
  static const std::regex from_below(R"(max\(((?:[^;()]|\([^;()]*\))*),\s*0\s*\))");
  for (const std::string* where : {&line, &text}) {
    std::smatch m;
    if (std::regex_search(*where, m, open_ended))
      return "The kernel's `" + m.str(0) + "` lets the index reach " + m.str(2) + ", one past the last (" + m.str(2) +
             " - 1): that may be this read.";
  }
  std::smatch m;
  if (std::regex_search(line, m, from_below) && m.str(0).find("clamp") == std::string::npos)
    return "The line's `" + m.str(0) +
           "` keeps the index from going below 0 but not past the last element: that "
           "may be this read (clamp(..., 0, size - 1) bounds both sides).";
  return "";
}

// Whether `line` indexes `name` (name[...]) with an expression that clamps (clamp, min or max).
bool bounded_index(const std::string& line, const std::string& name) {
  if (name.empty()) return false;
  const std::size_t at = line.find(name + "[");
  if (at == std::string::npos) return false;
  int depth = 0;
  std::size_t end = at + name.size();
  for (; end < line.size(); ++end) {
    depth += line[end] == '[' ? 1 : line[end] == ']' ? -1 : 0;
    if (depth == 0) break;
  }
  static const std::regex bounds(R"(\b(clamp|min|max)\s*\()");
  return std::regex_search(line.substr(at, end - at), bounds);
}

// An access outside a buffer or a __local array, as Oclgrind's address places it: which array,
// the signed index, and what to do.
std::string outside_access(const OclgrindFinding& f, const std::filesystem::path& folder,
                           const std::map<std::uint64_t, OclgrindBuffer>& buffers, bool outputs_right) {
  const OclgrindSite& first = f.sites.front();
  std::string text;
  {
    std::ifstream in(folder / std::filesystem::path(first.file).filename());
    std::ostringstream all;
    all << in.rdbuf();
    text = all.str();
  }
  std::string name, kind;  // the array, and what it is ("the __local array", "the buffer")
  std::size_t unit = 0, bytes = 0;
  if (f.space == "local") {
    // Oclgrind numbers a work-group's local memory from 1: the kernel's __local arrays in order.
    const std::vector<Declared> locals = local_arrays(text, f.kernel);
    if (f.buffer >= 1 && f.buffer <= locals.size())
      name = locals[f.buffer - 1].name, unit = type_bytes(locals[f.buffer - 1].type);
    kind = "the __local array";
  } else {
    const auto known = buffers.find(f.buffer);
    if (known != buffers.end()) {
      bytes = known->second.bytes;
      const std::vector<Declared> params = kernel_parameters(text, known->second.kernel);
      const int a = known->second.argument;
      if (known->second.kernel == f.kernel && a >= 0 && a < static_cast<int>(params.size()))
        name = params[a].name, unit = type_bytes(params[a].type);
    } else {
      // No record of the buffer: the one argument of this kind (a load, a store) the line uses.
      std::tie(name, unit) = accessed_argument(text, f.kernel, source_line(folder, first.file, first.line), !f.read);
    }
    kind = "the buffer";
  }
  if (unit == 0) unit = f.access_bytes ? f.access_bytes : 4;
  const std::int64_t index = element_index(f.offset, unit);
  const std::string shown = name.empty() ? "element " + std::to_string(index) : "`" + name + "[" + std::to_string(index) + "]`";
  std::string where;
  if (index < 0)
    where = ", before the start of " + (name.empty() ? "the array" : "`" + name + "`");
  else if (bytes >= unit)
    where = ", but " + (name.empty() ? std::string("it") : "`" + name + "`") + " holds " + std::to_string(bytes / unit) +
            " elements (indices 0 to " + std::to_string(bytes / unit - 1) + ")";
  else
    where = ", past the end of " + (name.empty() ? "the array" : "`" + name + "`");
  const std::string array = name.empty() ? "a " + (f.space == "local" ? std::string("__local array") : f.space + " buffer")
                                         : kind + " `" + name + "`" +
                                               (f.space == "local" ? "" : " (an argument of " + f.kernel + ")");
  std::string advice;
  if (!f.read)
    advice = "Check that index against the array's size before the write.";
  else if (outputs_right)
    advice = "Its value never reaches a right output here, but on a GPU such a read can fault or read another "
             "buffer: clamp the index (or skip the read).";
  else if (const std::string clamp = index >= 0 ? clamp_to_size(source_line(folder, first.file, first.line), text) : "";
           !clamp.empty())
    advice = "What lies there is not the value meant. " + clamp;
  else if (f.space == "local" && index < 0)
    advice = "What lies there is not the value meant: check the index's offsets (element 0 is the array's first).";
  else if (f.space == "local")
    advice = "What lies there is not the value meant: either the array is smaller than the reads need (a tile "
             "must hold every element its group's windows read) or the index is wrong.";
  else if (bounded_index(source_line(folder, first.file, first.line), name))
    advice =
        "What lies there is not the value meant. The index already bounds its coordinates, so another of "
        "its terms is wrong (a row multiplied by the wrong width, or an offset too many) or a bound is the "
        "wrong one (min where max belongs).";
  else
    advice = "What lies there is not the value meant: keep that index inside the array (clamp it into the "
             "image, or fix the index).";
  return std::string(f.read ? "a read" : "a write") + " outside " + array + " at " + quoted(folder, first) + ": " +
         first.work_item + (f.read ? " reads " : " writes ") + shown + where + ". " + advice;
}

}  // namespace

std::string oclgrind_summary(const std::string& cause) {
  const std::string opening = "On Oclgrind's simulated device, ";
  std::string seen = cause.rfind(opening, 0) == 0 ? cause.substr(cause.find(" shows ") + 7) : cause;
  bool code = false;  // a period inside `...` ends no sentence
  for (std::size_t i = 0; i + 1 < seen.size(); ++i) {
    code = code != (seen[i] == '`');
    if (!code && seen[i] == '.' && seen[i + 1] == ' ') return seen.substr(0, i + 1);
  }
  return seen;
}

std::string oclgrind_cause(const std::vector<OclgrindFinding>& findings, const std::filesystem::path& folder,
                           const std::string& which, const std::map<std::uint64_t, OclgrindBuffer>& buffers,
                           bool outputs_right) {
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
      // Two sites of one race quoted shorter, so that the sentence fits the first case's rows.
      std::string s = by + "a data race on " + memory + ": " + writer.work_item + " writes at " +
                      quoted(folder, writer, 52) + " an element that " + other.work_item +
                      (both_write ? " also writes" : " reads") + " at " + quoted(folder, other, 52);
      if (f.space == "local" && !both_write)
        s += ", with no barrier between: a work-item read the tile before every work-item had written it. Put "
             "barrier(CLK_LOCAL_MEM_FENCE) between the copy into the tile and the reads, where every work-item of "
             "the group reaches it.";
      else if (f.space == "local")
        s += ", with no barrier between. Each element of the tile needs one writer, or a barrier between the two "
             "writes.";
      else  // no barrier orders work-items of different groups
        s += ": two work-items of a launch must not write the same place, nor one read what another writes.";
      return s;
    }
    if (f.kind == Kind::kOutOfBounds) return by + outside_access(f, folder, buffers, outputs_right);
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
