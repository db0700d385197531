#include "checker.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <regex>
#include <sstream>

#include "diff_picture.hpp"
#include "errors.hpp"
#include "guard_damage.hpp"
#include "program.hpp"

namespace course {
namespace {

std::map<std::string, ExerciseInfo>& registry() {
  static std::map<std::string, ExerciseInfo> exercises;
  return exercises;
}

// Does `got` equal `candidate` within the tolerance, NaN where it has NaN? Relative slack too: a
// value made from a guard band's sentinel is large, and float sums of large values round.
bool same_value(float got, float candidate, double tolerance) {
  if (std::isnan(got) || std::isnan(candidate)) return std::isnan(got) && std::isnan(candidate);
  return std::fabs(double(got) - candidate) <= tolerance + 1e-6 + 1e-5 * std::fabs(candidate);
}

bool same_output(const std::vector<float>& got, const std::vector<float>& candidate, std::size_t count,
                 double tolerance) {
  if (candidate.size() < count) return false;
  for (std::size_t i = 0; i < count; ++i)
    if (!same_value(got[i], candidate[i], tolerance)) return false;
  return true;
}

std::string position(std::size_t index, int width, int channels) {
  const std::size_t pixel = index / channels;
  return "(" + std::to_string(pixel % width) + ", " + std::to_string(pixel / width) + ")";
}

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// The lines of `text`, each indented by four spaces.
std::string indent(const std::string& text) {
  std::string out = "    ";
  for (char c : text) {
    out += c;
    if (c == '\n') out += "    ";
  }
  return out;
}

// `text` wrapped at word boundaries into lines of at most `width` characters.
std::string wrap(const std::string& text, std::size_t width) {
  std::string out, line, word;
  std::istringstream words(text);
  while (words >> word) {
    if (!line.empty() && line.size() + 1 + word.size() > width) out += line + "\n", line.clear();
    line += (line.empty() ? "" : " ") + word;
  }
  return out + line;
}

// What the text of `source` shows wrong about its barriers: "" when nothing, else a sentence naming
// the lines. A kernel that shares a __local tile needs a barrier between the copy and the reads,
// and every work-item of a group must reach every barrier: one that returns first leaves the
// others reading a tile it never wrote (and on some devices the group hangs, or the returned
// work-items go on past the barrier). Read from the text because a device may run the work-items
// of a group in an order that hides the mistake: a check that only compares pictures can pass.
std::string barrier_mistake(const std::string& source) {
  std::string code = source;  // comments blanked out, newlines kept so that line numbers stay true
  for (std::size_t i = 0; i + 1 < code.size(); ++i) {
    if (code[i] == '/' && code[i + 1] == '/')
      while (i < code.size() && code[i] != '\n') code[i++] = ' ';
    else if (code[i] == '/' && code[i + 1] == '*')
      for (; i + 1 < code.size() && !(code[i] == '*' && code[i + 1] == '/'); ++i)
        if (code[i] != '\n') code[i] = ' ';
  }
  auto line_of = [&code](std::size_t at) { return 1 + std::count(code.begin(), code.begin() + at, '\n'); };
  // A local array: "__local float tile[...]" or "local float* tile" (not get_local_id).
  static const std::regex local_array(R"((^|[^_A-Za-z0-9])(__)?local\s+[A-Za-z_])");
  for (std::size_t k = code.find("__kernel"); k != std::string::npos; k = code.find("__kernel", k + 1)) {
    const std::size_t next = code.find("__kernel", k + 1);
    const std::string kernel = code.substr(k, next == std::string::npos ? std::string::npos : next - k);
    const std::size_t barrier = kernel.find("barrier(");
    std::smatch local;
    if (barrier == std::string::npos) {
      if (std::regex_search(kernel, local, local_array))
        return "The kernel shares a __local tile (line " +
               std::to_string(line_of(k + local.position(0) + local.length(1))) +
               ") but has no barrier: a work-item may read the tile before the others have written it. Put "
               "barrier(CLK_LOCAL_MEM_FENCE) between the copy into the tile and the reads from it.";
      continue;
    }
    const std::size_t ret = kernel.find("return");
    if (ret != std::string::npos && ret < barrier)
      return "A work-item leaves with `return` (line " + std::to_string(line_of(k + ret)) +
             ") before the barrier on line " + std::to_string(line_of(k + barrier)) +
             ": every work-item of a group must reach each barrier, or the others read a tile it never "
             "wrote. Check the bounds after the barrier (and clamp the copy's reads).";
  }
  return "";
}

// A value this far from every input is made from a guard band's sentinel (-12345.5): inputs are
// pixel values, a few hundred at most.
constexpr double kGuardMade = 1000;

// What a race on a local tile means, wherever the report finds one.
const std::string kTileRace =
    "a work-item read the tile before every work-item had written it. The barrier(CLK_LOCAL_MEM_FENCE) between the "
    "copy and the reads is missing, comes before the copy is complete, or some work-items skip it (a `return` "
    "before it).";

}  // namespace

int register_exercise(ExerciseInfo info) {
  registry()[info.number] = std::move(info);
  return static_cast<int>(registry().size());
}

std::vector<ExerciseInfo> registered_exercises() {
  std::vector<ExerciseInfo> out;
  for (const auto& [number, info] : registry()) out.push_back(info);
  return out;
}

ExerciseCheck::ExerciseCheck(const DeviceContext& dc, std::filesystem::path folder, std::filesystem::path report_dir,
                             std::ostream& out, bool verbose)
    : dc_(dc), folder_(std::move(folder)), report_dir_(std::move(report_dir)), out_(out), verbose_(verbose) {}

cl::Program ExerciseCheck::build(const std::string& file, const std::string& options) {
  // A kernel built to find its __local memory poisoned with NaN: a NaN in its output is then
  // read from the tile before it was written.
  if (options.find("COURSE_POISON_LOCAL") != std::string::npos) poisoned_local_ = true;
  std::string barrier_why;
  try {
    barrier_why = barrier_mistake(read_text_file(folder_ / file));
  } catch (const std::exception&) {
    // build_program() below says what is wrong with the file.
  }
  try {
    cl::Program program = build_program(dc_, folder_ / file, options);
    // A barrier mistake fails the exercise even where this device's pictures come out right, and
    // names the cause of every case that fails because of it.
    if (!barrier_why.empty() && barrier_mistake_.empty()) {
      barrier_mistake_ = barrier_why;
      fail("the barriers in " + file + " (read from its text)", barrier_why, "", "");
    }
    return program;
  } catch (const KernelBuildError& e) {
    fail("compile " + file, "", std::string("the kernel does not compile:\n") + e.what(), "");
    throw;
  }
}

std::string ExerciseCheck::diagnose(const std::vector<float>& got, const std::vector<float>& expected, int width,
                                    int height, double tolerance, int channels, const CaseDetails& details,
                                    bool& raced) const {
  const std::size_t count = static_cast<std::size_t>(width) * height * channels;
  // 0. A barrier missing or skipped: whatever went wrong, that comes first.
  if (!barrier_mistake_.empty()) return barrier_mistake_;
  // 1. Two runs on the same input that differ: a race, whatever else the output resembles.
  if (details.rerun) {
    std::vector<float> again;
    try {
      again = details.rerun();
    } catch (const std::exception&) {
      // A second launch that fails proves nothing about the first: no race is named.
    }
    for (std::size_t i = 0; i < count && i < again.size(); ++i)
      if (!same_value(got[i], again[i], 0)) {
        raced = true;
        const std::string runs = "Two runs on the same input differ (pixel " + position(i, width, channels) + " got " +
                                 number(got[i]) + ", then " + number(again[i]) + "): ";
        if (poisoned_local_) return runs + kTileRace;
        return runs + "a work-item read a value before another had written it, or two wrote the same place.";
      }
  }
  // 2. The exercise's own mistakes, in the order it lists them: the first that reproduces the
  //    learner's output exactly is the cause.
  for (const Mistake& m : details.mistakes)
    if (m.output && same_output(got, m.output(), count, tolerance)) return m.sentence;
  // 3. A value made from a guard band: the kernel read outside its input.
  for (std::size_t i = 0; i < count; ++i)
    if (std::isfinite(got[i]) && std::fabs(got[i]) >= kGuardMade && std::fabs(expected[i]) < kGuardMade)
      return "The kernel read outside its input: pixel " + position(i, width, channels) + " got " + number(got[i]) +
             ", a value made from the guard band (" + number(kGuardSentinel) +
             ") that lies just before and after the input buffer, so one of its reads went past the image's "
             "edge or start (clamp that index into the image).";
  // 4. NaN where a value belongs.
  for (std::size_t i = 0; i < count; ++i)
    if (std::isnan(got[i]) && !std::isnan(expected[i])) {
      if (poisoned_local_) {
        raced = true;
        return "Pixel " + position(i, width, channels) +
               " is NaN, the poison local memory holds before the copy: " + kTileRace;
      }
      return "Pixel " + position(i, width, channels) +
             " was never written: no work-item stored a value there (the bounds check or the output index "
             "leaves it out).";
    }
  // 5. What the exercise itself can tell.
  if (details.diagnose) return details.diagnose(got);
  return "";
}

bool ExerciseCheck::expect_image(const std::string& name, const std::vector<float>& got,
                                 const std::vector<float>& expected, int width, int height, double tolerance,
                                 int channels, const CaseDetails& details) {
  const Comparison c = compare_images(got, expected, width, height, tolerance, channels);
  if (c.ok()) {
    pass(name);
    records_.back().work_groups = details.work_groups;
    return true;
  }
  bool raced = false;
  const std::string cause = diagnose(got, expected, width, height, tolerance, channels, details, raced);
  std::ostringstream numbers;
  numbers << c.wrong << " of " << c.total << " values off by more than " << tolerance << " (max error "
          << c.max_abs_error << ")";
  for (std::size_t i = 0; i < c.first.size() && i < 5; ++i) {
    const Mismatch& m = c.first[i];
    numbers << "\n  (" << m.x << ", " << m.y << ")" << (channels > 1 ? " channel " + std::to_string(m.channel) : "")
            << " got " << m.got << " expected " << m.expected;
  }
  if (details.explain_first && !c.first.empty()) numbers << "\n" << details.explain_first(c.first.front());
  std::string picture;
  try {
    char file[32];
    std::snprintf(file, sizeof file, "case-%02d.png", passed_ + failed_ + 1);
    std::filesystem::create_directories(report_dir_);
    save_diff_picture(report_dir_ / file, got, expected, width, height, tolerance, channels);
    picture = (report_dir_ / file).string();
  } catch (const std::exception&) {
    // The report is still useful without its picture.
  }
  fail(name, cause, numbers.str(), picture);
  records_.back().work_groups = details.work_groups;
  records_.back().raced = raced;
  return false;
}

std::string ExerciseCheck::text_of(const Record& r) {
  if (r.passed) return "  [pass] " + r.name + (r.note.empty() ? "" : "  (" + r.note + ")") + "\n";
  std::string text = "  [FAIL] " + r.name + "\n";
  if (!r.cause.empty()) text += indent(wrap(r.cause, 92)) + "\n";
  if (!r.numbers.empty()) text += indent(r.numbers) + "\n";
  if (!r.picture.empty()) text += "    diff picture (got | expected | difference): " + r.picture + "\n";
  return text;
}

void ExerciseCheck::record(Record r) {
  if (verbose_) out_ << text_of(r);
  records_.push_back(std::move(r));
}

void ExerciseCheck::pass(const std::string& name, const std::string& note) {
  ++passed_;
  Record r;
  r.name = name, r.passed = true, r.note = note;
  record(std::move(r));
}

void ExerciseCheck::fail(const std::string& name, const std::string& reason) {
  fail(name, barrier_mistake_, reason, "");
}

void ExerciseCheck::fail(const std::string& name, const std::string& cause, const std::string& numbers,
                         const std::string& picture) {
  if (failed_++ == 0) first_cause_ = cause, first_picture_ = picture;
  // One line: the cause when there is one, else the first line of the evidence.
  std::string summary = cause.empty() ? numbers.substr(0, numbers.find('\n')) : cause;
  if (const auto off = summary.find(" off by more than"); cause.empty() && off != std::string::npos)
    summary = summary.substr(0, off) + " wrong";
  if (!cause.empty() && failed_ > 1 && cause == first_cause_) summary = "the same cause";
  if (summary.size() > 60) summary = summary.substr(0, 57) + "...";
  Record r;
  r.name = name, r.cause = cause, r.numbers = numbers, r.picture = picture, r.summary = summary;
  record(std::move(r));
}

// A local-memory exercise whose failing cases all launched several work-groups, while cases with
// one passed: a group alone computes right, and the groups disturb each other (a race on a tile,
// when some output showed one) or the groups after the first work on the wrong part of the image.
std::string ExerciseCheck::several_groups_only() const {
  bool single_passed = false, raced = false;
  for (const Record& r : records_) {
    if (r.passed) single_passed = single_passed || r.work_groups == 1;
    if (!r.passed && r.work_groups < 2) return "";  // a case with one group (or an unknown count) failed
    raced = raced || r.raced;
  }
  if (!poisoned_local_ || !single_passed || failed_ == 0) return "";
  const std::string only = "Only cases with several work-groups fail, and every case with a single work-group passes: ";
  if (raced) return only + kTileRace;
  return only +
         "one group alone computes right, so the groups after the first work on the wrong part of the image. "
         "Where a group's tile starts, and where its outputs go, must move with get_group_id (get_local_id "
         "alone is the same in every group).";
}

void ExerciseCheck::finish(int max_lines) {
  const auto first = std::find_if(records_.begin(), records_.end(), [](const Record& r) { return !r.passed; });
  if (first != records_.end() && first->cause.empty()) {
    if (const std::string why = several_groups_only(); !why.empty()) {
      first->cause = first_cause_ = why;
      if (verbose_) out_ << "\n" << indent(wrap(why, 92)) << "\n";  // every case was printed already
    }
  }
  if (verbose_) return;
  auto lines_of = [](const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); };
  int budget = max_lines;
  if (first != records_.end()) {
    // The first failing case in full, but never more than half a screen (a long build log).
    std::string text = text_of(*first);
    int shown = 0;
    std::size_t at = 0;
    while (at < text.size() && shown < 30) at = text.find('\n', at) + 1, ++shown;
    if (at < text.size()) text = text.substr(0, at) + "    ... (./course check --verbose shows the rest)\n";
    out_ << text;
    budget -= lines_of(text);
  }
  // Every other case on one line; when they do not all fit, the failing ones first, then a count.
  std::vector<const Record*> others;
  for (const Record& r : records_)
    if (first == records_.end() || &r != &*first) others.push_back(&r);
  auto line = [](const Record& r) {
    return r.passed ? "  [pass] " + r.name : "  [FAIL] " + r.name + (r.summary.empty() ? "" : ": " + r.summary);
  };
  if (static_cast<int>(others.size()) <= budget) {
    for (const Record* r : others) out_ << line(*r) << "\n";
    return;
  }
  int failing = 0, passing = 0, shown = 0;
  for (const Record* r : others) (r->passed ? passing : failing)++;
  for (const Record* r : others)
    if (!r->passed && shown < budget - 2) out_ << line(*r) << "\n", ++shown;
  if (passing > 0) out_ << "  [pass] " << passing << " other cases\n";
  if (failing > shown)
    out_ << "  ... and " << failing - shown << " more failing cases (--verbose lists every case in full)\n";
}

void ExerciseCheck::run_case(const std::string& name, const std::function<void()>& body) {
  try {
    body();
  } catch (const KernelBuildError&) {
    throw;
  } catch (const cl::Error& e) {
    fail(name,
         std::string("OpenCL error in ") + e.what() + ": " + cl_error_name(e.err()) + ". " + cl_error_advice(e.err()));
  } catch (const std::exception& e) {
    fail(name, e.what());
  }
}

}  // namespace course
