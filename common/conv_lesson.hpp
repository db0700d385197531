/// @file conv_lesson.hpp
/// @brief Host steps the convolution lessons share: choosing variants, a legal work-group
/// shape, the image and weights on the device, and one measured, verified row of the table.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "device.hpp"
#include "image.hpp"
#include "options.hpp"
#include "report.hpp"

namespace course {

/// @brief Largest difference in gray levels a float kernel may have from the double reference.
/// Float sums of up to 33 x 33 terms of values below 256 stay well inside it.
constexpr double kConvTolerance = 0.02;

/// @brief Adds `--variant NAME` (default `all`) listing `variants` in its help.
void conv_add_variant_option(Options& options, const std::vector<std::string>& variants);

/// @brief The variants `--variant` asks for, in the lesson's order: all of them, or the one
/// named. Throws UsageError listing the names otherwise.
std::vector<std::string> conv_chosen_variants(const Options& options, const std::vector<std::string>& variants);

/// @brief A 2D work-group shape no larger than `want_x` x `want_y` that this kernel may use on
/// this device: within CL_KERNEL_WORK_GROUP_SIZE and CL_DEVICE_MAX_WORK_ITEM_SIZES. The larger
/// side is halved until it fits, so 16x16 stays 16x16 where allowed and becomes 16x8 or 8x8 on
/// a device that allows fewer work-items.
cl::NDRange conv_local_size(const DeviceContext& dc, const cl::Kernel& kernel, std::size_t want_x, std::size_t want_y);

/// @brief The input image, the (2R+1)^2 weights and the output, in device buffers.
struct ConvBuffers {
  /// @brief Allocates the buffers and uploads the image and the weights (blocking).
  ConvBuffers(const DeviceContext& dc, const GrayImage& image, const std::vector<float>& weights_2d);
  cl::Buffer input;       ///< width x height floats, row-major.
  cl::Buffer weights;     ///< (2R+1)^2 floats, w(i, j) at [(j + R) * (2R + 1) + (i + R)].
  cl::Buffer output;      ///< width x height floats.
  int width = 0;          ///< Image width in pixels.
  int height = 0;         ///< Image height in pixels.
  std::size_t bytes = 0;  ///< Bytes of one image buffer.
};

/// @brief Measures one variant and checks it against the reference.
///
/// `launch` enqueues the variant's kernel(s) on dc.queue and returns their events. The kernel
/// time is the median of `repeat` runs (time_events); the end-to-end time adds an upload of the
/// image and a download of the result around the kernel. The result read back goes to `result`;
/// the row is verified when every pixel is within kConvTolerance of `reference`.
ResultRow conv_measure(const DeviceContext& dc, const ConvBuffers& buffers, const GrayImage& image,
                       const GrayImage& reference, const std::string& variant, int repeat,
                       const std::function<std::vector<cl::Event>()>& launch, GrayImage& result);

/// @brief One variant that is a single kernel launch over `range` in `group`-sized work-groups:
/// measures it with conv_measure(), adds its row to `table`, prints the first mismatches when it
/// does not verify, and saves `<--output-dir>/<variant>.png` unless `--output` names one file.
void conv_run_variant(const DeviceContext& dc, const ConvBuffers& buffers, const GrayImage& image,
                      const GrayImage& reference, const std::string& variant, int repeat, const cl::Kernel& kernel,
                      const cl::NDRange& range, const cl::NDRange& group, const Options& options, ResultsTable& table,
                      GrayImage& result);

}  // namespace course
