// Lesson 05's one-change rungs (one_change.hpp): which build options make each of them.
#include "one_change.hpp"

#include <map>

#include "blocked_2d.hpp"
#include "narrow_pixels.hpp"

namespace course {

namespace {
const std::string kFolder = "kernels/05_unrolling_and_work_per_item/";
}

bool is_unrolled_2d(const std::string& variant) {
  return variant == "radius_fixed_2d" || variant == "columns_unrolled_2d" || variant == "unrolled_2d" ||
         variant == "literal_weights_2d";
}

std::string unrolled_2d_defines(const std::string& variant, int radius, const std::vector<float>& weights_2d) {
  std::string defines = " -D RADIUS=" + std::to_string(radius);
  if (variant == "radius_fixed_2d") defines += " -D KEEP_ROW_LOOP -D KEEP_COLUMN_LOOP";
  if (variant == "columns_unrolled_2d") defines += " -D KEEP_ROW_LOOP";
  if (variant == "literal_weights_2d") defines += literal_weights_define(weights_2d);
  return defines;
}

std::string compared_with(const std::string& variant) {
  static const std::map<std::string, std::string> against = {{"radius_fixed_2d", "naive_2d"},
                                                             {"columns_unrolled_2d", "radius_fixed_2d"},
                                                             {"unrolled_2d", "columns_unrolled_2d"},
                                                             {"literal_weights_2d", "unrolled_2d"},
                                                             {"blocked_2d", "unrolled_2d"},
                                                             {"blocked_2d_literal", "blocked_2d"},
                                                             {"float4_passes", "vector_passes"},
                                                             {"single_pass_lanes", "single_pass_local"},
                                                             {"single_pass_blocked", "single_pass_local"},
                                                             {"single_pass_restrict", "single_pass_blocked"},
                                                             {"single_pass_reqd", "single_pass_blocked"},
                                                             {"running_sums", "float4_passes"},
                                                             {"running_sums_tiled", "running_sums"}};
  const auto it = against.find(variant);
  return it == against.end() ? "" : it->second;
}

bool is_single_pass_blocked(const std::string& variant) {
  return variant == "single_pass_blocked" || variant == "single_pass_restrict" || variant == "single_pass_reqd";
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

BlockedRung single_pass_blocked_rung(const DeviceContext& dc, const std::string& variant,
                                     const SeparableBuffers& buffers, int radius, int steps, std::size_t strip,
                                     const std::string& extra, BuildStats* stats) {
  const SinglePassShape shape = single_pass_blocked_shape(dc, radius, steps);
  BlockedRung rung;
  rung.group = shape.group;
  rung.strip = strip > 0 ? strip : shape.strip;
  const int w = buffers.width, h = buffers.height;
  std::string defines = " -D RADIUS=" + std::to_string(radius) + " -D STEPS=" + std::to_string(steps) +
                        " -D GROUP_W=" + std::to_string(shape.group[0]) +
                        " -D GROUP_H=" + std::to_string(shape.group[1]) + " -D STRIP=" + std::to_string(rung.strip) +
                        " -D ALIGNED_ROWS=" + (w % 4 == 0 ? "1" : "0") + " -I " +
                        locate_course_file(kFolder + "float4_helpers.h").parent_path().string() + extra;
  if (variant == "single_pass_restrict") defines += " -D RESTRICT_POINTERS";
  if (variant == "single_pass_reqd") defines += " -D REQUIRED_GROUP";
  rung.kernel =
      cl::Kernel(build_course_program(dc, kFolder + "single_pass_blocked.cl", defines, stats), "single_pass_blocked");
  if (rung.kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device) < shape.group[0] * shape.group[1])
    throw SkipLesson(variant + " allows fewer work-items per group than it needs here");
  set_image_args(rung.kernel, buffers.input, buffers.output, buffers.weights, buffers);
  // Work-items: one per float4 of a row, GROUP_H per strip.
  const std::size_t items_y = (h + rung.strip - 1) / rung.strip * shape.group[1];
  rung.enqueue = [&dc, kernel = rung.kernel, g = shape.group, w, items_y]() mutable {
    return std::vector<cl::Event>{launch_2d(dc, kernel, (w + 3) / 4, items_y, g)};
  };
  return rung;
}

}  // namespace course
