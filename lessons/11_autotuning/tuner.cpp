#include "tuner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <numeric>
#include <sstream>

#include "record.hpp"
#include "report.hpp"

namespace tuning {

const Measurement& Tuner::evaluate(const Point& p) {
  if (auto it = tried_.find(p); it != tried_.end()) return it->second;
  Measurement m;
  m.point = p;
  m.skipped = family_.why_illegal(p);
  if (m.ran()) {
    const auto start = std::chrono::steady_clock::now();
    m = family_.measure(p);
    m.point = p;
    m.compiled = true;
    m.cost_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (progress_) {
      std::ostringstream line;  // its own formatting, leaving the caller's stream as it was
      line << "  tried " << family_.space.describe(p) << ": ";
      if (!m.ran())
        line << "skipped: " << m.skipped << "\n";
      else
        line << std::setprecision(4) << m.kernel_ms << " ms, " << (m.verified ? "verified" : "WRONG") << "\n";
      *progress_ << line.str();
      progress_->flush();
    }
  }
  return tried_.emplace(p, m).first->second;
}

std::vector<Measurement> Tuner::exhaustive() {
  std::vector<Measurement> list;
  for (std::size_t i = 0; i < family_.space.size(); ++i) list.push_back(evaluate(family_.space.point(i)));
  return list;
}

std::vector<Measurement> Tuner::budgeted(int budget, unsigned seed) {
  // The legal candidates in a random order: checking legality costs nothing, so the samples
  // are never wasted on a candidate that cannot run.
  std::vector<Point> pool;
  for (std::size_t i = 0; i < family_.space.size(); ++i) {
    const Point p = family_.space.point(i);
    if (family_.why_illegal(p).empty()) pool.push_back(p);
  }
  std::mt19937 random(seed);
  std::shuffle(pool.begin(), pool.end(), random);

  std::vector<Measurement> list;
  std::map<Point, bool> seen;
  int spent = 0;
  // Tries `p` once; its kernel time, or -1 when it gave no usable result.
  auto try_point = [&](const Point& p) -> double {
    if (seen.count(p) || spent >= budget) return -1;
    seen[p] = true;
    const Measurement& m = evaluate(p);
    list.push_back(m);
    if (m.compiled) ++spent;
    return m.usable() ? m.kernel_ms : -1;
  };
  std::size_t next = 0;
  auto sample = [&] {
    while (next < pool.size() && seen.count(pool[next])) ++next;
    if (next >= pool.size()) return false;
    try_point(pool[next++]);
    return true;
  };

  // Phase 1: random samples, half of the budget (at least one).
  while (spent < std::max(1, budget / 2) && sample()) {
  }

  // Phase 2: hill climbing from the fastest candidate so far. Each step measures the untried
  // neighbours and moves to the fastest if it beats where we stand; at a peak, one more random
  // sample, in case it starts a better climb.
  while (spent < budget) {
    const Measurement* here = fastest(list);
    if (!here) {
      if (!sample()) break;
      continue;
    }
    const Point from = here->point;
    const double from_ms = here->kernel_ms;
    double best_ms = -1;
    for (const Point& q : neighbours(family_.space, from)) {
      if (!family_.why_illegal(q).empty()) continue;  // never launched, never counted
      const double ms = try_point(q);
      if (ms >= 0 && (best_ms < 0 || ms < best_ms)) best_ms = ms;
    }
    if (best_ms >= 0 && best_ms < from_ms) continue;  // climbed: look around the new place
    if (!sample()) break;
  }
  return list;
}

const Measurement* Tuner::fastest(const std::vector<Measurement>& list) {
  const Measurement* best = nullptr;
  for (const Measurement& m : list)
    if (m.usable() && (!best || m.kernel_ms < best->kernel_ms)) best = &m;
  return best;
}

double total_cost_ms(const std::vector<Measurement>& list) {
  return std::accumulate(list.begin(), list.end(), 0.0,
                         [](double sum, const Measurement& m) { return sum + m.cost_ms; });
}

int compiled(const std::vector<Measurement>& list) {
  return static_cast<int>(std::count_if(list.begin(), list.end(), [](const Measurement& m) { return m.compiled; }));
}

void print_search_table(std::ostream& out, const std::string& title, const Family& family,
                        const std::vector<Measurement>& list, const course::Roofline& roof,
                        course::PixelType pixels, const std::filesystem::path& full_table) {
  const double copy_gbps = roof.copy_of(pixels).gbps;
  course::TextTable table{title, {}, {}, {}, {}, true, ""};
  for (const Axis& axis : family.space.axes) table.head.push_back(axis.name);
  for (const char* h : {"build ms", "kernel ms", "% of copy", "result"}) table.head.push_back(h);
  const Measurement* best = Tuner::fastest(list);
  std::map<std::string, int> skipped;  // candidates skipped before compiling, by reason
  std::vector<course::ResultRow> recorded;
  for (const Measurement& m : list) {
    if (!m.compiled) {
      ++skipped[m.skipped];
      continue;
    }
    std::vector<std::string> row;
    for (std::size_t a = 0; a < family.space.axes.size(); ++a) row.push_back(family.space.text(m.point, a));
    std::ostringstream build, kernel, share;
    build << std::fixed << std::setprecision(1) << m.build_ms;
    if (m.ran()) {
      kernel << std::setprecision(4) << m.kernel_ms;
      if (copy_gbps > 0 && m.kernel_ms > 0)
        share << std::fixed << std::setprecision(0)
              << 100.0 * family.bytes_moved(m.point) / (m.kernel_ms * 1e6) / copy_gbps << "%";
    }
    row.push_back(build.str());
    row.push_back(kernel.str());
    row.push_back(share.str());
    if (!m.ran())
      row.push_back("skipped: " + m.skipped);
    else if (!m.verified) {
      std::ostringstream wrong;
      wrong << "WRONG (max error " << m.max_error << ")";
      row.push_back(wrong.str());
    } else
      row.push_back(&m == best ? "verified, fastest" : "verified");
    table.rows.push_back(row);
    course::ResultRow measured;
    measured.variant = family.space.name(m.point);
    measured.kernel_ms = m.ran() ? m.kernel_ms : NAN;
    measured.max_error = m.max_error;
    measured.verified = m.usable();
    measured.bytes = family.bytes_moved(m.point);
    measured.flops = family.flops;
    measured.copy = pixels;
    measured.baseline = "-";
    recorded.push_back(measured);
  }
  // A narrow table leaves out the build time first, then the parameters every row shares (the
  // file has them), then the share of the copy bandwidth.
  const std::size_t axes = family.space.axes.size();
  table.drop_order.push_back(axes);
  for (std::size_t a = 0; a < axes; ++a)
    if (std::all_of(table.rows.begin(), table.rows.end(), [&](const auto& r) { return r[a] == table.rows[0][a]; }))
      table.drop_order.push_back(a);
  table.drop_order.push_back(axes + 2);
  std::vector<std::pair<int, std::string>> reasons;
  for (const auto& [why, n] : skipped) reasons.emplace_back(-n, why);
  std::sort(reasons.begin(), reasons.end());
  for (const auto& [n, why] : reasons)
    table.notes.push_back(std::to_string(-n) + " skipped before compiling, never launched: " + why);
  table.print(out, full_table);
  course::record_sweep(title, roof, recorded, table.head, table.rows, table.notes);
}

}  // namespace tuning
