//===- icd/IcdEntry.cpp - the driver's exported symbols -------------------===//
//
// The only symbols libclcpu.so exports (icd/exports.map). The loader finds
// clGetExtensionFunctionAddress with dlsym, asks it for
// clIcdGetPlatformIDsKHR, and from then on calls through the dispatch table
// stored in every handle.
//
//===----------------------------------------------------------------------===//

#include "icd/Dispatch.h"
#include "runtime/Platform.h"

#define CLCPU_EXPORT __attribute__((visibility("default")))

namespace clcpu {
cl_int getPlatformIDs(cl_uint, cl_platform_id *, cl_uint *);
Platform *platformOrDefault(cl_platform_id);
} // namespace clcpu

using namespace clcpu;

extern "C" CLCPU_EXPORT CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(
    cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
  return apiCall(__func__, [&] {
    // cl_khr_icd: CL_INVALID_VALUE if num_entries is equal to zero and
    // platforms is not NULL, or if both num_platforms and platforms are NULL.
    // CL_PLATFORM_NOT_FOUND_KHR would mean zero platforms; we always have one.
    return getPlatformIDs(num_entries, platforms, num_platforms);
  });
}

extern "C" CLCPU_EXPORT CL_API_ENTRY void *CL_API_CALL
clGetExtensionFunctionAddress(const char *func_name) {
  // "returns NULL if the specified function does not exist".
  return func_name ? icd::extensionFunction(func_name) : nullptr;
}

extern "C" CLCPU_EXPORT CL_API_ENTRY void *CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                         const char *func_name) {
  // "If platform is not a valid platform, or func_name is not the name of an
  // extension function supported by platform, NULL is returned."
  if (!func_name || !platformOrDefault(platform))
    return nullptr;
  return icd::extensionFunction(func_name);
}
