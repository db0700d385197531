/// @file run_record.hpp
/// @brief A recorded run read back (`--record FILE`, format 1, which harness/runs/record.cpp
/// writes): one of its tables as the lesson held it, its roofline and rows, so that a chart can
/// be drawn again from the run a page quotes (harness/tools/record_chart.cpp).
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "json_value.hpp"
#include "report.hpp"

namespace course {

/// @brief The file is not a run record the course wrote: not JSON, not format 1, or a field
/// missing or of the wrong kind. what() names the file and what is wrong.
struct RecordFormatError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// @brief The record holds no such table, or the table lacks what a chart needs.
struct MissingTableError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// @brief One table of a record, ready to be drawn.
struct RecordedTable {
  std::string title;        ///< The table's title, as the lesson printed it.
  std::string device;       ///< The device as a lesson names it under a chart (describe()).
  std::string device_name;  ///< The device's name alone.
  Roofline roof;            ///< The table's roofline; its 8-bit and half copies from the table's.
  std::vector<ResultRow> rows;
  std::vector<std::string> marks;  ///< Each row's marks as the table printed them after its time.
};

/// @brief Table `number` (from 1) of the record in `path`. Throws InputError when the file cannot
/// be read, RecordFormatError when it is not a run record, MissingTableError when it has fewer
/// tables or the table no rows.
RecordedTable read_recorded_table(const std::filesystem::path& path, int number);

}  // namespace course
