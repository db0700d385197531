#include "running_sums.hpp"

#include <algorithm>
#include <cmath>

namespace course {

std::string scan_shape_problem(const DeviceContext& dc, const ScanShape& shape) {
  const std::string name = std::to_string(shape.group) + "x" + std::to_string(shape.items);
  if (shape.group < 1 || (shape.group & (shape.group - 1)) != 0)
    return "the scan's group of " + std::to_string(shape.group) +
           " is not a power of two, which running_sums.cl asks for";
  if (shape.items < 1 || shape.items > 32)
    return "the scan's " + std::to_string(shape.items) + " steps a work-item are outside 1..32";
  const std::size_t most = dc.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  if (static_cast<std::size_t>(shape.group) > most)
    return "the scan's group of " + std::to_string(shape.group) + " exceeds this device's largest, " +
           std::to_string(most);
  // running_sums.cl's local arrays: the tile, a float of padding every 32, and 2 x group partial sums.
  const std::size_t tile = static_cast<std::size_t>(shape.group) * shape.items;
  const std::size_t bytes = (tile + tile / 32 + 2 * static_cast<std::size_t>(shape.group)) * sizeof(float);
  const std::size_t local = dc.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
  if (bytes > local)
    return "the scan's tile of " + name + " steps needs " + std::to_string(bytes) +
           " bytes of local memory, this device has " + std::to_string(local);
  return "";
}

RunningSums build_running_sums(const DeviceContext& dc, int segment, RowLayout layout, ScanShape scan,
                               BuildStats* stats) {
  RunningSums passes;
  passes.segment = segment;
  passes.layout = layout;
  passes.scan = scan;
  const cl::Program program = build_course_program(
      dc, "kernels/12_narrow_pixels_and_cheaper_algorithms/running_sums.cl",
      " -D SEGMENT=" + std::to_string(segment) + " -D CHUNK=" + std::to_string(passes.chunk) +
          " -D SCAN_GROUP=" + std::to_string(scan.group) + " -D SCAN_ITEMS=" + std::to_string(scan.items),
      stats);
  const char* rows[] = {"running_rows", "running_rows_tiled", "running_rows_scan", "running_rows_prefetch",
                        "running_rows_prefetch"};
  passes.rows = cl::Kernel(program, rows[static_cast<int>(layout)]);
  passes.columns = cl::Kernel(program, layout == RowLayout::walk   ? "running_columns"
                                       : layout == RowLayout::ring ? "running_columns_ring"
                                                                   : "running_columns_chunked");
  return passes;
}

double local_loads(const RunningSums& passes, int width, int height, int radius) {
  const auto chunks = [](double steps, double size) { return std::ceil(steps / size); };
  // The steps a chunked walk takes over the segment from pixel `p0` of a line `length` long: each
  // segment starts 2R steps early, rounded up to whole chunks, and walks whole chunks.
  const auto walked = [&](int p0, int length) {
    const int first = p0 - static_cast<int>(chunks(2 * radius, passes.chunk)) * passes.chunk;
    return chunks(std::min(p0 + passes.segment, length) - first, passes.chunk) * passes.chunk;
  };
  if (passes.layout == RowLayout::tiled) {
    // A step costs two loads from the tile: the walk's (tile[l][i]) and the store's (tile[r][l]).
    double steps = 0;  // the steps a row takes, its 2R-step starts included
    for (int x0 = 0; x0 < width; x0 += passes.segment) steps += walked(x0, width);
    return 2 * steps * height;
  }
  if (scans(passes.layout)) {
    // A row's tiles of G x I steps from step -2R: the additions read each step once and the
    // stores once (2 G I); the scan's log2(G) rounds read two partial sums a work-item (2 G a
    // round), then each work-item the one before its own and the last (2 G).
    const double g = passes.scan.group, tile = g * passes.scan.items;
    double loads = chunks(width + 2.0 * radius, tile) * (2 * tile + 2 * g * std::log2(g) + 2 * g) * height;
    if (passes.layout == RowLayout::ring)  // the ring's column pass: one load a step past the first 2R+1
      for (int y0 = 0; y0 < height; y0 += passes.segment)
        loads += std::max(0.0, walked(y0, height) - (2 * radius + 1)) * width;
    return loads;
  }
  return 0;  // the walk reads global memory only
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
  const cl::Event rows_done = scans(passes.layout)
                                  ? run(passes.rows, input, intermediate, cl::NDRange(passes.scan.group, height),
                                        cl::NDRange(passes.scan.group, 1))
                                  : walk(passes.rows, input, intermediate, height, width,
                                         passes.layout == RowLayout::tiled ? cl::NDRange(passes.chunk, 1)
                                                                           : fit_work_group(dc, passes.rows, 64, 1));
  cl::NDRange columns = fit_work_group(dc, passes.columns, 64, 1);
  if (passes.layout == RowLayout::ring) {
    // The ring: 2R+1 floats a column of the group, in local memory; fewer columns a group where
    // the device's local memory would not hold them.
    const std::size_t local = dc.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>(), column = (2 * radius + 1) * sizeof(float);
    std::size_t group = columns[0];
    while (group > 1 && group * column > local) group /= 2;
    if (group * column > local)
      throw InputError("the ring of radius " + std::to_string(radius) + " needs " + std::to_string(column) +
                       " bytes of local memory a column; this device has " + std::to_string(local));
    columns = cl::NDRange(group, 1);
    passes.columns.setArg(5, cl::Local(group * column));
  }
  return {rows_done, walk(passes.columns, intermediate, output, width, height, columns)};
}

}  // namespace course
