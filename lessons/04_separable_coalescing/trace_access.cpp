#include "trace_access.hpp"

#include <algorithm>
#include <iomanip>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <tuple>

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
