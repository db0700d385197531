/// @file record.hpp
/// @brief `--record FILE`: a lesson's results tables written as JSON, with the command, the
/// course's commit, the date, the device, its driver and clocks, so that a page can quote a run by
/// name (harness/site/expand_runs.py) and `git diff` shows what a re-measurement changed.
#pragma once

#include <string>
#include <vector>

#include "device.hpp"
#include "options.hpp"

namespace course {

class ResultsTable;
struct ResultRow;
struct Roofline;

/// @brief Declares `--record FILE`; once the options are parsed, checks that FILE can be written
/// (a RecordError otherwise, before any work) and starts the record of this process, which from
/// then on names each device open_device() opens and keeps each table ResultsTable::print()
/// prints. Every lesson has it among its image options (record_option.cpp).
void add_record_option(Options& options);

/// @brief Names what started the recorded command in place of the lesson's own command: lesson
/// 13's `--mpi` records `mpirun -np 2 build/lessons/lesson_13 --mpi ...`, not `./course run 13 ...`.
void record_launcher(const std::string& launcher);

/// @brief Notes the device a lesson runs on, for the record (nothing when `--record` was not given).
void record_device(const DeviceContext& dc);

/// @brief Notes a compiler in place of a device, for a record of what a compiler makes of the
/// kernels rather than of a run on one (harness/tools/ptx_minmax.cpp): its program, the target it
/// compiles for and the version it reports. Nothing when `--record` was not given.
void record_compiler(const std::string& program, const std::string& target, const std::string& version);

/// @brief Adds a printed results table (its title, roofline, the copies its rows divide by, every
/// row's fields, marks, copy and roofline time, and the cells and notes as printed) to the record
/// and writes the file again, whole: a temporary file renamed over it, so it is never
/// half-written. Nothing when `--record` was not given. A table printed again replaces its
/// earlier entry.
void record_table(const ResultsTable& table, const std::vector<std::string>& head,
                  const std::vector<std::vector<std::string>>& cells, const std::vector<std::string>& notes);

/// @brief The same for a table of a lesson's own columns (a TextTable, such as lesson 13's): `rows`
/// gives the measured fields of each printed row of `cells`, one for one, its variant the name a
/// page quotes the row by (unique in the table); its marks are those printed after its "kernel
/// ms", and `roof` the limits they were judged by. A table printed again under the same title
/// replaces its earlier entry.
void record_table(const std::string& title, const Roofline& roof, const std::vector<ResultRow>& rows,
                  const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& cells,
                  const std::vector<std::string>& notes);

/// @brief The same for a sweep a lesson prints before its results table (lesson 07's sweeps,
/// lesson 05's strips, lesson 11's searches): kept after every table recorded by the two above,
/// whenever it was printed, so that the results table stays the record's first (`#1` on a page)
/// and the sweeps follow it in the order printed. A sweep prints no marks: a row's are those
/// the results table would print for its kernel time and bytes (time_marks(); none for a row
/// whose kernel time is NaN, a row of several times or of none).
void record_sweep(const std::string& title, const Roofline& roof, const std::vector<ResultRow>& rows,
                  const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& cells,
                  const std::vector<std::string>& notes);

}  // namespace course
