#include "running_sums.hpp"

namespace course {

RunningSums build_running_sums(const DeviceContext& dc, int segment, bool tiled, BuildStats* stats) {
  RunningSums passes;
  passes.segment = segment;
  passes.tiled = tiled;
  const cl::Program program = build_course_program(
      dc, "kernels/12_narrow_pixels_and_cheaper_algorithms/running_sums.cl",
      " -D SEGMENT=" + std::to_string(segment) + " -D CHUNK=" + std::to_string(passes.chunk), stats);
  passes.rows = cl::Kernel(program, tiled ? "running_rows_tiled" : "running_rows");
  passes.columns = cl::Kernel(program, tiled ? "running_columns_chunked" : "running_columns");
  return passes;
}

std::vector<cl::Event> launch_running_sums(const DeviceContext& dc, RunningSums& passes, const cl::Buffer& input,
                                           const cl::Buffer& intermediate, const cl::Buffer& output, int width,
                                           int height, int radius) {
  const auto run = [&](cl::Kernel& k, const cl::Buffer& in, const cl::Buffer& out, std::size_t lines,
                       std::size_t length, const cl::NDRange& group) {
    k.setArg(0, in);
    k.setArg(1, out);
    k.setArg(2, width);
    k.setArg(3, height);
    k.setArg(4, radius);
    // Dimension 0 across the lines, 1 along them: a segment per work-item (per group of rows in
    // the tiled row pass).
    const std::size_t segments = (length + passes.segment - 1) / passes.segment;
    cl::Event done;
    dc.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(round_up(lines, group[0]), segments), group, nullptr,
                                  &done);
    return done;
  };
  // The tiled row pass's group is its chunk of rows (the tile's size is built in); the other
  // passes' work-items are independent: 64 neighbouring lines a group.
  return {run(passes.rows, input, intermediate, height, width,
              passes.tiled ? cl::NDRange(passes.chunk, 1) : fit_work_group(dc, passes.rows, 64, 1)),
          run(passes.columns, intermediate, output, width, height, fit_work_group(dc, passes.columns, 64, 1))};
}

}  // namespace course
