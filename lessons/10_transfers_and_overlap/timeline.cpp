#include "timeline.hpp"

#include <algorithm>
#include <array>

void save_stream_timeline(const std::filesystem::path& path, const std::vector<course::StreamRun>& runs) {
  const int width = 960, lane = 18, gap = 4, band_gap = 14;
  int height = band_gap;
  for (std::size_t k = 0; k < runs.size(); ++k) height += int(k + 1) * (lane + gap) + band_gap;
  course::RgbaImage image{width, height, std::vector<std::uint8_t>(std::size_t(width) * height * 4, 255)};
  auto fill = [&](int x0, int x1, int y0, int y1, std::array<std::uint8_t, 3> rgb) {
    for (int y = std::max(0, y0); y < std::min(height, y1); ++y)
      for (int x = std::max(0, x0); x < std::min(width, x1); ++x)
        std::copy(rgb.begin(), rgb.end(), image.pixels.begin() + (std::size_t(y) * width + x) * 4);
  };
  const std::array<std::uint8_t, 3> colour[4] = {{40, 110, 220}, {120, 200, 90}, {30, 120, 50}, {240, 140, 30}};
  // One time scale for every band: the slowest run fills the width.
  double longest = 0;
  for (const auto& run : runs) longest = std::max(longest, run.span_ms);
  int top = band_gap;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const int queues = int(k + 1);
    cl_ulong first = ~cl_ulong(0);
    for (const auto& frame : runs[k].events)
      for (const auto& e : frame) first = std::min(first, e.getProfilingInfo<CL_PROFILING_COMMAND_START>());
    fill(0, width, top - 2, top + queues * (lane + gap), {235, 235, 235});
    for (const auto& frame : runs[k].events)
      for (int s = 0; s < 4; ++s) {
        const double start = (frame[s].getProfilingInfo<CL_PROFILING_COMMAND_START>() - first) * 1e-6;
        const double end = (frame[s].getProfilingInfo<CL_PROFILING_COMMAND_END>() - first) * 1e-6;
        // Bars are at least 2 pixels wide, so that copies too short to see still show where they ran.
        const int x0 = int(start / longest * (width - 1)), x1 = std::max(x0 + 2, int(end / longest * (width - 1)));
        const int y = top + course::queue_of(course::FrameStep(s), queues) * (lane + gap);
        fill(x0, x1, y, y + lane, colour[s]);
        if (x1 - x0 > 3) fill(x1 - 1, x1, y, y + lane, {255, 255, 255});  // a seam between back-to-back commands
      }
    top += queues * (lane + gap) + band_gap;
  }
  course::save_png(path, image);
}
