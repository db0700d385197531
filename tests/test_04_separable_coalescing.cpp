// Lesson 04: the access-trace analysis (segments and bank conflicts) on hand-made warps, the
// traced kernels on a real device, and the exercise check catching wrong column passes.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "checker.hpp"
#include "course.hpp"
#include "separable_host.hpp"
#include "test_support.hpp"
#include "trace_access.hpp"

namespace fs = std::filesystem;

namespace exercise04 {
// A few of exercise 04's cases (lessons/04_separable_coalescing/check.cpp).
void check_a_few_cases(course::ExerciseCheck& check);
}  // namespace exercise04

namespace {

const course::DeviceContext& device04() {
  static const course::DeviceContext dc = course::open_device("");
  return dc;
}

// A raw trace in which work-item i makes one access of `kind` at line 7 to address f(i).
template <typename F>
std::vector<int> one_access_each04(int items, course::AccessKind kind, F address) {
  std::vector<int> raw(static_cast<std::size_t>(items) * course::kTraceRecordsPerItem * course::kTraceFields, -1);
  for (int i = 0; i < items; ++i) {
    int* rec = &raw[static_cast<std::size_t>(i) * course::kTraceRecordsPerItem * course::kTraceFields];
    rec[0] = static_cast<int>(kind);
    rec[1] = 7;
    rec[2] = address(i);
  }
  return raw;
}

// Runs one traced kernel of lesson 04 on a 256x256 image and returns its analysed sites.
std::vector<course::AccessSiteSummary> trace04(const std::string& file, const std::string& kernel_name,
                                               const std::string& defines, const cl::NDRange& global,
                                               const cl::NDRange& local, int group_x, int group_y) {
  const auto& dc = device04();
  const course::GrayImage image = course::random_gray(256, 256, 4);
  const course::SeparableBuffers b = course::make_separable_buffers(dc, image, course::gaussian_weights(8, 4.0));
  const std::string folder = "kernels/04_separable_coalescing/";
  const std::string include = " -I " + course::locate_course_file(folder + "access_trace.h").parent_path().string();
  cl::Program program = course::build_course_program(dc, folder + file, defines + " -D COURSE_TRACE" + include);
  cl::Kernel kernel(program, kernel_name.c_str());
  std::size_t items = 1;
  for (std::size_t d = 0; d < local.dimensions(); ++d) items *= local[d];
  std::vector<int> raw(items * course::kTraceRecordsPerItem * course::kTraceFields, -1);
  cl::Buffer log(dc.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, raw.size() * sizeof(int), raw.data());
  int arg = 0;
  for (const cl::Buffer* buffer : {&b.input, &b.output, &b.weights}) kernel.setArg(arg++, *buffer);
  kernel.setArg(arg++, 256);
  kernel.setArg(arg++, 256);
  kernel.setArg(arg++, 8);
  kernel.setArg(arg++, log);
  kernel.setArg(arg++, group_x);
  kernel.setArg(arg++, group_y);
  cl::CommandQueue queue = dc.queue;
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local);
  queue.enqueueReadBuffer(log, CL_TRUE, 0, raw.size() * sizeof(int), raw.data());
  return course::analyse_trace(raw, static_cast<int>(items), 32);
}

double worst_segments_per_read04(const std::vector<course::AccessSiteSummary>& sites) {
  double worst = 0;
  for (const auto& s : sites)
    if (s.kind == course::AccessKind::kGlobalRead)
      worst = std::max(worst, static_cast<double>(s.segments128) / s.warp_accesses);
  return worst;
}

int worst_conflict04(const std::vector<course::AccessSiteSummary>& sites) {
  int worst = 0;
  for (const auto& s : sites) worst = std::max(worst, s.worst_conflict);
  return worst;
}

}  // namespace

TEST_CASE("a warp reading 32 consecutive aligned floats needs one 128-byte segment, a column 32") {
  const auto row = course::analyse_trace(
      one_access_each04(32, course::AccessKind::kGlobalRead, [](int i) { return 64 + i; }), 32, 32);
  REQUIRE(row.size() == 1);
  CHECK(row[0].warp_accesses == 1);
  CHECK(row[0].segments128 == 1);
  CHECK(row[0].segments32 == 4);
  const auto shifted = course::analyse_trace(
      one_access_each04(32, course::AccessKind::kGlobalRead, [](int i) { return 8 + i; }), 32, 32);
  CHECK(shifted[0].segments128 == 2);
  const auto column = course::analyse_trace(
      one_access_each04(32, course::AccessKind::kGlobalRead, [](int i) { return i * 512; }), 32, 32);
  CHECK(column[0].segments128 == 32);
  CHECK(column[0].ideal128 == 1);
}

TEST_CASE("a warp load 8 floats late needs 4 sectors in 2 lines, 4 floats late 5, a column 32 where 4 would do") {
  const auto shifted = course::analyse_trace(
      one_access_each04(32, course::AccessKind::kGlobalRead, [](int i) { return 8 + i; }), 32, 32);
  CHECK(shifted[0].segments32 == 4);
  CHECK(shifted[0].segments128 == 2);
  CHECK(shifted[0].ideal32 == 4);
  const auto half_sector = course::analyse_trace(
      one_access_each04(32, course::AccessKind::kGlobalRead, [](int i) { return 4 + i; }), 32, 32);
  CHECK(half_sector[0].segments32 == 5);
  const auto column = course::analyse_trace(
      one_access_each04(32, course::AccessKind::kGlobalRead, [](int i) { return i * 512; }), 32, 32);
  CHECK(column[0].segments32 == 32);
  CHECK(column[0].ideal32 == 4);
}

TEST_CASE("repeated reads of the same floats ask for sectors again but touch no new ones") {
  // Every work-item reads its own float, then its right neighbour's: the second warp access asks
  // for 5 sectors, 4 of them already asked for; the group touches 5 different sectors.
  std::vector<int> raw(32 * course::kTraceRecordsPerItem * course::kTraceFields, -1);
  for (int i = 0; i < 32; ++i)
    for (int n = 0; n < 2; ++n) {
      int* rec = &raw[(static_cast<std::size_t>(i) * course::kTraceRecordsPerItem + n) * course::kTraceFields];
      rec[0] = static_cast<int>(course::AccessKind::kGlobalRead), rec[1] = 9, rec[2] = 64 + i + n;
    }
  const auto sites = course::analyse_trace(raw, 32, 32);
  REQUIRE(sites.size() == 1);
  CHECK(sites[0].warp_accesses == 2);
  CHECK(sites[0].segments32 == 9);
  CHECK(sites[0].sectors.size() == 5);
}

TEST_CASE("a stride of 32 words is a 32-way bank conflict, a stride of 33 none, one shared word a broadcast") {
  const auto stride32 = course::analyse_trace(
      one_access_each04(32, course::AccessKind::kLocalRead, [](int i) { return i * 32; }), 32, 32);
  CHECK(stride32[0].worst_conflict == 32);
  const auto stride33 = course::analyse_trace(
      one_access_each04(32, course::AccessKind::kLocalRead, [](int i) { return i * 33; }), 32, 32);
  CHECK(stride33[0].worst_conflict == 1);
  const auto same =
      course::analyse_trace(one_access_each04(32, course::AccessKind::kLocalRead, [](int) { return 5; }), 32, 32);
  CHECK(same[0].worst_conflict == 1);
}

TEST_CASE("work-items are grouped into warps of the given width") {
  const auto sites =
      course::analyse_trace(one_access_each04(64, course::AccessKind::kGlobalRead, [](int i) { return i; }), 64, 16);
  CHECK(sites[0].warp_accesses == 4);
  CHECK(sites[0].segments64 == 4);
}

TEST_CASE("the traced v3 column pass needs a segment per work-item where the v411 one needs one per warp") {
  const int line = 64, padded_height = 256;
  const auto v3 = trace04("v3_local.cl", "column_pass_v3", " -D LINE=64", cl::NDRange(256 * padded_height),
                          cl::NDRange(line), 128 * (padded_height / line) + 2, 0);
  CHECK(worst_segments_per_read04(v3) == doctest::Approx(32));
  const std::string shape = " -D ROW_W=32 -D ROW_H=4 -D COL_W=32 -D COL_H=16";
  const auto v411 =
      trace04("v411_aligned.cl", "column_pass_v411", shape, cl::NDRange(256, 256), cl::NDRange(32, 16), 4, 8);
  CHECK(worst_segments_per_read04(v411) == doctest::Approx(1));
  CHECK(worst_conflict04(v411) == 1);
}

TEST_CASE("the transposed column tile conflicts 16 ways and one word of padding removes the conflict") {
  const std::string shape = " -D ROW_W=32 -D ROW_H=4 -D COL_W=32 -D COL_H=16 -D TRANSPOSED_TILE";
  const auto plain =
      trace04("v411_aligned.cl", "column_pass_v411", shape, cl::NDRange(256, 256), cl::NDRange(32, 16), 4, 8);
  CHECK(worst_conflict04(plain) == 16);
  const auto padded = trace04("v411_aligned.cl", "column_pass_v411", shape + " -D TILE_PAD=1", cl::NDRange(256, 256),
                              cl::NDRange(32, 16), 4, 8);
  CHECK(worst_conflict04(padded) == 1);
}

TEST_CASE("a kernel the course did not write is rewritten to record each access of the named buffers, not others") {
  const std::string source =
      "#line 1 \"mine.cl\"\n"
      "// input[ in a comment stays as it is\n"
      "__kernel void pass(__global const float* input, __global float* output, __local float* tile) {\n"
      "  tile[0] = input[clamp(y, 0, h - 1) * w + x];\n"
      "  output[y * w + x] = tile[input[0] > 0];\n"
      "}\n";
  const std::string traced = course::traced_source(
      source, "pass", {{"input", course::AccessKind::kGlobalRead}, {"output", course::AccessKind::kGlobalWrite}});
  CHECK(traced.find("TRACE_INDEX(0, clamp(y, 0, h - 1) * w + x)]") != std::string::npos);
  CHECK(traced.find("output[TRACE_INDEX(1, y * w + x)]") != std::string::npos);
  CHECK(traced.find("tile[input[TRACE_INDEX(0, 0)] > 0]") != std::string::npos);
  CHECK(traced.find("tile[0] =") != std::string::npos);
  CHECK(traced.find("// input[ in a comment") != std::string::npos);
  CHECK(traced.find("__local float* tile TRACE_ARGS) { TRACE_START;") != std::string::npos);
  CHECK(course::traced_source(source, "other", {{"input", course::AccessKind::kGlobalRead}}).empty());
}

TEST_CASE("a rewritten kernel records, for the group watched, each work-item's index and source line") {
  const course::DeviceContext& dc = device04();
  const std::string file = (fs::temp_directory_path() / "course_trace_test.cl").string();
  std::ofstream(file) << "__kernel void reads(__global const float* input, const int width) {\n"
                         "  const int x = get_global_id(0);\n"
                         "  volatile float v = input[x + width];\n"
                         "}\n";
  const cl::Program program = course::build_program(dc, file);
  cl::Program traced =
      course::build_traced_program(dc, program, "reads", {{"input", course::AccessKind::kGlobalRead}}, "");
  cl::Kernel kernel(traced, "reads");
  cl::Buffer input(dc.context, CL_MEM_READ_ONLY, 128 * sizeof(float));
  kernel.setArg(0, input);
  kernel.setArg(1, 32);
  const std::vector<course::TracedAccess> reads =
      course::trace_group(dc, kernel, 2, cl::NDRange(64), cl::NDRange(32), 1, 0);
  REQUIRE(reads.size() == 32);
  CHECK(reads[0].index == 64);  // work-item 32, the first of the second group, reads 32 + width
  CHECK(reads[31].index == 95);
  CHECK(reads[5].line == 3);
  CHECK(reads[5].kind == course::AccessKind::kGlobalRead);
}

