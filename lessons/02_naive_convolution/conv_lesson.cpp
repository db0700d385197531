#include "conv_lesson.hpp"

#include <algorithm>
#include <iostream>
#include <limits>

#include "compare.hpp"
#include "errors.hpp"
#include "image.hpp"
#include "timing.hpp"

namespace course {

ConvBuffers::ConvBuffers(const DeviceContext& dc, const GrayImage& image, const std::vector<float>& weights_2d)
    : width(image.width), height(image.height), bytes(image.pixels.size() * sizeof(float)), taps(weights_2d.size()) {
  input = cl::Buffer(dc.context, CL_MEM_READ_ONLY, bytes);
  output = cl::Buffer(dc.context, CL_MEM_READ_WRITE, bytes);
  weights = cl::Buffer(dc.context, CL_MEM_READ_ONLY, weights_2d.size() * sizeof(float));
  dc.queue.enqueueWriteBuffer(input, CL_TRUE, 0, bytes, image.pixels.data());
  dc.queue.enqueueWriteBuffer(weights, CL_TRUE, 0, weights_2d.size() * sizeof(float), weights_2d.data());
}

void conv_measure(const DeviceContext& dc, const ConvBuffers& buffers, const GrayImage& image,
                  const GrayImage& reference, const std::string& variant, int repeat,
                  const std::function<std::vector<cl::Event>()>& launch, ResultsTable& table, GrayImage& result) {
  cl::CommandQueue queue = dc.queue;
  // NaN in the output first, so a pixel this variant never writes cannot keep the value an
  // earlier variant left there and pass as correct.
  queue.enqueueFillBuffer(buffers.output, std::numeric_limits<float>::quiet_NaN(), 0, buffers.bytes);
  const Timing kernel = time_events(queue, launch, repeat);
  result = GrayImage{buffers.width, buffers.height, std::vector<float>(image.pixels.size())};
  const Timing end_to_end = time_end_to_end(queue, buffers.input, image.pixels.data(), buffers.bytes, buffers.output,
                                            result.pixels.data(), buffers.bytes, launch, repeat);
  const Comparison c = compare_images(result.pixels, reference.pixels, buffers.width, buffers.height, kConvTolerance);
  ResultRow row;
  row.variant = variant;
  row.kernel_ms = kernel.device_ms;
  row.spread(kernel);
  row.end_to_end_ms = end_to_end.device_ms;
  row.pixels = static_cast<double>(image.pixels.size());
  row.bytes = 2.0 * static_cast<double>(buffers.bytes);
  row.flops = 2.0 * static_cast<double>(buffers.taps) * row.pixels;
  row.max_error = c.max_abs_error;
  row.verified = c.ok();
  table.add(row);
  if (!row.verified) std::cout << variant << ": " << c.describe() << "\n";
}

}  // namespace course
