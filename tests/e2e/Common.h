#ifndef CLCPU_TESTS_E2E_COMMON_H
#define CLCPU_TESTS_E2E_COMMON_H

// Helpers for end-to-end tests: everything goes through the system ICD loader
// (libOpenCL.so from ocl-icd); OCL_ICD_VENDORS points at the build tree.

#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

inline cl_platform_id clcpuPlatform() {
  cl_uint N = 0;
  if (clGetPlatformIDs(0, nullptr, &N) != CL_SUCCESS || N == 0)
    return nullptr;
  std::vector<cl_platform_id> Ps(N);
  clGetPlatformIDs(N, Ps.data(), nullptr);
  for (cl_platform_id P : Ps) {
    char Name[64] = {};
    clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof Name, Name, nullptr);
    if (std::string(Name) == "clcpu")
      return P;
  }
  return nullptr;
}

inline cl_device_id clcpuDevice() {
  cl_device_id D = nullptr;
  clGetDeviceIDs(clcpuPlatform(), CL_DEVICE_TYPE_CPU, 1, &D, nullptr);
  return D;
}

/// The clcpu platform's extension function \p Name as its pointer type
/// \p Fn (clGetExtensionFunctionAddressForPlatform); null if it has none.
template <typename Fn> Fn extensionFunction(const char *Name) {
  return reinterpret_cast<Fn>(
      clGetExtensionFunctionAddressForPlatform(clcpuPlatform(), Name));
}

template <typename T> T deviceInfo(cl_device_id D, cl_device_info P) {
  T V{};
  clGetDeviceInfo(D, P, sizeof V, &V, nullptr);
  return V;
}

/// A string query of \p D without its terminating NUL (empty on failure).
inline std::string deviceString(cl_device_id D, cl_device_info P) {
  size_t N = 0;
  if (clGetDeviceInfo(D, P, 0, nullptr, &N) != CL_SUCCESS || N == 0)
    return {};
  std::string S(N, '\0');
  if (clGetDeviceInfo(D, P, N, S.data(), nullptr) != CL_SUCCESS)
    return {};
  S.resize(N - 1);
  return S;
}

/// The version \p D lists for \p Name in the name-and-version array query
/// \p Q (CL_DEVICE_EXTENSIONS_WITH_VERSION, CL_DEVICE_OPENCL_C_FEATURES);
/// 0 if it lists none.
inline cl_version listedVersion(cl_device_id D, cl_device_info Q,
                                const std::string &Name) {
  size_t Size = 0;
  if (clGetDeviceInfo(D, Q, 0, nullptr, &Size) != CL_SUCCESS)
    return 0;
  std::vector<cl_name_version> List(Size / sizeof(cl_name_version));
  if (clGetDeviceInfo(D, Q, Size, List.data(), nullptr) != CL_SUCCESS)
    return 0;
  for (const cl_name_version &E : List)
    if (Name == E.name)
      return E.version;
  return 0;
}

/// The version of extension \p Name on \p D; 0 if it has none.
inline cl_version extensionVersion(cl_device_id D, const std::string &Name) {
  return listedVersion(D, CL_DEVICE_EXTENSIONS_WITH_VERSION, Name);
}

/// The version of OpenCL C feature \p Name on \p D; 0 if it has none.
inline cl_version featureVersion(cl_device_id D, const std::string &Name) {
  return listedVersion(D, CL_DEVICE_OPENCL_C_FEATURES, Name);
}

/// The CPU has \p Flag among the flags Linux lists in /proc/cpuinfo
/// ("avx512_vnni", "constant_tsc", ...): what a device query that depends
/// on the CPU is checked against.
inline bool cpuFlag(const std::string &Flag) {
  std::ifstream In("/proc/cpuinfo");
  for (std::string Line; std::getline(In, Line);)
    if (Line.rfind("flags", 0) == 0) {
      std::istringstream Words(Line.substr(Line.find(':') + 1));
      for (std::string W; Words >> W;)
        if (W == Flag)
          return true;
      return false;
    }
  return false;
}

/// The device's sub-group size: its 32-bit SIMD width (cl_khr_subgroups).
inline size_t subGroupWidth(cl_device_id D) {
  return deviceInfo<cl_uint>(D, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT);
}

#endif
