#include "blocked_2d.hpp"

#include <sstream>

namespace course {

Block2D default_block_2d(const DeviceContext& dc) {
  if (dc.entry.type & CL_DEVICE_TYPE_CPU) return Block2D{1, 32, 16, 1};
  return Block2D{2, 128, 64, 1};
}

bool caps_registers(const DeviceContext& dc) {
  return dc.device.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_nv_compiler_options") != std::string::npos;
}

std::string block_2d_problem(const DeviceContext& dc, const Block2D& block) {
  if (block.float4s < 1 || block.float4s > 4)
    return "blocked_2d takes 1 to 4 float4s a work-item, not " + std::to_string(block.float4s);
  if (block.strip < 1) return "blocked_2d needs a strip of at least one row";
  if (block.max_registers != 0 && !caps_registers(dc))
    return "a register cap needs NVIDIA's compiler options (cl_nv_compiler_options)";
  if (block.max_registers != 0 && (block.max_registers < 32 || block.max_registers > 255))
    return "a register cap is 32 to 255 registers, not " + std::to_string(block.max_registers);
  return "";
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
  // The point makes each a float literal, nine significant digits give back every float.
  std::ostringstream list;
  list.precision(9);
  list << std::showpoint;
  for (std::size_t k = 0; k < weights_2d.size(); ++k) list << (k ? "," : "") << weights_2d[k] << "f";
  return " -D WEIGHT_LIST=" + list.str();
}

cl::Event launch_blocked_2d(const DeviceContext& dc, cl::Kernel& kernel, const Block2D& block, int width, int height) {
  const std::size_t columns = (width + 4 * block.float4s - 1) / (4 * block.float4s);
  const std::size_t strips = (height + block.strip - 1) / block.strip;
  cl::Event done;
  dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange,
                                cl::NDRange(round_up(columns, block.group_x), round_up(strips, block.group_y)),
                                cl::NDRange(block.group_x, block.group_y), nullptr, &done);
  return done;
}

std::string describe(const Block2D& block) {
  return std::to_string(block.float4s) + " float4" + (block.float4s > 1 ? "s" : "") + ", " +
         std::to_string(block.strip) + "-row strips, " + std::to_string(block.group_x) + "x" +
         std::to_string(block.group_y) + " groups" +
         (block.max_registers ? ", at most " + std::to_string(block.max_registers) + " registers" : "");
}

}  // namespace course
