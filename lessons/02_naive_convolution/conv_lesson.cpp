#include "conv_lesson.hpp"

#include <iostream>
#include <utility>

#include "image.hpp"
#include "measure.hpp"

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
  RowWork work;
  work.variant = variant;
  work.pixels = static_cast<double>(image.pixels.size());
  work.bytes = 2.0 * static_cast<double>(buffers.bytes);               // the picture read once, written once
  work.flops = 2.0 * static_cast<double>(buffers.taps) * work.pixels;  // a multiply-add per weight
  ImageRun run = measure_image(dc, work, launch, buffers.input, &image, buffers.output, reference, kConvTolerance,
                               repeat, std::cout);
  table.add(run.row);
  result = std::move(run.image);
}

}  // namespace course
