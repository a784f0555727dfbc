#include "runtime/Platform.h"
#include "compiler/Binary.h"
#include "compiler/Cache.h"
#include "runtime/Device.h"

#include <chrono>
#include <cstdio>

namespace clcpu {

Platform &Platform::get() {
  // Intentionally leaked: the loader can call into the driver during exit.
  static Platform *P = new Platform();
  return *P;
}

Platform::Platform() { Devices.push_back(Device::createRoot(this)); }

cl_ulong Platform::hostTimeNs() {
  return static_cast<cl_ulong>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

const std::string &driverBuildVersion() {
  static const std::string V = [] {
    const std::string &Id = compiler::cache::buildIdentity();
    char Hex[9];
    std::snprintf(Hex, sizeof Hex, "%08x",
                  static_cast<unsigned>(compiler::fnv1a(Id.data(), Id.size())));
    return std::string(DriverVersionString) + "+" + Hex;
  }();
  return V;
}

namespace {
const NamedVersion PlatformExtensions[] = {
    {"cl_khr_icd", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_extended_versioning", CL_MAKE_VERSION(1, 0, 0)},
};
} // namespace

cl_int Platform::getInfo(cl_platform_info Param, InfoOut Out) const {
  switch (Param) {
  case CL_PLATFORM_PROFILE:
    return Out.string("FULL_PROFILE");
  case CL_PLATFORM_VERSION:
    return Out.string(std::string("OpenCL 3.0 clcpu ") + DriverVersionString);
  case CL_PLATFORM_NUMERIC_VERSION:
    return Out.value<cl_version>(CL_MAKE_VERSION(3, 0, 0));
  case CL_PLATFORM_NAME:
    return Out.string(PlatformName);
  case CL_PLATFORM_VENDOR:
    return Out.string(PlatformVendor);
  case CL_PLATFORM_EXTENSIONS:
    return Out.string(joinNames(PlatformExtensions));
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
    return Out.array(nameVersions(PlatformExtensions));
  case CL_PLATFORM_ICD_SUFFIX_KHR:
    return Out.string("clcpu");
  case CL_PLATFORM_HOST_TIMER_RESOLUTION:
    return Out.value<cl_ulong>(1);
  default:
    return unknownParam(Param);
  }
}

} // namespace clcpu
