// Printing and saving the sweep tables of lesson 07.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "lesson07.hpp"

namespace lesson07 {

std::string fixed(double value, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << value;
  return s.str();
}

void SweepTable::print() const {
  std::vector<std::size_t> width(columns.size());
  for (std::size_t c = 0; c < columns.size(); ++c) width[c] = columns[c].size();
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], row[c].size());
  std::cout << "\n" << title << "\n";
  auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cells.size() && c < width.size(); ++c)
      std::cout << (c ? "  " : "  ") << std::setw(static_cast<int>(width[c])) << cells[c];
    std::cout << "\n";
  };
  line(columns);
  for (const auto& row : rows) line(row);
}

void SweepTable::save(const std::string& dir, const std::string& stem) const {
  std::filesystem::create_directories(dir);
  const auto base = std::filesystem::path(dir) / stem;
  // Write beside the target, then rename: an interrupted run never leaves half a table.
  auto write = [](const std::filesystem::path& path, const std::string& text) {
    const auto partial = std::filesystem::path(path.string() + ".partial");
    {
      std::ofstream out(partial, std::ios::binary | std::ios::trunc);
      out << text;
      if (!out.flush()) throw course::InputError("cannot write '" + path.string() + "'");
    }
    std::filesystem::rename(partial, path);
  };
  std::ostringstream md, csv;
  md << "| " << columns[0];
  for (std::size_t c = 1; c < columns.size(); ++c) md << " | " << columns[c];
  md << " |\n|";
  for (std::size_t c = 0; c < columns.size(); ++c) md << " --- |";
  md << "\n";
  for (const auto& row : rows) {
    md << "|";
    for (const auto& cell : row) md << " " << cell << " |";
    md << "\n";
  }
  auto quoted = [](const std::string& cell) {
    return cell.find_first_of(",\"") == std::string::npos ? cell : "\"" + cell + "\"";
  };
  for (std::size_t c = 0; c < columns.size(); ++c) csv << (c ? "," : "") << quoted(columns[c]);
  csv << "\n";
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) csv << (c ? "," : "") << quoted(row[c]);
    csv << "\n";
  }
  write(base.string() + ".md", md.str());
  write(base.string() + ".csv", csv.str());
}

}  // namespace lesson07
