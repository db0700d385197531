// Lesson 11: the kernel families the tuner searches, each from an earlier lesson's kernel files
// (reused by path, their parameters given as -D values): the separable blur of lessons 04/05,
// the 3x3 and 5x5 medians of lesson 06 (float and 8-bit pixels) and the bilinear warps of
// lesson 09. A family holds its search space, its legality rule and how to compile, verify and
// time one candidate.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "blocked_2d.hpp"
#include "course.hpp"
#include "transform_reference.hpp"
#include "tuner.hpp"

namespace lesson11 {

/// How many candidates a family's space holds: `small` (the tour's, a few dozen) or `full`.
enum class SpaceSize { small, full };

/// What the families run on: the device, the image and the timing repeat count.
struct Setup {
  const course::DeviceContext* dc = nullptr;
  const course::GrayImage* image = nullptr;
  int repeat = 5;
  SpaceSize size = SpaceSize::small;
  std::vector<std::string> variants;             // the variants to search (--variant); the shipped one at its defaults
  const course::GrayImage* reference = nullptr;  // the CPU reference, when the caller has computed it
};

/// Every variant of the families, in the order --variant lists them.
const std::vector<std::string>& all_variants();

/// One operation --op names: its name there, what it is (for --help) and, for the medians of
/// lesson 06, the window and the pixels.
struct TunedOp {
  std::string name;  // "separable", "median", "median5", "median-u8", "median5-u8", "warp", "conv2d"
  std::string what;
  int window = 0;  // the median's window; 0 for the others
  bool eight_bit = false;
};

/// Every operation lesson 11 tunes, in the order --help lists them.
const std::vector<TunedOp>& tuned_ops();

/// The cache's name for a median: "median 3x3 float", "median 5x5 u8".
std::string median_operation(int window, bool eight_bit);

/// The --op of lesson 06's median of `window` x `window` float or 8-bit pixels; nullptr when
/// lesson 11 does not tune that one.
const TunedOp* median_op(int window, bool eight_bit);

/// The separable Gaussian of lesson 05 (radius given) with its variants: separable_unrolled,
/// several_outputs, vector_passes, aligned_passes, single_pass_local and single_pass_blocked (whose
/// groups walk down strips of the "strip" axis's rows). Holds its buffers and CPU reference.
std::shared_ptr<tuning::Family> separable_family(const Setup& setup, const course::FilterSpec& filter);

/// Whether the device's compiler takes NVIDIA's options (cl_nv_compiler_options), among them
/// -cl-nv-maxrregcount, the cap on registers per work-item that course::Block2D::max_registers sets.
bool caps_registers(const course::DeviceContext& dc);

/// Why lesson 05's `block` cannot be built on this device ("" when it can): float4s outside 1..4,
/// a strip under 1, a register cap outside 32..255 or on a device without caps_registers().
std::string block_2d_problem(const course::DeviceContext& dc, const course::Block2D& block);

/// The register-blocked 2D convolution of lesson 05 (blocked_2d.cl, the Gaussian `filter` as a
/// (2R+1)^2 square): its columns a work-item ("vector": 4, 8, ...), the rows of its strip
/// ("outputs"), the work-group shape and, where NVIDIA's compiler options are, a cap on a
/// work-item's registers ("registers", 0 for none). Its operation is "conv2d <filter>".
std::shared_ptr<tuning::Family> conv2d_family(const Setup& setup, const course::FilterSpec& filter);

/// The median of lesson 06 (`op` one of median_op()'s), on float or 8-bit pixels: network_3x3
/// (3x3 only), shared_sorted_rows, merged_columns and (8-bit only) merged_pairs. Its operation is
/// "median 3x3 float", "median 5x5 u8", ...
std::shared_ptr<tuning::Family> median_family(const Setup& setup, const TunedOp& op);

/// The bilinear warp of lesson 09 of an RGBA8 `picture` by `m`: image_warp (an image and a
/// sampler) or buffer_warp, 1 or 4 output pixels per work-item ("outputs"), and the work-group
/// shape. `reference` is transform_bilinear() of the picture, when the caller has it.
std::shared_ptr<tuning::Family> warp_family(const Setup& setup, const course::RgbaImage& picture,
                                            const course::Transform& m, const std::vector<float>* reference = nullptr);

}  // namespace lesson11
