#ifndef CLCPU_RUNTIME_PLATFORM_H
#define CLCPU_RUNTIME_PLATFORM_H

#include "runtime/Info.h"
#include "runtime/Object.h"

#include <string>
#include <vector>

namespace clcpu {

/// The clcpu platform: one per process, never destroyed (the loader may call
/// into the driver until exit). Owns the root CPU device.
class Platform
    : public Object<Platform, _cl_platform_id, ObjectKind::Platform> {
public:
  /// The platform (lazy, thread-safe; no global constructors in a dlopened
  /// driver).
  static Platform &get();

  /// Root devices: one CPU device for the whole machine.
  const std::vector<Device *> &devices() const { return Devices; }

  cl_int getInfo(cl_platform_info Param, InfoOut Out) const;

  /// CL_PLATFORM_HOST_TIMER_RESOLUTION and clGetHostTimer: steady clock, ns.
  static cl_ulong hostTimeNs();

private:
  Platform();
  std::vector<Device *> Devices;
};

/// The platform's version strings and extension list.
inline constexpr const char *PlatformName = "clcpu";
inline constexpr const char *PlatformVendor = "clcpu project";
/// project(VERSION) in CMakeLists.txt, the one place the version is set.
inline constexpr const char *DriverVersionString = CLCPU_VERSION;

/// CL_DRIVER_VERSION: the version and this build ("0.1.0+1a2b3c4d", a
/// digest of compiler::cache::buildIdentity). Applications key their
/// caches of program binaries on it (pyopencl, hashcat), and program
/// binaries record it: a binary made by another build, whose kernels may
/// assume another runtime, is refused with CL_INVALID_BINARY and a cache
/// keyed on the version builds again, instead of running stale code.
const std::string &driverBuildVersion();

} // namespace clcpu

#endif
