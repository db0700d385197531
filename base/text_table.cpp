#include "text_table.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <ostream>
#include <sstream>

namespace course {
namespace {
// The header's lines: one, or each name broken at the space nearest its middle into two.
std::vector<std::vector<std::string>> header_lines(const std::vector<std::string>& head, bool two) {
  if (!two) return {head};
  std::vector<std::vector<std::string>> lines(2);
  for (const auto& name : head) {
    std::size_t best = std::string::npos;
    for (std::size_t at = name.find(' '); at != std::string::npos; at = name.find(' ', at + 1))
      if (best == std::string::npos || std::max(at, name.size() - at - 1) < std::max(best, name.size() - best - 1))
        best = at;
    lines[0].push_back(best == std::string::npos ? "" : name.substr(0, best));
    lines[1].push_back(best == std::string::npos ? name : name.substr(best + 1));
  }
  return lines;
}
// The widths of a table's columns `shown`, and the line they make.
std::vector<std::size_t> column_widths(const std::vector<std::vector<std::string>>& head,
                                       const std::vector<std::vector<std::string>>& cells,
                                       const std::vector<std::size_t>& shown) {
  std::vector<std::size_t> width;
  for (std::size_t c : shown) {
    width.push_back(0);
    for (const auto& row : head) width.back() = std::max(width.back(), row[c].size());
    for (const auto& row : cells) width.back() = std::max(width.back(), row[c].size());
  }
  return width;
}
std::size_t table_width(const std::vector<std::vector<std::string>>& head,
                        const std::vector<std::vector<std::string>>& cells, const std::vector<std::size_t>& shown) {
  const auto width = column_widths(head, cells, shown);
  return std::accumulate(width.begin(), width.end(), 2 * width.size());
}
// The title, the header, a rule and the rows, in columns `shown`; a name in the first column is
// cut short with "..." when `limit` (0: none) would be exceeded.
void write_table(std::ostream& out, const std::string& title, const std::vector<std::vector<std::string>>& head,
                 std::vector<std::vector<std::string>> cells, const std::vector<std::size_t>& shown,
                 std::size_t limit) {
  if (limit > 0 && table_width(head, cells, shown) > limit) {
    const std::size_t over = table_width(head, cells, shown) - limit;
    const std::size_t keep = std::max<std::size_t>(12, column_widths(head, cells, shown)[0] - over);
    for (auto& row : cells)
      if (row[0].size() > keep) row[0] = row[0].substr(0, keep - 3) + "...";
  }
  const auto width = column_widths(head, cells, shown);
  out << "\n" << title << (title.empty() || title.back() != '\n' ? "\n" : "");
  auto line = [&](const std::vector<std::string>& row) {  // the first column left-aligned, the others right
    std::string text;
    for (std::size_t i = 0; i < shown.size(); ++i) {
      const std::string& cell = row[shown[i]];
      const std::string pad(width[i] - std::min(width[i], cell.size()), ' ');
      text += "  " + (i == 0 ? cell + pad : pad + cell);
    }
    out << text.erase(text.find_last_not_of(' ') + 1) << "\n";
  };
  for (const auto& row : head) line(row);
  out << "  " << std::string(std::accumulate(width.begin(), width.end(), 2 * (width.size() - 1)), '-') << "\n";
  for (const auto& row : cells) line(row);
}
// The names of the columns in `all` but not in `shown`, in the table's order: "flop/B, max error".
std::string left_out(const std::vector<std::string>& head, const std::vector<std::size_t>& shown) {
  std::string names;
  for (std::size_t c = 0; c < head.size(); ++c)
    if (std::find(shown.begin(), shown.end(), c) == shown.end()) names += (names.empty() ? "" : ", ") + head[c];
  return names;
}
}  // namespace

std::string wrap(const std::string& text, std::size_t width, const std::string& first, const std::string& next) {
  std::string result, line = first;
  bool empty = true;  // nothing after the line's indent yet
  std::istringstream words(text);
  for (std::string word; words >> word; empty = false) {
    if (!empty && line.size() + 1 + word.size() > width) result += line + "\n", line = next, empty = true;
    line += (empty ? "" : " ") + word;
  }
  return result + line + "\n";
}

std::string shown_path(const std::filesystem::path& path) {
  std::error_code error;
  const std::filesystem::path relative = std::filesystem::proximate(path, error);
  const std::string absolute = path.string();
  return error || relative.empty() || relative.string().size() >= absolute.size() ? absolute : relative.string();
}

void TextTable::print(std::ostream& out, const std::filesystem::path& full_table) const {
  const char* setting = std::getenv("COURSE_TABLE");
  const bool whole = setting && std::string(setting) == "full";
  std::vector<std::size_t> all(head.size());
  std::iota(all.begin(), all.end(), 0);
  std::vector<std::size_t> shown = all;
  auto heads = header_lines(head, false);
  if (!whole) {
    if (two_line_header && table_width(heads, rows, shown) > 80) heads = header_lines(head, true);
    for (std::size_t drop : drop_order)
      if (table_width(heads, rows, shown) > 80) shown.erase(std::find(shown.begin(), shown.end(), drop));
  }
  const bool narrowed = !whole && (shown.size() < all.size() || table_width(heads, rows, shown) > 80);
  write_table(out, whole || title.size() <= 80 ? title : wrap(short_title.empty() ? title : short_title), heads,
              rows, shown, whole ? 0 : 80);
  for (const auto& l : notes) out << (whole ? "    " + l + "\n" : wrap(l, 80, "    ", "      "));
  if (!narrowed) return;
  const std::string dropped = shown.size() < all.size() ? "left out to fit 80 columns: " + left_out(head, shown) : "";
  if (full_table.empty()) {
    out << wrap((dropped.empty() ? "names cut short to fit 80 columns" : dropped) + "; COURSE_TABLE=full prints them all",
                80, "    ", "      ");
    return;
  }
  std::error_code ec;
  if (full_table.has_parent_path()) std::filesystem::create_directories(full_table.parent_path(), ec);
  std::ofstream file(full_table);
  write_table(file, title, header_lines(head, false), rows, all, 0);
  for (const auto& l : notes) file << "    " << l << "\n";
  out << wrap((dropped.empty() ? "" : dropped + "; ") + "every column: " + shown_path(full_table) +
                  (file ? "" : " (could not be written)"),
              80, "    ", "      ");
}

}  // namespace course
