#include "measure.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <ostream>

namespace course {

ResultRow result_row(const RowWork& work, const Timing& kernel, double end_to_end_ms, const Comparison& check,
                     std::ostream& out) {
  const ResultRow row = result_row(work, kernel, end_to_end_ms, check.max_abs_error, check.ok());
  if (!row.verified) out << "  " << work.variant << " differs from the CPU reference: " << check.describe() << "\n";
  return row;
}

ResultRow result_row(const RowWork& work, const Timing& kernel, double end_to_end_ms, double max_error, bool verified) {
  ResultRow row;
  row.variant = work.variant;
  row.kernel_ms = kernel.device_ms;
  row.spread(kernel);
  row.end_to_end_ms = end_to_end_ms;
  row.pixels = work.pixels;
  row.bytes = work.bytes;
  row.flops = work.flops;
  row.copy = work.copy;
  row.baseline = work.baseline;
  row.local_loads = work.local_loads, row.local_load_bytes = work.local_load_bytes;
  row.max_error = max_error;
  row.verified = verified;
  return row;
}

Timing timing_of(const std::vector<double>& kernel_ms) {
  Timing t;
  if (kernel_ms.empty()) return t;
  t.device_ms = median(kernel_ms);
  t.min_ms = *std::min_element(kernel_ms.begin(), kernel_ms.end());
  t.max_ms = *std::max_element(kernel_ms.begin(), kernel_ms.end());
  t.runs = static_cast<int>(kernel_ms.size());
  return t;
}

void poison_output(const cl::CommandQueue& queue, const cl::Buffer& output, std::size_t bytes, PixelType pixels) {
  cl::CommandQueue q = queue;
  if (pixels == PixelType::u8)
    q.enqueueFillBuffer(output, static_cast<std::uint8_t>(255), 0, bytes);
  else if (pixels == PixelType::f16)
    q.enqueueFillBuffer(output, static_cast<std::uint16_t>(0x7e00), 0, bytes);  // a half NaN
  else
    q.enqueueFillBuffer(output, std::numeric_limits<float>::quiet_NaN(), 0, bytes);
}

ImageRun measure_image(const DeviceContext& dc, const RowWork& work, const std::function<std::vector<cl::Event>()>& launch,
                       const cl::Buffer& input, const GrayImage* picture, const cl::Buffer& output,
                       const GrayImage& reference, double tolerance, int repeat, std::ostream& out) {
  cl::CommandQueue queue = dc.queue;
  const std::size_t bytes = reference.pixels.size() * sizeof(float);
  poison_output(queue, output, bytes, PixelType::f32);
  ImageRun run;
  run.kernel = time_events(queue, launch, repeat);
  run.image = GrayImage{reference.width, reference.height, std::vector<float>(reference.pixels.size())};
  double end_to_end_ms = -1;
  if (picture)
    end_to_end_ms = time_end_to_end(queue, input, picture->pixels.data(), bytes, output, run.image.pixels.data(),
                                    bytes, launch, repeat)
                        .device_ms;
  else
    queue.enqueueReadBuffer(output, CL_TRUE, 0, bytes, run.image.pixels.data());
  const Comparison check =
      compare_images(run.image.pixels, reference.pixels, reference.width, reference.height, tolerance);
  run.row = result_row(work, run.kernel, end_to_end_ms, check, out);
  return run;
}

}  // namespace course
