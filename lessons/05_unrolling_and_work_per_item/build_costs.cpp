#include "build_costs.hpp"

#include <iomanip>
#include <ostream>

namespace course {

void print_radius_build_costs(const DeviceContext& dc, const std::string& file, std::ostream& out) {
  out << "\nBuilding " << file.substr(file.rfind('/') + 1) << " for other radii (ms):\n";
  for (const int radius : {1, 4, 12, 16}) {
    BuildStats first_build, second_build;
    const std::string defines = " -D RADIUS=" + std::to_string(radius);
    build_course_program(dc, file, defines, &first_build);
    build_course_program(dc, file, defines, &second_build);
    out << "  R=" << radius << ": " << std::fixed << std::setprecision(1) << first_build.milliseconds << " then "
        << (second_build.from_cache ? "cached" : std::to_string(second_build.milliseconds)) << "\n";
  }
  out << "\n";
}

}  // namespace course
