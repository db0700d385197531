// Printing and saving the sweep tables of lesson 07.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "lesson07.hpp"
#include "record.hpp"

namespace lesson07 {

void SweepTable::print(const std::string& dir, const std::string& stem, const course::Roofline& roof) const {
  course::TextTable{title, columns, rows, notes, drop_order, true, ""}.print(std::cout,
                                                                             std::filesystem::path(dir) / (stem + ".txt"));
  if (!recorded.empty()) course::record_sweep(title, roof, recorded, columns, rows, notes);
}

course::ResultRow sweep_row(const std::string& name, double ms, bool verified) {
  course::ResultRow row;
  row.variant = name;
  row.kernel_ms = ms;
  row.verified = verified;
  row.baseline = "-";
  return row;
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
