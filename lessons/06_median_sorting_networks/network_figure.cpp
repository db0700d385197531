#include "network_figure.hpp"

#include <algorithm>
#include <regex>
#include <sstream>

#include "svg_figure.hpp"

namespace course {
namespace {

const char* const kStageColours[] = {"#0072B2", "#E69F00", "#D55E00", "#009E73", "#CC79A7", "#56B4E9"};
const char* const kWireNames[9] = {"above, left", "above",       "above, right", "left",        "centre",
                                   "right",       "below, left", "below",        "below, right"};

// A comment's first sentence: up to its first colon or full stop, without a closing "(N)".
std::string first_sentence(const std::string& comment) {
  std::string s = comment.substr(0, comment.find_first_of(":."));
  const auto count = std::regex_replace(s, std::regex(R"(\s*\(\d+\)\s*$)"), "");
  return count;
}

}  // namespace

std::vector<NetworkStep> read_network(const std::string& source, std::vector<std::string>& stages) {
  const std::regex exchange(R"(compare_exchange\(&p(\d), &p(\d)\);)");
  const std::regex half(R"(p(\d) = (min|max)\(p(\d), p(\d)\);)");
  std::vector<NetworkStep> steps;
  std::string comment;  // the comment block just read, "" once a step has used it
  bool fresh = false;
  std::istringstream lines(source);
  for (std::string line; std::getline(lines, line);) {
    const auto start = line.find_first_not_of(' ');
    if (start != std::string::npos && line.compare(start, 2, "//") == 0) {
      if (!fresh) comment.clear();
      comment += (comment.empty() ? "" : " ") + line.substr(line.find_first_not_of("/ ", start));
      fresh = true;
      continue;
    }
    std::smatch m;
    NetworkStep step;
    if (std::regex_search(line, m, exchange)) {
      step.low = std::stoi(m[1]), step.high = std::stoi(m[2]);
    } else if (std::regex_search(line, m, half)) {
      step.kept = std::stoi(m[1]), step.keeps_max = m[2] == "max";
      step.low = std::stoi(m[3]), step.high = std::stoi(m[4]);
    } else {
      if (start != std::string::npos) fresh = false;
      continue;
    }
    if (fresh || stages.empty()) stages.push_back(first_sentence(comment)), fresh = false;
    step.stage = static_cast<int>(stages.size()) - 1;
    steps.push_back(step);
  }
  return steps;
}

std::string network_svg(const std::vector<NetworkStep>& steps, const std::vector<std::string>& stages, int window,
                        int vector) {
  constexpr int kLeft = 150, kTop = 84, kWire = 26, kStep = 30;
  const int diagram_right = kLeft + static_cast<int>(steps.size()) * kStep + 20;
  const int legend_top = kTop + 8 * kWire + 44;
  const int row_top = legend_top + static_cast<int>(stages.size()) * 18 + 60;
  const int columns = 2 * vector + window - 1, cell = std::min(40, 760 / std::max(columns, 1));
  const int width = std::max({diagram_right + 150, 40 + columns * cell + 40, 820});
  std::ostringstream svg;  // the drawing; the opening comes last, when the height is known
  int whole = 0;
  for (const auto& s : steps) whole += s.kept < 0;
  const std::string title = "The 3x3 median's network in network_3x3.cl: " + std::to_string(steps.size()) +
                            " exchanges, " + std::to_string(steps.size() - whole) + " of them halves";
  svg << "<text x=\"20\" y=\"42\" font-size=\"12\" fill=\"#555\">read from the kernel's source, in its order; each "
         "wire one register of the window, time runs left to right</text>\n";
  // The stages as bands behind their steps, numbered at the top.
  for (std::size_t k = 0; k < steps.size();) {
    std::size_t end = k;
    while (end < steps.size() && steps[end].stage == steps[k].stage) ++end;
    const int x = kLeft + static_cast<int>(k) * kStep + 4, w = static_cast<int>(end - k) * kStep - 2;
    const char* colour = kStageColours[steps[k].stage % 6];
    svg << "<rect x=\"" << x << "\" y=\"" << kTop - 22 << "\" width=\"" << w << "\" height=\"" << 8 * kWire + 36
        << "\" fill=\"" << colour << "\" fill-opacity=\"0.08\"/><text x=\"" << x + w / 2 << "\" y=\"" << kTop - 8
        << "\" font-size=\"12\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"" << colour << "\">"
        << steps[k].stage + 1 << "</text>\n";
    k = end;
  }
  for (int i = 0; i < 9; ++i) {
    const int y = kTop + 6 + i * kWire;
    svg << "<text x=\"" << kLeft - 10 << "\" y=\"" << y + 4 << "\" font-size=\"12\" text-anchor=\"end\">p" << i << " ("
        << kWireNames[i] << ")</text><line x1=\"" << kLeft << "\" y1=\"" << y << "\" x2=\"" << diagram_right
        << "\" y2=\"" << y << "\" stroke=\"#444\"/>\n";
  }
  svg << "<text x=\"" << diagram_right + 6 << "\" y=\"" << kTop + 6 + 4 * kWire + 4
      << "\" font-size=\"12\" font-weight=\"bold\">the median</text>\n";
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const NetworkStep& s = steps[k];
    const int x = kLeft + static_cast<int>(k) * kStep + kStep / 2 + 4;
    const int y_low = kTop + 6 + s.low * kWire, y_high = kTop + 6 + s.high * kWire;
    const char* colour = kStageColours[s.stage % 6];
    if (s.kept < 0) {
      // A whole exchange: the max goes where the arrow points.
      const int dir = y_high > y_low ? 1 : -1;
      svg << "<line x1=\"" << x << "\" y1=\"" << y_low << "\" x2=\"" << x << "\" y2=\"" << y_high - dir * 6
          << "\" stroke=\"" << colour << "\" stroke-width=\"2.5\"/><circle cx=\"" << x << "\" cy=\"" << y_low
          << "\" r=\"4\" fill=\"" << colour << "\"/><path d=\"M" << x - 5 << " " << y_high - dir * 8 << "L" << x + 5
          << " " << y_high - dir * 8 << "L" << x << " " << y_high << "Z\" fill=\"" << colour << "\"/>\n";
    } else {
      // Half of one: only the kept wire changes; the other is read and left as it was.
      const int other = s.kept == s.low ? s.high : s.low;
      const int y_kept = kTop + 6 + s.kept * kWire, y_other = kTop + 6 + other * kWire;
      svg << "<line x1=\"" << x << "\" y1=\"" << y_other << "\" x2=\"" << x << "\" y2=\"" << y_kept << "\" stroke=\""
          << colour << "\" stroke-width=\"2\" stroke-dasharray=\"4 3\"/><circle cx=\"" << x << "\" cy=\"" << y_other
          << "\" r=\"4\" fill=\"white\" stroke=\"" << colour << "\" stroke-width=\"1.5\"/><circle cx=\"" << x
          << "\" cy=\"" << y_kept << "\" r=\"5\" fill=\"" << colour << "\"/><text x=\"" << x << "\" y=\""
          << y_kept + (y_kept > y_other ? 17 : -9) << "\" font-size=\"10\" text-anchor=\"middle\" fill=\"" << colour
          << "\">" << (s.keeps_max ? "max" : "min") << "</text>\n";
    }
  }
  // The legend: the two kinds of step, and each stage with the kernel's own words.
  int y = legend_top;
  svg << "<line x1=\"20\" y1=\"" << y - 12 << "\" x2=\"20\" y2=\"" << y << "\" stroke=\"#444\" stroke-width=\"2.5\"/>"
      << "<circle cx=\"20\" cy=\"" << y - 12 << "\" r=\"3.5\" fill=\"#444\"/><path d=\"M15 " << y - 4 << "L25 " << y - 4
      << "L20 " << y + 2 << "Z\" fill=\"#444\"/><text x=\"32\" y=\"" << y
      << "\" font-size=\"12\">compare-exchange: the min stays at the dot, the max goes where the arrow points</text>\n";
  y += 24;
  svg << "<line x1=\"20\" y1=\"" << y - 12 << "\" x2=\"20\" y2=\"" << y << "\" stroke=\"#444\" stroke-width=\"2\" "
      << "stroke-dasharray=\"4 3\"/><circle cx=\"20\" cy=\"" << y - 12
      << "\" r=\"3.5\" fill=\"white\" stroke=\"#444\"/>"
      << "<circle cx=\"20\" cy=\"" << y << "\" r=\"4\" fill=\"#444\"/><text x=\"32\" y=\"" << y + 2
      << "\" font-size=\"12\">half of one: only the filled end takes the min or max; the other value is no longer "
         "needed there</text>\n";
  for (std::size_t k = 0; k < stages.size(); ++k) {
    y += k == 0 ? 24 : 18;
    const auto count =
        std::count_if(steps.begin(), steps.end(), [&](const NetworkStep& s) { return s.stage == int(k); });
    svg << "<text x=\"20\" y=\"" << y + 4 << "\" font-size=\"12\"><tspan font-weight=\"bold\" fill=\""
        << kStageColours[k % 6] << "\">" << k + 1 << "</tspan>  " << svg_escaped(stages[k]) << " (" << count
        << ")</text>\n";
  }

  // One row of merged_columns: two neighbouring tiles of `vector` outputs each.
  const int row_y = row_top + 40, left = 40;
  svg << "<text x=\"20\" y=\"" << row_top
      << "\" font-size=\"15\">Sorted columns shared in merged_columns.cl: " << window << "x" << window << ", tiles of "
      << vector << " outputs along a row</text>\n"
      << "<text x=\"20\" y=\"" << row_top + 18 << "\" font-size=\"12\" fill=\"#555\">each square: one column of "
      << window << " pixels, sorted once by the tile that reads it; each output's window spans " << window
      << " of them</text>\n";
  for (int c = 0; c < columns; ++c) {
    const bool first = c < vector + window - 1, second = c >= vector;
    const char* fill = first && second ? "#E69F00" : first ? "#56B4E9" : "#009E73";
    svg << "<rect x=\"" << left + c * cell << "\" y=\"" << row_y << "\" width=\"" << cell - 2 << "\" height=\""
        << cell - 2 << "\" fill=\"" << fill << "\"/>\n";
  }
  // Each output's window under the row, pairs (o, o + 1) joined by the K - 1 columns they merge once.
  for (int tile = 0; tile < 2; ++tile)
    for (int o = 0; o < vector; ++o) {
      const int first_column = tile * vector + o, y0 = row_y + cell + 8 + (o % 2) * 9;
      const int x0 = left + first_column * cell + 3, x1 = left + (first_column + window) * cell - 5;
      svg << "<line x1=\"" << x0 << "\" y1=\"" << y0 << "\" x2=\"" << x1 << "\" y2=\"" << y0 << "\" stroke=\""
          << (tile == 0 ? "#0072B2" : "#007A55") << "\" stroke-width=\"3\"/>\n";
      if (o % 2 == 0)
        svg << "<rect x=\"" << left + (first_column + 1) * cell << "\" y=\"" << row_y - 8 << "\" width=\""
            << (window - 1) * cell - 2 << "\" height=\"5\" fill=\"#444\"/>\n";
    }
  y = row_y + cell + 50;
  svg << svg_legend_entry(20, y, "#56B4E9", "sorted by the first tile only")
      << svg_legend_entry(250, y, "#E69F00",
                          "sorted by both tiles: the " + std::to_string(window - 1) + " columns of overlap")
      << svg_legend_entry(560, y, "#009E73", "by the second only");
  y += 22;
  svg << "<rect x=\"20\" y=\"" << y - 8 << "\" width=\"12\" height=\"5\" fill=\"#444\"/><text x=\"38\" y=\"" << y
      << "\" font-size=\"12\">above: the " << window - 1 << " columns a pair of outputs (o, o + 1) shares, merged once "
      << "for both</text>\n";
  y += 20;
  svg << "<line x1=\"20\" y1=\"" << y - 4 << "\" x2=\"32\" y2=\"" << y - 4
      << "\" stroke=\"#0072B2\" stroke-width=\"3\"/>"
      << "<text x=\"38\" y=\"" << y
      << "\" font-size=\"12\">below: each output's window (first tile blue, second "
         "green)</text>\n</svg>\n";
  return svg_opening(width, y + 20, title) + svg.str();
}

}  // namespace course
