#include "separable_host.hpp"

#include <algorithm>
#include <iostream>
#include <sstream>
#include <utility>

#include "errors.hpp"
#include "lesson.hpp"
#include "measure.hpp"
#include "reference.hpp"

namespace course {

SeparableBuffers make_separable_buffers(const DeviceContext& dc, const GrayImage& image,
                                        const std::vector<float>& weights) {
  SeparableBuffers b;
  b.width = image.width;
  b.height = image.height;
  b.taps = static_cast<int>(weights.size());
  const std::size_t bytes = image.pixels.size() * sizeof(float);
  b.input = cl::Buffer(dc.context, CL_MEM_READ_ONLY, bytes);
  b.intermediate = cl::Buffer(dc.context, CL_MEM_READ_WRITE, bytes);
  b.output = cl::Buffer(dc.context, CL_MEM_READ_WRITE, bytes);
  const std::vector<float> w2 = outer_product(weights, weights);
  b.weights = cl::Buffer(dc.context, CL_MEM_READ_ONLY, weights.size() * sizeof(float));
  b.weights_2d = cl::Buffer(dc.context, CL_MEM_READ_ONLY, w2.size() * sizeof(float));
  dc.queue.enqueueWriteBuffer(b.input, CL_TRUE, 0, bytes, image.pixels.data());
  dc.queue.enqueueWriteBuffer(b.weights, CL_TRUE, 0, weights.size() * sizeof(float), weights.data());
  dc.queue.enqueueWriteBuffer(b.weights_2d, CL_TRUE, 0, w2.size() * sizeof(float), w2.data());
  return b;
}

VariantResult measure_variant(const DeviceContext& dc, const SeparableBuffers& buffers, const GrayImage* image,
                              const std::string& name, const std::function<std::vector<cl::Event>()>& enqueue,
                              const GrayImage& reference, int repeat, int passes, double tolerance) {
  RowWork work;
  work.variant = name;
  work.pixels = static_cast<double>(buffers.width) * buffers.height;
  work.bytes = 2.0 * passes * work.pixels * sizeof(float);
  work.flops = 2.0 * 2 * buffers.taps * work.pixels;  // a multiply-add per tap, in each direction
  ImageRun run =
      measure_image(dc, work, enqueue, buffers.input, image, buffers.output, reference, tolerance, repeat, std::cout);
  return VariantResult{std::move(run.row), std::move(run.image), std::move(run.kernel.command_ms)};
}

std::vector<float> lopsided_weights(int radius) {
  std::vector<float> w(2 * radius + 1);
  float sum = 0;
  for (std::size_t i = 0; i < w.size(); ++i) sum += w[i] = 1.0f + static_cast<float>(i);
  for (float& v : w) v /= sum;
  return w;
}

cl::Event launch_2d(const DeviceContext& dc, cl::Kernel& kernel, std::size_t items_x, std::size_t items_y,
                    const cl::NDRange& local) {
  cl::Event done;
  dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange,
                                cl::NDRange(round_up(items_x, local[0]), round_up(items_y, local[1])), local, nullptr,
                                &done);
  return done;
}

void set_image_args(cl::Kernel& kernel, const cl::Buffer& in, const cl::Buffer& out, const cl::Buffer& weights,
                    const SeparableBuffers& buffers) {
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  kernel.setArg(2, weights);
  kernel.setArg(3, buffers.width);
  kernel.setArg(4, buffers.height);
}

}  // namespace course
