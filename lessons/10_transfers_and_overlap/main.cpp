// Lesson 10: transfers, pinned memory and overlap.
// Times each segment of a separable filter (upload, row pass, column pass, download) as the
// thesis's table 6.6 did, then cuts the transfers down: pinned host memory, zero-copy buffers,
// 8-bit pixels, and a stream of frames over two or three queues so that copies overlap kernels.
// Look at: the share of the total the transfers take, what the host's clock (wall ms) adds to the
// events' time (end-to-end ms), and the stream's fps against its bounds.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>

#include "course.hpp"
#include "host_memory.hpp"
#include "timeline.hpp"
#include "transfer_pipeline.hpp"

namespace {

struct Variant {
  HostMemory memory;
  bool eight_bit;
  std::string name() const { return std::string(eight_bit ? "8-bit " : "float ") + host_memory_name(memory); }
};

std::string ms(double v, int digits = -1) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits >= 0 ? digits : v < 10 ? 2 : 1) << v;
  return s.str();
}

// The 2010 thesis's (docs/references.md) table 6.6 (2048x2048 picture, 17x17 filter) next to this device's variants.
void print_segment_table(const std::vector<Variant>& variants, const std::vector<Segments>& measured) {
  // One line per variant, the thesis's two GPUs first; a column per segment, in milliseconds.
  std::cout << "  " << std::left << std::setw(15) << "ms" << std::right;
  for (const char* name : {"upload", "row", "column", "kernels", "download", "total"}) std::cout << std::setw(9) << name;
  std::cout << std::setw(8) << "share" << "\n  " << std::string(15 + 6 * 9 + 8, '-') << "\n";
  auto line = [](const std::string& name, const std::vector<double>& v) {
    std::cout << "  " << std::left << std::setw(15) << name << std::right;
    for (double x : v) std::cout << std::setw(9) << ms(x);
    std::cout << std::setw(7) << std::lround(100 * (v[0] + v[4]) / v[5]) << "%\n";
  };
  line("GT240 (2010)", {14.2, 3.0, 5.9, 8.9, 7.9, 31.1});
  line("HD 5670 (2010)", {14.4, 8.4, 10.2, 18.6, 8.1, 41.9});
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const Segments& m = measured[i];
    line(variants[i].name(), {m.upload, m.row, m.column, m.kernels(), m.download, m.total()});
  }
  std::cout << "  (kernels = row + column; share = (upload + download) / total)\n";
}

}  // namespace

int main(int argc, char** argv) {
  try {
    // Step 0: options. The thesis's case is --size 2048x2048 with the default radius 8 (17x17).
    course::Options options("./course run 10", "Where the time of a filter goes when the picture must cross the bus.");
    course::add_image_options(options, "10_transfers_and_overlap");
    course::add_filter_options(options, 8);
    options.value("frames", "N", "frames in the stream of step 4", "8");
    options.example("./course run 10", "the camera picture, a 17x17 Gaussian, a stream of 8 frames");
    options.example("./course run 10 --size 2048x2048 --repeat 10", "the thesis's table 6.6 case");
    options.parse(argc, argv);
    const int repeat = options.integer("repeat", 1, 1000);
    const int frames = options.integer("frames", 2, 256);
    const course::FilterSpec filter = course::read_filter(options, 16);

    // Step 1: the device and the two passes, once for float pixels and once for 8-bit pixels.
    const course::DeviceContext dc = course::open_device(options.text("device"));
    const course::SeparablePasses float_passes = course::build_separable_passes(dc, filter.weights, false);
    const course::SeparablePasses byte_passes = course::build_separable_passes(dc, filter.weights, true);
    const course::GrayImage image = course::input_gray(options, dc);
    const int width = image.width, height = image.height;
    const std::size_t pixels = image.pixels.size();
    std::cout << "Device: " << course::describe(dc.entry) << "\nPicture " << width << "x" << height << ", filter "
              << filter.describe() << " (" << 2 * filter.radius + 1 << "x" << 2 * filter.radius + 1 << "),\nwork-groups "
              << float_passes.row_group[0] << "x" << float_passes.row_group[1] << " (rows) and "
              << float_passes.column_group[0] << "x" << float_passes.column_group[1] << " (columns)\n";

    // Step 2: the CPU references. The 8-bit path starts from the picture rounded to 8 bits and
    // ends rounded again, so its reference does the same.
    const course::GrayImage expected = course::correlate_separable(image, filter.weights, filter.weights);
    course::GrayImage image8 = image;
    for (float& v : image8.pixels) v = std::clamp(std::round(v), 0.0f, 255.0f);
    course::GrayImage expected8 = course::correlate_separable(image8, filter.weights, filter.weights);
    for (float& v : expected8.pixels) v = std::clamp(std::round(v), 0.0f, 255.0f);

    // Step 3: one picture, five ways. Every segment is an event, so the table shows where the
    // time goes; every result is checked against the CPU.
    const std::vector<Variant> variants = {{HostMemory::pageable, false},
                                           {HostMemory::pinned, false},
                                           {HostMemory::zero_copy, false},
                                           {HostMemory::pageable, true},
                                           {HostMemory::pinned, true}};
    course::ResultsTable table("Lesson 10: one picture, then a stream (" + std::to_string(width) + "x" +
                                   std::to_string(height) + ", " + filter.describe() + ")",
                               course::measure_roofline(dc));
    // A multiply-add per tap in each direction, per pixel.
    const double separable_flops = 2.0 * 2 * (2 * filter.radius + 1) * double(pixels);
    std::vector<Segments> measured;
    course::GrayImage float_result{width, height, {}}, byte_result{width, height, std::vector<float>(pixels)};
    for (const Variant& v : variants) {
      std::vector<std::uint8_t> picture(pixels * (v.eight_bit ? 1 : sizeof(float))), result;
      if (v.eight_bit)
        std::transform(image8.pixels.begin(), image8.pixels.end(), picture.begin(),
                       [](float p) { return std::uint8_t(p); });
      else
        std::memcpy(picture.data(), image.pixels.data(), picture.size());
      table.running(v.name());
      measured.push_back(time_one_picture(dc, v.eight_bit ? byte_passes : float_passes, v.memory, picture, result,
                                          width, height, repeat));
      course::GrayImage& got = v.eight_bit ? byte_result : float_result;
      if (v.eight_bit)
        std::copy(result.begin(), result.end(), got.pixels.begin());
      else
        got.pixels.assign(reinterpret_cast<const float*>(result.data()),
                          reinterpret_cast<const float*>(result.data()) + pixels);
      // Float sums in a different order stay within 1e-3 levels; 8-bit results may round the other way.
      const auto check = course::compare_images(got.pixels, (v.eight_bit ? expected8 : expected).pixels, width, height,
                                                v.eight_bit ? 1.0 : 1e-3);
      const Segments& s = measured.back();
      // Least bytes: the row pass reads the picture and writes floats, the column pass the reverse.
      const double bytes = pixels * (v.eight_bit ? 1.0 + 4 + 4 + 1 : 16.0);
      course::ResultRow row{v.name(), s.kernels(), s.total(), double(pixels), bytes, check.max_abs_error, check.ok()};
      row.flops = separable_flops;
      row.wall_ms = s.wall;
      table.add(row);
      if (!check.ok()) std::cout << v.name() << ": " << check.describe() << "\n";
    }
    std::cout << "\nSegments of one picture, medians of " << repeat
              << " runs (the thesis's rows: 2048x2048, 17x17)\n";
    print_segment_table(variants, measured);

    // Step 4: a stream of frames (the picture panning sideways), in pinned memory so that copies
    // can run while kernels do. Double buffering: frame i uses input and output buffer i % 2,
    // and event waits are the only thing that keeps frames from overwriting each other. Which
    // waits, derive_waits() finds from the buffers each command touches (the waits of three
    // queues; with fewer, queue order already keeps some of them). Exercise 10 asks you to find
    // them by hand.
    const course::FrameSchedule schedule = course::derive_waits(3);
    const std::size_t stream_bytes = pixels * sizeof(float) * frames;
    if (stream_bytes > dc.device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>())
      throw course::UsageError("--frames " + std::to_string(frames) + " needs " + std::to_string(stream_bytes >> 20) +
                               " MiB of pinned memory per direction, more than this device allocates at once");
    cl::Buffer pinned_in(dc.context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_ONLY, stream_bytes);
    cl::Buffer pinned_out(dc.context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_WRITE_ONLY, stream_bytes);
    auto* frames_in = static_cast<float*>(dc.queue.enqueueMapBuffer(pinned_in, CL_TRUE, CL_MAP_WRITE, 0, stream_bytes));
    auto* frames_out = static_cast<float*>(
        dc.queue.enqueueMapBuffer(pinned_out, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, stream_bytes));
    std::vector<course::GrayImage> frame_expected;
    for (int f = 0; f < frames; ++f) {
      course::GrayImage frame{width, height, std::vector<float>(pixels)};
      const int shift = static_cast<int>(static_cast<long long>(f) * width / frames);
      for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) frame.pixels[std::size_t(y) * width + x] = image.at((x + shift) % width, y);
      std::copy(frame.pixels.begin(), frame.pixels.end(), frames_in + f * pixels);
      frame_expected.push_back(course::correlate_separable(frame, filter.weights, filter.weights));
    }
    int wait_count = 0;
    for (const auto& waits : schedule.waits) wait_count += static_cast<int>(waits.size());
    std::cout << "\nStream of " << frames << " frames, double-buffered, with the " << wait_count
              << " event waits derive_waits() finds\n(exercise 10: which are they?)\n";
    std::cout << "\n  queues  stream ms  frames/s  vs 1 queue  frames verified\n  " << std::string(52, '-') << "\n";
    double serial_span = 0;
    std::vector<course::StreamRun> typical_runs;
    for (int queues = 1; queues <= 3; ++queues) {
      const std::string name = "stream, " + std::to_string(queues) + " queue" + (queues > 1 ? "s" : "");
      table.running(name);
      std::vector<course::StreamRun> runs;
      for (int run = 0; run <= repeat; ++run) {
        // NaN everywhere first, so a frame no command wrote cannot pass for an earlier run's result.
        std::fill(frames_out, frames_out + frames * pixels, std::numeric_limits<float>::quiet_NaN());
        runs.push_back(
            course::run_frame_stream(dc, float_passes, schedule, queues, frames_in, frames_out, frames, width, height));
      }
      runs.erase(runs.begin());  // the warm-up
      std::vector<double> walls;
      for (const course::StreamRun& run : runs) walls.push_back(run.wall_ms);
      std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) { return a.span_ms < b.span_ms; });
      const course::StreamRun& typical = runs[runs.size() / 2];
      int good = 0;
      double worst = 0;
      for (int f = 0; f < frames; ++f) {
        const auto c =
            course::compare_images(frames_out + f * pixels, frame_expected[f].pixels.data(), width, height, 1e-3);
        good += c.ok();
        worst = std::max(worst, c.max_abs_error);
      }
      if (queues == 1) serial_span = typical.span_ms;
      typical_runs.push_back(typical);
      std::cout << "  " << std::setw(6) << queues << std::setw(11) << ms(typical.span_ms) << std::setw(10)
                << ms(1000.0 * frames / typical.span_ms) << std::setw(11) << ms(serial_span / typical.span_ms) + "x"
                << std::setw(10) << good << " of " << frames << "\n";
      course::ResultRow row{name,
                            typical.median_ms[1] + typical.median_ms[2],
                            typical.span_ms / frames,
                            double(pixels),
                            pixels * 16.0,
                            worst,
                            good == frames};
      row.flops = separable_flops;
      // Each run's whole stream on the host's clock, its median taken as the span's is (the upper
      // middle of an even count), a frame.
      std::sort(walls.begin(), walls.end());
      row.wall_ms = walls[walls.size() / 2] / frames;
      table.add(row);
    }
    // The bounds: a stream cannot beat its copies (one copy engine does uploads and downloads in
    // turn; two can do both at once) nor its kernels. Each step's cost is its fastest median over
    // the three streams, so that a busy moment in one run does not lower the bound.
    double up_ms = 1e30, down_ms = 1e30, kernel_ms = 1e30;
    for (const course::StreamRun& run : typical_runs) {
      up_ms = std::min(up_ms, run.median_ms[0]);
      down_ms = std::min(down_ms, run.median_ms[3]);
      kernel_ms = std::min(kernel_ms, run.median_ms[1] + run.median_ms[2]);
    }
    std::cout << "  transfer-only bound: " << ms(1000 / (up_ms + down_ms)) << " frames/s with one copy engine\n    (upload "
              << ms(up_ms) << " + download " << ms(down_ms) << " ms a frame), " << ms(1000 / std::max(up_ms, down_ms))
              << " with one\n    for each direction\n  kernel-only bound: " << ms(1000 / kernel_ms) << " frames/s (row + column "
              << ms(kernel_ms) << " ms a frame)\n";

    // Step 5: the report, and the pictures.
    table.print(std::cout, std::filesystem::path(options.text("output-dir")) / "results.txt");
    course::save_png(course::output_path(options, "input.png"), image);
    course::save_png(course::output_path(options, "filtered_float.png"), float_result);
    course::save_png(course::output_path(options, "filtered_8bit.png"), byte_result);
    course::GrayImage last{width, height,
                           std::vector<float>(frames_out + (frames - 1) * pixels, frames_out + frames * pixels)};
    course::save_png(course::output_path(options, "stream_last_frame.png"), last);
    save_stream_timeline(course::output_path(options, "stream_timeline.png"), typical_runs);
    dc.queue.enqueueUnmapMemObject(pinned_in, frames_in);
    dc.queue.enqueueUnmapMemObject(pinned_out, frames_out);
    dc.queue.finish();
    std::cout << "\nWrote the pictures to " << options.text("output-dir") << "\n";
    return ((table.all_verified()) ? course::kExitOk : course::kExitVerificationFailed);
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
