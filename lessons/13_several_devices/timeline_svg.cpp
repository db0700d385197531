#include "timeline_svg.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "svg_figure.hpp"

namespace lesson13 {

void save_timeline_svg(const std::filesystem::path& path, const std::vector<SplitRun>& runs,
                       const std::vector<std::string>& device_names) {
  const int left = 170, plot = 620, lane = 16, gap = 4, band_gap = 34;
  const int lanes = static_cast<int>(device_names.size());
  const int height = 60 + static_cast<int>(runs.size()) * (lanes * (lane + gap) + band_gap) + 20;
  const char* colours[] = {"#2870dc", "#78c85a", "#1e7832", "#f08c1e", "#8c50c8"};
  const char* names[] = {"upload", "row pass", "column pass", "download", "halo exchange"};
  std::ostringstream svg;
  svg << course::svg_opening(left + plot + 90, height, "Each device's commands, one band per split");
  for (int s = 0; s < 5; ++s) svg << course::svg_legend_entry(10 + s * 150, 40, colours[s], names[s]);
  int top = 60;
  for (const SplitRun& run : runs) {
    double longest = 1e-9;
    for (const DeviceLoad& d : run.devices)
      for (const Bar& b : d.bars) longest = std::max(longest, b.end_ms);
    svg << "<text x=\"10\" y=\"" << top + 12 << "\" font-weight=\"bold\">" << course::svg_escaped(run.name) << "</text>\n";
    svg << "<text x=\"" << left + plot + 6 << "\" y=\"" << top + 12 + lane << "\">" << std::fixed << std::setprecision(2)
        << longest << " ms</text>\n";
    top += 18;
    for (int k = 0; k < lanes; ++k) {
      const int y = top + k * (lane + gap);
      svg << "<text x=\"10\" y=\"" << y + 12 << "\">" << course::svg_escaped(device_names[k].substr(0, 24))
          << "</text>\n<rect x=\"" << left << "\" y=\"" << y << "\" width=\"" << plot << "\" height=\"" << lane
          << "\" fill=\"#ebebeb\"/>\n";
      for (const Bar& b : run.devices[k].bars) {
        const double x0 = left + b.start_ms / longest * plot;
        const double w = std::max(1.0, (b.end_ms - b.start_ms) / longest * plot);  // a copy too short to see still shows
        svg << "<rect x=\"" << std::setprecision(1) << x0 << "\" y=\"" << y << "\" width=\"" << w << "\" height=\""
            << lane << "\" fill=\"" << colours[int(b.stage)] << "\"/>\n";
      }
    }
    top += lanes * (lane + gap) + band_gap - 18;
  }
  svg << "</svg>\n";
  course::save_svg_file(path, svg.str());
}

}  // namespace lesson13
