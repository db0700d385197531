// The main() of every exercise's check program (build/bin/check_NN): runs the cases that the
// exercise's check.cpp registered on the kernels of one folder. `./course check NN` runs it on
// the learner's exercises/NN_name/; the test suite runs the same cases on solutions/ (must pass)
// and on exercises/ as shipped (must fail), so every exercise is known to catch wrong kernels.
//
// An exercise with C++ files (lesson 07's header) has two check programs, one compiled with
// exercises/, one with solutions/ (COURSE_CHECK_BUILT_FROM names which): each checks only the
// folder its C++ was compiled from.
//
// After the cases, one small case runs again under Oclgrind (harness/oclgrind.hpp): the program
// starts itself with `--only-case N` under the `oclgrind` launcher.
#include <dlfcn.h>
#include <malloc.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <thread>

#include "change_search.hpp"
#include "check_speed.hpp"
#include "checker.hpp"
#include "course.hpp"
#include "oclgrind.hpp"

namespace {

// What the run under Oclgrind leaves in its report folder: its buffers' numbers and sizes.
const char* const kBufferList = "oclgrind-buffers.txt";

// The guard layer (harness/guard_layer.cpp), when it is preloaded: the check reports a damaged
// guard itself, in its own words and within the terminal, instead of the layer's raw lines.
// Returns the function that tells the first damage found so far, or null without the layer.
using DamageQuery = const char* (*)();
DamageQuery guard_layer_reports_to_check() {
  using Quiet = void (*)();
  if (auto quiet = reinterpret_cast<Quiet>(dlsym(RTLD_DEFAULT, "course_guard_layer_reports_to_me"))) quiet();
  return reinterpret_cast<DamageQuery>(dlsym(RTLD_DEFAULT, "course_guard_layer_damage"));
}

// The terminal's rows and columns: the report fits them (24 x 80 when there is no terminal).
std::pair<int, int> terminal_size() {
  winsize w{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_row > 0 && w.ws_col > 0)
    return {w.ws_row, w.ws_col};
  const char* lines = std::getenv("LINES");
  const char* columns = std::getenv("COLUMNS");
  return {lines && std::atoi(lines) > 0 ? std::atoi(lines) : 24,
          columns && std::atoi(columns) > 0 ? std::atoi(columns) : 80};
}

// Does the folder hold a kernel file (exercise 11's is C++ only)?
bool has_kernels(const std::filesystem::path& folder) {
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    if (entry.path().extension() == ".cl") return true;
  return false;
}

// Runs case `number` again under Oclgrind and hands its findings to the check; returns the line
// the report ends with (`found_nothing` set when it only says that Oclgrind found nothing).
std::string oclgrind_pass(course::ExerciseCheck& check, int number, const std::filesystem::path& folder,
                          const std::string& from, std::uint32_t seed, bool& found_nothing,
                          std::vector<std::pair<std::string, int>>& sites) {
  std::error_code ec;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  const auto scratch = std::filesystem::temp_directory_path() / ("course-oclgrind-" + std::to_string(getpid()));
  const course::OclgrindRun run =
      course::run_under_oclgrind({self, "--from", from, "--report-dir", scratch.string(), "--device", "Oclgrind",
                                  "--seed", std::to_string(seed), "--only-case", std::to_string(number)},
                                 120);
  // The buffers of that run by their number in Oclgrind's addresses, with their sizes and the
  // kernel argument each was set as.
  std::map<std::uint64_t, course::OclgrindBuffer> buffers;
  {
    std::ifstream in(scratch / kBufferList);
    std::uint64_t buffer = 0;
    course::OclgrindBuffer b;
    while (in >> buffer >> b.bytes >> b.argument >> b.kernel) buffers[buffer] = b;
  }
  std::filesystem::remove_all(scratch, ec);
  const std::string which = "case " + std::to_string(number) + " (" + check.case_name(number) + ")";
  std::ostringstream took;
  took.precision(2);
  took << std::fixed << run.seconds;
  if (!run.started) return "Oclgrind could not be started; the check went on without it.";
  if (run.timed_out) return "Oclgrind did not finish " + which + " within 120 s; the check went on without it.";
  // The report shows the case Oclgrind ran in full, under its cause.
  const std::vector<course::OclgrindFinding> findings = course::parse_oclgrind_log(run.log);
  const std::string cause = course::oclgrind_cause(findings, folder, "this case", buffers, check.case_passed(number));
  // The lines Oclgrind names, where the search for one small change looks first.
  for (const course::OclgrindFinding& finding : findings)
    for (const course::OclgrindSite& site : finding.sites)
      if (site.line > 0) sites.emplace_back(site.file, site.line);
  if (!check.oclgrind_result(number, cause)) {
    // The case's own cause stays above; what Oclgrind saw there, in its first sentence, or for a
    // race whose sentence would take more than two rows only that it was a race and where.
    std::string seen = course::oclgrind_summary(cause);
    if (!check.verbose() && seen.size() > 110 && seen.rfind("a data race", 0) == 0)
      seen = seen.substr(0, seen.find(": ")) + " (`--verbose` quotes its lines).";
    return "Oclgrind ran case " + std::to_string(number) + " in " + took.str() + " s and saw there " + seen;
  }
  found_nothing = cause.empty();
  return "Oclgrind ran case " + std::to_string(number) + " in " + took.str() + " s" +
         (cause.empty() ? " and found no race, no access outside a buffer, no barrier that some work-items skip."
                        : ".");
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\')
      out += '\\', out += c;
    else if (c == '\n')
      out += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20) {
      char code[8];
      std::snprintf(code, sizeof code, "\\u%04x", c);
      out += code;
    } else
      out += c;
  }
  return out + "\"";
}

// --result FILE: the check's outcome for `./course grade`, as JSON with one field a line. Written
// once the device is open (as not finished, so a check stopped for its time limit still names its
// device) and again at the end; each time whole, through a temporary file.
void write_result(const std::string& file, const course::ExerciseInfo& exercise, const std::string& device,
                  const course::ExerciseCheck* check, bool finished) {
  if (file.empty()) return;
  const auto [passed, failed] = check ? check->case_counts() : std::pair<int, int>(0, 0);
  {
    std::ofstream out(file + ".tmp");
    out << "{\n  \"number\": " << json_string(exercise.number) << ",\n  \"name\": " << json_string(exercise.folder)
        << ",\n  \"title\": " << json_string(exercise.title) << ",\n  \"finished\": " << (finished ? "true" : "false")
        << ",\n  \"passed\": " << (finished && failed == 0 && passed > 0 ? "true" : "false")
        << ",\n  \"cases_passed\": " << passed << ",\n  \"cases_total\": " << passed + failed
        << ",\n  \"first_failing_case\": " << json_string(check ? check->first_failed_case() : "")
        << ",\n  \"cause\": " << json_string(check ? check->first_failure_reason() : "")
        << ",\n  \"device\": " << json_string(device) << "\n}\n";
    if (!out) throw course::InputError("cannot write the check's result to '" + file + ".tmp'");
  }
  std::filesystem::rename(file + ".tmp", file);
}

// A signal that means the program crashed (on a CPU device, most often a kernel that read or
// wrote outside its memory), by its name and what it means; "" for any other signal.
std::string crash_name(int signal) {
  switch (signal) {
    case SIGSEGV: return "SIGSEGV, a segmentation fault";
    case SIGBUS: return "SIGBUS, a bus error";
    case SIGILL: return "SIGILL, an illegal instruction";
    case SIGFPE: return "SIGFPE, an arithmetic exception";
    case SIGABRT: return "SIGABRT, an abort";
    default: return "";
  }
}

// On a CPU device the kernel runs inside the check's own process, and a kernel that reads or
// writes outside a buffer or a __local array can kill it. So the check runs in a child process
// that writes each case's number to a pipe as it starts (and 0 as it ends); when a case kills it,
// the check runs again with that case reported as crashed instead of run, up to 32 times. Returns
// -1 in the child, which goes on to run the check with `crashed` and `announce_fd` set, and the
// exit status in this process. Where no child can be started, the check runs here, unwatched.
int run_watched(std::map<int, std::string>& crashed, int& announce_fd) {
  for (;;) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    std::cout.flush();
    const pid_t pid = fork();
    if (pid < 0) {
      close(fds[0]), close(fds[1]);
      return -1;
    }
    if (pid == 0) {
      close(fds[0]);
      announce_fd = fds[1];
      return -1;
    }
    close(fds[1]);
    std::string heard;
    char buffer[256];
    for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) != 0;)
      if (n > 0) heard.append(buffer, static_cast<std::size_t>(n));
      else if (errno != EINTR) break;
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
      if (errno != EINTR) return course::kExitInternal;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    const int signal = WTERMSIG(status);
    // The case running when it stopped: the last number heard (0: between cases).
    std::istringstream numbers(heard);
    int last = 0;
    for (int n; numbers >> n;) last = n;
    const std::string name = crash_name(signal);
    if (name.empty()) {  // stopped from outside (Ctrl-C, a time limit): this process stops the same way
      std::signal(signal, SIG_DFL);
      std::raise(signal);
      return 128 + signal;
    }
    if (last == 0 || crashed.count(last) || crashed.size() >= 32) {
      const std::string where = last == 0 ? "outside its cases"
                                : crashed.count(last) ? "in case " + std::to_string(last) + " again"
                                                      : "in case " + std::to_string(last) + ", after 32 others";
      std::cout << "\n"
                << course::wrap_words("The check stopped: it crashed (" + name + ") " + where +
                                          ". On a CPU device a kernel that reads or writes outside a buffer or a "
                                          "__local array can crash the program that runs it: look at every index "
                                          "into your buffers and local arrays.",
                                      terminal_size().second)
                << "\n";
      return course::kExitOpenCL;
    }
    crashed[last] = name;
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::vector<course::ExerciseInfo> exercises = course::registered_exercises();
    if (exercises.size() != 1) throw std::logic_error("a check program holds exactly one exercise");
    const course::ExerciseInfo& exercise = exercises.front();
#ifdef COURSE_CHECK_BUILT_FROM
    const std::string built_from = COURSE_CHECK_BUILT_FROM;
#else
    const std::string built_from = "exercises";
#endif
    course::Options options("./course check " + exercise.number,
                            "Checks your work for exercise " + exercise.number + " against the CPU reference.");
    options.value("from", "DIR", "folder holding the exercise folders", (course::project_root() / built_from).string());
    options.value("report-dir", "DIR", "where diff images of failed cases go", "out/check");
    options.flag("verbose", "show every case in full (the report otherwise fits the terminal)");
    options.value("seed", "N", "the random data's seed (the same cases and data each run)", "1");
    options.flag("oclgrind",
                 "also under --expect: run one small case again under Oclgrind (races, accesses "
                 "outside a buffer, barriers not every work-item reaches)");
    options.value("only-case", "N", "run only case N (what the check runs under Oclgrind)");
    options.value("result", "FILE", "write the outcome as JSON to FILE (for ./course grade)");
    options.value("expect", "pass|fail", "for the test suite: succeed when the check passes (pass) or fails (fail)");
    options.example("./course check " + exercise.number, "check your exercises/" + exercise.folder + "/");
    options.parse(argc, argv);
    const std::string expect = options.given("expect") ? options.choice("expect", {"pass", "fail"}) : "";
    const auto seed = static_cast<std::uint32_t>(options.integer("seed", 0, 1 << 30));
    const int only_case = options.given("only-case") ? options.integer("only-case", 1, 1 << 20) : 0;

    const auto folder = std::filesystem::path(options.text("from")) / exercise.folder;
    if (!std::filesystem::is_directory(folder))
      throw course::InputError("the exercise folder '" + folder.string() + "' does not exist");
#ifdef COURSE_CHECK_BUILT_FROM
    if (std::filesystem::path(options.text("from")).filename() != built_from)
      throw course::UsageError("this check program was compiled with the C++ files of " + built_from + "/" +
                               exercise.folder + "/; it checks only that folder");
#endif
    course::set_random_seed(seed);
    // On PoCL each worker thread's __local memory is one large allocation. Taken from the heap,
    // not from a mapping of its own, a read a little before a __local array reads other memory of
    // this program instead of crashing it, and the check can name the mistake. Only where PoCL
    // may be the device (no device named, or PoCL named): on Mesa's rusticl, reads outside a tile
    // would then find the heap's leftovers, which differ from run to run and read as a race.
    std::string named = options.text("device");
    if (named.empty() && std::getenv("COURSE_DEVICE")) named = std::getenv("COURSE_DEVICE");
    std::transform(named.begin(), named.end(), named.begin(), [](unsigned char c) { return std::tolower(c); });
    if (named.empty() || named.find("pocl") != std::string::npos) {
      mallopt(M_ARENA_MAX, 1);
      mallopt(M_MMAP_THRESHOLD, 32 << 20);
    }
    // A case that crashes the program is reported, not the end of the check (run_watched()). The
    // run under Oclgrind (--only-case) is watched by the check that started it.
    std::map<int, std::string> crashed;
    int announce_fd = -1;
    if (!only_case)
      if (const int status = run_watched(crashed, announce_fd); status >= 0) return status;
    // Under Oclgrind, buffers end where they end: a read past one is seen.
    if (only_case) course::GuardedBuffer::use_guards(false);
    const course::DeviceContext dc = course::open_device(options.text("device"));
    const std::string result_file = options.given("result") ? options.text("result") : "";
    write_result(result_file, exercise, course::describe(dc.entry), nullptr, false);
    const auto [rows, columns] = terminal_size();
    // The header's lines wrapped at words for the terminal (a long title, a long device name).
    const std::vector<std::string> header = {
        course::wrap_words("Exercise " + exercise.number + ": " + exercise.title, columns),
        "  files:  " + folder.string(), "  device: " + course::describe(dc.entry),
        "  seed:   " + std::to_string(seed) + " (--seed N checks other random data)", ""};
    if (crashed.empty())  // after a crash the header is on the screen already
      for (const std::string& line : header) std::cout << line << "\n";
    std::cout.flush();  // on the screen before any case can crash the program

    // Only this run's pictures: the folder is emptied first.
    const auto report_dir = std::filesystem::path(options.text("report-dir")) / exercise.folder;
    std::error_code ignored;
    std::filesystem::remove_all(report_dir, ignored);
    course::ExerciseCheck check(dc, folder, report_dir, std::cout, options.given("verbose"));
    check.set_width(columns);
    if (only_case) check.run_only_case(only_case);
    check.announce_cases_to(announce_fd);
    check.skip_crashed(crashed, crashed.empty() ? 0 : crashed.rbegin()->first);
    bool build_failed = false;
    const DamageQuery guard_damage = only_case ? nullptr : guard_layer_reports_to_check();
    try {
      exercise.run(check);
    } catch (const course::KernelBuildError&) {
      build_failed = true;  // already reported as a failed case with its build log
    }
    // A guard damaged where every case passed: a kernel wrote past a buffer no case compared.
    // (Where a case failed, the damage is part of what it reports.)
    if (guard_damage && *guard_damage() && check.case_counts().second == 0)
      check.fail("the guard bands around every buffer stay intact",
                 std::string("A kernel wrote outside one of its buffers: ") + guard_damage());
    // One small case again under Oclgrind: when a case failed, to name the cause; after a pass,
    // to be sure that right outputs do not hide a race or a read outside a buffer. The test
    // suite's runs (--expect) skip it unless --oclgrind asks.
    std::string oclgrind_line;
    bool oclgrind_found_nothing = false;
    std::vector<std::pair<std::string, int>> oclgrind_sites;
    if (!only_case && !build_failed && exercise.oclgrind && has_kernels(folder) &&
        (expect.empty() || options.given("oclgrind"))) {
      if (course::oclgrind_launcher().empty())
        oclgrind_line = course::oclgrind_missing_line();
      else if (const int number = check.oclgrind_case(); number > 0)
        oclgrind_line =
            oclgrind_pass(check, number, folder, options.text("from"), seed, oclgrind_found_nothing, oclgrind_sites);
    }
    // Oclgrind's line wrapped at words, for the terminal.
    oclgrind_line = course::wrap_words(oclgrind_line, columns);
    auto [passed, failed] = check.case_counts();
    const bool all_pass = failed == 0 && passed > 0;
    // Where no typical mistake reproduced the first failing case, one small change to the learner's
    // code that makes every case pass names the slip (harness/change_search.hpp).
    std::string change_line;
    if (!only_case && !build_failed && expect.empty() && !all_pass && has_kernels(folder) &&
        !check.first_failure_reproduced() && check.smallest_failing_case() > 0 && course::change_search_seconds() > 0) {
      const double seconds = course::change_search_seconds();
      if (isatty(STDOUT_FILENO))
        std::cerr << "Trying small changes to your code (at most " << seconds << " s)...\r" << std::flush;
      std::error_code ec;
      course::ChangeRunner runner;
      runner.check = {std::filesystem::read_symlink("/proc/self/exe", ec).string(), "--seed", std::to_string(seed)};
      if (options.given("device")) runner.device = {"--device", options.text("device")};
      if (exercise.oclgrind) runner.oclgrind = course::oclgrind_launcher();
      const int parallel = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
      const std::string found = course::change_sentence(
          course::search_one_change(runner, folder, check.smallest_failing_case(), seconds, parallel, oclgrind_sites));
      check.set_found_change(found);
      change_line = course::wrap_words(found, columns);
      if (isatty(STDOUT_FILENO)) std::cerr << std::string(60, ' ') << "\r" << std::flush;
      // Oclgrind's line makes way for it where it only says that Oclgrind ran (its finding is in
      // the case above).
      static const std::regex ran_only(R"(^Oclgrind ran case \d+ in [0-9.]+ s\.$)");
      if (!change_line.empty() && std::regex_match(oclgrind_line, ran_only)) oclgrind_line.clear();
    }
    // How fast, after a pass: the learner's kernel beside the reference solution.
    std::string speed_line;
    if (all_pass && expect.empty() && !only_case)
      speed_line = course::compare_speed(check, exercise, folder);
    if (!speed_line.empty()) speed_line = course::wrap_words(speed_line, columns);
    // The last lines: Oclgrind's, the speed, the counts and the one command that shows the first
    // failing case's picture. The cases get what the terminal has left.
    std::string last =
        std::to_string(passed) + (passed == 1 ? " case" : " cases") + " passed, " + std::to_string(failed) + " failed.";
    if (expect.empty() && all_pass) last += " Well done: every case passes.";
    if (expect.empty() && !all_pass) {
      if (!check.first_picture().empty())  // the command on a line of its own, to copy whole
        last = course::wrap_words(last + " First failing case's picture:", columns) + "\n  xdg-open " +
               check.first_picture();
      else
        last += " Fix the first failing case above; `./course hint " + exercise.number + "` helps.";
    }
    if (last.find('\n') == std::string::npos) last = course::wrap_words(last, columns);
    const auto lines_of = [columns = columns](const std::string& text) { return course::screen_lines(text, columns); };
    int above = 0;  // the header's lines on the terminal, a long one wrapping
    for (const std::string& line : header) above += std::max(1, lines_of(line));
    const int tail = 1 + lines_of(change_line) + lines_of(oclgrind_line) + lines_of(speed_line) + lines_of(last);
    const int room = std::max(6, rows - above - tail);
    // The first failing case is shown whole, even past the room it was given: Oclgrind's line
    // then makes way where it only says that Oclgrind found nothing.
    if (check.finish(room) > room && oclgrind_found_nothing) oclgrind_line.clear();
    if (check.found_change_shown()) change_line.clear();  // the first failing case gives it
    if (only_case) {
      std::filesystem::create_directories(options.text("report-dir"), ignored);
      std::ofstream list(std::filesystem::path(options.text("report-dir")) / kBufferList);
      // Each buffer with the last kernel argument set to it ("-1 -" for none).
      const std::vector<course::BufferArgument> arguments = course::buffer_arguments();
      for (const auto& b : course::GuardedBuffer::unguarded_buffers()) {
        auto set = std::find_if(arguments.rbegin(), arguments.rend(),
                                [&b](const course::BufferArgument& a) { return a.memory == b.memory; });
        list << b.number << " " << b.bytes << " "
             << (set == arguments.rend() ? "-1 -" : std::to_string(set->index) + " " + set->kernel) << "\n";
      }
    }
    write_result(result_file, exercise, course::describe(dc.entry), &check, true);
    std::cout << "\n";
    if (!change_line.empty()) std::cout << change_line << "\n";
    if (!oclgrind_line.empty()) std::cout << oclgrind_line << "\n";
    if (!speed_line.empty()) std::cout << speed_line << "\n";
    std::cout << last << "\n";
    if (expect == "fail") {
      if (all_pass)
        std::cout << "expected the shipped exercise to fail, but every case passed: its gaps are not gaps.\n";
      return all_pass ? course::kExitVerificationFailed : course::kExitOk;
    }
    if (build_failed && expect.empty()) return course::kExitOpenCL;
    return all_pass ? course::kExitOk : course::kExitVerificationFailed;
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
