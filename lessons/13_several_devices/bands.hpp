// Lesson 13: how a picture's rows are shared among devices. A band is the rows one device
// computes; its halo is the rows above and below it that the column pass reads, clamped at the
// picture's edges (where clamp-to-edge needs no neighbour's rows).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace lesson13 {

struct Band {
  int first = 0;        // the band's first row in the picture
  int rows = 0;         // rows it computes (0: the device sits this split out)
  int halo_top = 0;     // rows above `first` it reads: min(radius, first)
  int halo_bottom = 0;  // rows below its last row it reads, clamped at the picture's bottom
  int read_first() const { return first - halo_top; }
  int read_rows() const { return halo_top + rows + halo_bottom; }
};

// Bands for `shares` (one per device, any positive scale): band k ends at the row where the
// running sum of shares crosses k + 1 devices' worth, so the bands tile the picture with no gap
// and no overlap, each within one row of its exact share.
std::vector<Band> split_rows(int height, const std::vector<double>& shares, int radius);

// What a device's band costs, measured: a fixed part whatever its rows (launching its two
// passes, waking its threads) and a part per row.
struct Cost {
  double fixed_ms = 0;
  double ms_per_row = 0;
  // (a microsecond at least: a timer that measured nothing gives every device the same speed)
  double rows_per_ms(int rows) const { return rows / std::max(fixed_ms + ms_per_row * rows, 1e-3); }
};

// The cost through two probes of the same filter: `rows_a` rows took `ms_a`, `rows_b` took
// `ms_b`. One probe (rows_a == rows_b), or a second one no slower than the first (noise), gives
// no fixed part: the time per row is then the larger probe's.
Cost cost_from_probes(int rows_a, double ms_a, int rows_b, double ms_b);

// Rows for each device so that every device with rows finishes at the same time T, with
// device k's band taking fixed_ms + ms_per_row * rows: a device whose fixed cost alone exceeds T
// gets none (it would finish last whatever its share). The result sums to `height`; it is
// what split_rows takes as shares.
std::vector<double> balanced_rows(int height, const std::vector<Cost>& costs);

// The halo of rows [first, first + rows) of a picture `height` rows tall.
Band with_halo(int first, int rows, int height, int radius);

// One copy of halo rows between bands: rows [first, first + rows) of the picture, which band
// `from` computes and band `to` reads.
struct HaloCopy {
  int from = 0, to = 0, first = 0, rows = 0;
};

// Every copy that brings each band's halo from the bands that compute those rows. A band
// shorter than the radius passes its neighbours' halos on from further away: a halo may need
// rows of several bands.
std::vector<HaloCopy> halo_copies(const std::vector<Band>& bands);

// "rows 0-33 (+0/+8)": a band and its halo, for the lesson's listing.
std::string describe(const Band& band);

}  // namespace lesson13
