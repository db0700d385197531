// Lesson 07's kernels against their CPU references, and the SVG plot writer its sweeps use.
#include <doctest/doctest.h>

#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>

#include "course.hpp"
#include "lesson07.hpp"
#include "plot_svg.hpp"
#include "test_support.hpp"

namespace {

std::vector<float> run_class_curves(const course::DeviceContext& dc, const char* kernel_name, int warp, int ways,
                                    const std::vector<float>& input) {
  const int steps = 8;
  cl::Program program = course::build_course_program(
      dc, "kernels/07_warps_and_occupancy/divergence.cl",
      "-D WAYS=" + std::to_string(ways) + " -D WARP=" + std::to_string(warp) + " -D STEPS=" + std::to_string(steps));
  cl::Kernel kernel(program, kernel_name);
  const int count = static_cast<int>(input.size());
  cl::Buffer in(dc.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, input.size() * sizeof(float),
                const_cast<float*>(input.data()));
  std::vector<float> out(input.size(), std::nanf(""));
  cl::Buffer out_buffer(dc.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, out.size() * sizeof(float), out.data());
  kernel.setArg(0, in);
  kernel.setArg(1, out_buffer);
  kernel.setArg(2, count);
  const std::size_t local = std::size_t(warp) * 2;
  const std::size_t global = course::round_up(count, std::lcm(local, std::size_t(warp) * ways));
  dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global), cl::NDRange(local));
  dc.queue.enqueueReadBuffer(out_buffer, CL_TRUE, 0, out.size() * sizeof(float), out.data());
  return out;
}

// One row filter kernel of row_filter.cl or row_filter_shuffle.cl, as the lesson launches it:
// work-groups `group` wide and one row tall.
std::vector<float> run_row_filter(const course::DeviceContext& dc, const cl::Program& program, const std::string& name,
                                  const course::GrayImage& image, const std::vector<float>& weights, int group) {
  const int radius = static_cast<int>(weights.size() / 2);
  cl::Kernel kernel(program, name.c_str());
  cl::Buffer in(dc.context, image.pixels.begin(), image.pixels.end(), true);
  std::vector<float> out(image.pixels.size(), std::nanf(""));
  cl::Buffer out_buffer(dc.context, out.begin(), out.end(), false);
  cl::Buffer weight_buffer(dc.context, weights.begin(), weights.end(), true);
  kernel.setArg(0, in), kernel.setArg(1, out_buffer), kernel.setArg(2, weight_buffer);
  kernel.setArg(3, image.width), kernel.setArg(4, image.height);
  if (name == "row_filter_local") kernel.setArg(5, cl::Local((group + 2 * radius) * sizeof(float)));
  dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(course::round_up(image.width, group), image.height),
                                cl::NDRange(group, 1));
  dc.queue.enqueueReadBuffer(out_buffer, CL_TRUE, 0, out.size() * sizeof(float), out.data());
  return out;
}

// tiled_convolution.cl's kernel over `image` in lx x ly work-groups, as the lesson launches it.
std::vector<float> run_tiled_convolution(const course::DeviceContext& dc, cl::Kernel& kernel,
                                         const course::GrayImage& image, const cl::Buffer& weights, int radius,
                                         std::size_t lx, std::size_t ly) {
  const int w = image.width, h = image.height;
  cl::Buffer in(dc.context, image.pixels.begin(), image.pixels.end(), true);
  cl::Buffer out(dc.context, CL_MEM_WRITE_ONLY, image.pixels.size() * sizeof(float));
  kernel.setArg(0, in), kernel.setArg(1, out), kernel.setArg(2, w), kernel.setArg(3, h);
  kernel.setArg(4, weights);
  kernel.setArg(5, cl::Local((lx + 2 * radius) * (ly + 2 * radius) * sizeof(float)));
  dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(course::round_up(w, lx), course::round_up(h, ly)),
                                cl::NDRange(lx, ly));
  std::vector<float> got(image.pixels.size());
  dc.queue.enqueueReadBuffer(out, CL_TRUE, 0, got.size() * sizeof(float), got.data());
  return got;
}

}  // namespace

TEST_CASE("the branch-between-warps kernel gives the same image as the divergent one") {
  const course::DeviceContext dc = course::open_device("");
  for (const int count : {1, 37, 1001}) {
    for (const auto& [warp, ways] : {std::pair{8, 3}, std::pair{32, 4}, std::pair{32, 32}}) {
      CAPTURE(count);
      CAPTURE(warp);
      CAPTURE(ways);
      const std::vector<float> input = course::random_gray(count, 1, 7 + count).pixels;
      const std::vector<float> expected = lesson07::class_curves_reference(input, ways, 8);
      const auto inside = run_class_curves(dc, "branch_inside_warp", warp, ways, input);
      const auto between = run_class_curves(dc, "branch_between_warps", warp, ways, input);
      CHECK(course::compare_images(inside, expected, count, 1, 1e-3).ok());
      CHECK(course::compare_images(between, expected, count, 1, 1e-3).ok());
    }
  }
}

TEST_CASE("the dependent-load kernel matches its CPU reference with and without arithmetic") {
  const course::DeviceContext dc = course::open_device("");
  std::vector<float> data(3 * 1024);
  std::mt19937 rng(3);
  for (auto& v : data) v = std::uniform_real_distribution<float>(0.0f, 0.999f)(rng);
  cl::Buffer buffer(dc.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(float), data.data());
  for (const int arith : {0, 8}) {
    cl::Program program = course::build_course_program(dc, "kernels/07_warps_and_occupancy/dependent_loads.cl",
                                                       "-D COURSE_POISON_LOCAL -D ARITH=" + std::to_string(arith));
    cl::Kernel kernel(program, "dependent_loads");
    const int items = 96, loads = static_cast<int>(data.size()) / items;
    cl::Buffer sums(dc.context, CL_MEM_WRITE_ONLY, items * sizeof(float));
    kernel.setArg(0, buffer);
    kernel.setArg(1, sums);
    kernel.setArg(2, loads);
    kernel.setArg(3, cl::Local(64 * sizeof(float)));  // more than the 32 work-items of a group use
    kernel.setArg(4, 64);
    dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(items), cl::NDRange(32));
    std::vector<float> got(items);
    dc.queue.enqueueReadBuffer(sums, CL_TRUE, 0, items * sizeof(float), got.data());
    const auto expected = lesson07::dependent_loads_reference(data, items, loads, arith);
    CAPTURE(arith);
    CHECK(course::compare_images(got, expected, items, 1, 1e-3).ok());
  }
}

TEST_CASE("the tiled convolution matches the reference on odd-sized images with square, wide and tall groups") {
  const course::DeviceContext dc = course::open_device("");
  const int radius = 2;
  const std::vector<float> weights =
      course::outer_product(course::gaussian_weights(radius, 1.0), course::gaussian_weights(radius, 1.0));
  cl::Program program = course::build_course_program(dc, "kernels/07_warps_and_occupancy/tiled_convolution.cl",
                                                     "-D COURSE_POISON_LOCAL -D RADIUS=" + std::to_string(radius));
  cl::Kernel kernel(program, "tiled_convolution");
  cl::Buffer weight_buffer(dc.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, weights.size() * sizeof(float),
                           const_cast<float*>(weights.data()));
  for (const auto& [w, h] : {std::pair{1, 1}, std::pair{37, 29}, std::pair{101, 3}}) {
    const course::GrayImage image = course::random_gray(w, h, 11);
    const course::GrayImage expected = course::correlate_2d(image, weights, radius);
    for (const auto& [lx, ly] : {std::pair{8, 8}, std::pair{32, 2}, std::pair{1, 16}, std::pair{3, 5}}) {
      CAPTURE(w);
      CAPTURE(h);
      CAPTURE(lx);
      CAPTURE(ly);
      const std::vector<float> got = run_tiled_convolution(dc, kernel, image, weight_buffer, radius, lx, ly);
      CHECK(course::compare_images(got, expected.pixels, w, h, 1e-3).ok());
    }
  }
}

TEST_CASE("the tiled convolution built with a required 32x32 work-group says so and matches the reference") {
  const course::DeviceContext dc = course::open_device("");
  if (!lesson07::device_allows_32x32(dc.device)) {
    MESSAGE("skipped: this device allows no 32x32 work-group");
    return;
  }
  const int radius = 2, w = 37, h = 29;
  const std::vector<float> weights =
      course::outer_product(course::gaussian_weights(radius, 1.0), course::gaussian_weights(radius, 1.0));
  cl::Program program = course::build_course_program(
      dc, "kernels/07_warps_and_occupancy/tiled_convolution.cl",
      "-D COURSE_POISON_LOCAL -D RADIUS=" + std::to_string(radius) + lesson07::kRequired32x32);
  cl::Kernel kernel(program, "tiled_convolution");
  const auto compiled = kernel.getWorkGroupInfo<CL_KERNEL_COMPILE_WORK_GROUP_SIZE>(dc.device);
  CHECK(compiled[0] == 32);
  CHECK(compiled[1] == 32);
  CHECK(compiled[2] == 1);
  // A launch over CL_KERNEL_WORK_GROUP_SIZE is an error by the specification (NVIDIA's driver 580
  // reports 256 for this build): the launch is tried only where the limit allows it.
  const std::size_t kernel_max = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
  if (kernel_max < 1024) {
    MESSAGE("skipped: this device allows no 32x32 work-group for this kernel (CL_KERNEL_WORK_GROUP_SIZE " << kernel_max
                                                                                                          << ")");
    return;
  }
  const course::GrayImage image = course::random_gray(w, h, 17);
  const course::GrayImage expected = course::correlate_2d(image, weights, radius);
  cl::Buffer weight_buffer(dc.context, weights.begin(), weights.end(), true);
  const std::vector<float> got = run_tiled_convolution(dc, kernel, image, weight_buffer, radius, 32, 32);
  CHECK(course::compare_images(got, expected.pixels, w, h, 1e-3).ok());
}

TEST_CASE("the line plot writer draws one line per series and escapes its text") {
  course::LinePlot plot{"a < b & c", "x",  "y",
                        true,        true, {{"first", {1, 2, 4}, {1, 2, 3}}, {"second \"quoted\"", {1, 8}, {3, 1}}}};
  const std::string svg = course::render_svg(plot);
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);
  CHECK(svg.find("a &lt; b &amp; c") != std::string::npos);
  CHECK(svg.find("second &quot;quoted&quot;") != std::string::npos);
  std::size_t lines = 0;
  for (std::size_t at = svg.find("<polyline"); at != std::string::npos; at = svg.find("<polyline", at + 1)) ++lines;
  CHECK(lines == 2);
}

TEST_CASE("the line plot writer refuses series it cannot draw") {
  CHECK_THROWS_AS(course::render_svg({"t", "x", "y", false, true, {{"bad", {1, 2}, {1}}}}), std::invalid_argument);
  CHECK_THROWS_AS(course::render_svg({"t", "x", "y", true, true, {{"zero on a log axis", {0, 1}, {1, 1}}}}),
                  std::invalid_argument);
}

TEST_CASE("the H100's per-SM limits give the resident groups its %smid records counted") {
  // Measured on an H100 with NVIDIA's OpenCL driver 580: groups of 256 work-items, each reserving
  // this much local memory, ran this many at a time on one SM.
  const lesson07::ComputeUnitLimits h100 = lesson07::limits_for_compute_capability(9, 0);
  REQUIRE(h100.known);
  const std::vector<std::pair<int, int>> measured = {{1, 8}, {16, 8}, {24, 8}, {28, 7}, {32, 6}, {40, 5}, {47, 4}};
  for (const auto& [kib, groups] : measured) {
    CAPTURE(kib);
    CHECK(lesson07::resident_groups(h100, 256, std::size_t(kib) * 1024, -1).groups == groups);
  }
  CHECK(lesson07::resident_groups(h100, 256, 1024, -1).limited_by == "work-items per compute unit");
  CHECK(lesson07::resident_groups(h100, 256, 40 * 1024, -1).limited_by == "local memory");
  // 128 registers per work-item: 4096 per warp, 16 warps, two groups of 8 warps.
  CHECK(lesson07::resident_groups(h100, 256, 1024, 128).groups == 2);
  CHECK(lesson07::resident_groups(h100, 256, 1024, 128).limited_by == "registers");
  CHECK_FALSE(lesson07::limits_for_compute_capability(1, 0).known);
  CHECK(lesson07::resident_groups({}, 256, 1024, -1).groups == -1);
}

TEST_CASE("residency counts the groups that overlapped in time on one compute unit") {
  // SM 0: three groups overlap from 5 to 6; SM 1: back to back, never two at once.
  const std::vector<lesson07::GroupRecord> records = {{0, 0, 10}, {0, 2, 6}, {0, 5, 12}, {0, 11, 20},
                                                      {1, 0, 4},  {1, 4, 8}, {1, 8, 9}};
  CHECK(lesson07::most_resident(records) == 3);
  CHECK(lesson07::most_resident({{1, 0, 4}, {1, 4, 8}}) == 1);
  CHECK(lesson07::most_resident({}) == 0);
}

TEST_CASE("a device without sub-group shuffles gets one line naming what it lacks") {
  using lesson07::sub_group_support;
  // PoCL 3.1: no sub-groups at all. NVIDIA's driver 580: OpenCL C 3.0 without the sub-group feature.
  for (const auto& support : {sub_group_support({"cl_khr_fp64"}, {}, false),
                              sub_group_support({"cl_nv_device_attribute_query"}, {"__opencl_c_images"}, true),
                              sub_group_support({"cl_khr_subgroups"}, {}, false)}) {
    CHECK_FALSE(support.shuffles);
    CHECK(lesson07::sub_group_skip_line(support) ==
          "sub-group rung skipped: this device offers no sub-group shuffles (cl_khr_subgroup_shuffle)");
  }
  // Shuffles but no sub-groups: the line names the sub-groups.
  const auto no_sub_groups = sub_group_support({"cl_khr_subgroup_shuffle"}, {"__opencl_c_images"}, true);
  CHECK_FALSE(no_sub_groups.shuffles);
  CHECK(lesson07::sub_group_skip_line(no_sub_groups).find("cl_khr_subgroups") != std::string::npos);
  // PoCL 6.0 lists both extensions; Mesa's rusticl lists the shuffles and the OpenCL C 3.0 feature.
  const auto pocl = sub_group_support({"cl_khr_subgroups", "cl_khr_subgroup_shuffle"}, {"__opencl_c_subgroups"}, true);
  const auto rusticl = sub_group_support({"cl_khr_subgroup_shuffle"}, {"__opencl_c_subgroups"}, true);
  CHECK(pocl.shuffles);
  CHECK(rusticl.shuffles);
  CHECK(rusticl.build_options == "-cl-std=CL3.0");
}

TEST_CASE("the sub-group rung verifies where the device offers shuffles and prints its skip line where it does not") {
  const course::DeviceContext dc = course::open_device("");
  lesson07::Setup setup;
  setup.dc = &dc;
  setup.repeat = 1;
  setup.output_dir = course_tests::scratch_folder("lesson07-sub-groups").string();
  const course::GrayImage image = course::random_gray(67, 5, 5);
  course::FilterSpec filter{"gaussian", 3, 1.5, course::gaussian_weights(3, 1.5)};
  course::ResultsTable table("sub-groups", course::Roofline{});
  std::ostringstream printed;
  struct Restore {
    std::streambuf* saved;
    ~Restore() { std::cout.rdbuf(saved); }
  } restore{std::cout.rdbuf(printed.rdbuf())};
  const bool ok = lesson07::run_sub_group_rung(setup, image, filter, table);
  std::cout.rdbuf(restore.saved);
  CAPTURE(printed.str());
  CHECK(ok);
  CHECK(table.all_verified());
  const auto support = lesson07::sub_group_support(dc.device);
  const std::string skip = lesson07::sub_group_skip_line(support);
  // The lesson wraps a line wider than 80 columns, its continuation indented by two: read it whole.
  std::string out = printed.str();
  for (std::size_t at; (at = out.find("\n  (")) != std::string::npos;) out.replace(at, 3, " ");
  if (support.shuffles) {
    CHECK(out.find("sub-group shuffles") != std::string::npos);
    CHECK(out.find("skipped") == std::string::npos);
  } else {
    CHECK(out.find(skip + "\n") != std::string::npos);
    CHECK(out.find(skip) == out.rfind(skip));  // once
  }
}

namespace {

// Every kernel of `names` in `file` on odd sizes, radii up to 8, and group widths that are not a
// whole number of sub-groups (the last sub-group of a group is then smaller) or narrower than the
// window (3 lanes, radius 8: the shuffle kernel's global fallback), against the reference.
void check_row_filters(const course::DeviceContext& dc, const std::string& file, const std::string& options,
                       const std::vector<std::string>& names) {
  for (const int radius : {1, 3, 8}) {
    const std::vector<float> weights = course::gaussian_weights(radius, 0.5 + radius / 2.0);
    std::vector<float> keep(2 * radius + 1, 0.0f);
    keep[radius] = 1.0f;
    const cl::Program program =
        course::build_course_program(dc, "kernels/07_warps_and_occupancy/" + file,
                                     "-D COURSE_POISON_LOCAL -D RADIUS=" + std::to_string(radius) + " " + options);
    for (const auto& [w, h] : {std::pair{1, 1}, std::pair{37, 29}, std::pair{131, 3}}) {
      const course::GrayImage image = course::random_gray(w, h, 13 + radius);
      const course::GrayImage expected = course::correlate_separable(image, weights, keep);
      for (const int group : {128, 20, 3}) {
        for (const std::string& name : names) {
          CAPTURE(name);
          CAPTURE(radius);
          CAPTURE(w);
          CAPTURE(h);
          CAPTURE(group);
          const auto got = run_row_filter(dc, program, name, image, weights, group);
          const course::Comparison c = course::compare_images(got, expected.pixels, w, h, 1e-3);
          CHECK_MESSAGE(c.ok(), c.describe());
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("the row filters through global loads and local memory match the reference on odd sizes") {
  check_row_filters(course::open_device(""), "row_filter.cl", "", {"row_filter_global", "row_filter_local"});
}

TEST_CASE("the sub-group shuffle row filter matches the reference on odd sizes and partial sub-groups") {
  const course::DeviceContext dc = course::open_device("");
  const auto support = lesson07::sub_group_support(dc.device);
  if (!support.shuffles) {
    MESSAGE("skipped: " << lesson07::sub_group_skip_line(support));
    return;
  }
  check_row_filters(dc, "row_filter_shuffle.cl", support.build_options, {"row_filter_shuffle"});
}
