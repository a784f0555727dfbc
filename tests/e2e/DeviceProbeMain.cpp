// What the device looks like from inside a process started with a given
// affinity mask, topology or environment (tests/e2e/AffinityTests.cpp starts
// it under taskset, HWLOC_SYNTHETIC, CLCPU_NUM_THREADS). Reaches the driver
// through the loader like the e2e tests. Prints, one per line:
//   compute_units N
//   sub_devices N1 N2 ...        (with the argument "numa": the compute units
//                                 of each sub-device by NUMA affinity domain)
//   thread TID CPULIST           (every thread of the process, after a
//                                 kernel ran on every (sub-)device, so that
//                                 the workers exist and have pinned
//                                 themselves)
// Exits non-zero when a call fails or a kernel computes a wrong result.

#include "Common.h"

#include <dirent.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

/// Runs a kernel of many small groups, so that every worker of \p D takes
/// part, on a buffer large enough for NUMA placement; checks its result.
bool runOn(cl_device_id D) {
  cl_int Err = CL_SUCCESS;
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &Err);
  if (Err != CL_SUCCESS)
    return false;
  cl_command_queue Q = clCreateCommandQueueWithProperties(C, D, nullptr, &Err);
  const char *Src = R"(
    kernel void twice(global int *o) {
      size_t i = get_global_id(0);
      o[i] = 2 * (int)i;
    })";
  cl_program P = clCreateProgramWithSource(C, 1, &Src, nullptr, &Err);
  if (clBuildProgram(P, 1, &D, nullptr, nullptr, nullptr) != CL_SUCCESS)
    return false;
  cl_kernel K = clCreateKernel(P, "twice", &Err);
  const size_t N = size_t(1) << 22; // 16 MiB: an mmap'd, placed buffer
  cl_mem O =
      clCreateBuffer(C, CL_MEM_READ_WRITE, N * sizeof(int), nullptr, &Err);
  if (Err != CL_SUCCESS)
    return false;
  clSetKernelArg(K, 0, sizeof O, &O);
  size_t Local = 64;
  std::vector<int> Out(N);
  bool Ok = clEnqueueNDRangeKernel(Q, K, 1, nullptr, &N, &Local, 0, nullptr,
                                   nullptr) == CL_SUCCESS &&
            clEnqueueReadBuffer(Q, O, CL_TRUE, 0, N * sizeof(int), Out.data(),
                                0, nullptr, nullptr) == CL_SUCCESS;
  for (size_t I = 0; Ok && I < N; ++I)
    Ok = Out[I] == static_cast<int>(2 * I);
  clReleaseMemObject(O);
  clReleaseKernel(K);
  clReleaseProgram(P);
  clReleaseCommandQueue(Q);
  clReleaseContext(C);
  return Ok;
}

void printThreads() {
  DIR *Dir = opendir("/proc/self/task");
  if (!Dir)
    return;
  while (dirent *E = readdir(Dir)) {
    if (E->d_name[0] == '.')
      continue;
    std::ifstream In(std::string("/proc/self/task/") + E->d_name + "/status");
    for (std::string Line; std::getline(In, Line);)
      if (Line.rfind("Cpus_allowed_list:", 0) == 0)
        std::printf("thread %s %s\n", E->d_name,
                    Line.substr(Line.find_first_not_of(
                                    " \t", std::strlen("Cpus_allowed_list:")))
                        .c_str());
  }
  closedir(Dir);
}

} // namespace

int main(int Argc, char **Argv) {
  bool Numa = Argc > 1 && std::strcmp(Argv[1], "numa") == 0;
  cl_device_id D = clcpuDevice();
  if (!D)
    return 2;
  std::printf("compute_units %u\n",
              deviceInfo<cl_uint>(D, CL_DEVICE_MAX_COMPUTE_UNITS));
  std::vector<cl_device_id> Devices{D};
  if (Numa) {
    cl_device_partition_property Props[] = {
        CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NUMA,
        0};
    cl_uint Count = 0;
    if (clCreateSubDevices(D, Props, 0, nullptr, &Count) != CL_SUCCESS ||
        Count == 0)
      return 3;
    std::vector<cl_device_id> Subs(Count);
    if (clCreateSubDevices(D, Props, Count, Subs.data(), nullptr) != CL_SUCCESS)
      return 3;
    std::printf("sub_devices");
    for (cl_device_id S : Subs)
      std::printf(" %u", deviceInfo<cl_uint>(S, CL_DEVICE_MAX_COMPUTE_UNITS));
    std::printf("\n");
    Devices.insert(Devices.end(), Subs.begin(), Subs.end());
  }
  for (cl_device_id Dev : Devices)
    if (!runOn(Dev))
      return 4;
  printThreads();
  return 0;
}
