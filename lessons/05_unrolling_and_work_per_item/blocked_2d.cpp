#include "blocked_2d.hpp"

#include <sstream>

#include "separable_host.hpp"

namespace course {

Block2D default_block_2d(const DeviceContext& dc) {
  if (dc.entry.type & CL_DEVICE_TYPE_CPU) return Block2D{1, 32, 16, 1};
  return Block2D{2, 128, 64, 1};
}

cl::Kernel build_blocked_2d(const DeviceContext& dc, int radius, const Block2D& block, int width,
                            const std::string& extra, BuildStats* stats) {
  const std::string file = "kernels/05_unrolling_and_work_per_item/blocked_2d.cl";
  const std::string defines =
      " -D RADIUS=" + std::to_string(radius) + " -D FLOAT4S=" + std::to_string(block.float4s) +
      " -D STRIP=" + std::to_string(block.strip) + " -D ALIGNED_ROWS=" + (width % 4 == 0 ? "1" : "0") + " -I " +
      locate_course_file(file).parent_path().string() +
      (block.max_registers ? " -cl-nv-maxrregcount=" + std::to_string(block.max_registers) : "") + extra;
  return cl::Kernel(build_course_program(dc, file, defines, stats), "blocked_2d");
}

std::string literal_weights_define(const std::vector<float>& weights_2d) {
  std::ostringstream list;
  list.precision(9);
  list << std::showpoint;
  for (std::size_t k = 0; k < weights_2d.size(); ++k) list << (k ? "," : "") << weights_2d[k] << "f";
  return " -D WEIGHT_LIST=" + list.str();
}

cl::Event launch_blocked_2d(const DeviceContext& dc, cl::Kernel& kernel, const Block2D& block, int width, int height) {
  return launch_2d(dc, kernel, (width + 4 * block.float4s - 1) / (4 * block.float4s),
                   (height + block.strip - 1) / block.strip, cl::NDRange(block.group_x, block.group_y));
}

}  // namespace course
