/// @file separable_host.hpp
/// @brief Host steps shared by the separable-filter lessons (04, 05, 11, 12): buffers, legal work-group
/// shapes, and timing plus verification of one variant.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "device.hpp"
#include "image.hpp"
#include "report.hpp"

namespace course {

/// @brief The device buffers of a separable filter: input, the row pass's result, output, weights.
struct SeparableBuffers {
  int width = 0;            ///< Image width in pixels.
  int height = 0;           ///< Image height in pixels.
  cl::Buffer input;         ///< The gray image, floats.
  cl::Buffer intermediate;  ///< The row-filtered image between the two passes.
  cl::Buffer output;        ///< The filtered image.
  cl::Buffer weights;       ///< The 2R+1 one-dimensional weights.
  cl::Buffer weights_2d;    ///< The (2R+1)^2 two-dimensional weights, for 2D kernels.
  int taps = 0;             ///< 2R+1: the multiply-adds per output pixel of one pass.
};

/// @brief Allocates the buffers and uploads the image and both weight tables.
SeparableBuffers make_separable_buffers(const DeviceContext& dc, const GrayImage& image,
                                        const std::vector<float>& weights);

/// @brief What measure_variant() returns: the table row and the image read back.
struct VariantResult {
  ResultRow row;    ///< Timing and verification.
  GrayImage image;  ///< The variant's output.
  std::vector<double> pass_ms;  ///< Each kernel's median time, in launch order (Timing::command_ms).
};

/// @brief Measures a variant with measure_image(): the output poisoned with NaN, `enqueue` (which
/// launches the variant's kernels and returns their events) timed with time_events(), then, when
/// `image` is given, end to end with time_end_to_end() (`image` up, the kernels, the result down),
/// and the result compared with `reference` (tolerance in gray levels). `passes` counts
/// how often the image goes through memory (1 read + 1 write each), for the GB/s column; the
/// flops are a separable filter's, a multiply-add per tap in each direction.
VariantResult measure_variant(const DeviceContext& dc, const SeparableBuffers& buffers, const GrayImage* image,
                              const std::string& name, const std::function<std::vector<cl::Event>()>& enqueue,
                              const GrayImage& reference, int repeat, int passes, double tolerance = 0.02);

/// @brief 2R+1 weights rising from left to right and summing to 1, so that w(-i) != w(i): a
/// kernel that reads its window upside down gives a different result with them.
std::vector<float> lopsided_weights(int radius);

/// @brief Launches a 2D kernel over `items_x` x `items_y` work-items, rounded up to whole groups.
cl::Event launch_2d(const DeviceContext& dc, cl::Kernel& kernel, std::size_t items_x, std::size_t items_y,
                    const cl::NDRange& local);

/// @brief Sets the arguments the filter kernels take first: input, output, weights, width,
/// height.
void set_image_args(cl::Kernel& kernel, const cl::Buffer& in, const cl::Buffer& out, const cl::Buffer& weights,
                    const SeparableBuffers& buffers);

}  // namespace course
