#include "kernel_resources.hpp"

#include <regex>
#include <sstream>

#include "program.hpp"

namespace course {

KernelResources kernel_resources(const DeviceContext& dc, const std::string& file, const std::string& options,
                                 const std::string& name) {
  const bool nvidia = dc.device.getInfo<CL_DEVICE_VENDOR>().find("NVIDIA") != std::string::npos;
  cl::Program program = build_course_program(dc, file, options + (nvidia ? " -cl-nv-verbose" : ""));
  cl::Kernel kernel(program, name.c_str());
  KernelResources k;
  k.name = name;
  k.private_bytes = kernel.getWorkGroupInfo<CL_KERNEL_PRIVATE_MEM_SIZE>(dc.device);
  k.local_bytes = kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(dc.device);
  k.max_group = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dc.device);
  if (!nvidia) return k;
  // The report names each entry function ("Compiling entry function 'name'"), then gives its
  // stack frame and spills, and its registers.
  const std::string log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(dc.device);
  std::istringstream lines(log);
  bool mine = log.find("Compiling entry function") == std::string::npos;
  std::smatch m;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("Compiling entry function") != std::string::npos)
      mine = line.find("'" + name + "'") != std::string::npos;
    if (!mine || (line.find("ptxas") == std::string::npos && line.find("stack frame") == std::string::npos)) continue;
    k.compiler_report += "    " + line + "\n";
    if (std::regex_search(line, m, std::regex("Used ([0-9]+) registers"))) k.registers = std::stoi(m[1]);
    if (std::regex_search(line, m, std::regex("([0-9]+) bytes spill stores"))) k.spill_bytes = std::stoi(m[1]);
  }
  return k;
}

}  // namespace course
