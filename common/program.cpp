#include "program.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>
#include <tuple>

#include "errors.hpp"

namespace course {
namespace {

// What every program starts with: kernels/common/prelude.cl, which defines POISON_LOCAL.
const std::string& prelude() {
  static const std::string text = read_text_file(locate_course_file("kernels/common/prelude.cl"));
  return text;
}

std::mutex cache_mutex;
std::map<std::tuple<cl_device_id, std::string, std::string>, cl::Program> cache;

// Build logs name the file with a path relative to the project root when it lives there.
std::string display_name(const std::filesystem::path& file) {
  std::error_code ec;
  auto rel = std::filesystem::relative(file, project_root(), ec);
  if (!ec && !rel.empty() && rel.native().rfind("..", 0) != 0) return rel.generic_string();
  return file.generic_string();
}

// Compilers that ignore `#line` (NVIDIA's names the source "<kernel>") count the prelude's
// lines too: give their messages the file's name and line numbers.
std::string readable_log(const std::string& log, const std::string& name) {
  static const int prelude_lines = static_cast<int>(std::count(prelude().begin(), prelude().end(), '\n')) + 1;
  static const std::regex unnamed(R"(<kernel>:(\d+))");
  std::string out;
  auto begin = std::sregex_iterator(log.begin(), log.end(), unnamed);
  std::size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    out += log.substr(last, it->position() - last);
    const int line = std::stoi((*it)[1]) - prelude_lines;
    out += name + ":" + std::to_string(line > 0 ? line : 1);
    last = it->position() + it->length();
  }
  return out + log.substr(last);
}

// COURSE_SAVE_BINARIES=FOLDER keeps what the driver compiled (PTX on NVIDIA), a file per file and options.
void save_binary(const cl::Program& program, const std::filesystem::path& file, const std::string& options,
                 const std::filesystem::path& folder) {
  const std::vector<std::vector<unsigned char>> binaries = program.getInfo<CL_PROGRAM_BINARIES>();
  if (binaries.empty() || binaries[0].empty()) return;
  std::string code(binaries[0].begin(), binaries[0].end());
  const bool ptx = code.find(".target sm_") != std::string::npos;  // NVIDIA's PTX names its target
  // NVIDIA counts the text's terminating NULs in the binary's size: ptxas stops at them.
  if (ptx) code.erase(code.find_last_not_of('\0') + 1);
  const auto path = folder / (file.stem().string() + "-" + std::to_string(std::hash<std::string>{}(options) % 1000000) +
                              (ptx ? ".ptx" : ".bin"));
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  const bool saved = static_cast<bool>(std::ofstream(path, std::ios::binary) << code);
  std::cerr << (saved ? "compiled code of " : "could not save the compiled code of ") << display_name(file)
            << " (options: " << options << (saved ? ") saved to " : ") to ") << path.string() << "\n";
}

}  // namespace

void catch_compiler_output(std::string& said, const std::function<void()>& build) {
  std::fflush(stderr);
  FILE* sink = std::tmpfile();
  const int saved = sink ? dup(2) : -1;
  if (saved >= 0) dup2(fileno(sink), 2);
  std::exception_ptr failure;
  try {
    build();
  } catch (...) {
    failure = std::current_exception();  // thrown again below, once stderr is back
  }
  if (saved >= 0) {
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::rewind(sink);
    for (int c; (c = std::fgetc(sink)) != EOF;) said += static_cast<char>(c);
  }
  if (sink) std::fclose(sink);
  if (failure) std::rethrow_exception(failure);
}

std::filesystem::path project_root() {
  if (const char* env = std::getenv("COURSE_ROOT"); env && *env) return env;
  return COURSE_SOURCE_DIR;
}

std::filesystem::path locate_course_file(const std::string& relative_path) {
  std::vector<std::filesystem::path> tried;
  if (const char* env = std::getenv("COURSE_KERNEL_DIR"); env && *env)
    tried.push_back(std::filesystem::path(env) / relative_path);
  tried.push_back(project_root() / relative_path);
  for (const auto& p : tried)
    if (std::filesystem::is_regular_file(p)) return p;
  std::string msg = "cannot find the course file '" + relative_path + "'. Looked in:";
  for (const auto& p : tried) msg += "\n    " + p.string();
  msg += "\nSet COURSE_ROOT to the course's folder if you moved it.";
  throw InputError(msg);
}

std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in || std::filesystem::is_directory(path)) throw InputError("cannot read the file '" + path.string() + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

cl::Program build_program(const DeviceContext& dc, const std::filesystem::path& file, const std::string& options,
                          BuildStats* stats) {
  const std::string name = display_name(file);
  const std::string source = prelude() + "#line 1 \"" + name + "\"\n" + read_text_file(file);
  const auto key = std::make_tuple(dc.device(), source, options);
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    if (auto it = cache.find(key); it != cache.end()) {
      if (stats) *stats = BuildStats{0, true};
      return it->second;
    }
  }
  cl::Program program(dc.context, source);
  const auto start = std::chrono::steady_clock::now();
  std::string log, said;  // said: what the compiler printed itself, which belongs inside its log
  bool built = false;
  try {
    catch_compiler_output(said, [&] { program.build(std::vector<cl::Device>{dc.device}, options.c_str()); });
    built = true;
  } catch (const cl::BuildError& e) {
    for (const auto& [device, text] : e.getBuildLog()) log += readable_log(text, name);
  } catch (const cl::Error& e) {
    if (e.err() != CL_BUILD_PROGRAM_FAILURE && e.err() != CL_INVALID_BUILD_OPTIONS) throw;
    log = readable_log(program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(dc.device), name);
  }
  if (!built) {
    if (!said.empty() && said.back() != '\n') said += '\n';
    throw KernelBuildError("--- build log of " + name + (options.empty() ? "" : " (options: " + options + ")") +
                           " ---\n" + log + said + "--- end of build log ---");
  }
  std::cerr << said;  // a compiler's warnings, if it printed any
  if (const char* folder = std::getenv("COURSE_SAVE_BINARIES"); folder && *folder) save_binary(program, file, options, folder);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (stats) *stats = BuildStats{ms, false};
  std::lock_guard<std::mutex> lock(cache_mutex);
  cache.emplace(key, program);
  return program;
}

cl::Program build_course_program(const DeviceContext& dc, const std::string& relative_path, const std::string& options,
                                 BuildStats* stats) {
  return build_program(dc, locate_course_file(relative_path), options, stats);
}

}  // namespace course
