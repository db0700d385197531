#include "trace_access.hpp"

#include <algorithm>
#include <cctype>
#include <iomanip>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "program.hpp"

namespace course {

std::string access_kind_name(AccessKind kind) {
  switch (kind) {
    case AccessKind::kGlobalRead:
      return "global read";
    case AccessKind::kGlobalWrite:
      return "global write";
    case AccessKind::kLocalRead:
      return "local read";
    case AccessKind::kLocalWrite:
      return "local write";
  }
  return "?";
}

namespace {

constexpr int kBanks = 32;

bool is_global(AccessKind k) {
  return k == AccessKind::kGlobalRead || k == AccessKind::kGlobalWrite;
}

long distinct_segments(const std::vector<int>& addresses, int segment_bytes) {
  std::set<long> segments;
  for (const int a : addresses) segments.insert(static_cast<long>(a) * 4 / segment_bytes);
  return static_cast<long>(segments.size());
}

// Degree of the worst bank conflict: the most different words any one bank is asked for.
int conflict_degree(const std::vector<int>& addresses) {
  std::map<int, std::set<int>> words_per_bank;
  for (const int a : addresses) words_per_bank[((a % kBanks) + kBanks) % kBanks].insert(a);
  int worst = 0;
  for (const auto& [bank, words] : words_per_bank) worst = std::max(worst, static_cast<int>(words.size()));
  return worst;
}

// Global: one text row per 128-byte line touched, its four 32-byte sectors of 8 floats between
// bars, '#' where the warp reads.
// Local: the 32 banks, each with how many different words the warp wants from it.
std::string draw(AccessKind kind, const std::vector<int>& addresses) {
  std::ostringstream out;
  if (is_global(kind)) {
    std::map<long, std::string> lines;
    for (const int a : addresses) {
      auto& line = lines.try_emplace(a / 32, "|........|........|........|........|").first->second;
      line[1 + (a % 32) + (a % 32) / 8] = '#';
    }
    int shown = 0;
    for (const auto& [line_number, line] : lines) {
      if (shown++ == 4) {
        out << "        ... " << lines.size() - 4 << " more 128-byte lines\n";
        break;
      }
      out << "        bytes " << std::setw(8) << line_number * 128 << " " << line << "\n";
    }
  } else {
    std::map<int, std::set<int>> words;
    for (const int a : addresses) words[((a % kBanks) + kBanks) % kBanks].insert(a);
    out << "        bank  |";
    for (int b = 0; b < kBanks; ++b) out << (b % 10);
    out << "|\n        words |";
    for (int b = 0; b < kBanks; ++b) {
      const auto n = words.count(b) ? words[b].size() : 0;
      out << (n == 0 ? '.' : n < 10 ? static_cast<char>('0' + n) : '+');
    }
    out << "|\n";
  }
  return out.str();
}

}  // namespace

std::vector<AccessSiteSummary> analyse_trace(const std::vector<int>& raw, int work_items, int warp) {
  // (kind, line) -> (occurrence, warp) -> addresses
  std::map<std::pair<int, int>, std::map<std::pair<int, int>, std::vector<int>>> accesses;
  std::map<std::pair<int, int>, int> item_counts;
  for (int item = 0; item < work_items; ++item) {
    std::map<std::pair<int, int>, int> occurrence;
    for (int r = 0; r < kTraceRecordsPerItem; ++r) {
      const int* rec = &raw[(static_cast<std::size_t>(item) * kTraceRecordsPerItem + r) * kTraceFields];
      if (rec[0] < 0) break;
      const auto key = std::make_pair(rec[0], rec[1]);
      accesses[key][{occurrence[key]++, item / warp}].push_back(rec[2]);
      ++item_counts[key];
    }
  }
  std::vector<AccessSiteSummary> sites;
  for (const auto& [key, groups] : accesses) {
    AccessSiteSummary s;
    s.kind = static_cast<AccessKind>(key.first);
    s.line = key.second;
    s.items = item_counts[key];
    for (const auto& [which, addresses] : groups) {
      ++s.warp_accesses;
      if (is_global(s.kind)) {
        s.segments32 += distinct_segments(addresses, 32);
        s.segments64 += distinct_segments(addresses, 64);
        s.segments128 += distinct_segments(addresses, 128);
        s.ideal128 += (static_cast<long>(addresses.size()) * 4 + 127) / 128;
        s.ideal32 += (static_cast<long>(addresses.size()) * 4 + 31) / 32;
        for (const int a : addresses) s.sectors.insert(static_cast<long>(a) * 4 / 32);
      } else {
        const int degree = conflict_degree(addresses);
        s.bank_passes += degree;
        s.worst_conflict = std::max(s.worst_conflict, degree);
      }
    }
    s.picture = draw(s.kind, groups.begin()->second);
    s.first_access = groups.begin()->second;
    sites.push_back(s);
  }
  std::sort(sites.begin(), sites.end(), [](const auto& a, const auto& b) { return a.line < b.line; });
  return sites;
}

std::vector<TracedAccess> traced_accesses(const std::vector<int>& raw, int work_items) {
  std::vector<TracedAccess> out;
  for (int item = 0; item < work_items; ++item)
    for (int r = 0; r < kTraceRecordsPerItem; ++r) {
      const int* rec = &raw[(static_cast<std::size_t>(item) * kTraceRecordsPerItem + r) * kTraceFields];
      if (rec[0] < 0) break;
      out.push_back({item, static_cast<AccessKind>(rec[0]), rec[1], rec[2]});
    }
  return out;
}

namespace {

// `text` with its comments blanked out (newlines kept), so that a search finds code only and
// positions stay those of `text`.
std::string code_only(const std::string& text) {
  std::string code = text;
  for (std::size_t i = 0; i + 1 < code.size(); ++i) {
    if (code[i] == '/' && code[i + 1] == '/') {
      while (i < code.size() && code[i] != '\n') code[i++] = ' ';
    } else if (code[i] == '/' && code[i + 1] == '*') {
      for (; i + 1 < code.size() && !(code[i] == '*' && code[i + 1] == '/'); ++i)
        if (code[i] != '\n') code[i] = ' ';
      if (i + 1 < code.size()) code[i] = code[i + 1] = ' ';
    }
  }
  return code;
}

// The position of the bracket that closes the one at `open`, or npos.
std::size_t closing(const std::string& code, std::size_t open) {
  const char in = code[open], out = in == '(' ? ')' : in == '[' ? ']' : '}';
  int depth = 0;
  for (std::size_t i = open; i < code.size(); ++i) {
    if (code[i] == in) ++depth;
    if (code[i] == out && --depth == 0) return i;
  }
  return std::string::npos;
}

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

}  // namespace

std::string traced_source(const std::string& source, const std::string& kernel,
                          const std::vector<std::pair<std::string, AccessKind>>& buffers) {
  const std::string code = code_only(source);
  // The kernel: its name after `void`, its parameter list, its body.
  std::size_t at = 0, name = std::string::npos;
  while ((at = code.find(kernel, at)) != std::string::npos) {
    const bool whole = (at == 0 || !name_char(code[at - 1])) &&
                       (at + kernel.size() >= code.size() || !name_char(code[at + kernel.size()]));
    const std::size_t before = code.find_last_not_of(" \t\n", at == 0 ? 0 : at - 1);
    if (whole && before != std::string::npos && before >= 3 && code.compare(before - 3, 4, "void") == 0) {
      name = at;
      break;
    }
    at += kernel.size();
  }
  if (name == std::string::npos) return "";
  const std::size_t open = code.find('(', name);
  const std::size_t params_end = open == std::string::npos ? open : closing(code, open);
  const std::size_t body = params_end == std::string::npos ? params_end : code.find('{', params_end);
  const std::size_t body_end = body == std::string::npos ? body : closing(code, body);
  if (body_end == std::string::npos) return "";
  // Every access of a named buffer in the body, rewritten from the last to the first so that
  // the positions found stay true.
  std::vector<std::pair<std::size_t, std::size_t>> brackets;  // [ and ] of each access
  std::vector<AccessKind> kinds;
  for (const auto& [buffer, kind] : buffers)
    for (std::size_t i = code.find(buffer, body); i != std::string::npos && i < body_end;
         i = code.find(buffer, i + buffer.size())) {
      if (i > 0 && name_char(code[i - 1])) continue;
      std::size_t b = i + buffer.size();
      while (b < body_end && (code[b] == ' ' || code[b] == '\t')) ++b;
      if (code[b] != '[') continue;
      const std::size_t e = closing(code, b);
      if (e == std::string::npos || e > body_end) return "";
      brackets.push_back({b, e});
      kinds.push_back(kind);
    }
  std::vector<std::size_t> order(brackets.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return brackets[a] > brackets[b]; });
  std::string out = source;
  for (const std::size_t k : order) {
    const auto [b, e] = brackets[k];
    out.insert(e, ")");
    out.insert(b + 1, "TRACE_INDEX(" + std::to_string(static_cast<int>(kinds[k])) + ", ");
  }
  // TRACE_START after the body's brace and TRACE_ARGS before the parameter list's end (both lie
  // before every access rewritten above, so their positions are still true).
  out.insert(body + 1, " TRACE_START;");
  out.insert(params_end, " TRACE_ARGS");
  return read_text_file(locate_course_file("kernels/04_separable_coalescing/access_trace.h")) + out;
}

cl::Program build_traced_program(const DeviceContext& dc, const cl::Program& program, const std::string& kernel,
                                 const std::vector<std::pair<std::string, AccessKind>>& buffers,
                                 const std::string& options) {
  const std::string traced = traced_source(program.getInfo<CL_PROGRAM_SOURCE>(), kernel, buffers);
  if (traced.empty()) throw std::runtime_error("no kernel " + kernel + " to trace");
  cl::Program out(dc.context, traced);
  try {
    std::string said;  // the compiler's own messages: the learner saw them when the kernel was built
    catch_compiler_output(
        said, [&] { out.build(std::vector<cl::Device>{dc.device}, ("-D COURSE_TRACE " + options).c_str()); });
  } catch (const cl::Error&) {
    throw std::runtime_error("the kernel touches its buffers outside its own body, where the trace cannot see");
  }
  return out;
}

std::vector<TracedAccess> trace_group(const DeviceContext& dc, cl::Kernel& kernel, int first_trace_arg,
                                      const cl::NDRange& global, const cl::NDRange& local, int group_x, int group_y) {
  const int items = static_cast<int>(local[0] * (local.dimensions() > 1 ? local[1] : 1));
  std::vector<int> raw(static_cast<std::size_t>(items) * kTraceRecordsPerItem * kTraceFields, -1);
  cl::Buffer log(dc.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, raw.size() * sizeof(int), raw.data());
  kernel.setArg(first_trace_arg, log);
  kernel.setArg(first_trace_arg + 1, group_x);
  kernel.setArg(first_trace_arg + 2, group_y);
  dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local);
  dc.queue.enqueueReadBuffer(log, CL_TRUE, 0, raw.size() * sizeof(int), raw.data());
  return traced_accesses(raw, items);
}

void print_trace(std::ostream& out, const std::string& title, const std::vector<AccessSiteSummary>& sites,
                 bool pictures) {
  out << "  " << title << "\n";
  for (const auto& s : sites) {
    out << "    line " << std::setw(3) << s.line << "  " << std::left << std::setw(13) << access_kind_name(s.kind)
        << std::right << std::setw(5) << s.warp_accesses << " warp accesses";
    out << std::fixed << std::setprecision(2);
    if (is_global(s.kind)) {
      const double n = s.warp_accesses;
      out << "  per access: " << std::setw(5) << s.segments32 / n << " sectors of 32 B (packed " << std::setw(4)
          << s.ideal32 / n << ") in " << std::setw(5) << s.segments128 / n << " lines of 128 B (packed " << std::setw(4)
          << s.ideal128 / n << "), 64 B " << std::setw(5) << s.segments64 / n << "\n";
    } else {
      out << "  bank conflicts: worst " << s.worst_conflict << "-way, " << std::setw(5)
          << static_cast<double>(s.bank_passes) / s.warp_accesses << " passes per access\n";
    }
    if (pictures) out << s.picture;
  }
}

void print_trace_totals(std::ostream& out, const std::vector<AccessSiteSummary>& sites, int warp) {
  long outputs = 0, lines = 0, sectors = 0, passes = 0, local_accesses = 0;
  std::set<long> distinct;
  for (const auto& s : sites) {
    if (s.kind == AccessKind::kGlobalWrite) outputs += s.items;
    if (s.kind == AccessKind::kGlobalRead) {
      lines += s.segments128;
      sectors += s.segments32;
      distinct.insert(s.sectors.begin(), s.sectors.end());
    }
    if (s.kind == AccessKind::kLocalRead || s.kind == AccessKind::kLocalWrite) {
      passes += s.bank_passes;
      local_accesses += s.warp_accesses;
    }
  }
  if (outputs == 0) return;
  const double per = static_cast<double>(warp) / outputs;
  out << std::fixed << std::setprecision(1) << "    => per " << warp << " outputs: reads ask for " << sectors * per
      << " sectors (" << lines * per << " lines), " << static_cast<double>(distinct.size()) * per
      << " different sectors; " << passes * per << " local-memory passes for " << local_accesses * per
      << " warp accesses\n";
}

}  // namespace course
