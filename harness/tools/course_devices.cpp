// ./course devices: every OpenCL platform and device, numbered as --device takes them.
#include <iostream>

#include "course.hpp"

namespace {

// Every device with the properties that matter to the course, numbered as --device takes them.
void print_device_list(std::ostream& out, const std::vector<course::DeviceEntry>& devices) {
  for (const auto& d : devices) {
    const auto units = d.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
    const auto global = d.device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
    const auto local = d.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
    const auto wg = d.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
    const auto images = d.device.getInfo<CL_DEVICE_IMAGE_SUPPORT>();
    out << "  [" << d.index << "] " << d.device_name << "\n"
        << "      platform: " << d.platform_name << ", type: " << course::device_type_name(d.type)
        << ", compute units: " << units << ", global memory: " << (global >> 20) << " MiB"
        << ", local memory: " << (local >> 10) << " KiB, max work-group: " << wg
        << ", images: " << (images ? "yes" : "no") << "\n";
  }
  out << course::platforms_without_devices();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    course::Options options("./course devices",
                            "Lists every OpenCL platform and device with the index --device takes.");
    options.parse(argc, argv);
    const auto devices = course::list_devices();
    std::cout << "OpenCL devices (use the index, a part of a name, or cpu / gpu with --device):\n";
    print_device_list(std::cout, devices);
    const auto chosen = course::select_device(options.text("device"));
    std::cout << "The course runs on [" << chosen.index << "] " << course::describe(chosen)
              << " unless --device or COURSE_DEVICE says otherwise.\n";
    return 0;
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
