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

#include <unistd.h>

#include "diff_picture.hpp"
#include "errors.hpp"
#include "guard_damage.hpp"
#include "never_written.hpp"
#include "oclgrind.hpp"
#include "program.hpp"
#include "text_table.hpp"

namespace course {
namespace {

// A sentence to follow a colon or a word inside another: its first letter in lower case.
std::string lower_first(std::string sentence) {
  if (!sentence.empty()) sentence[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(sentence[0])));
  return sentence;
}

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

// How an output compares with a mistake's: the same, different, or no telling (a mistake that does
// not apply to the case gives no output; with `nan_is_any`, a NaN of the candidate matches any
// value, so one whose values are mostly NaN would match anything).
enum class Match { kSame, kDiffers, kCannotTell };
// `differing`, when given, counts the values that differ.
Match compare_output(const std::vector<float>& got, const std::vector<float>& candidate, std::size_t count,
                     double tolerance, bool nan_is_any = false, std::size_t* differing = nullptr) {
  if (candidate.size() < count) return Match::kCannotTell;
  std::size_t any = 0, differ = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (nan_is_any && std::isnan(candidate[i]))
      ++any;
    else if (!same_value(got[i], candidate[i], tolerance))
      ++differ;
  }
  if (differing) *differing = differ;
  if (2 * any >= count && count > 0) return Match::kCannotTell;
  return differ == 0 ? Match::kSame : Match::kDiffers;
}

std::string position(std::size_t index, int width, int channels) {
  const std::size_t pixel = index / channels;
  return "(" + std::to_string(pixel % width) + ", " + std::to_string(pixel / width) + ")";
}

std::string number(double v) {
  if (std::isnan(v)) return "NaN";
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

// The lines of `text` (a case's evidence) indented by four spaces; a line wider than `width`
// columns (a sentence) is wrapped at words, its continuation two spaces further in. Tables and
// tile drawings are narrower and stay as they are.
std::string indent_evidence(const std::string& text, std::size_t width) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const std::string lead = "    " + line.substr(0, line.find_first_not_of(' '));
    out += line.size() + 4 <= width ? "    " + line + "\n" : wrap(line, width, lead, lead + "  ");
  }
  if (!out.empty()) out.pop_back();
  return out;
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

// How pixel `p` of an output shows the poison local memory holds before the copy: NaN (other than
// the mark of an output no work-item stored), or, for an output converted to integers (`zero`), 0
// in every channel where the right value is not.
enum class Poison { kNone, kNaN, kZero };
Poison poison_at(const std::vector<float>& got, const std::vector<float>& expected, std::size_t p, int channels,
                 double tolerance, bool zero) {
  bool all_zero = zero, differs = false;
  for (int c = 0; c < channels; ++c) {
    const float v = got[p * channels + c], e = expected[p * channels + c];
    if (std::isnan(v) && !std::isnan(e) && !is_never_written(v)) return Poison::kNaN;
    all_zero = all_zero && v == 0;
    differs = differs || !same_value(v, e, tolerance);
  }
  return all_zero && differs ? Poison::kZero : Poison::kNone;
}

// A value this far from every input is made from a guard band's sentinel (-12345.5): inputs are
// pixel values, a few hundred at most.
constexpr double kGuardMade = 1000;

// The largest move of the whole picture the report looks for, in pixels along each axis: a window's
// width at the largest radius the exercises take (16).
constexpr int kLargestMove = 33;

// What a race on a local tile means, wherever the report finds one.
const std::string kTileRace =
    "a work-item read the tile before every work-item had written it. The barrier(CLK_LOCAL_MEM_FENCE) between the "
    "copy and the reads is missing, comes before the copy is complete, or some work-items skip it (a `return` "
    "before it).";

// Runs that differ where Oclgrind, which sees every race whatever the order, found none.
const std::string kReadNothingWrote =
    "yet Oclgrind found no race, so no work-item read the tile before another wrote it: some read memory that no "
    "work-item of the launch wrote, left there by another group or launch, most likely local memory past the part "
    "of the tile that the kernel copies (and poisons). Check the tile's size against the indices that read it.";

// Which part of every work-group's block of outputs is wrong, where the check knows the block
// (`tile`): the first rows (or columns) of each block all right and the rest wrong, or the other
// way round. Those outputs read the wrong part of the tile, or their windows need a part of it that
// the copy may leave out or fill wrong: a sentence saying so, as a likely cause (what the outputs
// read is not measured, only which are wrong); "" when the wrong outputs follow no such line.
std::string block_part_wrong(const std::vector<float>& got, const std::vector<float>& expected, int width, int height,
                             int channels, double tolerance, const CaseDetails::Tile& tile) {
  const int bw = tile.block_width, bh = tile.block_height, step = std::max(1, tile.step);
  if (bw <= 0 || bh <= 0) return "";
  for (const bool rows : {true, false}) {
    const int size = rows ? bh : bw;
    if (size < 2) continue;
    std::vector<std::size_t> right(size, 0), wrong(size, 0);  // by row (or column) within the block
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        bool ok = true;
        for (int c = 0; c < channels; ++c) {
          const std::size_t i = (static_cast<std::size_t>(y) * width + x) * channels + c;
          ok = ok && same_value(got[i], expected[i], tolerance);
        }
        (ok ? right : wrong)[rows ? y % bh : x % bw]++;
      }
    // The line between the right part and the wrong one: every output on one side right, nearly
    // every one on the other wrong (a wrong window may give the right value by chance).
    for (int split = 1; split < size; ++split) {
      std::size_t before_right = 0, before_wrong = 0, after_right = 0, after_wrong = 0;
      for (int k = 0; k < size; ++k)
        (k < split ? before_right : after_right) += right[k], (k < split ? before_wrong : after_wrong) += wrong[k];
      const bool tail_wrong = before_wrong == 0 && after_wrong >= 2 && after_right * 10 <= after_wrong,
                 head_wrong = after_wrong == 0 && before_wrong >= 2 && before_right * 10 <= before_wrong;
      // The line lies where the wrong part starts: its first row (or column) mostly wrong.
      if (!(tail_wrong && wrong[split] > right[split]) && !(head_wrong && wrong[split - 1] > right[split - 1]))
        continue;
      if ((tail_wrong && before_right == 0) || (head_wrong && after_right == 0)) continue;  // nothing right to tell
      const int first = tail_wrong ? split : 0, last = tail_wrong ? size - 1 : split - 1;
      const int halo = rows ? tile.halo_y : tile.halo_x;
      const std::string what = rows ? "rows" : "columns";
      const auto span = [](int a, int b) { return std::to_string(a) + (a == b ? "" : " to " + std::to_string(b)); };
      return "In every group's block of " + std::to_string(bw) + "x" + std::to_string(bh) + " outputs, " + what +
             " " + span(tail_wrong ? 0 : split, tail_wrong ? split - 1 : size - 1) + " are right and " + what + " " +
             span(first, last) + " wrong. Their windows need tile " + what + " " +
             span(step * first, step * last + 2 * halo) +
             ": likely those outputs read the wrong part of the tile, or the copy leaves that part of it out or "
             "fills it wrong (the tile's size, the copy's bounds).";
    }
  }
  return "";
}

}  // namespace

int screen_lines(const std::string& text, std::size_t columns) {
  int lines = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines += 1 + static_cast<int>(line.empty() ? 0 : (line.size() - 1) / columns);
  return lines;
}

std::string wrap_words(const std::string& text, std::size_t width) {
  std::string out = wrap(text, width, "", "");
  out.pop_back();  // wrap() ends every line with a newline
  return out;
}

std::vector<float> one_pass_reference(const GrayImage& in, const std::vector<float>& weights, int radius, Axis axis,
                                      int shift, int short_by) {
  std::vector<float> out(in.pixels.size());
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      double sum = 0;
      for (int k = -radius; k <= radius - short_by; ++k)
        sum += weights[k + radius] * (axis == Axis::rows ? in.at(std::clamp(x + shift + k, 0, in.width - 1), y)
                                                         : in.at(x, std::clamp(y + shift + k, 0, in.height - 1)));
      out[static_cast<std::size_t>(y) * in.width + x] = static_cast<float>(sum);
    }
  return out;
}

std::vector<float> with_holes(std::vector<float> out, const GrayImage& in, Axis axis, int period,
                              const std::function<bool(int)>& hole) {
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x)
      if (hole((axis == Axis::rows ? x : y) % period)) out[static_cast<std::size_t>(y) * in.width + x] = NAN;
  return out;
}

std::function<bool(int)> window_reads_unwritten(int radius, std::function<bool(int)> written) {
  return [radius, written = std::move(written)](int place) {
    for (int k = 0; k <= 2 * radius; ++k)
      if (!written(place + k)) return true;
    return false;
  };
}

std::vector<float> where_values_show(std::vector<float> out, const std::vector<float>& right, double tolerance) {
  for (std::size_t i = 0; i < out.size() && i < right.size(); ++i)
    if (!std::isnan(out[i]) && !same_value(right[i], out[i], tolerance)) return out;
  return {};
}

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
      // Part of the case that runs the kernel next, not a case of its own: the counts stay those of the cases.
      if (current_case_ == 0) records_.back().case_number = cases_started_ + 1;
    }
    return program;
  } catch (const KernelBuildError& e) {
    fail("compile " + file, "", std::string("the kernel does not compile:\n") + e.what(), "");
    throw;
  }
}

std::string ExerciseCheck::first_failure_reason() const {
  for (const Record& r : records_) {
    if (r.passed) continue;
    if (!r.cause.empty()) return r.cause;
    std::istringstream lines(r.numbers);
    std::string first, line;
    std::getline(lines, first);
    if (first.empty() || first.back() != ':') return first;
    // A build log: its first error (a compiler's line names the file and the line in it).
    while (std::getline(lines, line))
      if (line.find("error") != std::string::npos) return first + " " + line;
    return first;
  }
  return "";
}

ExerciseCheck::Diagnosis ExerciseCheck::diagnose(const std::vector<float>& got, const std::vector<float>& expected,
                                                 int width, int height, double tolerance, int channels,
                                                 const CaseDetails& details) const {
  const std::size_t count = static_cast<std::size_t>(width) * height * channels;
  Diagnosis d;
  // 0. A barrier missing or skipped: whatever went wrong, that comes first.
  if (!barrier_mistake_.empty()) return d.cause = barrier_mistake_, d;
  if (!details.proven_cause.empty()) return d.cause = details.proven_cause, d;
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
        // A mistake that reads memory holding anything explains runs that differ, where it
        // reproduces every other value.
        for (const Mistake& m : details.mistakes)
          if (m.nan_is_any && m.output && compare_output(got, m.output(), count, tolerance, true) == Match::kSame)
            return d.cause = m.sentence, d.mistake = d.reads_any = true, d.mistake_name = m.name, d;
        // Outputs nobody stored, the same in both runs, are evidence a difference does not outweigh:
        // blocks that overlap leave some outputs unwritten and give others to two work-items, which
        // store them in either order.
        for (const Mistake& m : details.mistakes)
          if (m.name == "never written" && first_never_written(again) == first_never_written(got))
            return d.cause = m.sentence, d.mistake = true, d.mistake_name = m.name, d;
        d.raced = true;
        const std::string runs = "Two runs on the same input differ (pixel " + position(i, width, channels) + " got " +
                                 number(got[i]) + ", then " + number(again[i]) + "): some work-item reads memory "
                                 "whose value changes from run to run. Likely ";
        if (poisoned_local_)
          return d.cause = runs + "the tile is read before every work-item has written it (a missing or misplaced "
                                  "barrier, or a `return` before it), or outside the part of the tile that was written.",
                 d;
        return d.cause = runs + "a work-item reads a value before another has written it, or two write the same place.",
               d;
      }
  }
  // 2. The exercise's own mistakes, in the order it lists them: the first that reproduces the
  //    learner's output exactly is the cause.
  //    Every one is tried: where several reproduce this case, the other cases decide (settle_causes()).
  for (const Mistake& m : details.mistakes) {
    if (!m.output) continue;
    const std::vector<float> candidate = m.output();
    std::size_t differing = 0;
    const Match match = compare_output(got, candidate, count, tolerance, m.nan_is_any, &differing);
    // An approximate model may miss a few values (positions on an edge): only one that misses more
    // than a twentieth of them (and more than two) has shown it is not the mistake made here.
    if (match == Match::kCannotTell ||
        (match == Match::kDiffers && m.approximate && (differing <= 2 || 20 * differing <= count)))
      continue;
    d.tried.push_back(m.name);
    // Without Oclgrind, a mistake that leaves outputs reading any value, all of which show local
    // memory's poison here, cannot be told from a tile whose elements were never copied (the
    // copy's bounds): the poison's diagnosis (5. below) names both.
    const auto any_shows_poison = [&] {
      bool some = false;
      for (std::size_t p = 0; p < count / channels; ++p)
        if (std::isnan(candidate[p * channels]) && !std::isnan(expected[p * channels])) {
          if (poison_at(got, expected, p, channels, tolerance, details.tile.poison_is_zero) == Poison::kNone)
            return false;
          some = true;
        }
      return some;
    };
    if (match == Match::kSame && m.nan_is_any && poisoned_local_ && oclgrind_launcher().empty() && any_shows_poison())
      continue;
    if (match == Match::kSame) d.matched.push_back({m.name, m.sentence});
  }
  if (!d.matched.empty()) {
    for (const Mistake& m : details.mistakes)
      d.reads_any = d.reads_any || (m.name == d.matched[0].first && m.nan_is_any);
    return d.cause = d.matched[0].second, d.mistake = true, d.mistake_name = d.matched[0].first, d;
  }
  // 3. A value made from a guard band: the kernel read outside one of its buffers.
  for (std::size_t i = 0; i < count; ++i)
    if (std::isfinite(got[i]) && std::fabs(got[i]) >= kGuardMade && std::fabs(expected[i]) < kGuardMade)
      // Which buffer the read missed, the output does not tell: Oclgrind's finding, where it
      // runs, replaces this sentence.
      return d.cause = "The kernel read outside one of its buffers: pixel " + position(i, width, channels) + " got " +
                       number(got[i]) + ", a value made from the guard band (" + number(kGuardSentinel) +
                       ") that lies just before and after each of its buffers, so one of its indices went "
                       "past a buffer's start or end.",
             d.guessed = d.outside = true, d;
  // 4. The right picture moved or transposed, where the output is not NaN: an index off by a fixed
  //    amount (a tile read with its halo added twice), or x and y swapped. Tested, so said as a fact;
  //    the NaN pixels are its consequence (the moved windows read past what was written).
  if (const std::string moved = moved_picture(got, expected, width, height, channels, tolerance, kLargestMove);
      !moved.empty())
    return d.cause = moved, d;
  // 5. Leftover poison of local memory where a value belongs: read before it was written, or never
  //    written at all (settle_causes() decides which once Oclgrind has looked for a race). An
  //    output converted to integers shows the poison as 0, which a mistake of the exercise's own
  //    diagnosis (a truncation, a missing scale) can also give: that diagnosis is heard first.
  if (poisoned_local_ && details.tile.poison_is_zero && details.diagnose)
    if (d.cause = details.diagnose(got); !d.cause.empty()) return d.guessed = true, d;
  if (poisoned_local_)
    for (std::size_t p = 0; p < count / channels; ++p)
      if (const Poison shows = poison_at(got, expected, p, channels, tolerance, details.tile.poison_is_zero);
          shows != Poison::kNone) {
        d.poison = true;
        d.cause = "Pixel " + position(p * channels, width, channels) +
                  (shows == Poison::kNaN ? " is NaN, the poison local memory holds before the copy"
                                         : " is 0 in every channel, what the NaN local memory holds before the copy "
                                           "becomes when the sum is converted to integers");
        return d;
      }
  // 6. NaN where a value belongs: an output no work-item stored, or one a store only added to (the
  //    output is filled with NaN before the run, and NaN plus anything stays NaN).
  for (std::size_t i = 0; i < count; ++i)
    if (std::isnan(got[i]) && !std::isnan(expected[i]))
      return d.cause = "Pixel " + position(i, width, channels) +
                       " is NaN, what the output held before the run: no work-item stored a value there (the bounds "
                       "check or the output index leaves it out), or a store added to it (+= where = belongs).",
             d;
  // 7. What the exercise itself can tell: a likely cause, not a proof.
  if (details.diagnose) d.cause = details.diagnose(got), d.guessed = !d.cause.empty();
  // 8. Values that relate to the right ones by a rule tested on all of them: off by one level each
  //    (a rounding), or one scale and offset (a constant of the formula).
  if (d.cause.empty()) d.cause = off_by_one_level(got, expected, tolerance);
  if (d.cause.empty())
    d.scale = fit_scale(got, expected, tolerance), d.cause = scaled_values(d.scale, got, expected, tolerance);
  return d;
}

// The tile of the group whose outputs hold the first leftover poison, drawn: '#' for an element
// that only poisoned outputs read (nobody wrote it; with two inputs an output apart, or outputs
// whose windows all hold another unwritten element, some '#' may have been written), '.' for one
// an output that came out right read (written), blank for one read by no output inside the image. Rows alike are drawn
// once, and a tile wider than 64 elements gets one mark for several columns. "" when the tile's shape is not known or
// nothing is poisoned.
std::string draw_unwritten_tile(const std::vector<float>& got, const std::vector<float>& expected, int width,
                                int height, int channels, double tolerance, const CaseDetails::Tile& tile) {
  const int bw = tile.block_width, bh = tile.block_height, hx = tile.halo_x, hy = tile.halo_y, step = tile.step;
  if (bw <= 0 || bh <= 0 || hx < 0 || hy < 0 || step < 1) return "";
  auto pixel = [&](int x, int y) { return static_cast<std::size_t>(y) * width + x; };
  auto poisoned = [&](int x, int y) {
    return poison_at(got, expected, pixel(x, y), channels, tolerance, tile.poison_is_zero) != Poison::kNone;
  };
  auto right = [&](int x, int y) {
    for (int c = 0; c < channels; ++c)
      if (!same_value(got[pixel(x, y) * channels + c], expected[pixel(x, y) * channels + c], tolerance)) return false;
    return true;
  };
  int first_x = -1, first_y = -1;
  for (int y = 0; y < height && first_x < 0; ++y)
    for (int x = 0; x < width && first_x < 0; ++x)
      if (poisoned(x, y)) first_x = x, first_y = y;
  if (first_x < 0) return "";
  // Output (u, v) of the block reads tile elements (step u .. step u + 2 hx, step v .. step v + 2 hy).
  const int ox = first_x / bw * bw, oy = first_y / bh * bh;
  const int tw = step * (bw - 1) + 1 + 2 * hx, th = step * (bh - 1) + 1 + 2 * hy;
  std::vector<char> cells(static_cast<std::size_t>(tw) * th, ' ');
  for (int v = 0; v < bh && oy + v < height; ++v)
    for (int u = 0; u < bw && ox + u < width; ++u) {
      const bool written = right(ox + u, oy + v), unwritten = !written && poisoned(ox + u, oy + v);
      for (int ty = step * v; ty <= step * v + 2 * hy; ++ty)
        for (int tx = step * u; tx <= step * u + 2 * hx; ++tx) {
          char& cell = cells[static_cast<std::size_t>(ty) * tw + tx];
          if (written)
            cell = '.';
          else if (unwritten && cell == ' ')
            cell = '#';
        }
    }
  const auto unwritten = std::count(cells.begin(), cells.end(), '#');
  // No output of the group came out right: nothing tells a written element from an unwritten one.
  if (unwritten == 0 || std::count(cells.begin(), cells.end(), '.') == 0) return "";
  // Each row as drawn: one mark for `k` columns ('#' when any of them is unwritten).
  const int k = (tw + 63) / 64, marks = (tw + k - 1) / k;
  std::vector<std::string> rows(th, std::string(marks, ' '));
  for (int ty = 0; ty < th; ++ty)
    for (int tx = 0; tx < tw; ++tx) {
      char& mark = rows[ty][tx / k];
      const char cell = cells[static_cast<std::size_t>(ty) * tw + tx];
      if (cell == '#' || (cell == '.' && mark == ' ')) mark = cell;
    }
  std::vector<std::pair<int, int>> runs;  // rows alike: first and last
  for (int ty = 0; ty < th; ++ty)
    if (runs.empty() || rows[ty] != rows[runs.back().first])
      runs.push_back({ty, ty});
    else
      runs.back().second = ty;
  const std::string group = "(" + std::to_string(ox / bw) + ", " + std::to_string(oy / bh) + ")";
  std::string text = "Tile of group " + group + ", " + std::to_string(tw) + "x" + std::to_string(th) + " (# unwritten";
  if (runs.size() > 8) {
    // Too many different rows to draw: where they are.
    int top = th, bottom = -1, left = tw, right_most = -1;
    for (int ty = 0; ty < th; ++ty)
      for (int tx = 0; tx < tw; ++tx)
        if (cells[static_cast<std::size_t>(ty) * tw + tx] == '#')
          top = std::min(top, ty), bottom = std::max(bottom, ty), left = std::min(left, tx),
          right_most = std::max(right_most, tx);
    return "Tile of group " + group + ", " + std::to_string(tw) + "x" + std::to_string(th) + ": " +
           std::to_string(unwritten) + " elements unwritten, within rows " + std::to_string(top) + " to " +
           std::to_string(bottom) + " and columns " + std::to_string(left) + " to " + std::to_string(right_most) + ".";
  }
  if (k > 1) text += ", a mark for " + std::to_string(k) + " columns";
  if (std::count(cells.begin(), cells.end(), ' ') > 0) text += ", blank unread";
  text += "):";
  auto label = [](const std::pair<int, int>& run) {
    return run.first == run.second ? "row " + std::to_string(run.first)
                                   : "rows " + std::to_string(run.first) + "-" + std::to_string(run.second);
  };
  std::size_t label_width = 0;
  for (const auto& run : runs) label_width = std::max(label_width, label(run).size());
  for (const auto& run : runs)
    text += "\n  " + std::string(label_width - label(run).size(), ' ') + label(run) + " |" + rows[run.first] + "|";
  return text;
}

bool ExerciseCheck::expect_image(const std::string& name, const std::vector<float>& got,
                                 const std::vector<float>& expected, int width, int height, double tolerance,
                                 int channels, const CaseDetails& details) {
  const Comparison c = compare_images(got, expected, width, height, tolerance, channels);
  if (c.ok()) {
    pass(name);
    records_.back().work_groups = details.work_groups;
    records_.back().values = c.total;
    return true;
  }
  const Diagnosis d = diagnose(got, expected, width, height, tolerance, channels, details);
  // NaN is counted apart: "max error" of a NaN would read "inf".
  std::size_t nans = 0;
  double max_error = 0;
  for (std::size_t i = 0; i < c.total; ++i) {
    if (std::isnan(got[i]) != std::isnan(expected[i]))
      ++nans;
    else if (!std::isnan(got[i]))
      max_error = std::max(max_error, std::fabs(double(got[i]) - expected[i]));
  }
  std::ostringstream numbers;
  numbers << c.wrong << " of " << c.total << (c.total == 1 ? " value" : " values") << " off by more than " << tolerance;
  if (nans == c.wrong)
    numbers << (nans == 1 ? " (it is NaN)" : " (all NaN)");
  else if (nans > 0)
    numbers << " (" << nans << " NaN, the others up to " << max_error << " off)";
  else
    numbers << " (max error " << max_error << ")";
  for (std::size_t i = 0; i < c.first.size() && i < 5; ++i) {
    const Mismatch& m = c.first[i];
    numbers << "\n  (" << m.x << ", " << m.y << ")" << (channels > 1 ? " channel " + std::to_string(m.channel) : "")
            << " got " << number(m.got) << " expected " << number(m.expected);
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
  fail(name, d.cause, numbers.str(), picture);
  Record& r = records_.back();
  r.work_groups = details.work_groups;
  r.values = c.total;
  r.raced = d.raced;
  r.guessed = d.guessed, r.outside = d.outside;
  r.poison = d.poison;
  r.mistake = d.mistake_name;
  r.reads_any = d.reads_any;
  r.tried = d.tried;
  r.matched = d.matched;
  r.scale = d.scale;
  // Cases whose values follow the same line are one cause, whatever their counts.
  if (d.scale.found()) r.group = scaled_values(d.scale, got, expected, tolerance, false);
  if (failed_ == 1 && d.cause.empty()) r.got = got, r.expected = expected, r.tolerance = tolerance;
  // Which part of every group's block is wrong: a cause only where nothing better names one (settle_causes()).
  if (d.cause.empty()) r.block_part = block_part_wrong(got, expected, width, height, channels, tolerance, details.tile);
  // Whether group (0, 0)'s own outputs came out right, where the check knows its block.
  if (details.tile.block_width > 0 && details.tile.block_height > 0) {
    r.first_block = 1;
    for (int y = 0; y < std::min(height, details.tile.block_height); ++y)
      for (int x = 0; x < std::min(width, details.tile.block_width); ++x)
        for (int ch = 0; ch < channels; ++ch) {
          const std::size_t i = (static_cast<std::size_t>(y) * width + x) * channels + ch;
          if (!same_value(got[i], expected[i], tolerance)) r.first_block = 0;
        }
  }
  // Tile elements nobody wrote, where a named mistake leaves them out or the poison may mean that.
  if (poisoned_local_ && !d.raced && (d.poison || d.mistake))
    r.tile = draw_unwritten_tile(got, expected, width, height, channels, tolerance, details.tile);
  return false;
}

std::string ExerciseCheck::text_of(const Record& r) const {
  const std::size_t width = static_cast<std::size_t>(width_);
  if (r.passed) return wrap(r.name + (r.note.empty() ? "" : "  (" + r.note + ")"), width, "  [pass] ", "         ");
  std::string text = wrap(r.name, width, "  [FAIL] ", "         ");
  if (!r.cause.empty()) text += indent(wrap_words(r.cause, width_ - 4)) + "\n";
  if (!r.numbers.empty()) text += indent_evidence(r.numbers, width_) + "\n";
  if (!r.picture.empty()) text += "    diff picture (got | expected | difference): " + r.picture + "\n";
  return text;
}

std::string plural(std::size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

void ExerciseCheck::record(Record r) {
  r.case_number = current_case_;
  // "1 outputs per work-item" in a case's name reads "1 output per work-item".
  static const std::regex one(
      R"((^|[^0-9.x])1 (output|work-group|group|row|column|value|pixel|step|tap|work-item)s\b)");
  r.name = std::regex_replace(r.name, one, "$011 $2");
  if (verbose_ && r.case_number >= printed_until_) out_ << text_of(r) << std::flush;  // before a crash
  records_.push_back(std::move(r));
}

void ExerciseCheck::pass(const std::string& name, const std::string& note) {
  ++passed_;
  Record r;
  r.name = name, r.passed = true, r.note = note;
  record(std::move(r));
}

bool ExerciseCheck::group_fits(const std::string& name, const cl::Kernel& kernel, std::size_t items) {
  if (kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc_.device) >= items) return true;
  pass(name, "skipped: the device allows fewer work-items per group");
  return false;
}

void ExerciseCheck::fail(const std::string& name, const std::string& reason) {
  fail(name, barrier_mistake_, reason, "");
}

void ExerciseCheck::fail(const std::string& name, const std::string& given_cause, const std::string& numbers,
                         const std::string& picture) {
  // A barrier mistake the kernel's text shows comes before any cause its outputs suggest: they
  // may only be its consequences.
  const std::string& cause = barrier_mistake_.empty() ? given_cause : barrier_mistake_;
  if (failed_++ == 0) first_cause_ = cause;
  if (first_picture_.empty()) first_picture_ = picture;
  Record r;
  r.name = name, r.cause = cause, r.numbers = numbers, r.picture = picture;
  record(std::move(r));
}

void ExerciseCheck::fail_by_models(const std::string& name, const std::string& cause, const std::string& numbers,
                                   std::vector<std::string> tried,
                                   std::vector<std::pair<std::string, std::string>> matched) {
  const bool by_model = cause.empty() && !matched.empty();
  fail(name, by_model ? matched.front().second : cause, numbers, "");
  Record& r = records_.back();
  if (by_model && r.cause == matched.front().second) r.mistake = matched.front().first;
  r.tried = std::move(tried), r.matched = std::move(matched);
}

// A local-memory exercise whose failing cases all launched several work-groups, while cases with
// one passed: the groups disturb each other (a race on a tile, when some output showed one), or
// the groups after the first work on the wrong part of the image, said only where a failing case
// shows group (0, 0)'s own outputs right and none shows them wrong (a case with one group may be
// too small to show a mistake that every group makes: an image one pixel wide). `backed` tells
// whether the sentence names a cause (otherwise it only says what the cases show).
std::string ExerciseCheck::several_groups_only(bool& backed) const {
  bool single_passed = false, raced = false, first_right = false, first_wrong = false;
  backed = true;
  for (const Record& r : records_) {
    if (r.passed) single_passed = single_passed || r.work_groups == 1;
    if (!r.passed && r.work_groups < 2) return "";  // a case with one group (or an unknown count) failed
    raced = raced || r.raced || r.poison;
    if (!r.passed) first_right = first_right || r.first_block == 1, first_wrong = first_wrong || r.first_block == 0;
  }
  if (!poisoned_local_ || !single_passed || failed_ == 0) return "";
  const std::string only = "Only cases with several work-groups fail, and every case with a single work-group passes";
  if (raced && oclgrind_ran_) return only + ": two runs on the same input differ, " + kReadNothingWrote;
  if (raced) return only + ": " + kTileRace;
  if (first_right && !first_wrong)
    return only +
           ": group (0, 0) computes its own outputs right, so the groups after the first work on the wrong part of "
           "the image. Where a group's tile starts, and where its outputs go, must move with get_group_id "
           "(get_local_id alone is the same in every group).";
  backed = false;
  return only + (first_wrong ? ", yet group (0, 0)'s own outputs are wrong too: not only the groups after the first "
                               "go wrong, and the cases with one group may be too small to show the mistake."
                             : ".");
}

int ExerciseCheck::oclgrind_case() const {
  // A read outside a buffer first (Oclgrind locates it), then smallest first, by values compared; a case
  // (a race between groups, or groups working on the wrong part, needs several).
  auto better = [](const Record& a, const Record& b) {
    if (a.outside != b.outside) return a.outside;  // a read outside a buffer, which Oclgrind locates
    const bool a_one = a.work_groups == 1, b_one = b.work_groups == 1;
    if (a_one != b_one) return b_one;
    return (a.values ? a.values : SIZE_MAX) < (b.values ? b.values : SIZE_MAX);
  };
  for (bool failing : {true, false}) {
    const Record* best = nullptr;
    for (const Record& r : records_)
      if (r.case_number > 0 && r.passed != failing && (!best || better(r, *best))) best = &r;
    if (best) return best->case_number;
  }
  return 0;
}

std::pair<int, int> ExerciseCheck::case_counts() const {
  std::map<int, bool> case_failed;  // run_case() number -> a check inside failed
  int passed = 0, failed = 0;
  for (const Record& r : records_) {
    if (r.case_number == 0)
      (r.passed ? passed : failed)++;
    else
      case_failed[r.case_number] = case_failed[r.case_number] || !r.passed;
  }
  for (const auto& [number, failing] : case_failed) (failing ? failed : passed)++;
  return {passed, failed};
}

int ExerciseCheck::largest_case() const {
  const Record* best = nullptr;
  for (const Record& r : records_)
    if (r.passed && r.case_number > 0 && r.values > 0 && (!best || r.values > best->values)) best = &r;
  return best ? best->case_number : 0;
}

std::string ExerciseCheck::case_name(int number) const {
  for (const Record& r : records_)
    if (r.case_number == number) return r.name;
  return "";
}

bool ExerciseCheck::first_failure_reproduced() const {
  // A mistake that matched only by coincidence is named nowhere (finish()): the search runs.
  for (const Record& r : records_)
    if (!r.passed) return !r.mistake.empty() && !r.reads_any && r.mistake != "never written" && !coincidence(r.mistake);
  return false;
}

bool ExerciseCheck::coincidence(const std::string& mistake) const {
  int tried = 0, reproduced = 0;
  for (const Record& r : records_)
    if (!r.passed && std::count(r.tried.begin(), r.tried.end(), mistake)) {
      ++tried;
      reproduced += std::any_of(r.matched.begin(), r.matched.end(), [&](const auto& m) { return m.first == mistake; });
    }
  return reproduced * 2 < tried;
}

int ExerciseCheck::smallest_failing_case() const {
  const Record* best = nullptr;
  for (const Record& r : records_)
    if (!r.passed && r.case_number > 0 && (!best || (r.values > 0 && (best->values == 0 || r.values < best->values))))
      best = &r;
  return best ? best->case_number : 0;
}

bool ExerciseCheck::case_passed(int number) const {
  bool ran = false;
  for (const Record& r : records_)
    if (r.case_number == number) {
      if (!r.passed) return false;
      ran = true;
    }
  return ran;
}

bool ExerciseCheck::oclgrind_result(int number, const std::string& cause) {
  oclgrind_ran_ = true;
  oclgrind_cause_ = cause;
  oclgrind_case_ = number;
  if (cause.empty()) return true;
  for (const Record& r : records_)
    if (!r.passed && r.case_number == number)  // that case failed: the cause goes on it, unless it has its own
      return r.cause.empty() || r.guessed || r.poison || r.raced || r.cause == barrier_mistake_;
  // Its outputs were right, and still a race or an access outside a buffer: it fails.
  fail(case_name(number) + ", under Oclgrind", cause, "", "");
  records_.back().case_number = number;
  return true;
}

void ExerciseCheck::settle_causes() {
  bool backed = true;
  const std::string several_groups = oclgrind_cause_.empty() ? several_groups_only(backed) : "";
  const std::string poison_end = ": tile elements that no work-item had written when this pixel's window read them. ";
  // The tile drawn in place of the first wrong values (the drawing says more, in as many lines).
  const auto draw_tile = [](Record& r) {
    if (r.tile.empty()) return;
    r.numbers = r.numbers.substr(0, r.numbers.find('\n')) + "\n" + r.tile;
    r.tile.clear();
  };
  for (Record& r : records_) {
    if (r.passed) continue;
    // Oclgrind's proof names the cause of every case whose own evidence names no other.
    if (!oclgrind_cause_.empty() &&
        (r.cause.empty() || r.guessed || r.poison || r.raced || r.cause == barrier_mistake_)) {
      r.cause = oclgrind_cause_, r.guessed = r.poison = r.raced = false;
      continue;
    }
    // A guessed race that Oclgrind, having looked, did not see.
    if (r.raced && oclgrind_ran_) {
      if (const std::size_t likely = r.cause.find(" Likely "); likely != std::string::npos)
        r.cause = r.cause.substr(0, likely) + " But Oclgrind found no race on case " + std::to_string(oclgrind_case_) +
                  ", " + kReadNothingWrote.substr(kReadNothingWrote.find("so no"));
    }
    // A mistake that leaves tile elements out, reproduced exactly: the tile shows which.
    if (!r.poison) {
      draw_tile(r);
      continue;
    }
    const std::string verdict =
        oclgrind_ran_  // Oclgrind looked for a race and found none: those elements were never copied
            ? "Oclgrind found no race, so they were never copied (not read too early): the copy leaves part of the "
              "tile out (its size, origin or loop bounds)."
            : "Either the copy leaves them out (the tile's size, its origin or the copy loop's bounds), or they are "
              "read before the copy is complete (a missing or misplaced barrier). " +
                  (oclgrind_launcher().empty()
                       ? std::string("Oclgrind would tell which (./course setup installs it where Debian packages it).")
                       : std::string("./course check --oclgrind tells which."));
    r.cause += poison_end + verdict;
    // Cases that differ only in their first poisoned pixel are grouped as one cause.
    r.group = oclgrind_ran_
                  ? "Windows read tile elements nobody wrote; Oclgrind found no race, so the copy leaves part "
                    "of the tile out (its size, origin or loop bounds)."
                  : "Windows read tile elements nobody had written. " + verdict;
    if (oclgrind_ran_) draw_tile(r);
    r.poison = false;
  }
  const auto first = std::find_if(records_.begin(), records_.end(), [](const Record& r) { return !r.passed; });
  if (first == records_.end()) return;
  // A race guessed on a first case too small to show a mistake whose windows read memory holding
  // anything (where it shows, runs that differ are its consequence): a later case that reproduces
  // such a mistake exactly, which the first could not try, names it.
  if (first->raced && !oclgrind_ran_)
    for (const Record& r : records_)
      if (!r.passed && &r != &*first && r.reads_any && r.case_number > 0 &&
          std::find(first->tried.begin(), first->tried.end(), r.mistake) == first->tried.end()) {
        first->cause = "Case " + std::to_string(r.case_number) + " shows the mistake, which reads memory holding " +
                       "anything, as the runs that differ here do. There, " + lower_first(r.cause);
        first->raced = false;
        break;
      }
  // (What the cases show without naming a cause gives way to a likely cause that names one.)
  if (first->cause.empty() && (backed || first->block_part.empty())) first->cause = several_groups;
  // Only one part of every group's block wrong, where nothing else named a cause: a likely one.
  for (Record& r : records_)
    if (!r.passed && r.cause.empty() && !r.block_part.empty()) r.cause = r.block_part, r.guessed = true;
  // Still none, and its values cannot show a line (a picture of one pixel, every value clipped): a
  // later case whose values follow one, which every value here agrees with, names it.
  if (first->cause.empty() && !first->got.empty())
    for (const Record& r : records_)
      if (!r.passed && &r != &*first && r.case_number > 0 && r.scale.found() &&
          follows_scale(r.scale, first->got, first->expected, first->tolerance)) {
        first->cause = "Case " + std::to_string(r.case_number) + " shows a rule, and every value here agrees with it. "
                       "There, " + lower_first(r.cause);
        break;
      }
  // Several mistakes reproduce a case (a case where they coincide): the one that reproduces the
  // most other failing cases is taken. Where two or three reproduce as many, no case tells them
  // apart: each is named as a possibility, none as the cause; where more do, none is named.
  for (Record& r : records_) {
    if (r.passed || r.matched.size() < 2 || r.cause != r.matched.front().second) continue;
    std::vector<std::size_t> best;
    std::size_t best_count = 0;
    for (std::size_t k = 0; k < r.matched.size(); ++k) {
      std::size_t count = 0;
      for (const Record& other : records_)
        if (!other.passed && &other != &r)
          for (const auto& m : other.matched) count += m.first == r.matched[k].first;
      if (best.empty() || count > best_count)
        best = {k}, best_count = count;
      else if (count == best_count && r.matched[k].second != r.matched[best.front()].second)
        best.push_back(k);
    }
    r.mistake = r.matched[best.front()].first, r.cause = r.matched[best.front()].second;
    if (best.size() > 3) r.mistake.clear(), r.cause.clear();
    if (best.size() < 2 || best.size() > 3) continue;
    // Each slip's sentence, or where those take more than a few lines, its name.
    std::string sentences, names;
    for (std::size_t k = 0; k < best.size(); ++k) {
      const std::string& sentence = r.matched[best[k]].second;
      sentences +=
          std::string(k == 0 ? " either" : " or") + " (" + std::to_string(k + 1) + ") " + lower_first(sentence);
      const char* joint = k == 0 ? " either" : k + 1 == best.size() ? " or" : ",";
      names += std::string(joint) + " \"" + r.matched[best[k]].first + "\"";
    }
    r.cause = std::to_string(best.size()) + " slips give exactly this output, and no failing case tells them apart:" +
              (sentences.size() <= 480 ? sentences : names + ".");
  }
  // A mistake that most failing cases on which it would show tried and did not reproduce: where it
  // matched, the slips coincided (a mosaic one pixel wide, a picture three rows high), and the
  // match is no proof: named nowhere, what Oclgrind proved takes its place.
  for (Record& r : records_)
    if (!r.passed && !r.mistake.empty() && coincidence(r.mistake)) r.cause = oclgrind_cause_, r.mistake.clear();
  // The first case names no mistake of its own and none of the exercise's could tell there (a
  // one-pixel-wide image): a mistake that reproduces a later case, which nothing in the first
  // contradicts, is its cause too; what Oclgrind saw there stays, as its evidence.
  if (first->mistake.empty() && (first->cause.empty() || first->guessed || first->cause == oclgrind_cause_))
    for (const Record& r : records_)
      if (!r.passed && !r.mistake.empty() &&
          std::find(first->tried.begin(), first->tried.end(), r.mistake) == first->tried.end()) {
        if (!first->cause.empty() && first->cause == oclgrind_cause_)
          first->numbers = "Oclgrind: " + oclgrind_summary(oclgrind_cause_) + "\n" + first->numbers;
        first->cause = r.cause, first->mistake = r.mistake, first->guessed = false;
        break;
      }
  // A mistake reproduced on a later case that the first failing case tried and did not reproduce:
  // the same mistake would show in both, so there it is a coincidence (a 1x1 image, box weights).
  // (Only where the first case has no cause proven otherwise: two mistakes can show in two cases.)
  for (Record& r : records_)
    if (!r.passed && &r != &*first && (first->cause.empty() || first->guessed) && !r.mistake.empty() &&
        r.mistake != first->mistake &&
        std::find(first->tried.begin(), first->tried.end(), r.mistake) != first->tried.end())
      r.cause.clear(), r.mistake.clear();
  // A guess differs from the first case's cause: no second guess is shown. Nor are a later case's
  // possibilities (slips that coincide there) where the first case has a cause of its own that is
  // none of them: the kernel's one mistake explains both.
  for (Record& r : records_) {
    if (r.passed || &r == &*first) continue;
    const bool possibilities = r.cause.find(" slips give exactly this output") != std::string::npos;
    const auto is_first = [&](const auto& m) { return m.first == first->mistake; };
    const bool among = !first->mistake.empty() && std::any_of(r.matched.begin(), r.matched.end(), is_first);
    if ((r.guessed && r.cause != first->cause) || (possibilities && !first->cause.empty() && !first->guessed && !among))
      r.cause.clear(), r.mistake.clear();
  }
  first_cause_ = first->cause;
}

namespace {

std::string case_count(std::size_t n) {
  return std::to_string(n) + (n == 1 ? " case" : " cases");
}

}  // namespace

// The failing cases after the first, grouped: those with the first's cause, those with a cause of
// their own (each cause once), those with none; then the count of the passed ones.
std::vector<std::string> ExerciseCheck::grouped_lines(const Record* first, std::size_t width) const {
  std::vector<std::string> lines;
  std::vector<std::pair<std::string, std::vector<const Record*>>> groups;  // cause -> its cases, in order
  // The passed cases as the last line counts them; a case's failing checks after its first are
  // part of it, not cases of their own.
  const std::size_t passing = static_cast<std::size_t>(case_counts().first);
  std::vector<int> shown = {first->case_number};
  for (const Record& r : records_) {
    if (r.passed || &r == first) continue;
    if (r.case_number > 0) {
      if (std::find(shown.begin(), shown.end(), r.case_number) != shown.end()) continue;
      shown.push_back(r.case_number);
    }
    const auto cause_of = [](const Record& c) { return c.group.empty() ? c.cause : c.group; };
    const std::string key = r.cause.empty() ? std::string() : cause_of(r) == cause_of(*first) ? "\1same" : cause_of(r);
    auto it = std::find_if(groups.begin(), groups.end(), [&key](const auto& g) { return g.first == key; });
    if (it == groups.end()) groups.push_back({key, {}}), it = groups.end() - 1;
    it->second.push_back(&r);
  }
  // Each line wrapped at a word to the width, its continuation indented under the case's name.
  const auto add = [&lines, width](const std::string& text) {
    std::istringstream in(wrap_words(text, width - 4));
    bool first_line = true;
    for (std::string line; std::getline(in, line); first_line = false)
      lines.push_back((first_line ? "  " : "    ") + line);
  };
  for (const auto& [key, members] : groups) {
    const std::size_t n = members.size();
    if (key == "\1same") {
      add(n == 1 ? "[FAIL] " + members[0]->name + ": the same cause"
                 : "[FAIL] " + std::to_string(n) + " more cases, the same cause");
    } else if (key.empty()) {
      const std::string evidence = members[0]->numbers.substr(0, members[0]->numbers.find('\n'));
      add(n == 1 ? "[FAIL] " + members[0]->name + ": " + evidence
                 : "[FAIL] " + std::to_string(n) + " more cases fail, no cause named for them (--verbose shows each)");
    } else {
      add("[FAIL] " + (n == 1 ? members[0]->name : std::to_string(n) + " more cases") + ": " + key);
    }
  }
  if (passing > 0)
    lines.push_back("  [pass] " + std::to_string(passing) + (passing == 1 ? " other case" : " other cases"));
  return lines;
}

int ExerciseCheck::finish(int max_lines) {
  settle_causes();
  // The first failing case shown in full is one with evidence (values, a picture) when there is
  // one: a failure read from the kernel's text alone shows the same cause.
  auto first = std::find_if(records_.begin(), records_.end(),
                            [](const Record& r) { return !r.passed && (!r.numbers.empty() || !r.picture.empty()); });
  // When Oclgrind named the cause, the case it ran is the one shown, unless the first failing
  // case names a mistake of its own (Oclgrind then shows a consequence of it, not the mistake).
  const bool own_cause = first != records_.end() && !first->cause.empty() && !first->guessed && !first->raced &&
                        first->cause != oclgrind_cause_;
  if (!oclgrind_cause_.empty() && !own_cause)
    if (auto ran = std::find_if(records_.begin(), records_.end(),
                                [this](const Record& r) { return !r.passed && r.case_number == oclgrind_case_; });
        ran != records_.end())
      first = ran;
  if (first == records_.end())
    first = std::find_if(records_.begin(), records_.end(), [](const Record& r) { return !r.passed; });
  // A change that makes every case pass is evidence; a cause guessed from the output is not.
  // Outputs never written tell where, the change which line.
  if (!found_change_.empty() && first != records_.end() &&
      (first->cause.empty() || first->guessed || first->reads_any || first->mistake == "never written"))
    first->cause = found_change_, first->guessed = first->reads_any = false, found_change_shown_ = true;
  if (verbose_) {
    if (first != records_.end() && !first->cause.empty())  // every case was printed as it ran
      out_ << "\nThe cause:\n" << indent(wrap_words(first->cause, width_ - 4)) << "\n";
    return 0;  // printed as the cases ran, not fitted to a screen
  }
  const std::size_t width = static_cast<std::size_t>(width_);
  if (first == records_.end()) {
    // Every case passed: one line for them, and the notes of any skipped.
    std::vector<const Record*> noted;
    for (const Record& r : records_)
      if (!r.note.empty()) noted.push_back(&r);
    const std::size_t cases = static_cast<std::size_t>(case_counts().first);
    out_ << "  [pass] " << (cases == 1 ? "the one case" : "all " + case_count(cases)) << "\n";
    // Each note wrapped to the terminal, as many as fit.
    int used = 1;
    for (std::size_t i = 0; i < noted.size(); ++i) {
      const std::string text = wrap(noted[i]->name + ": " + noted[i]->note, width, "    ", "      ");
      const int cost = screen_lines(text, width);
      if (used + cost + (i + 1 < noted.size() ? 1 : 0) > max_lines) {
        out_ << "    ... and " << plural(noted.size() - i, "more note") << " (--verbose shows every case)\n";
        break;
      }
      out_ << text;
      used += cost;
    }
    return used;
  }
  const std::vector<std::string> others = grouped_lines(&*first, width);
  // The first failing case whole. Where the screen is short, its list of wrong values keeps its
  // first line; the other cases get what is left.
  std::vector<std::string> lines;
  {
    std::string full = wrap(first->name, width, "  [FAIL] ", "         ");
    if (!first->cause.empty()) full += indent(wrap_words(first->cause, width - 4)) + "\n";
    if (!first->numbers.empty()) full += indent_evidence(first->numbers, width) + "\n";
    // The report's last line names the first failing case's picture: not twice.
    if (!first->picture.empty() && first->picture != first_picture_)
      full += wrap("diff picture (got | expected | difference): " + first->picture, width, "    ", "      ");
    std::istringstream in(full);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  static const std::regex listed_value(R"(^      \(\d+, \d+\)( channel \d+)? got )");
  const int room = max_lines - static_cast<int>(std::min<std::size_t>(others.size(), 3));
  const auto height = [&lines, width] {
    int h = 0;
    for (const std::string& line : lines) h += screen_lines(line, width);
    return h;
  };
  while (height() > room) {
    auto last = lines.end();
    bool first_value = true;
    for (auto it = lines.begin(); it != lines.end(); ++it)
      if (std::regex_search(*it, listed_value)) {
        if (!first_value) last = it;
        first_value = false;
      }
    if (last == lines.end()) break;
    lines.erase(last);
  }
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  out_ << text;
  int budget = max_lines - screen_lines(text, width);
  // Each other case's line while it fits with a row left for the "... and" line after it; that
  // line only where a row is left for it (the first case whole may have taken every row: the
  // counts at the end still say how many failed).
  for (std::size_t i = 0; i < others.size(); ++i) {
    const int need = screen_lines(others[i], width) + (i + 1 < others.size() ? 1 : 0);
    if (need > budget) {
      if (budget >= 1) {
        out_ << "  ... and " << others.size() - i << " more lines of other cases (--verbose lists each)\n";
        --budget;
      }
      break;
    }
    out_ << others[i] << "\n";
    budget -= screen_lines(others[i], width);
  }
  return max_lines - budget;
}

void ExerciseCheck::run_case(const std::string& name, const std::function<void()>& body) {
  const int number = ++cases_started_;
  if (only_case_ > 0 && number != only_case_) return;
  current_case_ = number;  // the records made inside belong to this case
  const auto announce = [this](int n) {
    const std::string line = std::to_string(n) + "\n";
    if (announce_fd_ >= 0 && write(announce_fd_, line.data(), line.size()) < 0) announce_fd_ = -1;
  };
  struct Leave {
    int& current;
    std::function<void(int)> announce;
    ~Leave() { current = 0, announce(0); }
  } leave{current_case_, announce};
  if (const auto crashed = crashed_.find(number); crashed != crashed_.end()) {
    fail(name, wrap_words("This case crashed the check (" + crashed->second +
                              ") while its kernel ran, so it has no outputs: on a CPU device a read or write outside "
                              "a buffer or a __local array can land outside the program's memory. The other cases "
                              "ran again without it.",
                          width_ - 4));
    records_.back().guessed = true;  // what Oclgrind finds in this case names the access
    return;
  }
  announce(number);
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
