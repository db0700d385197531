// Lesson 13's results table: a row per run (a device alone, a split, an iterated filter), its
// kernel time its slowest device's, and under each run of several devices a row per device: its
// rows, the wall time it ran no kernel, the bytes it moved, its commands' times summed from their
// events. Times are marked as every results table marks them (`*` too short to time, `+` held by
// the last-level cache, `~` a speed-up within the spread of the timed runs). Printed fitted to 80
// columns, whole into results.txt, and written to the --record file, each row under the name a
// page quotes it by.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "band_run.hpp"
#include "device_set.hpp"

namespace lesson13 {

using course::fixed;  // a number with `digits` decimals

// A run as the table shows it.
struct Measured {
  SplitRun run;           // its name is the row's
  double max_error = 0;   // against the CPU reference
  bool verified = false;  // within the lesson's tolerance
  int steps = 1;          // times it filtered the picture
  int against = -1;       // the run whose kernel time its speed-up divides by (-1: none)
  bool alone = false;     // one device: one row, none under it
};

// Prints the table on stdout (whole into `dir`/results.txt when it does not fit 80 columns) and
// adds it to the --record file.
void print_split_table(const std::string& title, const std::vector<Measured>& measured,
                       const std::vector<Worker>& workers, int width, const std::filesystem::path& dir);

}  // namespace lesson13
