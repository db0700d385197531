#include "errors.hpp"

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace course {

const char* cl_error_name(cl_int code) {
  // OpenCL 1.2's codes run from 0 down to -19 and from -30 down to -68: named here in that order.
  static_assert(CL_KERNEL_ARG_INFO_NOT_AVAILABLE == -19 && CL_INVALID_VALUE == -30 &&
                CL_INVALID_DEVICE_PARTITION_COUNT == -68);
  static const std::vector<std::string> names = [] {
    std::istringstream list(
        "SUCCESS DEVICE_NOT_FOUND DEVICE_NOT_AVAILABLE COMPILER_NOT_AVAILABLE MEM_OBJECT_ALLOCATION_FAILURE "
        "OUT_OF_RESOURCES OUT_OF_HOST_MEMORY PROFILING_INFO_NOT_AVAILABLE MEM_COPY_OVERLAP IMAGE_FORMAT_MISMATCH "
        "IMAGE_FORMAT_NOT_SUPPORTED BUILD_PROGRAM_FAILURE MAP_FAILURE MISALIGNED_SUB_BUFFER_OFFSET "
        "EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST COMPILE_PROGRAM_FAILURE LINKER_NOT_AVAILABLE "
        "LINK_PROGRAM_FAILURE DEVICE_PARTITION_FAILED KERNEL_ARG_INFO_NOT_AVAILABLE INVALID_VALUE "
        "INVALID_DEVICE_TYPE INVALID_PLATFORM INVALID_DEVICE INVALID_CONTEXT INVALID_QUEUE_PROPERTIES "
        "INVALID_COMMAND_QUEUE INVALID_HOST_PTR INVALID_MEM_OBJECT INVALID_IMAGE_FORMAT_DESCRIPTOR "
        "INVALID_IMAGE_SIZE INVALID_SAMPLER INVALID_BINARY INVALID_BUILD_OPTIONS INVALID_PROGRAM "
        "INVALID_PROGRAM_EXECUTABLE INVALID_KERNEL_NAME INVALID_KERNEL_DEFINITION INVALID_KERNEL "
        "INVALID_ARG_INDEX INVALID_ARG_VALUE INVALID_ARG_SIZE INVALID_KERNEL_ARGS INVALID_WORK_DIMENSION "
        "INVALID_WORK_GROUP_SIZE INVALID_WORK_ITEM_SIZE INVALID_GLOBAL_OFFSET INVALID_EVENT_WAIT_LIST "
        "INVALID_EVENT INVALID_OPERATION INVALID_GL_OBJECT INVALID_BUFFER_SIZE INVALID_MIP_LEVEL "
        "INVALID_GLOBAL_WORK_SIZE INVALID_PROPERTY INVALID_IMAGE_DESCRIPTOR INVALID_COMPILER_OPTIONS "
        "INVALID_LINKER_OPTIONS INVALID_DEVICE_PARTITION_COUNT ");
    std::vector<std::string> all;
    for (std::string name; list >> name;) all.push_back("CL_" + name);
    return all;
  }();
  const int index = code <= 0 && code >= -19 ? -code : code <= -30 && code >= -68 ? 20 - 30 - code : -1;
  if (index >= 0) return names[index].c_str();
  return code == -1001 ? "CL_PLATFORM_NOT_FOUND_KHR" : "an unknown OpenCL error";
}

std::string cl_error_advice(cl_int code) {
  switch (code) {
    case CL_INVALID_WORK_GROUP_SIZE:
      return "The work-group (local) size is not allowed here: it is larger than the device's or "
             "the kernel's maximum work-group size, or (before OpenCL 2.0) it does not divide the "
             "global size. Run './course devices' to see the limits, or pick a smaller size.";
    case CL_INVALID_WORK_ITEM_SIZE:
      return "One dimension of the work-group is larger than the device allows in that dimension "
             "(CL_DEVICE_MAX_WORK_ITEM_SIZES). Run './course devices' to see the limits.";
    case CL_OUT_OF_RESOURCES:
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_OUT_OF_HOST_MEMORY:
      return "The device ran out of memory or registers: try a smaller image or work-group, or "
             "less local memory per work-group.";
    case CL_INVALID_BUFFER_SIZE:
      return "A buffer is zero bytes or larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE: try a smaller image.";
    case CL_INVALID_KERNEL_NAME:
      return "The kernel file has no kernel with the name the program asked for: check the "
             "'__kernel void NAME(' line.";
    case CL_INVALID_KERNEL_ARGS:
    case CL_INVALID_ARG_INDEX:
    case CL_INVALID_ARG_SIZE:
    case CL_INVALID_ARG_VALUE:
      return "The kernel's parameters do not match what the host passes: check the kernel's "
             "signature against the lesson (number, order and types of arguments).";
    case CL_DEVICE_NOT_FOUND:
    case -1001:
      return "No OpenCL device was found. On Debian, 'sudo apt-get install pocl-opencl-icd' gives "
             "an OpenCL device on the CPU; GPU vendors ship their own OpenCL drivers.";
    case CL_IMAGE_FORMAT_NOT_SUPPORTED:
      return "The device cannot store images in this format.";
    default:
      return "See the OpenCL specification's list of error codes for what the call above "
             "refuses; re-run with another --device to tell a device limit from a course bug.";
  }
}

int explain_failure(std::exception_ptr error, std::ostream& out) {
  try {
    std::rethrow_exception(error);
  } catch (const HelpShown&) {
    return kExitOk;
  } catch (const UsageError& e) {
    out << "error: " << e.what() << "\n(run with --help for the options and examples)\n";
    return kExitUsage;
  } catch (const InputError& e) {
    out << "error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const DeviceLimitError& e) {
    out << "error: " << e.what() << "\n";
    return kExitOpenCL;
  } catch (const KernelBuildError& e) {
    out << "error: a kernel did not compile.\n" << e.what() << "\n";
    return kExitOpenCL;
  } catch (const SkipLesson& e) {
    out << "skipped: " << e.what() << "\n";
    return kExitSkipped;
  } catch (const cl::Error& e) {
    out << "OpenCL error: " << e.what() << " returned " << cl_error_name(e.err()) << " (" << e.err() << ").\n"
        << cl_error_advice(e.err()) << "\n";
    return kExitOpenCL;
  } catch (const std::bad_alloc&) {
    out << "error: the host ran out of memory; try a smaller image.\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    out << "internal error: " << e.what()
        << "\nThis is a bug in the course, not in your input: please report it with the command you ran.\n";
    return kExitInternal;
  }
}

int explain_failure(std::exception_ptr error) {
  return explain_failure(error, std::cerr);
}

}  // namespace course
