/// @file warp_runs.hpp
/// @brief Lesson 09's warp variants run on a device: built, launched, timed and verified. Lesson
/// 11 runs them too, to search their work-group shapes, and lesson 09 runs the winner it stored.
#pragma once

#include <CL/opencl.hpp>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "device.hpp"
#include "image.hpp"
#include "report.hpp"
#include "transform_reference.hpp"

namespace course {

/// @brief One way of warping: its kernel, and how it reads the picture.
struct WarpVariant {
  std::string name;     ///< As the table shows it.
  std::string kernel;   ///< Kernel function, in image_warp.cl or buffer_warp.cl.
  bool image_input;     ///< An image object and a linear sampler, else a plain buffer.
  int pixels_per_item;  ///< Output pixels each work-item computes along its row.
};

/// @brief The four variants, the two image ones first.
const std::vector<WarpVariant>& warp_variants();

/// @brief Lesson 09's program `file` (image_warp.cl or buffer_warp.cl) built for the map `m`:
/// -D PROJECTIVE=0 or 1, and the folder of four_pixels.h, which both files include.
cl::Program build_warp_program(const DeviceContext& dc, const std::string& file, const Transform& m);

/// @brief Whether the device holds RGBA8 images of `width` x `height` that the sampler variants read.
bool rgba8_images(const DeviceContext& dc, int width, int height);

/// @brief Warps `input` by `m` into `out_width` x `out_height` pixels with `variant`: upload,
/// kernel and download timed together by event profiling (the row's end-to-end time), the
/// kernel's own median from its events, the result (also left in `result`) checked against
/// `reference` (4 floats per pixel). `local` is the work-group shape; NullRange takes up to
/// 16x16, within what the device and the kernel allow. A `local` over the compiled kernel's
/// limit (CL_KERNEL_WORK_GROUP_SIZE) throws DeviceLimitError before anything is launched.
ResultRow run_warp(const DeviceContext& dc, const WarpVariant& variant, const RgbaImage& input, const Transform& m,
                   int out_width, int out_height, const std::vector<float>& reference, int repeat, RgbaImage& result,
                   const cl::NDRange& local = cl::NullRange);

/// @brief The winner lesson 11 stored for the bilinear warp on this device, driver and picture
/// size (tuning_cache.hpp), run with run_warp() on `picture` by `m`, as the row "tuned <variant>
/// <group>, <outputs> outputs, vector 1"; nothing when none is stored or it cannot run here.
/// Prints one line saying which, or which `./course run 11` finds one.
std::optional<ResultRow> run_tuned_warp(const DeviceContext& dc, const RgbaImage& picture, const Transform& m,
                                        const std::vector<float>& reference, int repeat, std::ostream& out);

}  // namespace course
