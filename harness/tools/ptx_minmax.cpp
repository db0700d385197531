// build/bin/course-ptx-minmax: the min and max instructions per output that lesson 06's medians
// cost, read from the PTX that clang makes of them for NVIDIA GPUs (page 06's table). Each kernel
// is built with the options lesson 06 itself gives it (median_build_options()), with the block a
// GPU gets (one lane; shared_sorted_rows one output along a row; merged_pairs its two 8-bit tiles
// in one value, min.u16x2 and max.u16x2 as on compute capability 9.0), and libclc's built-in
// functions; the min and max of its values on the longest path through the kernel are counted
// and divided by the outputs a work-item computes. --record FILE writes the table as a run a page
// quotes (data/runs/clang-ptx/median-minmax.json). Needs clang-15 and libclc-15.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "course.hpp"
#include "median_filters.hpp"
#include "record.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;

// What the tool builds, and for which target: clang's OpenCL for NVIDIA's PTX.
const char* const kTarget = "nvptx64-nvidia-nvcl";
// OpenCL C 1.2 with its built-in declarations, to PTX; -O3 as NVIDIA's compiler optimises by
// default; every function inlined, as NVIDIA's compiler inlines them (clang leaves merged_columns'
// tile, written twice, as a call); inline PTX (asm), which NVIDIA's OpenCL takes, and clang with
// -fasm.
const char* const kFlags =
    "-cl-std=CL1.2 -Xclang -finclude-default-header -O3 -S -mllvm -inline-threshold=100000 -fasm";
// clang has no OpenCL built-in functions for NVIDIA of its own: libclc's (Debian: libclc-15).
const char* const kLibclc = "/usr/lib/clc/nvptx64--nvidiacl.bc";
// libclc writes OpenCL's min and max of two floats as a comparison and a select, two PTX
// instructions each; PTX has one for each, min.f32 and max.f32, which are libclc's fmin and fmax.
// For values that are not NaN (a picture's) they are the same functions.
const char* const kSingleMinMax =
    "float __attribute__((overloadable)) min(float a, float b) { return fmin(a, b); }\n"
    "float __attribute__((overloadable)) max(float a, float b) { return fmax(a, b); }\n";
// The width the kernels are built for: a multiple of 4, so rows start on 4-pixel units
// (ALIGNED_ROWS), as at 8192x8192 where page 06's runs were timed.
constexpr int kWidth = 8192;

// One kernel of the table: a variant at a window with a block of outputs per work-item.
struct Case {
  const course::MedianVariant* variant;
  int window;
  course::MedianBlock block;
  // The PTX type of the values its min and max compare: f32 for floats, u16x2 for merged_pairs'
  // two 8-bit pixels in one value.
  std::string type() const { return variant->packed ? "u16x2" : "f32"; }
};

// "merged_columns 8x2 5x5": the variant, its outputs along a row by rows, and the window.
std::string case_name(const Case& c) {
  const int along = course::median_row_pixels(c.block);
  return c.variant->name + " " + std::to_string(along) + "x" + std::to_string(c.block.strip) + " " +
         std::to_string(c.window) + "x" + std::to_string(c.window);
}

// What a program printed and how it ended.
struct Ran {
  int status = -1;  // its exit status, -1 when it did not exit
  std::string out, err;
};

std::string read_file_if_any(const fs::path& path) {
  std::error_code ec;
  return fs::exists(path, ec) ? course::read_text_file(path) : std::string();
}

// Runs `argv` (no shell: the options hold parentheses) with its output in two files of `folder`.
// A program that is not installed is a SkipLesson naming the package that has it.
Ran run_program(const std::vector<std::string>& argv, const fs::path& folder) {
  const fs::path out = folder / "stdout.txt", err = folder / "stderr.txt";
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&files, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int failed = posix_spawnp(&pid, args[0], &files, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  if (failed == ENOENT)
    throw course::SkipLesson(argv[0] + " is not installed, so there is no PTX to count.\nDebian and Ubuntu: " +
                             "apt-get install " + argv[0] + " (or give another clang with --compiler)");
  if (failed) throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(failed));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  Ran ran;
  ran.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  ran.out = read_file_if_any(out);
  ran.err = read_file_if_any(err);
  return ran;
}

// A stretch of a kernel's PTX that runs whole once entered: its min and max instructions by form
// ("min.f32": 86), and the stretches it may go on to.
struct Block {
  std::map<std::string, int> forms;
  int total = 0;
  std::vector<std::string> targets;  // the labels it may branch to
  bool falls_through = true;         // whether it may go on to the next one
};

// The min and max instructions of `type` in one kernel's PTX, by form ("min.f32": 86): in its
// code (`*in_code`), and on the longest path through it, which is what returned. A work-item runs
// one path: where the kernel holds two copies of its work (merged_columns' tiles inside the image
// and those at its edges), it runs one of them, and every branch it takes only skips work (an
// output row past the image's end). A kernel whose work is all unrolled has no loop; one left
// rolled is refused, since its body's instructions run an unknown number of times, and so is a
// call, whose callee's go uncounted. The other forms (the coordinates' clamps: max.s32) are
// added up in `*others`, wherever they are in the code.
std::map<std::string, int> count_min_max(const std::string& ptx, const std::string& kernel, const std::string& type,
                                         int* in_code, std::map<std::string, int>* others) {
  std::istringstream in(ptx);
  std::string line;
  bool in_kernel = false, found = false;
  int depth = 0;
  std::vector<Block> blocks(1);
  bool fresh = true;  // nothing read into the last block yet
  std::map<std::string, std::size_t> labels;
  *in_code = 0;
  while (std::getline(in, line)) {
    if (!in_kernel) {
      if (line.find(".entry " + kernel + "(") != std::string::npos) in_kernel = found = true;
      continue;
    }
    for (const char c : line) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    if (depth == 0 && line.find('}') != std::string::npos) break;
    std::istringstream words(line);
    std::string word;
    if (!(words >> word) || word.rfind("//", 0) == 0) continue;
    if (word[0] == '$' && word.back() == ':') {  // a label starts a block, unless one just started
      if (!fresh) blocks.emplace_back();
      fresh = true;
      labels[word.substr(0, word.size() - 1)] = blocks.size() - 1;
      continue;
    }
    fresh = false;
    const bool predicated = word[0] == '@';
    if (predicated) words >> word;
    const std::string opcode = word.substr(0, word.find('.'));
    const std::string suffix = "." + type;  // min.f32, min.ftz.f32, min.u16x2
    if ((opcode == "min" || opcode == "max") && word.size() > suffix.size() &&
        word.compare(word.size() - suffix.size(), suffix.size(), suffix) == 0) {
      ++blocks.back().forms[word];
      ++blocks.back().total;
      ++*in_code;
    } else if (opcode == "min" || opcode == "max") {
      ++(*others)[word];
    } else if (opcode == "call") {
      throw std::runtime_error("the PTX of " + kernel + " calls a function, whose min and max this count would miss");
    } else if (opcode == "bra" || opcode == "ret" || opcode == "exit") {
      if (opcode == "bra") {
        std::string target;
        words >> target;
        blocks.back().targets.push_back(target.substr(0, target.find(';')));
      }
      blocks.back().falls_through = predicated;
      blocks.emplace_back();
      fresh = true;
    }
  }
  if (!found) throw std::runtime_error("the PTX holds no kernel " + kernel + " (.entry " + kernel + ")");

  // The longest path from the first block, in min and max instructions, and where it goes next.
  std::vector<int> longest(blocks.size(), -1), state(blocks.size(), 0);  // state: 1 visiting, 2 done
  std::vector<std::size_t> best_next(blocks.size(), blocks.size());
  std::function<int(std::size_t)> walk = [&](std::size_t b) -> int {
    if (state[b] == 2) return longest[b];
    if (state[b] == 1)
      throw std::runtime_error("the PTX of " + kernel +
                               " holds a loop left rolled: its min and max run an "
                               "unknown number of times");
    state[b] = 1;
    std::vector<std::size_t> next;
    for (const auto& target : blocks[b].targets) {
      const auto at = labels.find(target);
      if (at == labels.end()) throw std::runtime_error("the PTX of " + kernel + " branches to no label " + target);
      next.push_back(at->second);
    }
    if (blocks[b].falls_through && b + 1 < blocks.size()) next.push_back(b + 1);
    int most = 0;
    for (const std::size_t n : next) {
      const int after = walk(n);
      if (after > most || best_next[b] == blocks.size()) most = after, best_next[b] = n;
    }
    state[b] = 2;
    return longest[b] = blocks[b].total + most;
  };
  walk(0);
  std::map<std::string, int> forms;
  for (std::size_t b = 0; b < blocks.size(); b = best_next[b])
    for (const auto& [form, n] : blocks[b].forms) forms[form] += n;
  return forms;
}

// The words of a build option string, as OpenCL splits them: at spaces.
std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    // Step 1: the options.
    course::Options options("build/bin/course-ptx-minmax",
                            "Counts the min and max instructions per output in the PTX that clang makes of lesson "
                            "06's shared_sorted_rows and merged_columns for floats and merged_pairs for 8-bit "
                            "pixels, as page 06 gives them.");
    options.value("compiler", "PROGRAM", "the clang that compiles OpenCL C to PTX", "clang-15");
    options.value("window", "K", "3, 5 or both", "both");
    const std::vector<std::string> variants = {"shared_sorted_rows", "merged_columns", "merged_pairs"};
    options.variant_option(variants);
    options.value("libclc", "FILE", "libclc's built-in functions for the target", kLibclc);
    options.value("keep", "FOLDER", "also keep each kernel's PTX there, named after its row");
    course::add_record_option(options);
    options.example("build/bin/course-ptx-minmax --record data/runs/clang-ptx/median-minmax.json",
                    "the table of page 06, recorded as the run it quotes");
    options.example("build/bin/course-ptx-minmax --variant merged_columns --window 5 --keep out/ptx",
                    "the 5x5 merged columns, their PTX kept in out/ptx");
    options.parse(argc, argv);
    const std::string compiler = options.text("compiler");
    const std::string windows = options.choice("window", {"3", "5", "both"});
    const std::vector<std::string> chosen = options.chosen_variants(variants);

    // Step 2: the compiler's version, and a folder for its output.
    fs::path work = fs::temp_directory_path() / ("course-ptx-minmax-" + std::to_string(getpid()));
    fs::create_directories(work);
    struct Cleanup {
      fs::path path;
      ~Cleanup() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
      }
    } cleanup{work};
    const Ran version = run_program({compiler, "--version"}, work);
    if (version.status != 0 || version.out.find("clang") == std::string::npos)
      throw course::UsageError("option '--compiler " + compiler + "': '" + compiler +
                               " --version' does not name clang; the tool needs a clang");
    const std::string version_line = version.out.substr(0, version.out.find('\n'));
    const fs::path libclc = options.text("libclc");
    if (!fs::is_regular_file(libclc))
      throw course::SkipLesson("no " + libclc.string() + ": clang has no OpenCL built-in functions for PTX.\n" +
                               "Debian and Ubuntu: apt-get install libclc-15 (or give the file with --libclc)");
    const fs::path single_min_max = work / "single_min_max.h";
    std::ofstream(single_min_max) << kSingleMinMax;
    fs::path keep;
    if (options.given("keep")) {
      keep = options.text("keep");
      std::error_code ec;
      fs::create_directories(keep, ec);
      if (!fs::is_directory(keep))
        throw course::InputError("cannot make the folder '" + keep.string() + "' (--keep)" +
                                 (ec ? ": " + ec.message() : std::string()));
    }

    // Step 3: the kernels of the table, with the blocks a GPU gets: it reports a preferred vector
    // width of 1, so shared_sorted_rows computes one output along a row and merged_columns one
    // lane; merged_pairs holds two tiles in one value, with the lesson's 8 outputs along a row. The
    // lesson's options depend on the device only for merged_pairs, whose min.u16x2 and max.u16x2
    // it names on NVIDIA GPUs of compute capability 9.0 (-D PTX_MIN_U16X2): they are added here,
    // and the default device serves to ask for the rest.
    const course::DeviceContext dc = course::open_device(options.text("device"));
    std::vector<Case> cases;
    for (const int window : {3, 5}) {
      if (windows != "both" && std::to_string(window) != windows) continue;
      for (const auto& name : chosen) {
        const course::MedianVariant& variant = course::median_variant(name);
        const bool eight_bit = variant.packed;
        if (!variant.even_block) {
          cases.push_back({&variant, window, course::median_block(dc, variant, window, eight_bit, 1)});
          continue;
        }
        for (const int along : variant.packed ? std::vector<int>{8} : std::vector<int>{4, 8, 16}) {
          course::MedianBlock block = course::median_block(dc, variant, window, eight_bit, along);
          if (!variant.packed) block.lanes = 1;
          cases.push_back({&variant, window, block});
        }
      }
    }

    // Step 4: each kernel to PTX, its min and max counted.
    const fs::path prelude = course::locate_course_file("kernels/common/prelude.cl");
    std::vector<std::vector<std::string>> cells;
    std::vector<course::ResultRow> rows;
    std::map<std::string, int> others;  // min and max of other types (the clamps), in all the code
    for (const Case& c : cases) {
      const std::string name = case_name(c);
      std::string build = course::median_build_options(dc, *c.variant, c.window, c.variant->packed, c.block, kWidth);
      if (build.find("PTX_MIN_U16X2") != std::string::npos)
        throw std::logic_error(name + ": the options name the device's u16x2 instructions before the tool does");
      if (c.variant->packed) build += " -D PTX_MIN_U16X2";
      const fs::path file = course::locate_course_file("kernels/06_median_sorting_networks/" + c.variant->file);
      std::string file_name = name;
      for (char& ch : file_name) ch = ch == ' ' ? '_' : ch;
      const fs::path ptx = (keep.empty() ? work : keep) / (file_name + ".ptx");
      std::vector<std::string> command = {compiler, "-target", kTarget};
      for (const auto& w : words_of(kFlags)) command.push_back(w);
      command.insert(command.end(), {"-Xclang", "-mlink-builtin-bitcode", "-Xclang", libclc.string(), "-include",
                                     prelude.string(), "-include", single_min_max.string()});
      for (const auto& w : words_of(build)) command.push_back(w);
      command.insert(command.end(), {"-I", file.parent_path().string(), file.string(), "-o", ptx.string()});
      const Ran compiled = run_program(command, work);
      if (compiled.status != 0)
        throw course::KernelBuildError(name + ": " + compiler + " refused the kernel:\n" + compiled.err);
      int in_code = 0;
      const std::map<std::string, int> forms =
          count_min_max(course::read_text_file(ptx), c.variant->kernel, c.type(), &in_code, &others);
      int mins = 0, maxes = 0;
      for (const auto& [form, n] : forms) (form.rfind("min", 0) == 0 ? mins : maxes) += n;
      const int outputs = course::median_row_pixels(c.block) * c.block.strip;
      char per_output[32];
      std::snprintf(per_output, sizeof per_output, "%.4g", static_cast<double>(mins + maxes) / outputs);
      cells.push_back({name, std::to_string(outputs), std::to_string(mins), std::to_string(maxes),
                       std::to_string(in_code), per_output});
      course::ResultRow row;
      row.variant = name;
      row.kernel_ms = std::numeric_limits<double>::quiet_NaN();
      row.baseline = "-";
      rows.push_back(row);
    }

    // Step 5: the table, printed and recorded.
    std::string integers;
    for (const auto& [form, n] : others) integers += (integers.empty() ? "" : ", ") + std::to_string(n) + " " + form;
    course::TextTable table;
    table.title = "Min and max per output in " + compiler + "'s PTX (" + kTarget + ")";
    table.head = {"kernel", "outputs", "min", "max", "in code", "per output"};
    table.rows = cells;
    table.notes = {
        "kernel: the variant, the outputs a work-item computes (along a row x rows) and the window, "
        "built with lesson 06's options for a GPU's block (merged_columns one lane of floats, merged_pairs two "
        "tiles of 8-bit pixels in one value, with -D PTX_MIN_U16X2), rows aligned (width " +
            std::to_string(kWidth) + ")",
        "min, max: those of the pixels' values (min.f32 and max.f32, for merged_pairs min.u16x2 and max.u16x2, "
        "one for two outputs) on the longest path through the kernel, the most one work-item runs; in code: "
        "all of them in its code, where the merged variants hold their tile twice (for tiles inside the image "
        "and at its edges) and a work-item runs one",
        "per output: (min + max) / outputs",
        "other min and max (coordinates clamped to the image), not counted: " +
            (integers.empty() ? std::string("none") : integers + " in all the code"),
        compiler + ": " + version_line + "; " + kFlags + ", libclc's " + libclc.filename().string() +
            ", its fmin and fmax as OpenCL's min and max of floats"};
    table.print(std::cout);
    course::record_compiler(compiler, kTarget, version_line);
    course::record_table(table.title, course::Roofline{}, rows, table.head, table.rows, table.notes);
    return course::kExitOk;
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
