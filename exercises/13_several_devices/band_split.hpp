// Exercise 13: the arithmetic of a split over several devices, for any picture and any devices.
//
// Lesson 13 gives each device a band of rows. The device computes the rows of its band and
// reads, besides them, the `radius` rows above and below that its column pass needs: its halo.
// At the picture's top and bottom edge the halo stops at the edge (the filter clamps to the
// edge row there, which the band holds itself). The bands follow each device's speed, measured
// on a probe: a device twice as fast gets twice the rows.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace exercise13 {

/// One device's band, rows counted from 0 at the picture's top, both ends included.
struct Band {
  int first = 0;       // the first row the device computes
  int last = -1;       // the last row it computes; last = first - 1 when it computes none
  int read_first = 0;  // the first row it reads: `radius` rows above `first`, never above row 0
  int read_last = -1;  // the last row it reads: `radius` rows below `last`, never past the last row
};

/// Each device's share of the rows from a probe: device k filtered probe_rows[k] rows in
/// probe_ms[k] milliseconds. Shares follow speed (rows per millisecond) and sum to 1.
inline std::vector<double> shares_from_probe(const std::vector<int>& probe_rows, const std::vector<double>& probe_ms) {
  /* >>> GAP 1: each device's speed, then its share of the total speed. */
  (void)probe_ms;
  return std::vector<double>(probe_rows.size(), 1.0 / probe_rows.size());
  /* <<< GAP 1 */
}

/// The bands of a picture `height` rows tall for devices with these shares (positive, any
/// scale), in device order: together they hold every row exactly once, and band k holds
/// height * shares[k] / (sum of shares) rows, rounded either way. A device whose share rounds
/// to no row gets an empty band. Halos as Band says, for a filter of this radius.
inline std::vector<Band> split_bands(int height, const std::vector<double>& shares, int radius) {
  /* >>> GAP 2: first and last row of each band, then the rows it reads. */
  (void)height, (void)radius;
  return std::vector<Band>(shares.size());
  /* <<< GAP 2 */
}

}  // namespace exercise13
