/// @file conv_lesson.hpp
/// @brief Host steps the convolution lessons (02, 03) share: the image and weights on the device,
/// and one measured, verified row of the table.
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

/// @brief Largest difference in gray levels a float kernel may have from the double reference.
/// Float sums of up to 33 x 33 terms of values below 256 stay well inside it.
constexpr double kConvTolerance = 0.02;

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
  std::size_t taps = 0;   ///< (2R+1)^2: the multiply-adds per output pixel.
};

/// @brief Measures one variant with measure_image(), checks it against the reference and adds its
/// row to `table`.
///
/// `launch` enqueues the variant's kernel(s) on dc.queue and returns their events. The output is
/// poisoned with NaN first; the kernel time is the median of `repeat` runs (time_events); the
/// end-to-end time is time_end_to_end(): the image up, the kernels, the result down. The result
/// read back goes to `result`; the row is verified when every pixel is within kConvTolerance of
/// `reference`, and the first mismatches are printed when it is not. Its flops are 2 per weight
/// and pixel (a multiply-add each).
void conv_measure(const DeviceContext& dc, const ConvBuffers& buffers, const GrayImage& image,
                  const GrayImage& reference, const std::string& variant, int repeat,
                  const std::function<std::vector<cl::Event>()>& launch, ResultsTable& table, GrayImage& result);

}  // namespace course
