#include "errors.hpp"
#include "options.hpp"

#include <iostream>
#include <utility>

namespace course {

const char* cl_error_name(cl_int code) {
  // clang-format off
#define N(name) {name, #name}
  static const std::pair<cl_int, const char*> names[] = {
      N(CL_SUCCESS), N(CL_DEVICE_NOT_FOUND), N(CL_DEVICE_NOT_AVAILABLE), N(CL_COMPILER_NOT_AVAILABLE),
      N(CL_MEM_OBJECT_ALLOCATION_FAILURE), N(CL_OUT_OF_RESOURCES), N(CL_OUT_OF_HOST_MEMORY),
      N(CL_PROFILING_INFO_NOT_AVAILABLE), N(CL_MEM_COPY_OVERLAP), N(CL_IMAGE_FORMAT_MISMATCH),
      N(CL_IMAGE_FORMAT_NOT_SUPPORTED), N(CL_BUILD_PROGRAM_FAILURE), N(CL_MAP_FAILURE),
      N(CL_MISALIGNED_SUB_BUFFER_OFFSET), N(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
      N(CL_COMPILE_PROGRAM_FAILURE), N(CL_LINKER_NOT_AVAILABLE), N(CL_LINK_PROGRAM_FAILURE),
      N(CL_DEVICE_PARTITION_FAILED), N(CL_KERNEL_ARG_INFO_NOT_AVAILABLE), N(CL_INVALID_VALUE),
      N(CL_INVALID_DEVICE_TYPE), N(CL_INVALID_PLATFORM), N(CL_INVALID_DEVICE), N(CL_INVALID_CONTEXT),
      N(CL_INVALID_QUEUE_PROPERTIES), N(CL_INVALID_COMMAND_QUEUE), N(CL_INVALID_HOST_PTR), N(CL_INVALID_MEM_OBJECT),
      N(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR), N(CL_INVALID_IMAGE_SIZE), N(CL_INVALID_SAMPLER), N(CL_INVALID_BINARY),
      N(CL_INVALID_BUILD_OPTIONS), N(CL_INVALID_PROGRAM), N(CL_INVALID_PROGRAM_EXECUTABLE), N(CL_INVALID_KERNEL_NAME),
      N(CL_INVALID_KERNEL_DEFINITION), N(CL_INVALID_KERNEL), N(CL_INVALID_ARG_INDEX), N(CL_INVALID_ARG_VALUE),
      N(CL_INVALID_ARG_SIZE), N(CL_INVALID_KERNEL_ARGS), N(CL_INVALID_WORK_DIMENSION), N(CL_INVALID_WORK_GROUP_SIZE),
      N(CL_INVALID_WORK_ITEM_SIZE), N(CL_INVALID_GLOBAL_OFFSET), N(CL_INVALID_EVENT_WAIT_LIST), N(CL_INVALID_EVENT),
      N(CL_INVALID_OPERATION), N(CL_INVALID_GL_OBJECT), N(CL_INVALID_BUFFER_SIZE), N(CL_INVALID_MIP_LEVEL),
      N(CL_INVALID_GLOBAL_WORK_SIZE), N(CL_INVALID_PROPERTY), N(CL_INVALID_IMAGE_DESCRIPTOR),
      N(CL_INVALID_COMPILER_OPTIONS), N(CL_INVALID_LINKER_OPTIONS), N(CL_INVALID_DEVICE_PARTITION_COUNT),
      {-1001, "CL_PLATFORM_NOT_FOUND_KHR"}};
#undef N
  // clang-format on
  for (const auto& [value, name] : names)
    if (value == code) return name;
  return "an unknown OpenCL error";
}

std::string cl_error_advice(cl_int code) {
  switch (code) {
    case CL_INVALID_WORK_GROUP_SIZE:
      return "The work-group (local) size is not allowed here: it is larger than the device's or the kernel's maximum "
             "work-group size, or (before OpenCL 2.0) it does not divide the global size. Run './course devices' to "
             "see the limits, or pick a smaller size.";
    case CL_INVALID_WORK_ITEM_SIZE:
      return "One dimension of the work-group is larger than the device allows in that dimension "
             "(CL_DEVICE_MAX_WORK_ITEM_SIZES). Run './course devices' to see the limits.";
    case CL_OUT_OF_RESOURCES:
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_OUT_OF_HOST_MEMORY:
      return "The device ran out of memory or registers: try a smaller image or work-group, or less local memory per "
             "work-group.";
    case CL_INVALID_BUFFER_SIZE:
      return "A buffer is zero bytes or larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE: try a smaller image.";
    case CL_INVALID_KERNEL_NAME:
      return "The kernel file has no kernel with the name the program asked for: check the '__kernel void NAME(' line.";
    case CL_INVALID_KERNEL_ARGS:
    case CL_INVALID_ARG_INDEX:
    case CL_INVALID_ARG_SIZE:
    case CL_INVALID_ARG_VALUE:
      return "The kernel's parameters do not match what the host passes: check the kernel's signature against the "
             "lesson (number, order and types of arguments).";
    case CL_DEVICE_NOT_FOUND:
    case -1001:
      return "No OpenCL device was found. On Debian, 'sudo apt-get install pocl-opencl-icd' gives an OpenCL device on "
             "the CPU; GPU vendors ship their own OpenCL drivers.";
    case CL_IMAGE_FORMAT_NOT_SUPPORTED:
      return "The device cannot store images in this format.";
    default:
      return "See the OpenCL specification's list of error codes for what the call above refuses; re-run with another "
             "--device to tell a device limit from a course bug.";
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
  } catch (const RecordError& e) {
    out << "error: " << e.what() << "\n";
    return kExitRecord;
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

}  // namespace course
