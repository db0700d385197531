// Lesson 06's picture: the 3x3 network as a comparator diagram, read from network_3x3.cl, and
// the sorted columns that neighbouring outputs share in merged_columns.cl.
#pragma once

#include <string>
#include <vector>

namespace course {

/// One step of a sorting network on the wires p0..p8: a compare-exchange (the smaller value to
/// `low`, the larger to `high`) or half of one, which keeps only the min or the max in `kept`.
struct NetworkStep {
  int low = 0, high = 0;   ///< The wires compared (an exchange: min to low, max to high).
  int kept = -1;           ///< Half an exchange: the wire that receives the result; -1 for a whole one.
  bool keeps_max = false;  ///< Half an exchange: true for max, false for min.
  int stage = 0;           ///< Which commented group of the kernel the step belongs to (from 0).
};

/// The steps of a kernel source written as `compare_exchange(&pA, &pB);`, `pX = max(pA, pB);` and
/// `pX = min(pA, pB);`, in order, with the first sentence of the comment above each group in `stages`.
std::vector<NetworkStep> read_network(const std::string& source, std::vector<std::string>& stages);

/// The SVG text: the comparator diagram of `steps` on nine wires, coloured by stage; under it, one
/// row of the image as merged_columns sorts it for `window` x `window` medians in tiles of
/// `vector` outputs: each column sorted once per tile, the K - 1 columns each pair of outputs
/// merges once, and the K - 1 columns the next tile sorts again.
std::string network_svg(const std::vector<NetworkStep>& steps, const std::vector<std::string>& stages, int window,
                        int vector);

}  // namespace course
