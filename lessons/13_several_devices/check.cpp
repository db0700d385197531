// Exercise 13's cases: the learner's shares from a probe and bands with halos (band_split.hpp,
// compiled into this program from the folder it checks), judged row by row over many heights,
// device counts, shares and radii, including bands shorter than the halo and devices with no
// row at all; then the learner's bands filter a picture on this device, one queue per band, with
// lesson 13's own runs, against the CPU reference.
#include <cmath>
#include <initializer_list>
#include <iterator>
#include <numeric>
#include <sstream>
#include <tuple>

#include "band_run.hpp"
#include "band_split.hpp"
#include "checker.hpp"
#include "random_image.hpp"

namespace {

using exercise13::Band;

std::string rows_text(int a, int b) { return a == b ? "row " + std::to_string(a) : "rows " + std::to_string(a) + "-" + std::to_string(b); }

std::string show(const std::vector<double>& v) {
  std::ostringstream s;
  for (std::size_t k = 0; k < v.size(); ++k) s << (k ? ", " : "") << v[k];
  return "{" + s.str() + "}";
}

std::string plain(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string band_text(std::size_t k, const Band& b) {
  return "band " + std::to_string(k) + " (first " + std::to_string(b.first) + ", last " + std::to_string(b.last) + ")";
}

const char* const kUndivided = "The running sum of shares is not divided by their total";

const char* const kIntTotal = "The total of the shares is kept in an int";

const char* const kEachAlone = "Each band's size is its own share rounded alone";

// How a split divides the running sum of shares by their total: the right way, not at all, only
// where a band starts (its end not divided), or by a total added up in an int (each addition drops
// its fraction); or each band's share rounded alone, the band starting after the one above.
enum class Division { right, none, first_only, int_total, each_alone };

// The total of the shares added up in an int, each addition truncated.
int int_total(const std::vector<double>& shares) {
  return std::accumulate(shares.begin(), shares.end(), 0, [](int sum, double s) { return static_cast<int>(sum + s); });
}

// Whether `bands` have the rows of a split whose running sum of shares is divided as `division` says.
bool rows_of_split(const std::vector<Band>& bands, int height, const std::vector<double>& shares, Division division) {
  const double total =
      division == Division::int_total ? int_total(shares) : std::accumulate(shares.begin(), shares.end(), 0.0);
  const double at_first = division == Division::none ? 1.0 : total,
               at_end = division == Division::none || division == Division::first_only ? 1.0 : total;
  // The rows of the shares above band k (its first row) and of those up to it (one past its last).
  const auto rows_for = [height](double part, double whole) { return int(std::lround(part * height / whole)); };
  double above = 0.0;
  int end = 0;  // one past the band above
  for (std::size_t k = 0; k < bands.size() && k < shares.size(); ++k) {
    const int first = division == Division::each_alone ? end : rows_for(above, at_first);
    end = division == Division::each_alone ? first + rows_for(shares[k], total) : rows_for(above + shares[k], at_end);
    above += shares[k];
    if (bands[k].first != first || bands[k].last != end - 1) return false;
  }
  return bands.size() == shares.size();
}

// Whether `bands` divide by one of `wrong` totals on every height of the case.
bool divided_everywhere(const std::vector<double>& shares, int radius, const int* heights, std::size_t count,
                        std::initializer_list<Division> wrong) {
  for (const Division d : wrong) {
    bool all = true;
    for (std::size_t i = 0; i < count && all; ++i)
      all = rows_of_split(exercise13::split_bands(heights[i], shares, radius), heights[i], shares, d);
    if (all) return true;
  }
  return false;
}

// A split whose band starts and ends are rounded differently: each is height * (shares above or up
// to the band) / total, made a row by `start` and `end` (true: rounded to the nearest, false:
// truncated). Its sentence names it where every band of every height of the case is that split's.
struct Rounding {
  bool start, end;
  const char* sentence;
};

const Rounding kRoundings[] = {
    {false, true,
     "Every band's rows are those of a split whose starts are truncated while its ends are rounded: where the "
     "running sum's fraction is a half or more, a band starts a row before the band above it ends. Round both "
     "the same way (or start each band on the row after the previous band's last)."},
    {true, false,
     "Every band's rows are those of a split whose starts are rounded while its ends are truncated: where the "
     "running sum's fraction is a half or more, a band starts a row after the band above it ends. Round both "
     "the same way (or start each band on the row after the previous band's last)."},
};

// The sentence of the one rounding split that gives every band of every height, where that is not
// the right split (somewhere its rows differ); "" where none does.
std::string rounding_everywhere(const std::vector<double>& shares, int radius, const int* heights, std::size_t count) {
  const double total = std::accumulate(shares.begin(), shares.end(), 0.0);
  const auto row = [](double v, bool nearest) { return static_cast<int>(nearest ? std::lround(v) : v); };
  for (const Rounding& r : kRoundings) {
    bool all = true, differs = false;
    for (std::size_t i = 0; i < count && all; ++i) {
      const std::vector<Band> bands = exercise13::split_bands(heights[i], shares, radius);
      all = bands.size() == shares.size();
      double above = 0;
      for (std::size_t k = 0; k < bands.size() && all; ++k) {
        const int first = row(heights[i] * above / total, r.start);
        differs = differs || first != row(heights[i] * above / total, true);
        above += shares[k];
        const int end = row(heights[i] * above / total, r.end);
        differs = differs || end != row(heights[i] * above / total, true);
        all = bands[k].first == first && bands[k].last == end - 1;
      }
    }
    if (all && differs) return r.sentence;
  }
  return "";
}

// What is wrong with `bands` for this picture, shares and radius: {cause, evidence}, or two "".
// `undivided`: the cause may be shares not divided by their total (the caller confirms it on
// every height, since on one picture it may coincide with another mistake).
std::pair<std::string, std::string> judge(const std::vector<Band>& bands, int height, const std::vector<double>& shares,
                                          int radius, bool undivided = true) {
  const std::string where = "height " + std::to_string(height) + ", radius " + std::to_string(radius) + ", shares " +
                            show(shares) + ": ";
  if (bands.size() != shares.size())
    return {"split_bands must return one band per device, in device order.",
            where + std::to_string(bands.size()) + " bands for " + std::to_string(shares.size()) + " devices"};
  // Shares that need not sum to 1 taken as if they did: the bands are those of the running sum
  // rounded without dividing by the total (proven when every band's rows are that sum's).
  const double total = std::accumulate(shares.begin(), shares.end(), 0.0);
  if (undivided && int_total(shares) != total && !rows_of_split(bands, height, shares, Division::right) &&
      rows_of_split(bands, height, shares, Division::int_total))
    return {std::string(kIntTotal) + ": each addition drops its fraction, so shares that are fractions add up to too "
                "little (0 for one share under 1), and the bands do not end on the picture's last row. Keep the total "
                "a double.",
            where + "they add up to " + plain(total) + ", " + std::to_string(int_total(shares)) + " in an int; the "
                "bands end on row " + std::to_string(bands.back().last) + ", the picture's last row is " +
                std::to_string(height - 1)};
  if (undivided && !rows_of_split(bands, height, shares, Division::right) &&
      rows_of_split(bands, height, shares, Division::each_alone))
    return {std::string(kEachAlone) + " (first = the last row above + 1, then round(height * share / total) rows): "
                "the rounding errors add up, and the bands do not end on the picture's last row. Round the running "
                "sum of shares at each band's end: band k ends on row round(height * (shares 0 to k) / total) - 1.",
            where + "the bands end on row " + std::to_string(bands.back().last) + ", the picture's last row is " +
                std::to_string(height - 1)};
  if (undivided && std::abs(total - 1) > 1e-9 && !rows_of_split(bands, height, shares, Division::right) &&
      (rows_of_split(bands, height, shares, Division::none) ||
       rows_of_split(bands, height, shares, Division::first_only)))
    return {std::string(kUndivided) +
                ": shares need not sum to 1, so a band ends at row round(height * (shares up to it) / total).",
            where + "they sum to " + plain(total) + "; the bands end on row " + std::to_string(bands.back().last) +
                ", the picture's last row is " + std::to_string(height - 1)};
  // First the tiling: every row in exactly one band, in order.
  int next = 0;  // the first row no band has taken yet
  for (std::size_t k = 0; k < bands.size(); ++k) {
    const Band& b = bands[k];
    const std::string band = band_text(k, b);
    if (b.last < b.first - 1)
      return {"A band ends above its first row: an empty band has last = first - 1.", where + band};
    if (b.first > next)
      return {
          "A gap: some rows are in no band. Each band starts on the row after the previous band's last row "
          "(first = previous last + 1), the first band on row 0.",
          where + rows_text(next, b.first - 1) + (next == b.first - 1 ? " is" : " are") + " in no band; " + band};
    if (b.first < next && b.last >= b.first)
      return {
          "An overlap: some rows are in two bands and computed twice. `last` is the band's last row, included: "
          "the next band starts at last + 1, and a band of n rows ends at first + n - 1.",
          where + rows_text(b.first, std::min(next - 1, b.last)) +
              (b.first == std::min(next - 1, b.last) ? " is" : " are") + " in band " + std::to_string(k) +
              " and the band before it; " + band};
    if (b.first < next)
      return {"An empty band starts where the next row would: first = previous last + 1, last = first - 1.",
              where + band};
    next = b.last + 1;
  }
  if (next != height) {
    const std::string evidence = where + "the bands end on row " + std::to_string(next - 1) +
                                 ", the picture's last row is " + std::to_string(height - 1);
    if (next == height + 1 && bands.size() == 1)
      return {"The band ends one row past the picture: `last` is the band's last row, included, so a band that "
              "stops where row `end` would start has last = end - 1.",
              evidence};
    return {std::string(next < height ? "A gap at the bottom" : "The bands run past the picture") +
                ": the last band must end on the picture's last row, height - 1. Band k ends on row round(height * "
                "(shares 0 to k) / total) - 1, which for the last band is height - 1 when `total` is the sum of the "
                "shares; rounding each share alone instead lets the bands' rounding add up.",
            evidence};
  }
  // Then each band's size against its share, and its halo.
  for (std::size_t k = 0; k < bands.size(); ++k) {
    const Band& b = bands[k];
    const std::string band = band_text(k, b);
    const double exact = height * shares[k] / total;
    const int rows = b.last - b.first + 1;
    if (std::abs(rows - exact) >= 1)
      return {"A band's size is off its share by a row or more: round the running sum of shares at each band's end, "
              "not each share alone, so that rounding errors do not add up.",
              where + band + " holds " + std::to_string(rows) + " rows; its share is " + std::to_string(exact) +
                  " rows"};
    if (rows == 0) continue;  // an empty band reads nothing
    // Row r moved by `offset` rows, kept inside the picture.
    const auto row = [height](int r, int offset) { return std::clamp(r + offset, 0, height - 1); };
    const int top = row(b.first, -radius), bottom = row(b.last, radius);
    if (b.read_first != top) {
      const std::string got = where + band + " reads from row " + std::to_string(b.read_first) + "; its column pass "
                              "needs rows from " + std::to_string(top);
      if (b.read_first < 0) return {"The halo is not clamped at the picture's top: read_first = max(0, first - radius).", got};
      if (b.last != b.first && b.read_first == row(b.last, -radius))
        return {
            "The halo above the band counts from its last row: the column pass reads `radius` rows above the "
            "band's first row, read_first = max(0, first - radius).",
            got};
      if (std::abs(b.read_first - top) == 1)
        return {"An off-by-one halo: the column pass reads `radius` rows above the band's first row, so read_first = "
                "first - radius (clamped at 0), not one row more or less.",
                got};
      return {"The halo above the band is wrong: read_first = max(0, first - radius).", got};
    }
    if (b.read_last != bottom) {
      const std::string got = where + band + " reads to row " + std::to_string(b.read_last) + "; its column pass "
                              "needs rows to " + std::to_string(bottom);
      if (b.read_last == height && b.last + radius > height)
        return {
            "The halo runs one row past the picture's bottom: its last row is height - 1, so read_last = "
            "min(height - 1, last + radius), not min(height, ...).",
            got};
      if (b.read_last >= height)
        return {
            "The halo runs past the picture's bottom: it is not clamped at the last row, height - 1: read_last = "
            "min(height - 1, last + radius).",
            got};
      if (b.last != b.first && b.read_last == row(b.first, radius))
        return {
            "The halo below the band counts from its first row: the column pass reads `radius` rows below the "
            "band's last row, read_last = min(height - 1, last + radius).",
            got};
      if (std::abs(b.read_last - bottom) == 1)
        return {"An off-by-one halo: the column pass reads `radius` rows below the band's last row, so read_last = "
                "last + radius (clamped at height - 1), not one row more or less.",
                got};
      return {"The halo below the band is wrong: read_last = min(height - 1, last + radius).", got};
    }
  }
  return {"", ""};
}

// Shares as devices measure them: equal, rising, one much faster, one so slow it may get no row.
std::vector<std::pair<std::string, std::vector<double>>> share_patterns(int devices) {
  std::vector<double> equal(devices, 1.0), rising, fast(devices, 1.0), slow(devices, 1.0);
  for (int k = 0; k < devices; ++k) rising.push_back(0.5 + k);
  fast.back() = 10;
  slow.front() = 0.004;
  return {{"equal shares", equal}, {"rising shares", rising}, {"one device 10x faster", fast},
          {"one device 250x slower", slow}};
}

void split_cases(course::ExerciseCheck& check) {
  const int heights[] = {1, 2, 3, 5, 7, 8, 9, 16, 17, 31, 64, 67, 100, 131, 257, 1000, 4097};
  for (int devices : {1, 2, 3, 4, 7}) {
    for (const auto& [pattern, shares] : share_patterns(devices)) {
      const std::string name = "bands for " + course::plural(devices, "device") + ", " + pattern +
                               ", heights 1 to 4097, radius 1, 3, 8 and 16";
      check.run_case(name, [&, shares = shares] {
        for (int radius : {1, 3, 8, 16})
          for (int height : heights) {
            const auto bands = exercise13::split_bands(height, shares, radius);
            auto [cause, evidence] = judge(bands, height, shares, radius);
            if ((cause.rfind(kUndivided, 0) == 0 &&
                 !divided_everywhere(shares, radius, heights, std::size(heights),
                                     {Division::none, Division::first_only})) ||
                (cause.rfind(kIntTotal, 0) == 0 &&
                 !divided_everywhere(shares, radius, heights, std::size(heights), {Division::int_total})) ||
                (cause.rfind(kEachAlone, 0) == 0 &&
                 !divided_everywhere(shares, radius, heights, std::size(heights), {Division::each_alone})))
              std::tie(cause, evidence) = judge(bands, height, shares, radius, false);
            if (cause.empty()) continue;
            if (const std::string rounding = rounding_everywhere(shares, radius, heights, std::size(heights));
                !rounding.empty())
              cause = rounding;
            return check.fail(name, cause, evidence, "");
          }
        check.pass(name);
      });
    }
  }
}

void share_cases(course::ExerciseCheck& check) {
  struct Probe {
    const char* name;
    std::vector<int> rows;
    std::vector<double> ms;
  };
  const Probe probes[] = {
      {"two equal devices", {64, 64}, {2.0, 2.0}},
      {"a CPU and a GPU 10x faster", {64, 64}, {10.0, 1.0}},
      {"probes of 32 and 128 rows", {32, 128}, {1.0, 8.0}},
      {"three devices, probes of 16, 64 and 100 rows", {16, 64, 100}, {0.5, 4.0, 2.5}},
  };
  for (const Probe& p : probes) {
    const std::string name = std::string("shares from a probe: ") + p.name;
    check.run_case(name, [&] {
      const std::size_t n = p.rows.size();
      auto normalised = [&](auto value) {
        std::vector<double> v;
        for (std::size_t k = 0; k < n; ++k) v.push_back(value(k));
        const double sum = std::accumulate(v.begin(), v.end(), 0.0);
        for (double& x : v) x /= sum;
        return v;
      };
      const auto expected = normalised([&](std::size_t k) { return p.rows[k] / p.ms[k]; });
      const auto got = exercise13::shares_from_probe(p.rows, p.ms);
      auto near = [&](const std::vector<double>& a) {
        if (a.size() != got.size()) return false;
        for (std::size_t k = 0; k < n; ++k)
          if (std::abs(a[k] - got[k]) > 1e-9) return false;
        return true;
      };
      if (near(expected)) return check.pass(name);
      std::string cause = "Shares follow speed, rows per millisecond, and sum to 1.";
      std::vector<double> raw;
      for (std::size_t k = 0; k < n; ++k) raw.push_back(p.rows[k] / p.ms[k]);
      if (near(normalised([&](std::size_t k) { return p.ms[k] / p.rows[k]; })))
        cause = "Shares are inverted: milliseconds per row is slowness, so the slower device gets more rows. Speed "
                "is rows / ms.";
      else if (near(normalised([&](std::size_t k) { return 1 / p.ms[k]; })))
        cause = "The probes' rows are left out: devices probed on different numbers of rows compare by rows / ms, "
                "not by 1 / ms.";
      else if (near(normalised([&](std::size_t k) { return std::trunc(p.rows[k] / p.ms[k]); })))
        cause =
            "The speeds are truncated to whole rows per millisecond: a device slower than a row a millisecond "
            "gets no share and the others' shares are off. Keep rows / ms a double.";
      else if (near(raw))
        cause = "The shares do not sum to 1: divide each speed by the sum of the speeds.";
      else if (const double sum = std::accumulate(got.begin(), got.end(), 0.0);
               got.size() == n && sum > 0 && std::abs(sum - 1) > 1e-9 && [&] {
                 for (std::size_t k = 0; k < n; ++k)
                   if (std::abs(got[k] / sum - expected[k]) > 1e-9) return false;
                 return true;
               }())
        cause =
            "The shares are in proportion to speed but do not sum to 1: divide each speed by the sum of the "
            "speeds (rows / ms added up), not by another total.";
      else if (near(std::vector<double>(n, 1.0 / n)))
        cause = "The shares ignore the probe: each device's share is its speed over the sum of the speeds.";
      return check.fail(name, cause,
                        "rows " + show({p.rows.begin(), p.rows.end()}) + " in ms " + show(p.ms) + ": got " + show(got) +
                            " (sum " + plain(std::accumulate(got.begin(), got.end(), 0.0)) + "), expected " +
                            show(expected),
                        "");
    });
  }
}

// Bands that pass the cases above filter a picture: one queue per band on this device, with
// lesson 13's own run, the result gathered on the host and compared with the CPU's.
void device_cases(course::ExerciseCheck& check) {
  const std::vector<float> weights = course::gaussian_weights(3, 1.5);
  for (int devices : {2, 3, 5}) {
    const int width = 37, height = 23;
    const std::string name = "your bands filter a " + std::to_string(width) + "x" + std::to_string(height) +
                             " picture on " + course::plural(devices, "queue") + " (radius 3, rising shares)";
    check.run_case(name, [&] {
      std::vector<double> shares(devices);
      for (int k = 0; k < devices; ++k) shares[k] = 1.0 + 2 * k;
      const auto bands = exercise13::split_bands(height, shares, 3);
      if (!judge(bands, height, shares, 3).first.empty())
        return check.fail(name, "not run: the bands above are wrong, and a wrong band reads outside the picture");
      std::vector<lesson13::Worker> workers;
      std::vector<lesson13::Band> lesson_bands;
      for (int k = 0; k < devices; ++k) {
        workers.push_back(lesson13::make_worker(check.device(), "queue " + std::to_string(k), 0, weights));
        const Band& b = bands[k];
        lesson13::Band lb;
        lb.first = b.first, lb.rows = b.last - b.first + 1;
        lb.halo_top = lb.rows ? b.first - b.read_first : 0, lb.halo_bottom = lb.rows ? b.read_last - b.last : 0;
        lesson_bands.push_back(lb);
      }
      const course::GrayImage image = course::random_gray(width, height, 13);
      const auto run = lesson13::run_split(workers, image, lesson_bands, 3);
      check.expect_image(name, run.result.pixels, course::correlate_separable(image, weights, weights).pixels, width,
                         height, 1e-3);
    });
  }
}

void check_split_exercise(course::ExerciseCheck& check) {
  share_cases(check);
  split_cases(check);
  device_cases(check);
}

}  // namespace

COURSE_EXERCISE("13", "13_several_devices", "the bands, halos and shares of a split over several devices",
                check_split_exercise);
