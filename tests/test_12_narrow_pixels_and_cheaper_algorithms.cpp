// Lesson 12's narrow pixels and running sums against the CPU reference, on sizes no group divides.
#include <doctest/doctest.h>

#include <filesystem>
#include <limits>

#include "checker.hpp"
#include "course.hpp"
#include "measure.hpp"
#include "narrow_pixels.hpp"
#include "running_sums.hpp"
#include "separable_host.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

const course::DeviceContext& device12() {
  static const course::DeviceContext dc = course::open_device("");
  return dc;
}

// The 8-bit or half rungs of lesson 05 (copy, two passes, blocked single pass, and the single pass
// widening its bytes by the magic number or moving its halves as 8-byte words) and
// single_pass_converted on `image`: every one verified against
// the reference of the stored pixels (run_narrow_ladder() checks).
bool narrow_rungs_verify(const course::GrayImage& image, int radius, course::PixelType type) {
  course::FilterSpec filter{"gaussian", radius, std::max(0.5, radius / 2.0), {}};
  filter.weights = course::gaussian_weights(radius, filter.sigma);
  course::ResultsTable table("narrow", course::Roofline{});
  course::run_narrow_ladder(device12(), image, filter, type, 3, 1, table,
                            fs::path(COURSE_BUILD_DIR) / "test-out" / "narrow");
  for (const course::ResultRow& row : table.rows())
    if (!row.verified)
      MESSAGE(row.variant << " at radius " << radius << ", " << image.width << "x" << image.height << ": max error "
                          << row.max_error);
  return table.rows().size() == 5u && table.all_verified();
}

// single_pass_converted.cl on `image` stored as `type` pixels, with Gaussian weights of `radius`,
// its local memory poisoned with NaN and its output with 255 or a half NaN first, in strips of
// `strip` rows (0: the lesson's), against the reference of the stored pixels.
bool converted_verifies(const course::GrayImage& image, int radius, course::PixelType type, std::size_t strip = 0) {
  const auto& dc = device12();
  course::GrayImage stored;
  const std::vector<unsigned char> host = course::store_pixels(image, type, stored);
  const std::vector<float> weights = course::lopsided_weights(radius);
  cl::Buffer input(dc.context, CL_MEM_READ_WRITE, host.size()), output(dc.context, CL_MEM_READ_WRITE, host.size());
  const cl::Buffer weight_buffer(dc.context, weights.begin(), weights.end(), true);
  cl::CommandQueue queue = dc.queue;
  queue.enqueueWriteBuffer(input, CL_TRUE, 0, host.size(), host.data());
  course::poison_output(queue, output, host.size(), type);
  const course::BlockedRung rung = course::single_pass_converted_rung(
      dc, type, radius, 3, image.width, image.height, input, output, weight_buffer, strip, " -D COURSE_POISON_LOCAL");
  rung.enqueue();
  std::vector<unsigned char> back(host.size());
  queue.enqueueReadBuffer(output, CL_TRUE, 0, back.size(), back.data());
  const course::Comparison c =
      course::compare_images(course::load_pixels(back, type), course::narrow_reference(stored, weights, type).pixels,
                             image.width, image.height, course::narrow_tolerance(type));
  if (!c.ok()) MESSAGE(c.describe());
  return c.ok();
}

// The running-sum box filter of `radius` on `image` by `passes` (its output poisoned with NaN
// before), against the reference at a tolerance of 0.002 (running_sums.cl bounds the drift).
bool running_sums_verify(course::RunningSums& passes, const course::GrayImage& image, int radius) {
  const auto& dc = device12();
  const std::vector<float> box = course::box_weights(radius);
  const course::SeparableBuffers b = course::make_separable_buffers(dc, image, box);
  cl::CommandQueue queue = dc.queue;
  queue.enqueueFillBuffer(b.output, std::numeric_limits<float>::quiet_NaN(), 0, image.pixels.size() * sizeof(float));
  course::launch_running_sums(dc, passes, b.input, b.intermediate, b.output, image.width, image.height, radius);
  std::vector<float> out(image.pixels.size());
  queue.enqueueReadBuffer(b.output, CL_TRUE, 0, out.size() * sizeof(float), out.data());
  const course::Comparison c =
      course::compare_images(out, course::correlate_separable(image, box, box).pixels, image.width, image.height, 2e-3);
  if (!c.ok()) MESSAGE(c.describe());
  return c.ok();
}

}  // namespace

TEST_CASE("the 8-bit rungs are within one level of the reference for every radius, rows aligned or not") {
  for (int radius = 0; radius <= 16; ++radius) {
    const int width = radius % 2 == 0 ? 84 : 83;
    CAPTURE(radius);
    CHECK(narrow_rungs_verify(course::random_gray(width, 29, 40 + radius), radius, course::PixelType::u8));
  }
}

TEST_CASE("the half rungs match the reference of the half pixels within a quarter level for every radius") {
  // Rows of 84 halves start on 8-byte boundaries (whole-vector loads, single_pass_halfbits' words);
  // rows of 83 do not, and every rung loads them half by half.
  for (int radius = 0; radius <= 16; ++radius) {
    CAPTURE(radius);
    CHECK(narrow_rungs_verify(course::random_gray(radius % 4 == 1 ? 83 : 84, 29, 60 + radius), radius,
                              course::PixelType::f16));
  }
}

TEST_CASE("the 8-bit and half rungs match the reference on one pixel, prime sizes, one row and one column") {
  for (const auto& [w, h] : {std::pair{1, 1}, {37, 23}, {1, 19}, {97, 1}, {131, 67}}) {
    CAPTURE(w);
    CAPTURE(h);
    const course::GrayImage image = course::random_gray(w, h, static_cast<std::uint32_t>(w * 7 + h));
    CHECK(narrow_rungs_verify(image, 5, course::PixelType::u8));
    CHECK(narrow_rungs_verify(image, 5, course::PixelType::f16));
  }
}

// single_pass_converted at every radius from 0 to 16 for `type` pixels on one pixel, one row,
// one column (every staged pixel a clamped copy of the image's edge) and sizes no group divides
// (rows not a multiple of 4: vload4, and lane by lane at the right edge).
void converted_verifies_every_radius(course::PixelType type) {
  for (int radius = 0; radius <= 16; ++radius)
    for (const auto& [w, h] : {std::pair{1, 1}, {17, 1}, {1, 19}, {131, 67}, {67, 53}}) {
      CAPTURE(radius);
      CAPTURE(w);
      CAPTURE(h);
      CHECK(
          converted_verifies(course::random_gray(w, h, static_cast<std::uint32_t>(w * 5 + h + radius)), radius, type));
    }
}

TEST_CASE("the single pass converting each pixel once is within one level of the 8-bit reference at every radius") {
  converted_verifies_every_radius(course::PixelType::u8);
}

TEST_CASE("the single pass converting each pixel once matches the half reference at every radius") {
  converted_verifies_every_radius(course::PixelType::f16);
}

TEST_CASE(
    "the single pass converting each pixel once matches the reference with aligned rows, float pixels and strips of "
    "one tile and a few") {
  for (const int radius : {0, 8, 16}) {
    CAPTURE(radius);
    // 68 pixels: rows start on 16-byte boundaries, whole aligned vectors (ALIGNED_ROWS=1).
    CHECK(converted_verifies(course::random_gray(68, 53, 70 + radius), radius, course::PixelType::u8));
    CHECK(converted_verifies(course::random_gray(68, 53, 75 + radius), radius, course::PixelType::f16));
    // The same kernel on floats, as lesson 05's single pass stores them.
    CHECK(converted_verifies(course::random_gray(131, 67, 80 + radius), radius, course::PixelType::f32));
  }
  // Strips of 3 rows (one tile of 3 steps on a CPU device) and 24: many groups down the image,
  // each staging and row-filtering its strip's 2R halo rows in batches of a tile.
  for (const std::size_t strip : {3, 24})
    for (const int radius : {1, 16}) {
      CAPTURE(strip);
      CAPTURE(radius);
      CHECK(converted_verifies(course::random_gray(75, 61, 90 + radius), radius, course::PixelType::u8, strip));
    }
}

TEST_CASE("the single passes' multiply-adds, conversions and local loads an output pixel follow their code") {
  // Radius 8, 8 steps, 64-row strips (the H100's): each strip row-filters 80 rows for 64 outputs.
  CHECK(course::single_pass_fmas(8, 64) == 17 * (1 + 1.25));
  // single_pass_blocked converts the 5 float4s around its own for each of those rows; the
  // converted pass stages 128 + 16 pixels of each for 128 outputs (16 work-items of 8 wide).
  CHECK(course::single_pass_blocked_conversions(8, 64) == 5 * 1.25);
  CHECK(course::single_pass_converted_conversions(8, 64, 16) == 144.0 / 128 * 1.25);
  // The converted pass reads 6 staged float4s for 8 outputs of each row, then the column
  // filter's 8 + 16 rows for 8 rows of a float4: 0.75, as single_pass_blocked's.
  CHECK(course::single_pass_converted_local_loads(8, 8, 64) == 6.0 / 8 * 1.25 + 24.0 / 32);
  CHECK(course::single_pass_blocked_local_loads(8, 8) == 24.0 / 32);
  // Radius 0: one float4 a row for 4 outputs, nothing staged beside the group's own pixels.
  CHECK(course::single_pass_converted_local_loads(0, 8, 64) == 2.0 / 8 + 8.0 / 32);
  CHECK(course::single_pass_converted_conversions(0, 64, 16) == 1.0);
}

TEST_CASE("to_half rounds a float to the nearest half, ties to even, and from_half reads it back") {
  CHECK(course::to_half(1.0f) == 0x3c00);
  CHECK(course::to_half(-2.0f) == 0xc000);
  CHECK(course::to_half(255.0f) == 0x5bf8);
  CHECK(course::to_half(0.1f) == 0x2e66);
  CHECK(course::to_half(1.0f + 1.0f / 2048) == 0x3c00);  // a tie: to the even neighbour below
  CHECK(course::to_half(1.0f + 3.0f / 2048) == 0x3c02);  // a tie: to the even neighbour above
  CHECK(course::to_half(65504.0f) == 0x7bff);
  CHECK(course::to_half(65520.0f) == 0x7c00);       // past the largest half: infinity
  CHECK(course::to_half(5.9604645e-8f) == 0x0001);  // 2^-24, the smallest subnormal
  CHECK(course::from_half(0x5bf8) == 255.0f);
  CHECK(course::from_half(0x0001) == 5.9604645e-8f);
  CHECK(course::from_half(0x3555) == doctest::Approx(0.333251953125));
}

TEST_CASE(
    "the running-sum box filter matches the reference at every radius from 0 to 64, across segments, in every layout") {
  // 203 x 97 with 16- and 45-pixel segments: many segments a line, shorter or not a multiple of
  // the 32-step chunk, the last one partial; 97 rows: the tiled row pass's last group of 32 rows
  // partial; windows wider than the image at the larger radii (every load clamped). The CPU
  // layout and the GPU's four (tiled, scanned, scanned with prefetch, and that with the ring's column
  // pass), whichever device runs the tests.
  const auto& dc = device12();
  const course::GrayImage image = course::random_gray(203, 97, 64);
  for (const course::RowLayout layout :
       {course::RowLayout::walk, course::RowLayout::tiled, course::RowLayout::scan, course::RowLayout::prefetch,
        course::RowLayout::ring})
    for (const int segment : {16, 45, 512}) {
      course::RunningSums passes = course::build_running_sums(dc, segment, layout);
      for (int radius = 0; radius <= course::kRunningSumsMaxRadius; ++radius) {
        CAPTURE(static_cast<int>(layout));
        CAPTURE(segment);
        CAPTURE(radius);
        CHECK(running_sums_verify(passes, image, radius));
      }
    }
}

TEST_CASE(
    "the scanned row passes match the reference at every radius on one pixel, one row, one column and "
    "rows of several tiles, in every shape of the scan") {
  // A group scans its row in tiles of scan.group x scan.items steps, the first 2R of them before
  // pixel 0: 2500 pixels and those steps take three tiles or more at every radius, so the sum
  // carried from tile to tile (and, prefetching, the loads a tile ahead) is checked; 1x1, 97x1 and
  // 1x19 clamp every load; 131x67 is the lesson's test size. Shapes: the shipped 128x8, one
  // work-item, a group of one step each, the most steps, a group larger than a warp of two steps.
  for (const course::ScanShape shape : {course::ScanShape{}, course::ScanShape{1, 1}, course::ScanShape{64, 1},
                                        course::ScanShape{32, 32}, course::ScanShape{256, 2}})
    for (const course::RowLayout layout : {course::RowLayout::scan, course::RowLayout::prefetch}) {
      REQUIRE(course::scan_shape_problem(device12(), shape).empty());
      course::RunningSums passes = course::build_running_sums(device12(), 45, layout, shape);
      REQUIRE(passes.scan.group * passes.scan.items < 2500 / 2);  // three tiles or more a row
      for (const auto& [w, h] : {std::pair{1, 1}, {97, 1}, {1, 19}, {131, 67}, {2500, 3}}) {
        const course::GrayImage image = course::random_gray(w, h, static_cast<std::uint32_t>(w * 3 + h));
        for (int radius = 0; radius <= course::kRunningSumsMaxRadius; ++radius) {
          CAPTURE(shape.group);
          CAPTURE(shape.items);
          CAPTURE(static_cast<int>(layout));
          CAPTURE(w);
          CAPTURE(h);
          CAPTURE(radius);
          CHECK(running_sums_verify(passes, image, radius));
        }
      }
    }
}

TEST_CASE("a shape the scan cannot take is refused with the limit it breaks") {
  const auto& dc = device12();
  CHECK(course::scan_shape_problem(dc, {128, 8}).empty());
  CHECK(course::scan_shape_problem(dc, {96, 8}).find("not a power of two") != std::string::npos);
  CHECK(course::scan_shape_problem(dc, {128, 0}).find("outside 1..32") != std::string::npos);
  CHECK(course::scan_shape_problem(dc, {128, 33}).find("outside 1..32") != std::string::npos);
  CHECK(course::scan_shape_problem(dc, {1 << 20, 1}).find("exceeds this device's largest") != std::string::npos);
}
