//===- bench/BenchCommon.h - What the benchmarks share -------*- C++ -*-===//
//
// The conventions of the side-by-side benchmarks (clcpu_bench and
// clcpu_real_bench): platforms chosen by a substring of their name, labelled
// A and B; a failing call makes a result FAIL, a platform that cannot run a
// benchmark makes it n/a; medians of repetitions and one number format.
//
//===----------------------------------------------------------------------===//
#ifndef CLCPU_BENCH_BENCHCOMMON_H
#define CLCPU_BENCH_BENCHCOMMON_H

#include <CL/cl.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {

/// A failing OpenCL call or a broken setup: the platform's result is FAIL.
struct ClError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// The platform cannot run this benchmark (build failure, missing feature):
/// its result is n/a.
struct NotAvailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Throws ClError naming \p What unless \p Err is CL_SUCCESS.
void check(cl_int Err, const char *What);

/// Seconds on the steady clock.
double nowSec();

/// The median of \p V (0 when empty).
double median(std::vector<double> V);

/// Deterministic pseudo-random numbers for inputs (same on every platform).
struct Lcg {
  uint64_t S;
  explicit Lcg(uint64_t Seed) : S(Seed * 2862933555777941757ull + 1) {}
  uint32_t next() {
    S = S * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(S >> 33);
  }
  float uniform(float Lo, float Hi) {
    return Lo + (Hi - Lo) * float(next() & 0xffffff) / float(0x1000000);
  }
};

/// One platform of a run: the first whose CL_PLATFORM_NAME contains Query,
/// its first device, a context and an in-order queue on it.
struct Platform {
  std::string Label; // "A" or "B"
  std::string Query; // substring asked for
  /// Appended to every program's build options (--check-bounds: B builds
  /// in the bounds-check mode).
  std::string ExtraOptions;
  std::string Name, Version, Device;
  cl_platform_id Id = nullptr;
  cl_device_id Dev = nullptr;
  cl_context Ctx = nullptr;
  cl_command_queue Queue = nullptr;
  bool Collectives = false; // __opencl_c_work_group_collective_functions
  bool DotProduct = false; // __opencl_c_integer_dot_product_input_4x8bit_packed
  cl_uint ComputeUnits = 0; // CL_DEVICE_MAX_COMPUTE_UNITS of Dev
  bool SubDevice = false;   // Dev is from clCreateSubDevices: released here

  Platform() = default;
  Platform(const Platform &) = delete;
  Platform &operator=(const Platform &) = delete;
  ~Platform() {
    if (Queue)
      clReleaseCommandQueue(Queue);
    if (Ctx)
      clReleaseContext(Ctx);
    if (SubDevice)
      clReleaseDevice(Dev);
  }
};

std::string platformString(cl_platform_id P, cl_platform_info What);
std::string deviceString(cl_device_id D, cl_device_info What);

/// Whether \p D lists extension \p Name (the list may be longer than
/// deviceString's buffer).
bool hasExtension(cl_device_id D, const char *Name);

/// Whether \p D reports OpenCL C feature \p Feature.
bool hasCFeature(cl_device_id D, const char *Feature);

/// Opens the first platform whose name contains P.Query, its first device,
/// a context and a queue; prints why not to stderr, prefixed with \p Tool.
bool openPlatform(Platform &P, const char *Tool);

/// A figure with 3 or 4 significant digits ("%.3f" below 10, ...).
std::string fmt(double V);

/// The host CPU's model name (/proc/cpuinfo).
std::string cpuModel();

/// The CPUs this process may run on (taskset, cgroup cpusets): the host
/// references use one thread each, as the drivers' devices do.
int usableCpus();

/// A hung kernel must not hang a benchmark: after installWatchdog, SIGALRM
/// (alarm(seconds) around each row) prints "<Tool>: TIMEOUT in <label>" and
/// ends the program with status 3.
void installWatchdog(const char *Tool);
/// What a timeout names from now on (truncated to 255 characters).
void setWatchdogLabel(const std::string &What);

} // namespace bench

#endif // CLCPU_BENCH_BENCHCOMMON_H
