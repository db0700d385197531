#include "conv_lesson.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <limits>

#include "compare.hpp"
#include "errors.hpp"
#include "image.hpp"
#include "timing.hpp"

namespace course {

ConvBuffers::ConvBuffers(const DeviceContext& dc, const GrayImage& image, const std::vector<float>& weights_2d)
    : width(image.width), height(image.height), bytes(image.pixels.size() * sizeof(float)) {
  input = cl::Buffer(dc.context, CL_MEM_READ_ONLY, bytes);
  output = cl::Buffer(dc.context, CL_MEM_READ_WRITE, bytes);
  weights = cl::Buffer(dc.context, CL_MEM_READ_ONLY, weights_2d.size() * sizeof(float));
  dc.queue.enqueueWriteBuffer(input, CL_TRUE, 0, bytes, image.pixels.data());
  dc.queue.enqueueWriteBuffer(weights, CL_TRUE, 0, weights_2d.size() * sizeof(float), weights_2d.data());
}

ResultRow conv_measure(const DeviceContext& dc, const ConvBuffers& buffers, const GrayImage& image,
                       const GrayImage& reference, const std::string& variant, int repeat,
                       const std::function<std::vector<cl::Event>()>& launch, GrayImage& result) {
  cl::CommandQueue queue = dc.queue;
  // NaN in the output first, so a pixel this variant never writes cannot keep the value an
  // earlier variant left there and pass as correct.
  queue.enqueueFillBuffer(buffers.output, std::numeric_limits<float>::quiet_NaN(), 0, buffers.bytes);
  const Timing kernel = time_events(queue, launch, repeat);
  result = GrayImage{buffers.width, buffers.height, std::vector<float>(image.pixels.size())};
  // End to end: what a program that has the image in host memory waits for.
  const Timing end_to_end = time_events(
      queue,
      [&] {
        std::vector<cl::Event> events(1);
        queue.enqueueWriteBuffer(buffers.input, CL_FALSE, 0, buffers.bytes, image.pixels.data(), nullptr, &events[0]);
        for (const cl::Event& e : launch()) events.push_back(e);
        events.emplace_back();
        queue.enqueueReadBuffer(buffers.output, CL_FALSE, 0, buffers.bytes, result.pixels.data(), nullptr,
                                &events.back());
        return events;
      },
      repeat);
  const Comparison c = compare_images(result.pixels, reference.pixels, buffers.width, buffers.height, kConvTolerance);
  ResultRow row;
  row.variant = variant;
  row.kernel_ms = kernel.device_ms;
  row.end_to_end_ms = end_to_end.device_ms;
  row.pixels = static_cast<double>(image.pixels.size());
  row.bytes = 2.0 * static_cast<double>(buffers.bytes);
  row.max_error = c.max_abs_error;
  row.verified = c.ok();
  return row;
}

void conv_run_variant(const DeviceContext& dc, const ConvBuffers& buffers, const GrayImage& image,
                      const GrayImage& reference, const std::string& variant, int repeat, const cl::Kernel& kernel,
                      const cl::NDRange& range, const cl::NDRange& group, const Options& options, ResultsTable& table,
                      GrayImage& result) {
  const ResultRow row = conv_measure(
      dc, buffers, image, reference, variant, repeat,
      [&] {
        std::vector<cl::Event> events(1);
        dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, range, group, nullptr, &events[0]);
        return events;
      },
      result);
  table.add(row);
  if (!row.verified)
    std::cout << variant << ": "
              << compare_images(result.pixels, reference.pixels, image.width, image.height, kConvTolerance).describe()
              << "\n";
  if (!options.given("output"))
    save_png(std::filesystem::path(options.text("output-dir")) / (variant + ".png"), result);
}

}  // namespace course
