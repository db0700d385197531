/// @file strip_waves.hpp
/// @brief Lesson 05's strip sweep (--strips): single_pass_blocked's strip lengths, timed and
/// verified, beside the wave model: G groups on a device that holds N at once (counted by the
/// kernel, -D COUNT_LIVE) run in ceil(G / N) waves, and a part-empty last one leaves cores idle.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "course.hpp"
#include "separable_host.hpp"

namespace course {

/// @brief The strip lengths of --strips, "64,256,1024" (none for ""); a UsageError for anything
/// but whole numbers from 1 to 65536.
std::vector<std::size_t> parse_strips(const std::string& text);

/// @brief One strip length of the sweep: its launch and its times.
struct StripPoint {
  std::size_t strip = 0;    ///< Rows a group walks down.
  std::size_t groups = 0;   ///< Work-groups the launch has.
  std::size_t rows = 0;     ///< Rows a (full) group reads and writes: its strip + 2R read, its strip written.
  double predicted_ms = 0;  ///< The wave model's time: whole waves.
  double no_tail_ms = 0;    ///< The same model with the last wave counted only as full as it is.
  ResultRow row;            ///< The measured row: its kernel time (the median), verified, spread, bytes, flops.
};

/// @brief Fills each point's predicted_ms and no_tail_ms from `resident` groups at once: a group's
/// time in proportion to its rows, a launch's to its waves (whole, or fractional for no_tail_ms),
/// fitted to the point with the most waves (where the tail weighs least), whose index it returns.
std::size_t predict_strip_times(std::vector<StripPoint>& points, std::size_t resident);

/// @brief The most groups of single_pass_blocked (the shipped shape, strips of `strip` rows) that
/// ran at once on the device, counted by the kernel over two launches.
std::size_t count_resident_groups(const DeviceContext& dc, const SeparableBuffers& buffers, int radius, int steps,
                                  std::size_t strip);

/// @brief Runs the sweep over `strips` (each rounded up to whole tiles), verifies every point
/// against `reference`, prints the table to `out`, records it (`--record FILE`: after the
/// results table, each row named strip_ROWS, its kernel time the measured one, measured against
/// `roof`) and returns whether every point verified.
bool run_strip_sweep(const DeviceContext& dc, const SeparableBuffers& buffers, const GrayImage& reference, int radius,
                     int steps, const std::vector<std::size_t>& strips, int repeat, const Roofline& roof,
                     std::ostream& out);

}  // namespace course
