/// @file median_filters.hpp
/// @brief Lesson 06's variants of the median filter, run on a device; salt-and-pepper noise
/// and PSNR for its noise demo.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "device.hpp"
#include "image.hpp"
#include "kernel_resources.hpp"
#include "options.hpp"
#include "program.hpp"
#include "timing.hpp"

namespace course {

/// @brief The smallest median window the lesson takes (K x K, K odd).
constexpr int kMinMedianWindow = 3;
/// @brief The largest median window the lesson takes: 81 values, padded to 128 by the bitonic sort.
constexpr int kMaxMedianWindow = 9;

/// @brief One way of computing the median on the device.
struct MedianVariant {
  std::string name;         ///< As `--variant` takes it, e.g. "insertion_sort".
  std::string file;         ///< Kernel file under kernels/06_median_sorting_networks/.
  std::string kernel;       ///< Kernel function name.
  int only_window;          ///< The one window size it handles (3), or 0 for any.
  bool blocked;             ///< True when a work-item computes a block of outputs (see MedianBlock).
  bool even_block = false;  ///< True when it computes outputs in pairs both ways: even vector and strip.
  bool packed = false;      ///< True when every value holds two 8-bit pixels (8-bit pixels only).
};

/// @brief The block of outputs one work-item of a blocked variant computes.
struct MedianBlock {
  int vector = 1;  ///< Outputs along a row: shared_sorted_rows holds them in one vector (1 to 16).
  int strip = 1;   ///< Rows down the image.
  int lanes = 1;   ///< Merged variants: tiles of vector x strip side by side in one vector value;
                   ///< network_3x3_rows: vectors side by side, each its own value.
};

/// @brief The block for a variant: 1 x 1 for per-pixel variants; for network_3x3_rows 4 lanes of
/// vectors side by side where the device prefers vectors, else 1, and for it and
/// shared_sorted_rows `vector` lanes (0 = the device's preferred vector width for the pixel type, at
/// most 16) and a strip that shrinks as the window grows, so the sorted rows stay few enough to
/// fit in registers; for the merged variants 2 rows; along a row `vector` outputs if given (made
/// even, at least 2), else 8, or 2 for merged_columns where the device prefers 8 lanes or more;
/// and as many lanes as the device prefers up to 32 pixels a row in all (merged_columns), or 2
/// (merged_pairs).
MedianBlock median_block(const DeviceContext& dc, const MedianVariant& variant, int window, bool eight_bit,
                         int vector = 0);

/// @brief Pixels of a row one work-item computes with `block`: vector x lanes.
int median_row_pixels(const MedianBlock& block);

/// @brief Why `block` does not suit `variant`, or "" when it does (the merged variants compute
/// outputs in pairs: even vector and strip).
std::string median_block_problem(const MedianVariant& variant, const MedianBlock& block);

/// @brief Every variant, slowest first: insertion_sort, bitonic_sort, network_3x3,
/// network_3x3_rows (the 3x3 network on vectors along a row: the CPU's rung), shared_sorted_rows,
/// merged_columns and (8-bit pixels only) merged_pairs.
const std::vector<MedianVariant>& median_variants();

/// @brief The variants' names, in that order, as `--variant` lists them.
std::vector<std::string> median_variant_names();

/// @brief The variant called `name`; std::invalid_argument for a name that is none of them.
const MedianVariant& median_variant(const std::string& name);

/// @brief The steps of Batcher's odd-even merges that turn `runs` sorted runs of `length` values,
/// run k starting at place k `slot` (a power of two >= length), into one sorted list at the start,
/// as merged_columns.cl takes them: EXCHANGE(i,j) (the smaller value to i) and MOVE(i,j) (a value
/// down into an empty place). Empty places count as larger than any value.
std::string odd_even_merge_steps(int runs, int length, int slot);

/// @brief True on NVIDIA GPUs of compute capability 9.0 and later, whose PTX has min.u16x2 and
/// max.u16x2: merged_pairs then uses them (-D PTX_MIN_U16X2).
bool has_u16x2_min_max(const cl::Device& device);

/// @brief Reads `--window K`: odd, from kMinMedianWindow to kMaxMedianWindow; anything else is a
/// UsageError that states the limits.
int read_median_window(const Options& options);

/// @brief The image with every value rounded to the nearest 8-bit level in [0, 255], as
/// save_png() stores it.
GrayImage quantize_to_8bit(const GrayImage& image);

/// @brief A copy where a fraction `fraction` (0..1) of the pixels, chosen by `seed`, is set to 0
/// or 255 with equal odds: salt-and-pepper noise.
GrayImage add_salt_and_pepper(const GrayImage& image, double fraction, std::uint32_t seed);

/// @brief Peak signal-to-noise ratio in dB of `image` against `clean` (peak 255), after rounding
/// both to 8 bits; infinite when they are equal.
double psnr(const GrayImage& image, const GrayImage& clean);

/// @brief The result of one variant and how long its kernel took.
struct MedianRun {
  GrayImage result;         ///< The filtered image (values are 8-bit levels for 8-bit runs).
  Timing timing;            ///< Event-profiled kernel time.
  Timing end_to_end;        ///< Upload + kernel + download, event-profiled.
  std::size_t local_x = 0;  ///< Work-group width used.
  std::size_t local_y = 0;  ///< Work-group height used.
  MedianBlock block;        ///< Outputs per work-item.
  KernelResources used;     ///< Registers, spills, private and local memory of the kernel as built.
  std::string note;         ///< A line about how it was built, when there is one to say.
};

/// @brief The compiler options of a variant: WINDOW, PIXEL and what that variant needs, for an
/// image `width` pixels wide (rows start on 4-pixel boundaries when it is a multiple of 4).
std::string median_build_options(const DeviceContext& dc, const MedianVariant& variant, int window, bool eight_bit,
                                 const MedianBlock& block, int width);

/// @brief Builds `variant` with median_build_options(); where the device's compiler refuses the
/// inline PTX of merged_pairs, builds it again without (ushort2 min and max) and says so in
/// `*note`. `*options` receives the options it was built with.
cl::Program build_median_program(const DeviceContext& dc, const MedianVariant& variant, int window, bool eight_bit,
                                 const MedianBlock& block, int width, std::string* options, std::string* note,
                                 BuildStats* stats = nullptr);

/// @brief Runs `variant` over `image` with a `window` x `window` median, on floats or, when
/// `eight_bit`, on an 8-bit copy of the image. The work-group shape is chosen within the
/// device's and the kernel's limits, near `want_x` x `want_y` work-items; `vector` as in
/// median_block(). Times `repeat` runs after a warm-up.
MedianRun run_median(const DeviceContext& dc, const MedianVariant& variant, const GrayImage& image, int window,
                     bool eight_bit, int repeat, std::size_t want_x = 64, std::size_t want_y = 4, int vector = 0);

/// @brief run_median() with the block given in full (vector, strip and lanes).
MedianRun run_median_block(const DeviceContext& dc, const MedianVariant& variant, const GrayImage& image, int window,
                           bool eight_bit, int repeat, std::size_t want_x, std::size_t want_y,
                           const MedianBlock& block);

/// @brief Median of the K x K window around each pixel (K odd), borders clamped: the CPU
/// reference every median kernel is checked against. Its rows are shared out over `threads`
/// std::threads (0: one per core, as course::parallel_rows()); the result is the same on any.
GrayImage median_filter(const GrayImage& in, int window, unsigned threads = 0);

}  // namespace course
