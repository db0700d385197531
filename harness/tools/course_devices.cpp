// ./course devices: every OpenCL platform and device, numbered as --device takes them.
#include <iostream>

#include "course.hpp"

int main(int argc, char** argv) {
  try {
    course::Options options("./course devices",
                            "Lists every OpenCL platform and device with the index --device takes.");
    options.parse(argc, argv);
    const auto devices = course::list_devices();
    std::cout << "OpenCL devices (use the index, a part of a name, or cpu / gpu with --device):\n";
    course::print_device_list(std::cout, devices);
    const auto chosen = course::select_device(options.text("device"));
    std::cout << "The course runs on [" << chosen.index << "] " << course::describe(chosen)
              << " unless --device or COURSE_DEVICE says otherwise.\n";
    return 0;
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
