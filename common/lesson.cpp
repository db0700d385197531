#include "lesson.hpp"

#include <cstdio>
#include <vector>

#include "errors.hpp"
#include "program.hpp"

namespace course {
namespace {

// "256.3 MiB".
std::string mib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", bytes / (1024.0 * 1024.0));
  return text;
}

// What add_to_image_options() was given; made on first use, as it is given before main() starts.
std::vector<void (*)(Options&)>& more_image_options() {
  static std::vector<void (*)(Options&)> added;
  return added;
}

}  // namespace

void add_image_options(Options& options, const std::string& folder, const std::string& default_input) {
  options.value("input", "IMG", "image to filter (PNG, JPEG, BMP, PGM); colour becomes gray by luma", default_input);
  options.value("size", "WxH", "use a synthetic WxH picture instead of --input");
  options.value("output-dir", "DIR", "folder for the images this lesson writes", "out/" + folder);
  options.value("repeat", "N", "timed runs per variant (the median is reported, after one warm-up)", "5");
  for (const auto add : more_image_options()) add(options);
}

void add_to_image_options(void (*add)(Options&)) { more_image_options().push_back(add); }

std::filesystem::path resolve_input_path(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path typed(path);
  if (std::filesystem::exists(typed, ec) || typed.is_absolute()) return typed;
  const auto in_course = project_root() / typed;
  return std::filesystem::exists(in_course, ec) ? in_course : typed;
}

GrayImage input_gray(const Options& options) {
  if (!options.given("size")) return load_gray(resolve_input_path(options.text("input")));
  const auto [w, h] = options.size("size");
  return synthetic_gray(w, h);
}

void require_allocatable(const DeviceContext& dc, std::size_t bytes, const std::string& picture) {
  // Said in words before the driver answers CL_INVALID_BUFFER_SIZE: the picture is too large here.
  const cl_ulong most = dc.device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
  if (bytes > most)
    throw InputError("cannot use " + picture + ": it needs a buffer of " + mib(bytes) +
                     ", more than this device allocates at once (" + mib(most) +
                     ", CL_DEVICE_MAX_MEM_ALLOC_SIZE). Use a smaller picture or another --device.");
}

GrayImage input_gray(const Options& options, const DeviceContext& dc) {
  GrayImage image = input_gray(options);
  require_allocatable(dc, image.pixels.size() * sizeof(float), input_description(options, image.width, image.height));
  return image;
}

RgbaImage input_rgba(const Options& options) {
  if (!options.given("size")) return load_rgba(resolve_input_path(options.text("input")));
  const auto [w, h] = options.size("size");
  return synthetic_rgba(w, h);
}

std::string input_description(const Options& options, int width, int height) {
  const std::string size = " (" + std::to_string(width) + "x" + std::to_string(height) + ")";
  return options.given("size") ? "the synthetic picture" + size : "'" + options.text("input") + "'" + size;
}

std::filesystem::path output_path(const Options& options, const std::string& default_name) {
  if (options.given("output")) return options.text("output");
  return std::filesystem::path(options.text("output-dir")) / default_name;
}

std::size_t round_up(std::size_t n, std::size_t multiple) {
  return multiple == 0 ? n : (n + multiple - 1) / multiple * multiple;
}

}  // namespace course
