// Exercise 06's cases: the median of the plus-shaped window (the pixel and its four neighbours)
// on every 0/1 cross, random data, many ties, constant images, thin lines, a single bright pixel
// and sizes no work-group divides, with guard bands around the output. A network that misses a
// single step gets some 0/1 cross wrong; the report then draws the first wrong pixel's cross.
#include <algorithm>
#include <array>
#include <bitset>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

#include "checker.hpp"
#include "course.hpp"
#include "guard_damage.hpp"

namespace {

// The five values of the cross at (x, y), neighbours outside the image clamped to the edge:
// above, left, centre, right, below.
std::array<float, 5> cross_at(const course::GrayImage& image, int x, int y) {
  auto at = [&](int px, int py) {
    px = std::clamp(px, 0, image.width - 1);
    py = std::clamp(py, 0, image.height - 1);
    return image.pixels[static_cast<std::size_t>(py) * image.width + px];
  };
  return {at(x, y - 1), at(x - 1, y), at(x, y), at(x + 1, y), at(x, y + 1)};
}

// The CPU reference: the third smallest of the five.
std::vector<float> median_cross_reference(const course::GrayImage& image) {
  std::vector<float> out(image.pixels.size());
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      std::array<float, 5> v = cross_at(image, x, y);
      std::nth_element(v.begin(), v.begin() + 2, v.end());
      out[static_cast<std::size_t>(y) * image.width + x] = v[2];
    }
  return out;
}

// Every one of the 32 crosses of zeros and ones is the window of some pixel (centres 3 apart,
// so the crosses do not touch). By the 0-1 principle, a network of compare-exchanges that finds
// the median of all of them finds the median of any five values: this case proves the network.
course::GrayImage every_binary_cross() {
  const int width = 24, height = 12;
  course::GrayImage image{width, height, std::vector<float>(width * height, 0.0f)};
  const int offsets[5][2] = {{0, -1}, {-1, 0}, {0, 0}, {1, 0}, {0, 1}};
  for (int pattern = 0; pattern < 32; ++pattern) {
    const int cx = 3 * (pattern % 8) + 1, cy = 3 * (pattern / 8) + 1;
    for (int bit = 0; bit < 5; ++bit)
      if (pattern >> bit & 1) image.pixels[(cy + offsets[bit][1]) * width + cx + offsets[bit][0]] = 255.0f;
  }
  return image;
}

course::GrayImage with_ties(int width, int height, std::uint32_t seed) {
  course::GrayImage image = course::random_gray(width, height, seed);
  for (float& v : image.pixels) v = std::floor(v / 64.0f) * 85.0f;  // only 0, 85, 170 and 255
  return image;
}

course::GrayImage single_bright_pixel(int width, int height, int x, int y) {
  course::GrayImage image{width, height, std::vector<float>(static_cast<std::size_t>(width) * height, 10.0f)};
  image.pixels[static_cast<std::size_t>(y) * width + x] = 255.0f;
  return image;
}

// A dark picture with one bright row and one bright column, each one pixel thick: the cross
// median keeps both (a 3x3 median would wipe them out).
course::GrayImage thin_lines(int width, int height, int row, int column) {
  course::GrayImage image = course::random_gray(width, height, 31);
  for (float& v : image.pixels) v *= 0.2f;
  for (int x = 0; x < width; ++x) image.pixels[static_cast<std::size_t>(row) * width + x] = 200.0f + x % 50;
  for (int y = 0; y < height; ++y) image.pixels[static_cast<std::size_t>(y) * width + column] = 210.0f + y % 40;
  return image;
}

std::string number(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// The first wrong pixel's cross drawn as a small grid, with what came out and what should have:
//              12
//          40  77   3        got 40, expected 12 (the values sorted: 3 12 40 77 200)
//             200
std::string first_wrong_cross(const course::GrayImage& image, const course::Mismatch& m) {
  const std::array<float, 5> v = cross_at(image, m.x, m.y);
  std::array<float, 5> sorted = v;
  std::sort(sorted.begin(), sorted.end());
  auto cell = [](float value) {
    std::string s = number(value);
    return std::string(s.size() < 8 ? 8 - s.size() : 0, ' ') + s;
  };
  const std::string blank(8, ' ');
  std::string sorted_text;
  for (float s : sorted) sorted_text += " " + number(s);
  std::string out = "the cross of pixel (" + std::to_string(m.x) + ", " + std::to_string(m.y) + ")";
  if (m.x == 0 || m.y == 0 || m.x == image.width - 1 || m.y == image.height - 1)
    out += ", on the image's edge (a neighbour outside is the nearest edge pixel)";
  out += ":\n" + blank + cell(v[0]) + "\n" + cell(v[1]) + cell(v[2]) + cell(v[3]) + "    got " + number(m.got) +
         ", expected " + number(m.expected) + " (sorted:" + sorted_text + ")\n" + blank + cell(v[4]);
  return out;
}

// The medians when the kernel reads some of the five at other indices of the flat buffer:
// `misread(v, x, y, read)` replaces values of pixel (x, y)'s cross, `read(index)` giving the
// buffer's value there (the guard band's sentinel outside it).
std::vector<float> median_misread(
    const course::GrayImage& image,
    const std::function<void(std::array<float, 5>&, long x, long y, const std::function<float(long)>&)>& misread) {
  const long w = image.width, n = static_cast<long>(image.pixels.size());
  const std::function<float(long)> read = [&](long index) {
    return index >= 0 && index < n ? image.pixels[index] : course::kGuardSentinel;
  };
  std::vector<float> out(image.pixels.size());
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      std::array<float, 5> v = cross_at(image, x, y);
      misread(v, x, y, read);
      std::nth_element(v.begin(), v.begin() + 2, v.end());
      out[static_cast<std::size_t>(y) * w + x] = v[2];
    }
  return out;
}

// Some neighbours not clamped (`unclamped` bit k: above, left, right, below).
std::vector<float> median_unclamped(const course::GrayImage& image, int unclamped) {
  const long w = image.width;
  return median_misread(image, [w, unclamped](std::array<float, 5>& v, long x, long y, const auto& read) {
    if (unclamped & 1) v[0] = read((y - 1) * w + x);
    if (unclamped & 2) v[1] = read(y * w + x - 1);
    if (unclamped & 4) v[3] = read(y * w + x + 1);
    if (unclamped & 8) v[4] = read((y + 1) * w + x);
  });
}

// The centre read with x and y swapped: input[x * width + y].
std::vector<float> median_centre_swapped(const course::GrayImage& image) {
  const long w = image.width;
  return median_misread(image, [w](std::array<float, 5>& v, long x, long y, const auto& read) { v[2] = read(x * w + y); });
}

// The right neighbour's clamp, the lower one's, or both, taking the other side of the image:
// right at column min(x + 1, height - 1) of row y, below at column x of row min(y + 1, width - 1).
std::vector<float> median_bounds_swapped(const course::GrayImage& image, bool right, bool below) {
  const long w = image.width, h = image.height;
  return median_misread(image, [w, h, right, below](std::array<float, 5>& v, long x, long y, const auto& read) {
    if (right) v[3] = read(y * w + std::min(x + 1, h - 1));
    if (below) v[4] = read(std::min(y + 1, w - 1) * w + x);
  });
}

// The exercise's network with its last step on low and high as they are, not sorted into lesser
// and greater: max(low, min(high, centre)).
std::vector<float> median_last_step_unsorted(const course::GrayImage& image) {
  std::vector<float> out(image.pixels.size());
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      const std::array<float, 5> v = cross_at(image, x, y);  // above, left, centre, right, below
      const float lo = std::max(std::min(v[0], v[4]), std::min(v[1], v[3]));
      const float hi = std::min(std::max(v[0], v[4]), std::max(v[1], v[3]));
      out[static_cast<std::size_t>(y) * image.width + x] = std::max(lo, std::min(hi, v[2]));
    }
  return out;
}

std::vector<course::Mistake> median_mistakes(const course::GrayImage& image) {
  std::vector<course::Mistake> mistakes;
  mistakes.push_back({"last step on low and high unsorted",
                      "Every output equals the exercise's network with its last step on low and high as they are: "
                      "max(low, min(high, centre)) is the median only where low <= high. Sort the two into the "
                      "smaller and the larger first, and take the median of those two and the centre.",
                      [&image] { return median_last_step_unsorted(image); }});
  mistakes.push_back({"bounds swapped in both clamps",
                      "Width and height are swapped in two clamps: the right neighbour's column is min(x + 1, width - "
                      "1), not min(x + 1, height - 1), and the lower neighbour's row is min(y + 1, height - 1), not "
                      "min(y + 1, width - 1).",
                      [&image] { return median_bounds_swapped(image, true, true); }});
  mistakes.push_back({"bounds swapped for the right neighbour",
                      "Width and height are swapped in the right neighbour's clamp: its column is min(x + 1, width - "
                      "1), not min(x + 1, height - 1).",
                      [&image] { return median_bounds_swapped(image, true, false); }});
  mistakes.push_back({"bounds swapped for the lower neighbour",
                      "Width and height are swapped in the lower neighbour's clamp: its row is min(y + 1, height - "
                      "1), not min(y + 1, width - 1).",
                      [&image] { return median_bounds_swapped(image, false, true); }});
  mistakes.push_back({"centre swapped",
                      "The centre is read with x and y swapped: pixel (x, y) is input[y * width + x], not "
                      "input[x * width + y].",
                      [&image] { return median_centre_swapped(image); }});
  const char* const names[] = {"above", "left", "right", "below"};
  const char* const fixes[] = {"max(y - 1, 0)", "max(x - 1, 0)", "min(x + 1, width - 1)", "min(y + 1, height - 1)"};
  for (int k = 0; k < 4; ++k)
    mistakes.push_back(
        {std::string("unclamped ") + names[k],
         std::string("The neighbour ") + (k == 0 || k == 3 ? "" : "to the ") + names[k] +
             " is not clamped into the image: on the image's edge it is read from outside the image (from the guard "
             "band's -12345.5 or the next row); clamp it with " +
             fixes[k] + ".",
         [&image, k] { return median_unclamped(image, 1 << k); }});
  // Two or three of them, named with their clamps.
  for (int mask = 3; mask < 15; ++mask) {
    if ((mask & (mask - 1)) == 0) continue;  // one neighbour: above
    std::string which, how;
    for (int k = 0, left = static_cast<int>(std::bitset<4>(mask).count()); k < 4; ++k)
      if (mask >> k & 1) {
        --left;
        which += std::string(which.empty() ? "" : left == 0 ? " and " : ", ") + (k == 0 || k == 3 ? "" : "to the ") +
                 names[k];
        how += std::string(how.empty() ? "" : left == 0 ? " and " : ", ") + fixes[k];
      }
    mistakes.push_back({"unclamped " + std::to_string(mask),
                        "The neighbours " + which + " are not clamped: on the image's edges they are read from "
                            "outside the image (from the guard band's -12345.5 or the next row); clamp them with " +
                            how + ".",
                        [&image, mask] { return median_unclamped(image, mask); }});
  }
  mistakes.push_back({"unclamped",
                      "The neighbours are not clamped: on the image's edges they are read from outside the "
                      "image (from the guard band's -12345.5 or the next row); clamp each coordinate.",
                      [&image] { return median_unclamped(image, 15); }});
  return mistakes;
}

// The five values of a cross in the order the kernel names them, for the network's report.
const char* const kCrossNames[] = {"above", "left", "centre", "right", "below"};

// A median network: compare-exchanges on the five values (above, left, centre, right, below),
// then the median read off: the exercise's own network (two exchanges, then min and max steps)
// or a sorting network of five (nine exchanges, the median in the middle).
// The exercise's min and max steps after its two exchanges, in order: what each keeps, and
// whether it takes the max (else the min).
struct Step {
  bool max;
  const char* keeps;
};
const Step kSteps[] = {
    {true, "the larger of the two pair minimums (of above and left, once each pair is sorted)"},
    {false, "the smaller of the two pair maximums (of below and right, once each pair is sorted)"},
    {false, "the lesser of those two"},
    {true, "the greater of those two"},
    {false, "the centre held at or below the greater of those two"},
    {true, "the result held at or above the lesser of those two"},
};

struct Network {
  std::vector<std::pair<int, int>> exchanges;
  bool pairs_then_three;  // the exercise's network: after the exchanges, its min and max steps
  std::pair<int, int> first_two[2] = {{0, 1}, {3, 4}};  // the values its first two steps take
  // How each exchange orders its pair: 0 the smaller first, 1 the larger first, 2 the larger to
  // both, 3 the smaller to both.
  int order = 0;
  // The median with exchange `skipped` left out (-1: none), and with each min and max step k
  // (kSteps) whose bit is set in `turned` taking the other of the two.
  float median(std::array<float, 5> v, int skipped, unsigned turned = 0) const {
    for (int k = 0; k < static_cast<int>(exchanges.size()); ++k)
      if (k != skipped) {
        auto [a, b] = exchanges[k];
        const float lo = std::min(v[a], v[b]), hi = std::max(v[a], v[b]);
        v[a] = order == 0 || order == 3 ? lo : hi, v[b] = order == 0 || order == 2 ? hi : lo;
      }
    if (!pairs_then_three) return v[2];
    // The larger pair minimum and the smaller pair maximum bound the median, with the centre between.
    int step = 0;
    auto take = [&](float a, float b) {
      const bool max = kSteps[step].max != ((turned >> step & 1u) != 0);
      ++step;
      return max ? std::max(a, b) : std::min(a, b);
    };
    const float larger_min = take(v[first_two[0].first], v[first_two[0].second]);
    const float smaller_max = take(v[first_two[1].first], v[first_two[1].second]);
    const float first_of_two = take(larger_min, smaller_max);
    const float second_of_two = take(larger_min, smaller_max);
    const float held = take(second_of_two, v[2]);
    return take(first_of_two, held);
  }
};

// The cross of 0/1 pattern p (bit k: value k of above, left, centre, right, below), as
// every_binary_cross() places it.
std::array<float, 5> binary_cross(int pattern) {
  std::array<float, 5> v{};
  for (int bit = 0; bit < 5; ++bit) v[bit] = (pattern >> bit & 1) ? 255.0f : 0.0f;
  return v;
}

// Whether `network`, with exchange `skipped` left out (-1: none) and the min and max steps in
// `turned` turned, gives exactly `medians` on the 32 0/1 crosses.
bool gives_all(const std::vector<float>& medians, const Network& network, int skipped = -1, unsigned turned = 0) {
  for (int p = 0; p < 32; ++p)
    if (medians[p] != network.median(binary_cross(p), skipped, turned)) return false;
  return true;
}

// Which min and max step of the exercise's network takes the other of the two, from the learner's
// medians of the 32 0/1 crosses: the one step (kSteps) whose turning gives exactly those medians; "" when none does, or
// when another step, or two others turned together, give them too (a network of min and max that
// gives the same results on every 0/1 cross gives the same on any values, so nothing can tell
// which: the lesser of the two kept below the greater held above the centre is the lesser, as it
// is with the greater turned to a min).
std::string turned_step(const std::vector<float>& medians, const Network& network, int first_wrong,
                        const std::string& cross) {
  const auto gives = [&](unsigned turned) { return gives_all(medians, network, -1, turned); };
  const int steps = static_cast<int>(std::size(kSteps));
  int found = -1;
  for (int k = 0; k < steps; ++k) {
    if (!gives(1u << k)) continue;
    if (found >= 0) return "";
    found = k;
  }
  if (found < 0) return "";
  for (int a = 0; a < steps; ++a)
    for (int b = a + 1; b < steps; ++b)
      if (a != found && b != found && gives(1u << a | 1u << b)) return "";
  const char* const right = kSteps[found].max ? "max" : "min";
  const char* const wrong = kSteps[found].max ? "min" : "max";
  return std::string("One step takes the ") + wrong + " where the median needs the " + right + ": the one that keeps " +
         kSteps[found].keeps + ". Checked on every cross of 0s and 255s: with that step turned, the network gives " +
         "each of your results; the first wrong one (" + cross + ") gives " + number(medians[first_wrong]) +
         ", not " + number(network.median(binary_cross(first_wrong), -1)) + ".";
}

// Which exchange or step of the exercise's network reads the wrong pair of values, from the
// learner's medians of the 32 0/1 crosses: the one change of one pair that gives exactly those
// medians; "" when none does, or changes of two places do.
std::string wrong_pair(const std::vector<float>& medians, const Network& network, int first_wrong,
                       const std::string& cross) {
  std::vector<std::string> found;  // each change of one pair that gives them
  const auto names = [](std::pair<int, int> pair) {
    return std::string(kCrossNames[pair.first]) + " and " + kCrossNames[pair.second];
  };
  for (int place = 0; place < 4; ++place) {  // the two exchanges, then the first two steps
    const bool exchange = place < 2;
    const std::pair<int, int> right = exchange ? network.exchanges[place] : network.first_two[place - 2];
    for (int a = 0; a < 5; ++a)
      for (int b = a + 1; b < 5; ++b) {
        if (std::pair{a, b} == right || std::pair{b, a} == right) continue;
        Network changed = network;
        (exchange ? changed.exchanges[place] : changed.first_two[place - 2]) = {a, b};
        if (!gives_all(medians, changed)) continue;
        found.push_back(
            exchange ? "a compare-exchange orders " + names({a, b}) + " where the network orders " + names(right)
                     : "the step that keeps " + std::string(kSteps[place - 2].keeps) + " takes " + names({a, b}));
      }
  }
  // Networks of min and max that agree on every 0/1 cross agree on every cross: where two changes
  // give the results, nothing tells them apart, and both are named.
  if (found.empty() || found.size() > 2) return "";
  const std::string what = found.size() == 1 ? found[0] : "either " + found[0] + ", or " + found[1];
  return "Your results are exactly those of the network with one pair changed: " + what +
         ". Likely that is the mistake (checked on every cross of 0s and 255s); the first wrong one (" + cross +
         ") gives " + number(medians[first_wrong]) + ", not " + number(network.median(binary_cross(first_wrong), -1)) +
         ".";
}

// Which compare-exchange the learner's network lacks, from its medians of the 32 0/1 crosses
// (`medians[p]`, pattern p): the exchange of a known network of five whose removal gives exactly
// those medians, with the first cross it gets wrong; else the min or max step it turns
// (turned_step()); "" when neither explains them.
std::string missing_exchange(const std::vector<float>& medians) {
  const Network networks[] = {
      {{{0, 4}, {1, 3}}, true},
      {{{0, 1}, {3, 4}, {2, 4}, {2, 3}, {0, 3}, {0, 2}, {1, 4}, {1, 3}, {1, 2}}, false},
  };
  int first_wrong = -1;
  for (int p = 0; p < 32 && first_wrong < 0; ++p)
    if (medians[p] != networks[0].median(binary_cross(p), -1)) first_wrong = p;
  if (first_wrong < 0) return "";
  const std::array<float, 5> v = binary_cross(first_wrong);
  std::string cross;
  for (int bit = 0; bit < 5; ++bit) cross += std::string(bit ? ", " : "") + kCrossNames[bit] + " " + number(v[bit]);
  for (const Network& n : networks)
    for (int k = 0; k < static_cast<int>(n.exchanges.size()); ++k) {
      if (!gives_all(medians, n, k)) continue;
      return std::string("The network misses one compare-exchange: the one between ") +
             kCrossNames[n.exchanges[k].first] + " and " + kCrossNames[n.exchanges[k].second] +
             ". Checked on every cross of 0s and 255s: without that exchange the first one it gets wrong (" + cross +
             ") gives " + number(medians[first_wrong]) + ", not " + number(networks[0].median(v, -1)) +
             ", and every other result matches.";
    }
  if (const std::string turned = turned_step(medians, networks[0], first_wrong, cross); !turned.empty()) return turned;
  // The exchange itself wrong: the larger value first, or one of the two to both places.
  const char* const orders[] = {
      "The compare-exchange puts the larger value first: *low must get the min of the two, *high the max.",
      "The compare-exchange gives both places the max: *low must get the min of the two.",
      "The compare-exchange gives both places the min: *high must get the max of the two."};
  for (int order = 1; order <= 3; ++order) {
    Network changed = networks[0];
    changed.order = order;
    if (gives_all(medians, changed))
      return std::string(orders[order - 1]) +
             " Checked on every cross of 0s and 255s: with it so, the network gives each of your results.";
  }
  return wrong_pair(medians, networks[0], first_wrong, cross);
}

// The cause, from the first wrong pixel whose result is not its median: a value from elsewhere
// (a neighbour read from the wrong place), or another rank of the five (the network is wrong).
std::string median_diagnosis(const course::GrayImage& image, const std::vector<float>& got,
                             const std::vector<float>& expected,
                             const std::function<std::vector<float>()>& binary_medians = {}) {
  static const char* const ranks[] = {"smallest", "2nd smallest", "median", "2nd largest", "largest"};
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * image.width + x;
      if (got[i] == expected[i]) continue;
      std::array<float, 5> v = cross_at(image, x, y);
      std::sort(v.begin(), v.end());
      const std::string at = "(" + std::to_string(x) + ", " + std::to_string(y) + ")";
      const auto rank = std::find(v.begin(), v.end(), got[i]);
      if (rank == v.end())
        return "At " + at + " the result, " + number(got[i]) +
               ", is not one of the five values of its cross: a neighbour is read from the wrong place.";
      // With ties the value can sit at several ranks: name the one furthest from the median.
      const auto last = std::find(v.rbegin(), v.rend(), got[i]);
      const int low = static_cast<int>(rank - v.begin()), high = 4 - static_cast<int>(last - v.rbegin());
      const int r = high < 2 ? high : low > 2 ? low : 2;
      if (binary_medians)
        if (const std::string missing = missing_exchange(binary_medians()); !missing.empty()) return missing;
      return "The network does not sort the five values: at " + at + " it gives the " + ranks[r] +
             " of the five, not the median (the 3rd); check each compare-exchange's min and max and that "
             "its pair is the one the network needs.";
    }
  return "";
}

void check_median_cross(course::ExerciseCheck& check) {
  const course::DeviceContext& dc = check.device();
  cl::Program program = check.build("median_cross.cl");
  cl::Kernel median(program, "median_cross");
  const std::size_t kernel_max = median.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);

  // The kernel's medians of every 0/1 cross, pattern by pattern (the network's own test).
  const auto binary_medians = [&] {
    const course::GrayImage crosses = every_binary_cross();
    course::GuardedBuffer input(dc, crosses.pixels.size()), output(dc, crosses.pixels.size());
    input.write(crosses.pixels);
    course::set_args(median, input.buffer(), output.buffer(), crosses.width, crosses.height);
    dc.queue.enqueueNDRangeKernel(median, cl::NullRange, cl::NDRange(crosses.width, crosses.height));
    dc.queue.finish();
    const std::vector<float> got = output.read();
    std::vector<float> medians(32);
    for (int p = 0; p < 32; ++p) medians[p] = got[(3 * (p / 8) + 1) * crosses.width + 3 * (p % 8) + 1];
    return medians;
  };
  auto run = [&](const std::string& what, const course::GrayImage& image, std::size_t want_x, std::size_t want_y) {
    const std::size_t lx = std::min(want_x, kernel_max);
    const std::size_t ly = std::max<std::size_t>(1, std::min(want_y, kernel_max / lx));
    const std::string name = what + ", " + std::to_string(image.width) + "x" + std::to_string(image.height) +
                             " image, " + std::to_string(lx) + "x" + std::to_string(ly) + " work-groups";
    check.run_case(name, [&] {
      course::GuardedBuffer input(dc, image.pixels.size()), output(dc, image.pixels.size());
      input.write(image.pixels);
      course::set_args(median, input.buffer(), output.buffer(), image.width, image.height);
      dc.queue.enqueueNDRangeKernel(median, cl::NullRange,
                                    cl::NDRange(course::round_up(image.width, lx), course::round_up(image.height, ly)),
                                    cl::NDRange(lx, ly));
      dc.queue.finish();
      if (const std::string damage = input.damaged_guards(); !damage.empty())
        return check.fail(name, "the kernel wrote into its input: " + damage);
      if (const std::string damage = output.damaged_guards(); !damage.empty()) return check.fail(name, damage);
      const std::vector<float> got = output.read();
      const std::vector<float> expected = median_cross_reference(image);
      course::CaseDetails details;
      details.mistakes = median_mistakes(image);
      details.explain_first = [&](const course::Mismatch& m) { return first_wrong_cross(image, m); };
      details.diagnose = [&](const std::vector<float>& values) {
        return median_diagnosis(image, values, expected, binary_medians);
      };
      check.expect_image(name, got, expected, image.width, image.height, 0.0, 1, details);
    });
  };

  // Random values first: a wrong value shows there whether it came from the cross at all.
  run("random values", course::random_gray(97, 61, 6), 16, 16);
  run("every 0/1 cross", every_binary_cross(), 8, 4);
  run("random values", course::random_gray(131, 67, 7), 32, 1);
  run("random values", course::random_gray(37, 29, 8), 1, 32);
  run("many ties", with_ties(53, 47, 9), 8, 8);
  run("a bright row and column one pixel thick", thin_lines(41, 23, 7, 11), 16, 4);
  run("constant image", course::GrayImage{23, 19, std::vector<float>(23 * 19, 77.0f)}, 8, 4);
  run("one bright pixel in the middle", single_bright_pixel(17, 13, 8, 6), 4, 4);
  run("one bright pixel in a corner", single_bright_pixel(17, 13, 16, 12), 4, 4);
  run("one bright pixel on an edge", single_bright_pixel(17, 13, 0, 5), 4, 4);
  run("a single pixel", course::random_gray(1, 1, 10), 1, 1);
  run("one row", course::random_gray(41, 1, 11), 16, 1);
  run("one column", course::random_gray(1, 43, 12), 1, 16);
  // One row or one column tests only the bounds (each cross there holds its centre three
  // times); two rows or two columns clamp a neighbour on every pixel and still need the median.
  run("two rows", course::random_gray(41, 2, 13), 16, 2);
  run("two columns", course::random_gray(2, 43, 15), 2, 16);
  run("three by three", course::random_gray(3, 3, 16), 2, 2);
  run("random values", course::random_gray(256, 3, 14), 64, 4);
}

}  // namespace

COURSE_EXERCISE("06", "06_median_sorting_networks", "the median of the plus-shaped window as a network of min and max",
                check_median_cross);
