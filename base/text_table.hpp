/// @file text_table.hpp
/// @brief Text for an 80-column terminal: paragraphs wrapped at words, and tables that fit.
#pragma once

#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace course {

/// `path` as printed for the student: relative to the folder the command was typed in when that
/// is shorter, so that a long checkout's absolute path does not overflow 80 columns.
std::string shown_path(const std::filesystem::path& path);

/// @brief `text` broken at spaces into lines of at most `width` columns, the first after `first`,
/// the others after `next`; each line ends with a newline. A word longer than a line stays whole.
std::string wrap(const std::string& text, std::size_t width = 80, const std::string& first = "",
                 const std::string& next = "  ");

/// @brief A table of text cells as every lesson prints it: a blank line, the title, the header, a
/// rule, the rows (the first column left-aligned, the others right-aligned), then the notes,
/// indented by four spaces and wrapped at 80 columns. A table wider than 80 columns first breaks
/// its header names over two lines (when `two_line_header`), then leaves out columns in
/// `drop_order` until it fits, and cuts the first column's long names short with "..."; it says
/// which columns it left out and writes the whole table to `full_table` (when one is given).
/// $COURSE_TABLE=full prints every table whole.
struct TextTable {
  std::string title;                            ///< Printed above the table.
  std::vector<std::string> head;                ///< The columns' names.
  std::vector<std::vector<std::string>> rows;   ///< One cell per column.
  std::vector<std::string> notes;               ///< Lines under the table.
  std::vector<std::size_t> drop_order;          ///< Columns, in the order they leave a narrow table.
  bool two_line_header = false;                 ///< Header names may take two lines before a column goes.
  std::string short_title;                      ///< Printed, wrapped, for a title wider than 80 columns (empty: the title).

  /// @brief Prints the table on `out`, fitted to 80 columns unless $COURSE_TABLE=full; when it
  /// left something out, writes it whole to `full_table` and names that file (without one, says
  /// that COURSE_TABLE=full prints it whole).
  void print(std::ostream& out, const std::filesystem::path& full_table = {}) const;
};

}  // namespace course
