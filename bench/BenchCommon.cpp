//===- bench/BenchCommon.cpp - What the benchmarks share ------------------===//
#include "bench/BenchCommon.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sched.h>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace bench {

void check(cl_int Err, const char *What) {
  if (Err != CL_SUCCESS)
    throw ClError(std::string(What) + " failed (" + std::to_string(Err) + ")");
}

double nowSec() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double median(std::vector<double> V) {
  if (V.empty())
    return 0;
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

std::string platformString(cl_platform_id P, cl_platform_info What) {
  char Buf[1024] = {};
  clGetPlatformInfo(P, What, sizeof Buf - 1, Buf, nullptr);
  return Buf;
}

std::string deviceString(cl_device_id D, cl_device_info What) {
  char Buf[1024] = {};
  clGetDeviceInfo(D, What, sizeof Buf - 1, Buf, nullptr);
  return Buf;
}

/// Whether \p D lists extension \p Name (the list may be longer than
/// deviceString's buffer).
bool hasExtension(cl_device_id D, const char *Name) {
  size_t Size = 0;
  if (clGetDeviceInfo(D, CL_DEVICE_EXTENSIONS, 0, nullptr, &Size) != CL_SUCCESS)
    return false;
  std::string List(Size, '\0');
  if (clGetDeviceInfo(D, CL_DEVICE_EXTENSIONS, Size, List.data(), nullptr) !=
      CL_SUCCESS)
    return false;
  List.resize(List.find('\0')); // the terminating NUL is not part of a name
  std::istringstream In(List);
  for (std::string E; In >> E;)
    if (E == Name)
      return true;
  return false;
}

bool hasCFeature(cl_device_id D, const char *Feature) {
  size_t Size = 0;
  if (clGetDeviceInfo(D, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &Size) !=
          CL_SUCCESS ||
      Size == 0)
    return false;
  std::vector<cl_name_version> Fs(Size / sizeof(cl_name_version));
  if (clGetDeviceInfo(D, CL_DEVICE_OPENCL_C_FEATURES, Size, Fs.data(),
                      nullptr) != CL_SUCCESS)
    return false;
  for (const cl_name_version &F : Fs)
    if (std::strcmp(F.name, Feature) == 0)
      return true;
  return false;
}

bool openPlatform(Platform &P, const char *Tool) {
  cl_uint N = 0;
  clGetPlatformIDs(0, nullptr, &N);
  std::vector<cl_platform_id> Ids(N);
  if (N)
    clGetPlatformIDs(N, Ids.data(), nullptr);
  for (cl_platform_id Id : Ids) {
    std::string Name = platformString(Id, CL_PLATFORM_NAME);
    if (Name.find(P.Query) == std::string::npos)
      continue;
    P.Id = Id;
    P.Name = Name;
    P.Version = platformString(Id, CL_PLATFORM_VERSION);
    break;
  }
  if (!P.Id) {
    std::fprintf(stderr,
                 "%s: no platform named like \"%s\" (%u platforms; "
                 "check OCL_ICD_VENDORS)\n",
                 Tool, P.Query.c_str(), N);
    return false;
  }
  cl_int Err = clGetDeviceIDs(P.Id, CL_DEVICE_TYPE_ALL, 1, &P.Dev, nullptr);
  if (Err == CL_SUCCESS)
    P.Ctx = clCreateContext(nullptr, 1, &P.Dev, nullptr, nullptr, &Err);
  if (Err == CL_SUCCESS)
    P.Queue = clCreateCommandQueueWithProperties(P.Ctx, P.Dev, nullptr, &Err);
  if (Err != CL_SUCCESS) {
    std::fprintf(stderr, "%s: setting up \"%s\" failed (%d)\n", Tool,
                 P.Name.c_str(), Err);
    return false;
  }
  P.Device = deviceString(P.Dev, CL_DEVICE_NAME);
  P.Collectives =
      hasCFeature(P.Dev, "__opencl_c_work_group_collective_functions");
  P.DotProduct =
      hasCFeature(P.Dev, "__opencl_c_integer_dot_product_input_4x8bit_packed");
  clGetDeviceInfo(P.Dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof P.ComputeUnits,
                  &P.ComputeUnits, nullptr);
  return true;
}

std::string fmt(double V) {
  char Buf[32];
  double A = std::fabs(V);
  std::snprintf(Buf, sizeof Buf,
                A >= 1000  ? "%.0f"
                : A >= 100 ? "%.1f"
                : A >= 10  ? "%.2f"
                           : "%.3f",
                V);
  return Buf;
}

std::string cpuModel() {
  std::ifstream In("/proc/cpuinfo");
  for (std::string L; std::getline(In, L);)
    if (L.rfind("model name", 0) == 0) {
      size_t C = L.find(':');
      return C == std::string::npos ? L : L.substr(C + 2);
    }
  return "unknown";
}

int usableCpus() {
  cpu_set_t Set;
  CPU_ZERO(&Set);
  if (sched_getaffinity(0, sizeof Set, &Set) == 0 && CPU_COUNT(&Set) > 0)
    return CPU_COUNT(&Set);
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

namespace {
// Written before alarm() arms the signal, read by its handler.
char WatchdogTool[64] = "";
char WatchdogLabel[256] = "";

void onAlarm(int) {
  // Only async-signal-safe calls here.
  ssize_t R = write(2, "\n", 1);
  R = write(2, WatchdogTool, std::strlen(WatchdogTool));
  const char Msg[] = ": TIMEOUT in ";
  R = write(2, Msg, sizeof Msg - 1);
  R = write(2, WatchdogLabel, std::strlen(WatchdogLabel));
  R = write(2, "\n", 1);
  (void)R;
  _exit(3);
}
} // namespace

void installWatchdog(const char *Tool) {
  std::snprintf(WatchdogTool, sizeof WatchdogTool, "%s", Tool);
  signal(SIGALRM, onAlarm);
}

void setWatchdogLabel(const std::string &What) {
  std::snprintf(WatchdogLabel, sizeof WatchdogLabel, "%s", What.c_str());
}

} // namespace bench
