// Preloaded into a lesson by the reliability tests (LD_PRELOAD): clGetDeviceInfo answers as the
// real device does, except that COURSE_REPORT_LOCAL_MEM_SIZE (bytes) replaces the local memory
// size and COURSE_REPORT_NO_IMAGES reports no image support. PoCL has no setting for either, so
// this is how the tests show a lesson's answer to a device with less local memory or no images.
#include <CL/cl.h>
#include <dlfcn.h>

#include <cstdlib>

extern "C" CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info name, size_t size,
                                                           void* value, size_t* size_ret) {
  using Real = cl_int (*)(cl_device_id, cl_device_info, size_t, void*, size_t*);
  static const Real real = reinterpret_cast<Real>(dlsym(RTLD_NEXT, "clGetDeviceInfo"));
  const cl_int status = real(device, name, size, value, size_ret);
  if (status != CL_SUCCESS || value == nullptr) return status;
  const char* local = std::getenv("COURSE_REPORT_LOCAL_MEM_SIZE");
  if (name == CL_DEVICE_LOCAL_MEM_SIZE && local && size >= sizeof(cl_ulong))
    *static_cast<cl_ulong*>(value) = std::strtoull(local, nullptr, 10);
  if (name == CL_DEVICE_IMAGE_SUPPORT && std::getenv("COURSE_REPORT_NO_IMAGES") && size >= sizeof(cl_bool))
    *static_cast<cl_bool*>(value) = CL_FALSE;
  return status;
}
