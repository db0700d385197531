#include "kernel_families.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>

#include "median_filters.hpp"
#include "separable_host.hpp"
#include "warp_runs.hpp"

namespace lesson11 {
namespace {

const std::string kSeparableFolder = "kernels/05_unrolling_and_work_per_item/";
const std::string kMedianFolder = "kernels/06_median_sorting_networks/";
const std::string kAlignedFile = "kernels/11_autotuning/aligned_passes.cl";

tuning::Axis axis(const std::string& name, std::vector<int> values) {
  return tuning::Axis{name, std::move(values), {}};
}

// The variants of a family that --variant asks for, in the family's order; the shipped one
// always, so that the tuned winner can be compared with it.
tuning::Axis variant_axis(const std::vector<std::string>& names, const Setup& setup, const std::string& shipped) {
  tuning::Axis a{"variant", {}, {}};
  for (const std::string& name : names)
    if (name == shipped || std::find(setup.variants.begin(), setup.variants.end(), name) != setup.variants.end()) {
      a.values.push_back(static_cast<int>(a.labels.size()));
      a.labels.push_back(name);
    }
  return a;
}

// The index of `value` on the axis called `name`, for the shipped defaults: every space holds
// them, so that the search times what the lessons ship (a value missing is the space's mistake).
int index_of(const tuning::Space& space, const std::string& name, int value) {
  const tuning::Axis& a = space.axes[space.axis(name)];
  const auto it = std::find(a.values.begin(), a.values.end(), value);
  if (it == a.values.end())
    throw std::logic_error("the search space's axis " + name + " lacks the shipped value " + std::to_string(value));
  return static_cast<int>(it - a.values.begin());
}

// The work-group axes: two shapes on the tour's small space, of the shipped height (a first run on
// PoCL compiles every kernel again for each shape it is launched with, about a second each), a
// sweep on the full one.
void add_group_axes(tuning::Space& space, SpaceSize size, int shipped_y) {
  if (size == SpaceSize::small) {
    space.axes.push_back(axis("group_x", {16, 64}));
    space.axes.push_back(axis("group_y", {shipped_y}));
  } else {
    space.axes.push_back(axis("group_x", {16, 32, 64, 128}));
    space.axes.push_back(axis("group_y", {1, 2, 4, 8}));
  }
}

// The limits every candidate meets whatever its kernel: the device's work-item sizes and
// work-items per group (CL_DEVICE_MAX_WORK_ITEM_SIZES, CL_DEVICE_MAX_WORK_GROUP_SIZE).
std::string device_limits(const course::DeviceContext& dc, std::size_t gx, std::size_t gy) {
  const auto sizes = dc.device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  const std::size_t items = dc.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  if (gx > sizes[0] || gy > sizes[1])
    return "group " + std::to_string(gx) + "x" + std::to_string(gy) + " exceeds the device's item sizes " +
           std::to_string(sizes[0]) + "x" + std::to_string(sizes[1]);
  if (gx * gy > items)
    return std::to_string(gx * gy) + " work-items, over the device's " + std::to_string(items) + " per group";
  return "";
}

// The compiled kernel's own limit: registers and local memory can make it allow fewer
// work-items per group than the device (CL_KERNEL_WORK_GROUP_SIZE).
std::string kernel_limit(const course::DeviceContext& dc, const cl::Kernel& kernel, std::size_t items) {
  const std::size_t allowed = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
  if (items <= allowed) return "";
  return "the compiled kernel allows " + std::to_string(allowed) + " work-items per group, not " +
         std::to_string(items);
}

cl::Event launch(const course::DeviceContext& dc, cl::Kernel& kernel, std::size_t items_x, std::size_t items_y,
                 std::size_t gx, std::size_t gy) {
  cl::Event done;
  dc.queue.enqueueNDRangeKernel(kernel, cl::NullRange,
                                cl::NDRange(course::round_up(items_x, gx), course::round_up(items_y, gy)),
                                cl::NDRange(gx, gy), nullptr, &done);
  return done;
}

std::size_t ceil_div(std::size_t a, std::size_t b) {
  return (a + b - 1) / b;
}

// --variant NAMES searches the variants named. The shipped variant stays on the variant axis, so
// that the winner can be compared with the shipped defaults, but only at those parameters.
void search_only_asked(tuning::Family& family, const Setup& setup) {
  family.why_illegal = [legal = family.why_illegal, s = family.space, shipped = family.shipped,
                        asked = setup.variants](const tuning::Point& p) -> std::string {
    const std::string variant = s.text(p, 0);
    if (p != shipped && std::find(asked.begin(), asked.end(), variant) == asked.end())
      return variant + " was not asked for (--variant): its shipped parameters only";
    return legal(p);
  };
}

// What the candidates of the separable and the 2D family share: the buffers and the CPU
// reference of the blur, computed once.
struct BlurState {
  course::SeparableBuffers buffers;
  course::GrayImage reference;
};

std::shared_ptr<BlurState> blur_state(const Setup& setup, const course::FilterSpec& filter) {
  const course::GrayImage& image = *setup.image;
  return std::make_shared<BlurState>(BlurState{
      course::make_separable_buffers(*setup.dc, image, filter.weights),
      setup.reference ? *setup.reference : course::correlate_separable(image, filter.weights, filter.weights)});
}

}  // namespace

const std::vector<std::string>& all_variants() {
  static const std::vector<std::string> names = {
      "separable_unrolled",  "several_outputs", "vector_passes",    "aligned_passes",     "single_pass_local",
      "single_pass_blocked", "network_3x3",     "network_3x3_rows", "shared_sorted_rows", "merged_columns",
      "merged_pairs",        "image_warp",      "buffer_warp",      "blocked_2d"};
  return names;
}

const std::vector<TunedOp>& tuned_ops() {
  static const std::vector<TunedOp> ops = {
      {"separable", "lesson 05's separable blur"},
      {"median", "lesson 06's 3x3 median of float pixels", 3, false},
      {"median5", "its 5x5 median of float pixels", 5, false},
      {"median-u8", "its 3x3 median of 8-bit pixels", 3, true},
      {"median5-u8", "its 5x5 median of 8-bit pixels", 5, true},
      {"warp", "lesson 09's bilinear warp"},
      {"conv2d", "lesson 05's register-blocked 2D convolution"},
  };
  return ops;
}

std::string median_operation(int window, bool eight_bit) {
  return "median " + std::to_string(window) + "x" + std::to_string(window) + (eight_bit ? " u8" : " float");
}

const TunedOp* median_op(int window, bool eight_bit) {
  for (const TunedOp& op : tuned_ops())
    if (op.window == window && op.eight_bit == eight_bit) return &op;
  return nullptr;
}

std::shared_ptr<tuning::Family> separable_family(const Setup& setup, const course::FilterSpec& filter) {
  const course::DeviceContext& dc = *setup.dc;
  const course::GrayImage& image = *setup.image;
  const int w = image.width, h = image.height, r = filter.radius;
  const auto state = blur_state(setup, filter);
  auto family = std::make_shared<tuning::Family>();
  family->operation = "separable " + filter.describe();
  tuning::Space& space = family->space;
  const bool cpu = (dc.entry.type & CL_DEVICE_TYPE_CPU) != 0;
  if (setup.size == SpaceSize::small) {
    // The tour's space: the two kernels that win somewhere (vector_passes on CPUs, aligned_passes
    // on GPUs); several_outputs, lesson 05's worked example, wins nowhere and waits for --space full.
    space.axes.push_back(variant_axis({"vector_passes", "aligned_passes"}, setup, "vector_passes"));
    add_group_axes(space, setup.size, cpu ? 1 : 4);
    space.axes.push_back(axis("outputs", {1, 8}));
    space.axes.push_back(axis("vector", {1, 8}));
    space.axes.push_back(tuning::Axis{"strip", {0}, {"none"}});
  } else {
    space.axes.push_back(variant_axis({"separable_unrolled", "several_outputs", "vector_passes", "aligned_passes",
                                       "single_pass_local", "single_pass_blocked"},
                                      setup, "vector_passes"));
    add_group_axes(space, setup.size, cpu ? 1 : 4);
    space.axes.push_back(axis("outputs", {1, 2, 4, 8, 16, 32}));
    space.axes.push_back(axis("vector", {1, 2, 4, 8}));
    // The rows a group of single_pass_blocked walks down; the other variants have no strip.
    space.axes.push_back(tuning::Axis{"strip", {0, 64, 256, 1024}, {"none", "64", "256", "1024"}});
  }
  const double pixels = double(w) * h;
  family->bytes = 2.0 * sizeof(float) * pixels;      // the image read once, the result written once
  family->flops = 2.0 * 2.0 * (2 * r + 1) * pixels;  // a multiply-add per tap, in each direction

  // The defaults lessons 05 and ./course bench ship: vector_passes, 8 lanes, 8 rows a work-item,
  // 16x1 groups on a CPU (a group runs as a loop on one core) and 64x4 on a GPU.
  const auto& variants = space.axes[0].labels;
  const int vector_passes =
      static_cast<int>(std::find(variants.begin(), variants.end(), "vector_passes") - variants.begin());
  family->shipped = {vector_passes,
                     index_of(space, "group_x", cpu ? 16 : 64),
                     index_of(space, "group_y", cpu ? 1 : 4),
                     index_of(space, "outputs", 8),
                     index_of(space, "vector", 8),
                     0};

  // The lambdas below keep their own copy of the space (the family holds them).
  auto params = [s = space](const tuning::Point& p) {
    struct Params {
      std::string variant;
      int gx, gy, outputs, vector, strip;
    };
    return Params{s.text(p, 0),          s.value(p, "group_x"), s.value(p, "group_y"),
                  s.value(p, "outputs"), s.value(p, "vector"),  s.value(p, "strip")};
  };

  family->why_illegal = [&dc, params, r](const tuning::Point& p) -> std::string {
    const auto c = params(p);
    // Parameters a variant does not have are not searched twice.
    if (c.variant == "separable_unrolled" && (c.outputs != 1 || c.vector != 1))
      return "separable_unrolled computes one output per work-item (outputs and vector 1 only)";
    if (c.variant == "several_outputs" && c.vector != 1) return "several_outputs has no vector width (vector 1 only)";
    if ((c.variant == "vector_passes" || c.variant == "single_pass_local") && c.vector == 1)
      return c.variant + " loads vectors: vector 2, 4, 8 or 16 (OpenCL has no float1)";
    if (c.variant == "aligned_passes" && c.vector % 4 != 0) return "aligned_passes loads float4s: vector 4 or 8";
    const bool blocked = c.variant == "single_pass_blocked";
    if (blocked && c.vector != 4) return "single_pass_blocked owns one float4 per work-item (vector 4 only)";
    if (blocked && c.strip == 0) return "single_pass_blocked walks down a strip (strip 64, 256 or 1024)";
    if (!blocked && c.strip != 0) return c.variant + " has no strip (strip none only)";
    if (const std::string why = device_limits(dc, c.gx, c.gy); !why.empty()) return why;
    const std::size_t local = dc.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
    if (blocked) {
      // The group walks down its strip a tile of group_y x outputs rows at a time; its ring holds
      // two tiles and 2R rows of row-filtered float4s.
      const int tile = c.gy * c.outputs;
      if (c.strip % tile != 0)
        return "a strip of " + std::to_string(c.strip) + " rows is no whole number of tiles of " +
               std::to_string(tile) + " rows (group_y x outputs)";
      const std::size_t bytes = std::size_t(2 * tile + 2 * r) * c.gx * 4 * sizeof(float);
      if (bytes > local)
        return "its ring needs " + std::to_string(bytes / 1024) + " KiB of local memory, the device has " +
               std::to_string(local / 1024) + " KiB";
    }
    if (c.variant == "single_pass_local") {
      // The tile's row-filtered rows live in local memory: (rows + 2R) x (columns) floats.
      const std::size_t bytes = std::size_t(c.gy * c.outputs + 2 * r) * c.gx * c.vector * sizeof(float);
      if (bytes > local)
        return "its tile needs " + std::to_string(bytes / 1024) + " KiB of local memory, the device has " +
               std::to_string(local / 1024) + " KiB";
    }
    return "";
  };

  family->bytes_moved = [params, pixels](const tuning::Point& p) {
    const std::string variant = params(p).variant;
    return (variant == "single_pass_local" || variant == "single_pass_blocked" ? 1 : 2) * 2.0 * sizeof(float) * pixels;
  };

  const int repeat = setup.repeat;
  family->measure = [&dc, params, state, r, w, h, repeat](const tuning::Point& p) {
    const auto c = params(p);
    tuning::Measurement m;
    course::BuildStats stats;
    std::string defines = " -D RADIUS=" + std::to_string(r) + " -D STEPS=" + std::to_string(c.outputs) +
                          " -D VEC=" + std::to_string(c.vector) + " -I " +
                          course::locate_course_file(kSeparableFolder + "vector_helpers.h").parent_path().string();
    cl::Kernel first, second;
    std::function<std::vector<cl::Event>()> enqueue;
    int passes = 2;
    const course::SeparableBuffers& b = state->buffers;
    auto image_args = [&b](cl::Kernel& k, const cl::Buffer& in, const cl::Buffer& out) {
      k.setArg(0, in);
      k.setArg(1, out);
      k.setArg(2, b.weights);
      k.setArg(3, b.width);
      k.setArg(4, b.height);
    };
    if (c.variant == "single_pass_blocked") {
      // Rows start on 16-byte boundaries when the width is a multiple of 4 floats.
      defines += " -D GROUP_W=" + std::to_string(c.gx) + " -D GROUP_H=" + std::to_string(c.gy) +
                 " -D STRIP=" + std::to_string(c.strip) + " -D ALIGNED_ROWS=" + (w % 4 == 0 ? "1" : "0");
      first = cl::Kernel(course::build_course_program(dc, kSeparableFolder + "single_pass_blocked.cl", defines, &stats),
                         "single_pass_blocked");
      image_args(first, b.input, b.output);
      passes = 1;
      // One group per group_x float4s of a row and per strip.
      const std::size_t columns = ceil_div(w, 4 * c.gx), strips = ceil_div(h, c.strip);
      enqueue = [&dc, &first, columns, strips, c] {
        return std::vector<cl::Event>{launch(dc, first, columns * c.gx, strips * c.gy, c.gx, c.gy)};
      };
    } else if (c.variant == "single_pass_local") {
      defines += " -D GROUP_W=" + std::to_string(c.gx) + " -D GROUP_H=" + std::to_string(c.gy);
      first = cl::Kernel(course::build_course_program(dc, kSeparableFolder + "single_pass_local.cl", defines, &stats),
                         "single_pass_local");
      image_args(first, b.input, b.output);
      passes = 1;
      const std::size_t tiles_x = ceil_div(w, c.gx * c.vector), tiles_y = ceil_div(h, c.gy * c.outputs);
      enqueue = [&dc, &first, tiles_x, tiles_y, c] {
        return std::vector<cl::Event>{launch(dc, first, tiles_x * c.gx, tiles_y * c.gy, c.gx, c.gy)};
      };
    } else {
      // Each two-pass variant: its file, and the names of its row and column kernels.
      const std::map<std::string, std::array<std::string, 3>> passes_of = {
          {"separable_unrolled", {kSeparableFolder + "separable_passes.cl", "row_pass", "column_pass"}},
          {"several_outputs", {kSeparableFolder + "several_outputs.cl", "row_pass_steps", "column_pass_steps"}},
          {"vector_passes", {kSeparableFolder + "vector_passes.cl", "row_pass_vector", "column_pass_vector"}},
          {"aligned_passes", {kAlignedFile, "row_pass_aligned", "column_pass_aligned"}}};
      const auto& [file, row_kernel, column_kernel] = passes_of.at(c.variant);
      // Rows start on 16-byte boundaries when the width is a multiple of 4 floats.
      if (c.variant == "aligned_passes" && w % 4 == 0) defines += " -D ALIGNED_ROWS";
      const cl::Program program = course::build_course_program(dc, file, defines, &stats);
      const bool plain = c.variant == "separable_unrolled";
      first = cl::Kernel(program, row_kernel.c_str());
      second = cl::Kernel(program, column_kernel.c_str());
      image_args(first, b.input, b.intermediate);
      image_args(second, b.intermediate, b.output);
      if (plain) {
        first.setArg(5, r);
        second.setArg(5, r);
      }
      // Work-items each pass needs: one per output, per run of outputs along a row (row pass)
      // or down a column (column pass), or per vector.
      std::size_t row_x = w, row_y = h, col_x = w, col_y = h;
      if (c.variant == "several_outputs") {
        row_x = ceil_div(w, c.outputs);
        col_y = ceil_div(h, c.outputs);
      } else if (c.variant == "vector_passes" || c.variant == "aligned_passes") {
        row_x = col_x = ceil_div(w, c.vector);
        col_y = ceil_div(h, c.outputs);
      }
      enqueue = [&dc, &first, &second, c, row_x, row_y, col_x, col_y] {
        return std::vector<cl::Event>{launch(dc, first, row_x, row_y, c.gx, c.gy),
                                      launch(dc, second, col_x, col_y, c.gx, c.gy)};
      };
    }
    m.build_ms = stats.milliseconds;
    for (const cl::Kernel* k : {&first, &second}) {
      if (!(*k)()) continue;
      if (const std::string why = kernel_limit(dc, *k, std::size_t(c.gx) * c.gy); !why.empty()) {
        m.skipped = why;
        return m;
      }
    }
    const course::VariantResult result =
        course::measure_variant(dc, b, nullptr, c.variant, enqueue, state->reference, repeat, passes);
    m.kernel_ms = result.row.kernel_ms;
    m.max_error = result.row.max_error;
    m.verified = result.row.verified;
    return m;
  };
  search_only_asked(*family, setup);
  return family;
}

bool caps_registers(const course::DeviceContext& dc) {
  return dc.device.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_nv_compiler_options") != std::string::npos;
}

std::string block_2d_problem(const course::DeviceContext& dc, const course::Block2D& block) {
  if (block.float4s < 1 || block.float4s > 4)
    return "blocked_2d takes 1 to 4 float4s a work-item, not " + std::to_string(block.float4s);
  if (block.strip < 1) return "blocked_2d needs a strip of at least one row";
  if (block.max_registers != 0 && !caps_registers(dc))
    return "a register cap needs NVIDIA's compiler options (cl_nv_compiler_options)";
  if (block.max_registers != 0 && (block.max_registers < 32 || block.max_registers > 255))
    return "a register cap is 32 to 255 registers, not " + std::to_string(block.max_registers);
  return "";
}

std::shared_ptr<tuning::Family> conv2d_family(const Setup& setup, const course::FilterSpec& filter) {
  const course::DeviceContext& dc = *setup.dc;
  const course::GrayImage& image = *setup.image;
  const int w = image.width, h = image.height, r = filter.radius;
  const auto state = blur_state(setup, filter);  // its buffers hold the (2R+1)^2 weights too
  auto family = std::make_shared<tuning::Family>();
  family->operation = "conv2d " + filter.describe();
  tuning::Space& space = family->space;
  // The block: "vector" columns a work-item (4 a float4), "outputs" rows of its strip, and the
  // group. The small space (the tour's) holds the shipped blocks of a CPU and a GPU and their
  // neighbours: 8 candidates.
  space.axes.push_back(variant_axis({"blocked_2d"}, setup, "blocked_2d"));
  if (setup.size == SpaceSize::small) {
    space.axes.push_back(axis("group_x", {16, 64}));
    space.axes.push_back(axis("group_y", {1}));
    space.axes.push_back(axis("outputs", {32, 128}));
    space.axes.push_back(axis("vector", {4, 8}));
  } else {
    space.axes.push_back(axis("group_x", {8, 16, 32, 64, 128}));
    space.axes.push_back(axis("group_y", {1, 2, 4}));
    space.axes.push_back(axis("outputs", {16, 32, 64, 128, 256}));
    space.axes.push_back(axis("vector", {4, 8, 12, 16}));
  }
  // On NVIDIA's compiler, a cap on the registers of a work-item (-cl-nv-maxrregcount; 0: none):
  // fewer registers let more warps share a multiprocessor, at the risk of spilling to memory.
  const bool capped = caps_registers(dc);
  if (capped) space.axes.push_back(axis("registers", {0, 96, 128, 168}));
  const double pixels = double(w) * h;
  family->bytes = 2.0 * sizeof(float) * pixels;
  family->flops = 2.0 * (2 * r + 1) * (2 * r + 1) * pixels;  // a multiply-add per tap of the square
  family->bytes_moved = [moved = family->bytes](const tuning::Point&) { return moved; };
  const course::Block2D shipped = course::default_block_2d(dc);
  family->shipped = {0, index_of(space, "group_x", static_cast<int>(shipped.group_x)),
                     index_of(space, "group_y", static_cast<int>(shipped.group_y)),
                     index_of(space, "outputs", shipped.strip), index_of(space, "vector", 4 * shipped.float4s)};
  if (capped) family->shipped.push_back(index_of(space, "registers", shipped.max_registers));
  auto block_of = [s = space, capped](const tuning::Point& p) {
    return course::Block2D{s.value(p, "vector") / 4, s.value(p, "outputs"),
                           static_cast<std::size_t>(s.value(p, "group_x")),
                           static_cast<std::size_t>(s.value(p, "group_y")), capped ? s.value(p, "registers") : 0};
  };
  family->why_illegal = [&dc, block_of](const tuning::Point& p) -> std::string {
    const course::Block2D b = block_of(p);
    if (const std::string why = block_2d_problem(dc, b); !why.empty()) return why;
    return device_limits(dc, b.group_x, b.group_y);
  };
  const int repeat = setup.repeat;
  family->measure = [&dc, block_of, state, r, w, h, repeat](const tuning::Point& p) {
    const course::Block2D block = block_of(p);
    tuning::Measurement m;
    course::BuildStats stats;
    cl::Kernel kernel = course::build_blocked_2d(dc, r, block, w, "", &stats);
    m.build_ms = stats.milliseconds;
    if (const std::string why = kernel_limit(dc, kernel, block.group_x * block.group_y); !why.empty()) {
      m.skipped = why;
      return m;
    }
    const course::SeparableBuffers& b = state->buffers;
    kernel.setArg(0, b.input);
    kernel.setArg(1, b.output);
    kernel.setArg(2, b.weights_2d);
    kernel.setArg(3, w);
    kernel.setArg(4, h);
    const auto enqueue = [&] { return std::vector<cl::Event>{course::launch_blocked_2d(dc, kernel, block, w, h)}; };
    const course::VariantResult result =
        course::measure_variant(dc, b, nullptr, "blocked_2d", enqueue, state->reference, repeat, 1);
    m.kernel_ms = result.row.kernel_ms;
    m.max_error = result.row.max_error;
    m.verified = result.row.verified;
    return m;
  };
  search_only_asked(*family, setup);
  return family;
}

std::shared_ptr<tuning::Family> median_family(const Setup& setup, const TunedOp& op) {
  const course::DeviceContext& dc = *setup.dc;
  const int w = setup.image->width, h = setup.image->height, window = op.window;
  const bool eight_bit = op.eight_bit;
  // 8-bit runs read the image rounded to 8-bit levels, as lesson 06 does.
  const course::GrayImage image = eight_bit ? course::quantize_to_8bit(*setup.image) : *setup.image;
  const std::size_t count = image.pixels.size(), bytes = count * (eight_bit ? 1 : sizeof(float));
  struct State {
    cl::Buffer input, output;
    course::GrayImage reference;
  };
  auto state = std::make_shared<State>();
  state->input = cl::Buffer(dc.context, CL_MEM_READ_ONLY, bytes);
  state->output = cl::Buffer(dc.context, CL_MEM_WRITE_ONLY, bytes);
  if (eight_bit) {
    const std::vector<std::uint8_t> levels(image.pixels.begin(), image.pixels.end());
    dc.queue.enqueueWriteBuffer(state->input, CL_TRUE, 0, bytes, levels.data());
  } else {
    dc.queue.enqueueWriteBuffer(state->input, CL_TRUE, 0, bytes, image.pixels.data());
  }
  state->reference = setup.reference ? *setup.reference : course::median_filter(image, window);

  auto family = std::make_shared<tuning::Family>();
  family->operation = median_operation(window, eight_bit);
  std::vector<std::string> variants = {"shared_sorted_rows", "merged_columns"};
  // The 3x3 networks (3x3 only): network_3x3 never wins; network_3x3_rows, the same network on
  // vectors along a row, is shaped for a CPU. The small space, the tour's, leaves both to the
  // larger spaces.
  if (window == 3 && setup.size != SpaceSize::small)
    variants.insert(variants.begin(), {"network_3x3", "network_3x3_rows"});
  if (eight_bit) variants.push_back("merged_pairs");
  tuning::Space& space = family->space;
  space.axes.push_back(variant_axis(variants, setup, "shared_sorted_rows"));
  add_group_axes(space, setup.size, 4);
  // Lesson 06's defaults: shared_sorted_rows in 64x4 groups, with the rows a work-item computes
  // (8 at 3x3, 4 at 5x5) and the lanes the device prefers for the pixel type.
  const course::MedianBlock shipped =
      course::median_block(dc, course::median_variant("shared_sorted_rows"), window, eight_bit);
  if (setup.size == SpaceSize::small) {
    space.axes.push_back(axis("outputs", {1, shipped.strip}));
    space.axes.push_back(axis("vector", {1, std::max(shipped.vector, 4)}));
  } else {
    space.axes.push_back(axis("outputs", {1, 2, 4, 8, 16}));
    space.axes.push_back(axis("vector", {1, 2, 4, 8, 16}));
  }
  family->bytes = 2.0 * bytes;
  // No arithmetic floor: the comparisons a median needs depend on the algorithm (lesson 06's
  // shared rows do far fewer per pixel than the network), so only the memory ceiling counts.
  family->flops = 0;
  family->bytes_moved = [moved = family->bytes](const tuning::Point&) { return moved; };
  const auto& labels = space.axes[0].labels;
  family->shipped = {static_cast<int>(std::find(labels.begin(), labels.end(), "shared_sorted_rows") - labels.begin()),
                     index_of(space, "group_x", 64), index_of(space, "group_y", 4),
                     index_of(space, "outputs", shipped.strip), index_of(space, "vector", shipped.vector)};

  // The variant and block of a candidate: its vector and strip from the axes, its lanes as
  // lesson 06 chooses them for that vector (merged_columns: the device's preferred width, up to
  // 32 pixels a row; merged_pairs: 2).
  auto params = [&dc, s = space, window, eight_bit](const tuning::Point& p) {
    const course::MedianVariant& variant = course::median_variant(s.text(p, 0));
    course::MedianBlock block = course::median_block(dc, variant, window, eight_bit, s.value(p, "vector"));
    block.vector = s.value(p, "vector");
    block.strip = s.value(p, "outputs");
    return std::make_pair(variant, block);
  };

  family->why_illegal = [&dc, s = space, params](const tuning::Point& p) -> std::string {
    const auto [variant, block] = params(p);
    if (const std::string why = course::median_block_problem(variant, block); !why.empty()) return why;
    return device_limits(dc, s.value(p, "group_x"), s.value(p, "group_y"));
  };

  const int repeat = setup.repeat;
  family->measure = [&dc, s = space, params, state, w, h, window, eight_bit, count, bytes,
                     repeat](const tuning::Point& p) {
    const auto [variant, block] = params(p);
    const int gx = s.value(p, "group_x"), gy = s.value(p, "group_y");
    tuning::Measurement m;
    course::BuildStats stats;
    std::string options, note;
    const cl::Program program =
        course::build_median_program(dc, variant, window, eight_bit, block, w, &options, &note, &stats);
    cl::Kernel kernel(program, variant.kernel.c_str());
    m.build_ms = stats.milliseconds;
    if (const std::string why = kernel_limit(dc, kernel, std::size_t(gx) * gy); !why.empty()) {
      m.skipped = why;
      return m;
    }
    kernel.setArg(0, state->input);
    kernel.setArg(1, state->output);
    kernel.setArg(2, w);
    kernel.setArg(3, h);
    const std::size_t items_x = ceil_div(w, course::median_row_pixels(block));
    const std::size_t items_y = ceil_div(h, block.strip);
    // Verify first, on a poisoned output, so a candidate that skips pixels cannot pass: NaN for
    // floats; for bytes, which have no value that cannot be a median, twice, once poisoned with
    // 0 and once with 255.
    std::vector<float> result(count);
    std::vector<std::uint8_t> levels(eight_bit ? count : 0);
    bool verified = true;
    for (const int poison : eight_bit ? std::vector<int>{0, 255} : std::vector<int>{-1}) {
      if (eight_bit)
        dc.queue.enqueueFillBuffer(state->output, static_cast<std::uint8_t>(poison), 0, bytes);
      else
        dc.queue.enqueueFillBuffer(state->output, std::numeric_limits<float>::quiet_NaN(), 0, bytes);
      launch(dc, kernel, items_x, items_y, gx, gy);
      if (eight_bit) {
        dc.queue.enqueueReadBuffer(state->output, CL_TRUE, 0, bytes, levels.data());
        std::copy(levels.begin(), levels.end(), result.begin());
      } else {
        dc.queue.enqueueReadBuffer(state->output, CL_TRUE, 0, bytes, result.data());
      }
      const course::Comparison check = course::compare_images(result, state->reference.pixels, w, h, 0.0);
      m.max_error = std::max(m.max_error, check.max_abs_error);
      verified = verified && check.ok() && check.total == count;
    }
    m.verified = verified;
    cl::CommandQueue queue = dc.queue;
    m.kernel_ms =
        course::time_events(
            queue, [&] { return std::vector<cl::Event>{launch(dc, kernel, items_x, items_y, gx, gy)}; }, repeat)
            .device_ms;
    return m;
  };
  search_only_asked(*family, setup);
  return family;
}

std::shared_ptr<tuning::Family> warp_family(const Setup& setup, const course::RgbaImage& picture,
                                            const course::Transform& m, const std::vector<float>* reference) {
  const course::DeviceContext& dc = *setup.dc;
  const int w = picture.width, h = picture.height;
  struct State {
    const course::RgbaImage* picture;
    course::Transform m;
    std::vector<float> reference;
  };
  auto state = std::make_shared<State>(
      State{&picture, m, reference ? *reference : course::transform_bilinear(picture, m, w, h)});
  auto family = std::make_shared<tuning::Family>();
  family->operation = "warp bilinear RGBA8";
  tuning::Space& space = family->space;
  // Lesson 09 runs the image variant first, in groups of 16x16: the shipped defaults.
  space.axes.push_back(variant_axis({"image_warp", "buffer_warp"}, setup, "image_warp"));
  if (setup.size == SpaceSize::small) {
    space.axes.push_back(axis("group_x", {16, 64}));
    space.axes.push_back(axis("group_y", {4, 16}));
  } else {
    space.axes.push_back(axis("group_x", {8, 16, 32, 64, 128}));
    space.axes.push_back(axis("group_y", {1, 2, 4, 8, 16}));
  }
  space.axes.push_back(axis("outputs", {1, 4}));  // output pixels per work-item, along the row
  space.axes.push_back(axis("vector", {1}));      // the warps have no vector width
  family->bytes = 2.0 * 4 * double(w) * h;        // RGBA8 in, RGBA8 out
  family->flops = 0;                              // memory-bound: the ceiling is the copy
  family->bytes_moved = [moved = family->bytes](const tuning::Point&) { return moved; };
  family->shipped = {0, index_of(space, "group_x", 16), index_of(space, "group_y", 16), 0, 0};

  const bool images = course::rgba8_images(dc, w, h);
  family->why_illegal = [&dc, s = space, images, w, h](const tuning::Point& p) -> std::string {
    if (s.text(p, 0) == "image_warp" && !images)
      return "no RGBA8 images of " + std::to_string(w) + "x" + std::to_string(h) + " on this device";
    return device_limits(dc, s.value(p, "group_x"), s.value(p, "group_y"));
  };

  const int repeat = setup.repeat;
  family->measure = [&dc, s = space, state, w, h, repeat](const tuning::Point& p) {
    const bool image = s.text(p, 0) == "image_warp";
    const int per_item = s.value(p, "outputs");
    course::WarpVariant variant;
    for (const course::WarpVariant& v : course::warp_variants())
      if (v.image_input == image && v.pixels_per_item == per_item) variant = v;
    tuning::Measurement m;
    try {
      course::RgbaImage result;
      const course::ResultRow row =
          course::run_warp(dc, variant, *state->picture, state->m, w, h, state->reference, repeat, result,
                           cl::NDRange(s.value(p, "group_x"), s.value(p, "group_y")));
      m.kernel_ms = row.kernel_ms;
      m.max_error = row.max_error;
      m.verified = row.verified;
    } catch (const course::DeviceLimitError& e) {
      m.skipped = e.what();  // the compiled kernel's own limit: never launched
    }
    return m;
  };
  search_only_asked(*family, setup);
  return family;
}

}  // namespace lesson11
