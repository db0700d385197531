#include "bands.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace lesson13 {

Band with_halo(int first, int rows, int height, int radius) {
  Band b;
  b.first = first;
  b.rows = rows;
  b.halo_top = std::min(radius, first);
  b.halo_bottom = std::clamp(height - (first + rows), 0, radius);
  return b;
}

std::vector<Band> split_rows(int height, const std::vector<double>& shares, int radius) {
  const double total = std::accumulate(shares.begin(), shares.end(), 0.0);
  std::vector<Band> bands;
  double running = 0;
  int start = 0;
  for (std::size_t k = 0; k < shares.size(); ++k) {
    running += shares[k];
    // Rounding the running sum, never each share alone: the errors do not add up, and the last
    // band ends on the last row exactly.
    const int end = k + 1 == shares.size() ? height : static_cast<int>(std::lround(height * (running / total)));
    bands.push_back(with_halo(start, std::max(0, end - start), height, radius));
    start = std::max(start, end);
  }
  return bands;
}

Cost cost_from_probes(int rows_a, double ms_a, int rows_b, double ms_b) {
  Cost c;
  if (rows_b < rows_a) std::swap(rows_a, rows_b), std::swap(ms_a, ms_b);
  if (rows_b > rows_a && ms_b > ms_a) {
    c.ms_per_row = (ms_b - ms_a) / (rows_b - rows_a);
    c.fixed_ms = std::max(0.0, ms_a - c.ms_per_row * rows_a);
  } else {
    c.ms_per_row = ms_b / std::max(rows_b, 1);
  }
  return c;
}

std::vector<double> balanced_rows(int height, const std::vector<Cost>& costs) {
  // Water filling: devices join in the order of their fixed costs while the common finishing
  // time T, solved over those that joined, is still above the next one's fixed cost.
  // Each device that joined takes (T - fixed) / ms_per_row rows; they sum to the height.
  std::vector<std::size_t> order(costs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return costs[a].fixed_ms < costs[b].fixed_ms; });
  const auto rate = [](const Cost& c) { return 1.0 / std::max(c.ms_per_row, 1e-12); };  // rows per ms
  double rates = 0, fixed_rows = 0, finish = 0;
  std::size_t joined = 0;
  while (joined < order.size()) {
    const Cost& next = costs[order[joined]];
    if (joined > 0 && next.fixed_ms >= finish) break;
    rates += rate(next);
    fixed_rows += next.fixed_ms * rate(next);
    finish = (height + fixed_rows) / rates;
    ++joined;
  }
  std::vector<double> rows(costs.size(), 0.0);
  for (std::size_t i = 0; i < joined; ++i) {
    const Cost& c = costs[order[i]];
    rows[order[i]] = (finish - c.fixed_ms) * rate(c);
  }
  return rows;
}

std::vector<HaloCopy> halo_copies(const std::vector<Band>& bands) {
  std::vector<HaloCopy> copies;
  for (std::size_t to = 0; to < bands.size(); ++to) {
    const Band& t = bands[to];
    if (t.rows == 0) continue;
    const int above_end = t.first, below_start = t.first + t.rows;
    for (std::size_t from = 0; from < bands.size(); ++from) {
      const Band& f = bands[from];
      if (from == to || f.rows == 0) continue;
      // The overlap of band `from` with each side of band `to`'s halo.
      for (auto [lo, hi] : {std::pair{t.read_first(), above_end}, std::pair{below_start, below_start + t.halo_bottom}}) {
        const int a = std::max(lo, f.first), b = std::min(hi, f.first + f.rows);
        if (a < b) copies.push_back({static_cast<int>(from), static_cast<int>(to), a, b - a});
      }
    }
  }
  return copies;
}

std::string describe(const Band& band) {
  if (band.rows == 0) return "no rows";
  return "rows " + std::to_string(band.first) + "-" + std::to_string(band.first + band.rows - 1) + " (+" +
         std::to_string(band.halo_top) + "/+" + std::to_string(band.halo_bottom) + ")";
}

}  // namespace lesson13
