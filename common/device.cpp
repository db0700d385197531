#include "device.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>
#include <utility>

#include "errors.hpp"

namespace course {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back())))) s.pop_back();
  return s;
}

const char* kNoDeviceHelp =
    "On Debian or Ubuntu, OpenCL on the CPU comes from PoCL:\n"
    "    sudo apt-get install pocl-opencl-icd clinfo\n"
    "then check with 'clinfo -l'. For a GPU, install its vendor's OpenCL driver.";

std::vector<cl::Platform> all_platforms() {
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error&) {
    platforms.clear();  // the ICD loader reports "no platform" as an error: same as an empty list
  }
  return platforms;
}

std::vector<cl::Device> devices_of(const cl::Platform& platform) {
  std::vector<cl::Device> devices;
  try {
    platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
  } catch (const cl::Error&) {
    devices.clear();  // a platform with no usable device (CL_DEVICE_NOT_FOUND)
  }
  return devices;
}

// What a --device name is matched against: the platform and device names, and the vendors and
// versions, so that "pocl" finds PoCL ("Portable Computing Language", vendor "The pocl project").
std::string searchable_name(const DeviceEntry& d) {
  std::string text = d.platform_name + " " + d.device_name;
  try {
    const cl::Platform platform(d.device.getInfo<CL_DEVICE_PLATFORM>());
    text += " " + platform.getInfo<CL_PLATFORM_VENDOR>() + " " + platform.getInfo<CL_PLATFORM_VERSION>() + " " +
            d.device.getInfo<CL_DEVICE_VENDOR>();
  } catch (const cl::Error&) {
    // A driver that cannot say: the names alone.
  }
  return text;
}

std::function<void(const DeviceContext&)> device_opened;  // on_device_opened()'s

}  // namespace

// Mesa's rusticl lists a device only for the drivers that RUSTICL_ENABLE names, so installing it
// (Debian: mesa-opencl-icd) shows a platform and no device until that variable is set.
std::string platforms_without_devices() {
  std::ostringstream note;
  for (const auto& platform : all_platforms()) {
    if (!devices_of(platform).empty()) continue;
    const std::string name = trimmed(platform.getInfo<CL_PLATFORM_NAME>());
    const char* enabled = std::getenv("RUSTICL_ENABLE");
    if (name == "rusticl" && !(enabled && *enabled))
      note << "The platform rusticl (Mesa) lists no device: it lists its devices only when RUSTICL_ENABLE "
              "names their drivers, e.g. RUSTICL_ENABLE=llvmpipe for its CPU device (then --device llvmpipe).\n";
    else if (name == "rusticl")
      note << "The platform rusticl (Mesa) lists no device for RUSTICL_ENABLE=" << enabled << ".\n";
    else
      note << "The platform " << name << " lists no device.\n";
  }
  return note.str();
}

std::string device_type_name(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "GPU";
  if (type & CL_DEVICE_TYPE_CPU) return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

std::vector<DeviceEntry> list_devices() {
  const std::vector<cl::Platform> platforms = all_platforms();
  std::vector<DeviceEntry> out;
  for (auto& platform : platforms)
    for (auto& device : devices_of(platform))
      out.push_back(DeviceEntry{static_cast<int>(out.size()), platform, device,
                                trimmed(platform.getInfo<CL_PLATFORM_NAME>()),
                                trimmed(device.getInfo<CL_DEVICE_NAME>()), device.getInfo<CL_DEVICE_TYPE>()});
  if (platforms.empty())
    throw InputError(std::string("no OpenCL platform was found, so there is no device to run on.\n") + kNoDeviceHelp);
  if (out.empty())
    throw InputError("no OpenCL platform here lists a device, so there is no device to run on.\n" +
                     platforms_without_devices() + kNoDeviceHelp);
  return out;
}

DeviceEntry select_device(const std::string& spec_in) {
  const char* env = std::getenv("COURSE_DEVICE");
  // Under Oclgrind (its launcher preloads its runtime in place of the ICD loader) the one device
  // is Oclgrind's simulated one: COURSE_DEVICE, chosen for the real devices, does not apply.
  const char* preload = std::getenv("LD_PRELOAD");
  const bool under_oclgrind = preload && std::string(preload).find("liboclgrind-rt") != std::string::npos;
  const bool from_env = spec_in.empty() && env && *env && !under_oclgrind;
  const std::string spec = from_env ? env : spec_in, from = from_env ? "COURSE_DEVICE" : "--device";
  const auto devices = list_devices();
  auto first_of = [&](cl_device_type type) {
    return std::find_if(devices.begin(), devices.end(), [&](const DeviceEntry& d) { return (d.type & type) != 0; });
  };
  if (spec.empty()) {
    if (auto gpu = first_of(CL_DEVICE_TYPE_GPU); gpu != devices.end()) return *gpu;
    if (auto cpu = first_of(CL_DEVICE_TYPE_CPU); cpu != devices.end()) return *cpu;
    return devices.front();
  }
  const std::string want = lower(spec);
  if (std::all_of(want.begin(), want.end(), [](unsigned char c) { return std::isdigit(c); })) {
    if (want.size() < 6 && std::stoul(want) < devices.size()) return devices[std::stoul(want)];
  } else if (want == "gpu" || want == "cpu") {
    if (auto d = first_of(want == "gpu" ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_CPU); d != devices.end()) return *d;
  } else {
    for (const auto& d : devices)
      if (lower(searchable_name(d)).find(want) != std::string::npos) return d;
  }
  std::ostringstream msg;
  msg << from << " '" << spec << "' matches no OpenCL device. The devices here are:\n";
  for (const auto& d : devices) msg << "  [" << d.index << "] " << describe(d) << "\n";
  msg << platforms_without_devices();
  msg << "Use an index, a part of a name, or cpu / gpu.";
  throw InputError(msg.str());
}

DeviceContext open_device(const std::string& spec) {
  const DeviceEntry entry = select_device(spec);
  const cl::Context context(entry.device);
  DeviceContext dc{entry, entry.device, context, cl::CommandQueue(context, entry.device, cl::QueueProperties::Profiling)};
  if (device_opened) device_opened(dc);  // the device a `--record` file names
  return dc;
}

void on_device_opened(std::function<void(const DeviceContext&)> opened) { device_opened = std::move(opened); }

std::string describe(const DeviceEntry& e) {
  // PoCL's platform by its short name, so that a device's line fits a terminal.
  const std::string platform = e.platform_name == "Portable Computing Language" ? "PoCL" : e.platform_name;
  return e.device_name + " (" + platform + ", " + device_type_name(e.type) + ")";
}

int simd_width(const cl::Device& device, const cl::Kernel* kernel, std::string* source) {
  const std::string extensions = device.getInfo<CL_DEVICE_EXTENSIONS>();
  if (extensions.find("cl_nv_device_attribute_query") != std::string::npos) {
    constexpr cl_device_info kWarpSizeNV = 0x4003;  // CL_DEVICE_WARP_SIZE_NV
    cl_uint warp = 0;
    if (clGetDeviceInfo(device(), kWarpSizeNV, sizeof warp, &warp, nullptr) == CL_SUCCESS && warp > 0) {
      if (source) *source = "CL_DEVICE_WARP_SIZE_NV";
      return static_cast<int>(warp);
    }
  }
  if (kernel) {
    const auto multiple = kernel->getWorkGroupInfo<CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE>(device);
    if (source) *source = "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE";
    return static_cast<int>(multiple);
  }
  if (source) *source = "unknown";
  return 0;
}

cl::NDRange fit_work_group(const cl::Device& device, std::size_t max_items, std::size_t wanted_x,
                           std::size_t wanted_y) {
  const auto sizes = device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  max_items = std::min<std::size_t>(max_items, device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>());
  std::size_t x = std::max<std::size_t>(1, std::min(wanted_x, sizes[0]));
  std::size_t y = std::max<std::size_t>(1, std::min(wanted_y, sizes.size() > 1 ? sizes[1] : 1));
  while (x * y > max_items) {
    if (y >= x && y > 1)
      y = (y + 1) / 2;
    else
      x = (x + 1) / 2;
  }
  return wanted_y > 1 ? cl::NDRange(x, y) : cl::NDRange(x);
}

cl::NDRange fit_work_group(const DeviceContext& dc, const cl::Kernel& kernel, std::size_t wanted_x,
                           std::size_t wanted_y) {
  return fit_work_group(dc.device, kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device), wanted_x, wanted_y);
}

}  // namespace course
