// Lesson 05's one-change rungs (one_change.hpp): which build options make each of them.
#include "one_change.hpp"

#include <algorithm>

#include "blocked_2d.hpp"

namespace course {

namespace {
const std::string kFolder = "kernels/05_unrolling_and_work_per_item/";
}  // namespace

std::string float4_defines(int radius, int steps, int width) {
  return " -D RADIUS=" + std::to_string(radius) + " -D STEPS=" + std::to_string(steps) +
         " -D ALIGNED_ROWS=" + (width % 4 == 0 ? "1" : "0") + " -I " +
         locate_course_file(kFolder + "float4_helpers.h").parent_path().string();
}

std::string unrolled_2d_defines(const std::string& variant, int radius, const std::vector<float>& weights_2d) {
  std::string defines = " -D RADIUS=" + std::to_string(radius);
  if (variant == "radius_fixed_2d") defines += " -D KEEP_ROW_LOOP -D KEEP_COLUMN_LOOP";
  if (variant == "columns_unrolled_2d") defines += " -D KEEP_ROW_LOOP";
  if (variant == "literal_weights_2d") defines += literal_weights_define(weights_2d);
  return defines;
}

SinglePassShape single_pass_blocked_shape(const DeviceContext& dc, int radius, int steps, std::size_t strip) {
  // A float4 column and `steps` rows per work-item, groups walking down strips with a ring of
  // row-filtered rows in local memory, at most 32 KiB so that several groups share a GPU's core.
  // On a GPU 16x4 groups and 64-row strips, lesson 11's best within 32 KiB on an H100; on a CPU
  // (a group is a loop on one core) narrow groups.
  const bool cpu = (dc.entry.type & CL_DEVICE_TYPE_CPU) != 0;
  const std::size_t budget = std::min<std::size_t>(32 * 1024, dc.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>());
  std::size_t gw = cpu ? 8 : 16, gh = cpu ? 1 : 4;
  // The ring: two tiles of gh x steps rows and the 2R halo rows, a float4 per work-item column.
  const auto ring_bytes = [&] { return (2 * gh * steps + 2 * radius) * gw * 4 * sizeof(float); };
  while (gh > 1 && ring_bytes() > budget) gh /= 2;
  while (gw > 1 && ring_bytes() > budget) gw /= 2;
  SinglePassShape shape;
  shape.group = fit_work_group(dc.device, dc.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>(), gw, gh);
  shape.strip = round_up(strip ? strip : cpu ? 512 : 64, shape.group[1] * steps);  // whole tiles
  shape.defines = " -D GROUP_W=" + std::to_string(shape.group[0]) + " -D GROUP_H=" + std::to_string(shape.group[1]) +
                  " -D STRIP=" + std::to_string(shape.strip);
  return shape;
}

cl::NDRange vector_group(const DeviceContext& dc) {
  const bool cpu = (dc.entry.type & CL_DEVICE_TYPE_CPU) != 0;
  return fit_work_group(dc.device, dc.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>(), cpu ? 16 : 64, cpu ? 1 : 4);
}

SinglePassShape single_pass_local_shape(const DeviceContext& dc, int radius, int steps, int vec) {
  const std::size_t local_bytes = dc.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
  std::size_t tile_h = 8;
  const std::size_t tile_w = (dc.entry.type & CL_DEVICE_TYPE_CPU) ? 2 : 16;
  while (tile_h > 1 && (tile_h * steps + 2 * radius) * tile_w * vec * sizeof(float) > local_bytes) tile_h /= 2;
  SinglePassShape shape;
  shape.group = fit_work_group(dc.device, dc.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>(), tile_w, tile_h);
  shape.defines = " -D GROUP_W=" + std::to_string(shape.group[0]) + " -D GROUP_H=" + std::to_string(shape.group[1]);
  return shape;
}

BlockedRung float4_passes_rung(const DeviceContext& dc, const SeparableBuffers& buffers, int radius, int steps,
                               const std::string& extra, BuildStats* stats) {
  const int w = buffers.width, h = buffers.height;
  const cl::Program program =
      build_course_program(dc, kFolder + "float4_passes.cl", float4_defines(radius, steps, w) + extra, stats);
  BlockedRung rung{cl::Kernel(program, "row_pass_float4"), cl::Kernel(program, "column_pass_float4"), {}};
  set_image_args(rung.kernel, buffers.input, buffers.intermediate, buffers.weights, buffers);
  set_image_args(rung.second, buffers.intermediate, buffers.output, buffers.weights, buffers);
  // Work-items: one per float4 of a row; the column pass's each `steps` rows down.
  rung.enqueue = [&dc, row = rung.kernel, column = rung.second, g = vector_group(dc), w, h, steps]() mutable {
    const std::size_t across = (w + 3) / 4;
    return std::vector<cl::Event>{launch_2d(dc, row, across, h, g),
                                  launch_2d(dc, column, across, (h + steps - 1) / steps, g)};
  };
  return rung;
}

BlockedRung single_pass_blocked_rung(const DeviceContext& dc, const std::string& variant,
                                     const SeparableBuffers& buffers, int radius, int steps, std::size_t strip,
                                     const std::string& extra, BuildStats* stats) {
  const SinglePassShape shape = single_pass_blocked_shape(dc, radius, steps, strip);
  const int w = buffers.width, h = buffers.height;
  std::string defines = float4_defines(radius, steps, w) + shape.defines + extra;
  if (variant == "single_pass_restrict") defines += " -D RESTRICT_POINTERS";
  if (variant == "single_pass_reqd") defines += " -D REQUIRED_GROUP";
  cl::Kernel k(build_course_program(dc, kFolder + "single_pass_blocked.cl", defines, stats), "single_pass_blocked");
  if (k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device) < shape.group[0] * shape.group[1])
    throw SkipLesson(variant + " allows fewer work-items per group than it needs here");
  set_image_args(k, buffers.input, buffers.output, buffers.weights, buffers);
  // Work-items: one per float4 of a row, GROUP_H per strip.
  const std::size_t items_y = (h + shape.strip - 1) / shape.strip * shape.group[1];
  return {k, {}, [&dc, k, g = shape.group, w, items_y]() mutable {
            return std::vector<cl::Event>{launch_2d(dc, k, (w + 3) / 4, items_y, g)};
          }};
}

}  // namespace course
