#include "warp_figure.hpp"

#include <algorithm>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

#include "svg_figure.hpp"
#include "text_table.hpp"

namespace course {
namespace {

// A 128-byte line is 32 floats in 4 sectors of 8: one cell per float, a gap between sectors.
constexpr int kCell = 9, kSectorGap = 4, kRowHeight = 16, kRowGap = 5, kRowsShown = 8;
constexpr int kLabel = 64, kPanelWidth = kLabel + 32 * kCell + 3 * kSectorGap + 40, kTop = 74;
const char* const kRead = "#0072B2";   // Okabe-Ito blue
const char* const kAsked = "#F5C58A";  // a light orange
const char* const kIdle = "#F2F2F2";

std::string plural(long n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : word.back() == 's' ? "es" : "s");
}

// A bank's colour by its conflict degree: blue for one word (one pass), orange for two, red for more.
const char* degree_colour(std::size_t words) { return words <= 1 ? kRead : words == 2 ? "#E69F00" : "#D55E00"; }

void draw_panel(std::ostringstream& svg, const WarpLoad& load, int x0, int rows_height) {
  std::map<long, std::set<int>> lines;  // line -> the floats of it the warp reads (0..31)
  std::set<long> sectors;
  for (const int a : load.addresses) {
    lines[a / 32].insert(a % 32);
    sectors.insert(a / 8);
  }
  svg << "<text x=\"" << x0 << "\" y=\"" << kTop - 26 << "\" font-weight=\"bold\">" << load.variant << "</text>\n";
  svg << "<text x=\"" << x0 << "\" y=\"" << kTop - 10 << "\" font-size=\"11\" fill=\"#555\">" << load.kernel << "</text>\n";
  int row = 0;
  const long first_line = lines.empty() ? 0 : lines.begin()->first;
  for (const auto& [line, floats] : lines) {
    if (row == kRowsShown) {
      svg << "<text x=\"" << x0 << "\" y=\"" << kTop + row * (kRowHeight + kRowGap) + 12 << "\" font-size=\"11\">... "
          << plural(static_cast<long>(lines.size()) - kRowsShown, "more line") << " like these</text>\n";
      break;
    }
    const int y = kTop + row * (kRowHeight + kRowGap);
    // Each line labelled with its distance from the first, in bytes: an image row apart, or the next line.
    svg << "<text x=\"" << x0 + kLabel - 6 << "\" y=\"" << y + 12 << "\" font-size=\"11\" text-anchor=\"end\">+"
        << (line - first_line) * 128 << " B</text>\n";
    for (int f = 0; f < 32; ++f) {
      const int x = x0 + kLabel + f * kCell + (f / 8) * kSectorGap;
      const bool read = floats.count(f) > 0;
      const bool asked = sectors.count(line * 4 + f / 8) > 0;
      svg << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << kCell - 1 << "\" height=\"" << kRowHeight
          << "\" fill=\"" << (read ? kRead : asked ? kAsked : kIdle) << "\"/>\n";
    }
    ++row;
  }
  const int y = kTop + rows_height + 18;
  svg << "<text x=\"" << x0 << "\" y=\"" << y << "\" font-size=\"12\">" << plural(static_cast<long>(load.addresses.size()), "float")
      << " read: " << plural(static_cast<long>(sectors.size()), "sector") << " of 32 B in "
      << plural(static_cast<long>(lines.size()), "line") << " of 128 B</text>\n";
}

}  // namespace

std::string warp_loads_svg(const std::vector<WarpLoad>& loads) {
  std::size_t most_lines = 1;
  for (const auto& load : loads) {
    std::set<long> lines;
    for (const int a : load.addresses) lines.insert(a / 32);
    most_lines = std::max(most_lines, std::min<std::size_t>(lines.size(), kRowsShown + 1));
  }
  const int rows_height = static_cast<int>(most_lines) * (kRowHeight + kRowGap);
  const int width = 20 + static_cast<int>(loads.size()) * kPanelWidth, height = kTop + rows_height + 70;
  std::ostringstream svg;
  svg << svg_opening(width, height, "One warp-wide load of each column pass: where its 32 floats lie in 32-byte "
                                    "sectors and 128-byte lines");
  for (std::size_t i = 0; i < loads.size(); ++i) draw_panel(svg, loads[i], 20 + static_cast<int>(i) * kPanelWidth, rows_height);
  const int y = height - 22;
  svg << svg_legend_entry(20, y, kRead, "a float the warp reads")
      << svg_legend_entry(200, y, kAsked, "the rest of a sector it asks for (moved, not used)")
      << "<text x=\"560\" y=\"" << y << "\" font-size=\"12\">each row: one 128-byte line (its distance from the first), "
         "its 4 sectors of 8 floats</text>\n</svg>\n";
  return svg.str();
}

std::string bank_conflicts_svg(const std::vector<WarpLoad>& reads) {
  constexpr int kBankWidth = 18, kWord = 10, kLeft = 20;
  std::vector<std::map<int, std::set<int>>> words(reads.size());  // per panel: bank -> different words
  std::size_t deepest = 1;
  for (std::size_t i = 0; i < reads.size(); ++i) {
    for (const int a : reads[i].addresses) words[i][((a % 32) + 32) % 32].insert(a);
    for (const auto& [bank, asked] : words[i]) deepest = std::max(deepest, asked.size());
  }
  const int panel_height = 64 + static_cast<int>(deepest) * kWord;
  const int width = kLeft + 32 * kBankWidth + 40, height = 40 + static_cast<int>(reads.size()) * panel_height + 50;
  std::ostringstream svg;
  svg << svg_opening(std::max(width, 640), height, "One warp-wide read of the column tile: the words it asks each bank for");
  for (std::size_t i = 0; i < reads.size(); ++i) {
    const int top = 40 + static_cast<int>(i) * panel_height, base = top + 30 + static_cast<int>(deepest) * kWord;
    std::size_t worst = 0;
    for (const auto& [bank, asked] : words[i]) worst = std::max(worst, asked.size());
    svg << "<text x=\"" << kLeft << "\" y=\"" << top + 14 << "\"><tspan font-weight=\"bold\">" << reads[i].variant
        << "</tspan><tspan font-size=\"11\" fill=\"#555\"> " << reads[i].kernel << ": worst bank " << worst
        << "-way, " << plural(static_cast<long>(worst), "pass") << "</tspan></text>\n";
    for (int b = 0; b < 32; ++b) {
      const auto found = words[i].find(b);
      const std::size_t asked = found == words[i].end() ? 0 : found->second.size();
      for (std::size_t k = 0; k < asked; ++k)
        svg << "<rect x=\"" << kLeft + b * kBankWidth << "\" y=\"" << base - static_cast<int>(k + 1) * kWord << "\" width=\""
            << kBankWidth - 3 << "\" height=\"" << kWord - 2 << "\" fill=\"" << degree_colour(asked) << "\"/>\n";
      svg << "<rect x=\"" << kLeft + b * kBankWidth << "\" y=\"" << base << "\" width=\"" << kBankWidth - 3
          << "\" height=\"2\" fill=\"#999\"/>\n";
      if (b % 4 == 0)
        svg << "<text x=\"" << kLeft + b * kBankWidth << "\" y=\"" << base + 14 << "\" font-size=\"10\">" << b << "</text>\n";
    }
  }
  const int y = height - 22;
  svg << svg_legend_entry(kLeft, y, kRead, "one word: one pass") << svg_legend_entry(kLeft + 150, y, "#E69F00", "two words: 2 passes")
      << svg_legend_entry(kLeft + 310, y, "#D55E00", "more words: a pass each") << "</svg>\n";
  return svg.str();
}

void TraceFigures::add_column_pass(const std::string& variant, const std::string& kernel,
                                   const std::vector<AccessSiteSummary>& sites) {
  const bool coalescing = variant == "v1_global" || variant == "v3_local" || variant == "v411_aligned";
  const bool tile = variant.rfind("v411_", 0) == 0;
  bool load_taken = !coalescing, read_taken = !tile;
  for (const auto& site : sites) {
    const WarpLoad panel{variant, kernel + ", line " + std::to_string(site.line), site.first_access};
    if (!load_taken && site.kind == AccessKind::kGlobalRead) loads.push_back(panel), load_taken = true;
    if (!read_taken && site.kind == AccessKind::kLocalRead) banks.push_back(panel), read_taken = true;
  }
}

void TraceFigures::save(const std::filesystem::path& folder, std::ostream& out) const {
  if (!loads.empty()) {
    save_svg_file(folder / "warp_sectors.svg", warp_loads_svg(loads));
    out << "wrote " << course::shown_path(folder / "warp_sectors.svg") << " (one warp-wide load of each column pass)\n";
  }
  if (!banks.empty()) {
    save_svg_file(folder / "bank_conflicts.svg", bank_conflicts_svg(banks));
    out << "wrote " << course::shown_path(folder / "bank_conflicts.svg")
        << " (the banks one warp-wide tile read asks)\n";
  }
}

}  // namespace course
