#include "running_sums.hpp"

namespace course {

RunningSums build_running_sums(const DeviceContext& dc, int segment, RowLayout layout, BuildStats* stats) {
  RunningSums passes;
  passes.segment = segment;
  passes.layout = layout;
  const cl::Program program = build_course_program(
      dc, "kernels/12_narrow_pixels_and_cheaper_algorithms/running_sums.cl",
      " -D SEGMENT=" + std::to_string(segment) + " -D CHUNK=" + std::to_string(passes.chunk) +
          " -D SCAN_GROUP=" + std::to_string(passes.scan_group) + " -D SCAN_ITEMS=" + std::to_string(passes.scan_items),
      stats);
  const char* rows[] = {"running_rows", "running_rows_tiled", "running_rows_scan"};
  passes.rows = cl::Kernel(program, rows[static_cast<int>(layout)]);
  passes.columns = cl::Kernel(program, layout == RowLayout::walk ? "running_columns" : "running_columns_chunked");
  return passes;
}

std::vector<cl::Event> launch_running_sums(const DeviceContext& dc, RunningSums& passes, const cl::Buffer& input,
                                           const cl::Buffer& intermediate, const cl::Buffer& output, int width,
                                           int height, int radius) {
  const auto run = [&](cl::Kernel& k, const cl::Buffer& in, const cl::Buffer& out, const cl::NDRange& global,
                       const cl::NDRange& group) {
    k.setArg(0, in);
    k.setArg(1, out);
    k.setArg(2, width);
    k.setArg(3, height);
    k.setArg(4, radius);
    cl::Event done;
    dc.queue.enqueueNDRangeKernel(k, cl::NullRange, global, group, nullptr, &done);
    return done;
  };
  // The walks: dimension 0 across the lines, 1 along them, a segment per work-item (per group of
  // rows in the tiled row pass).
  const auto walk = [&](cl::Kernel& k, const cl::Buffer& in, const cl::Buffer& out, std::size_t lines,
                        std::size_t length, const cl::NDRange& group) {
    const std::size_t segments = (length + passes.segment - 1) / passes.segment;
    return run(k, in, out, cl::NDRange(round_up(lines, group[0]), segments), group);
  };
  // The tiled row pass's group is its chunk of rows, the scan's a row (the tiles' sizes are built
  // in, and the scan's dimension 0 runs along the row); the other passes' work-items are
  // independent: 64 neighbouring lines a group.
  const cl::Event rows_done = passes.layout == RowLayout::scan
                                  ? run(passes.rows, input, intermediate, cl::NDRange(passes.scan_group, height),
                                        cl::NDRange(passes.scan_group, 1))
                                  : walk(passes.rows, input, intermediate, height, width,
                                         passes.layout == RowLayout::tiled ? cl::NDRange(passes.chunk, 1)
                                                                           : fit_work_group(dc, passes.rows, 64, 1));
  return {rows_done,
          walk(passes.columns, intermediate, output, width, height, fit_work_group(dc, passes.columns, 64, 1))};
}

}  // namespace course
