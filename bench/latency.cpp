// Command launch latency of two OpenCL platforms, measured alternately
// (A, B, A, B, ...) so both see the same machine state, for two commands:
// an empty marker and an empty kernel (global size 1).
//   blocking: enqueue + clFinish, per command;
//   batched:  100 commands then one clFinish, per command.
//
// Usage: clcpu_bench_latency [rounds] [platform A] [platform B]
// Defaults: 2000 rounds, "clcpu", "Portable Computing Language".
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Target {
  std::string Name;
  cl_context Ctx = nullptr;
  cl_command_queue Queue = nullptr;
  cl_program Program = nullptr;
  cl_kernel Kernel = nullptr;
  // ns per command; [0] marker, [1] empty kernel
  std::vector<double> Blocking[2], Batched[2];
};

const char *const CommandNames[2] = {"marker", "empty kernel"};

cl_platform_id findPlatform(const std::string &Name) {
  cl_uint N = 0;
  clGetPlatformIDs(0, nullptr, &N);
  std::vector<cl_platform_id> Ps(N);
  if (N)
    clGetPlatformIDs(N, Ps.data(), nullptr);
  for (cl_platform_id P : Ps) {
    char Buf[256] = {};
    clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof Buf, Buf, nullptr);
    if (Name == Buf)
      return P;
  }
  return nullptr;
}

bool setUp(Target &T) {
  cl_platform_id P = findPlatform(T.Name);
  if (!P) {
    std::fprintf(stderr, "platform \"%s\" not found\n", T.Name.c_str());
    return false;
  }
  cl_device_id D = nullptr;
  cl_int Err = clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 1, &D, nullptr);
  if (Err != CL_SUCCESS)
    return false;
  T.Ctx = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &Err);
  if (Err != CL_SUCCESS)
    return false;
  T.Queue = clCreateCommandQueueWithProperties(T.Ctx, D, nullptr, &Err);
  if (Err != CL_SUCCESS)
    return false;
  const char *Src = "__kernel void empty(void) {}";
  T.Program = clCreateProgramWithSource(T.Ctx, 1, &Src, nullptr, &Err);
  if (Err != CL_SUCCESS ||
      clBuildProgram(T.Program, 1, &D, "", nullptr, nullptr) != CL_SUCCESS) {
    std::fprintf(stderr, "%s: building the empty kernel failed\n",
                 T.Name.c_str());
    return false;
  }
  T.Kernel = clCreateKernel(T.Program, "empty", &Err);
  return Err == CL_SUCCESS;
}

double nowNs() {
  return std::chrono::duration<double, std::nano>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool check(cl_int Err, const char *What) {
  if (Err != CL_SUCCESS)
    std::fprintf(stderr, "%s failed: %d\n", What, Err);
  return Err == CL_SUCCESS;
}

constexpr int Batch = 100;

bool enqueue(Target &T, int Cmd) {
  if (Cmd == 0)
    return check(clEnqueueMarkerWithWaitList(T.Queue, 0, nullptr, nullptr),
                 "clEnqueueMarkerWithWaitList");
  size_t One = 1;
  return check(clEnqueueNDRangeKernel(T.Queue, T.Kernel, 1, nullptr, &One, &One,
                                      0, nullptr, nullptr),
               "clEnqueueNDRangeKernel");
}

bool round(Target &T, int Cmd) {
  double A = nowNs();
  if (!enqueue(T, Cmd) || !check(clFinish(T.Queue), "clFinish"))
    return false;
  double B = nowNs();
  for (int I = 0; I < Batch; ++I)
    if (!enqueue(T, Cmd))
      return false;
  if (!check(clFinish(T.Queue), "clFinish"))
    return false;
  double C = nowNs();
  T.Blocking[Cmd].push_back(B - A);
  T.Batched[Cmd].push_back((C - B) / Batch);
  return true;
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V.empty() ? 0 : V[V.size() / 2];
}

} // namespace

int main(int Argc, char **Argv) {
  int Rounds = Argc > 1 ? std::atoi(Argv[1]) : 2000;
  Target Ts[2];
  Ts[0].Name = Argc > 2 ? Argv[2] : "clcpu";
  Ts[1].Name = Argc > 3 ? Argv[3] : "Portable Computing Language";
  for (Target &T : Ts)
    if (!setUp(T))
      return 1;
  // Warm-up: thread pools started, caches warm.
  for (int I = 0; I < 50; ++I)
    for (int Cmd = 0; Cmd < 2; ++Cmd)
      for (Target &T : Ts)
        if (!round(T, Cmd))
          return 1;
  for (Target &T : Ts)
    for (int Cmd = 0; Cmd < 2; ++Cmd)
      T.Blocking[Cmd].clear(), T.Batched[Cmd].clear();
  for (int I = 0; I < Rounds; ++I)
    for (int Cmd = 0; Cmd < 2; ++Cmd)
      for (Target &T : Ts)
        if (!round(T, Cmd))
          return 1;
  std::printf("rounds: %d (interleaved), batch: %d commands\n", Rounds, Batch);
  std::printf("%-14s %-30s %14s %14s\n", "command", "platform", "blocking [us]",
              "batched [us]");
  for (int Cmd = 0; Cmd < 2; ++Cmd) {
    for (Target &T : Ts)
      std::printf("%-14s %-30s %14.3f %14.3f\n", CommandNames[Cmd],
                  T.Name.c_str(), median(T.Blocking[Cmd]) / 1000,
                  median(T.Batched[Cmd]) / 1000);
    std::printf("%-14s ratio %s/%s: blocking %.3f, batched %.3f\n",
                CommandNames[Cmd], Ts[0].Name.c_str(), Ts[1].Name.c_str(),
                median(Ts[0].Blocking[Cmd]) / median(Ts[1].Blocking[Cmd]),
                median(Ts[0].Batched[Cmd]) / median(Ts[1].Batched[Cmd]));
  }
  for (Target &T : Ts) {
    clReleaseKernel(T.Kernel);
    clReleaseProgram(T.Program);
    clReleaseCommandQueue(T.Queue);
    clReleaseContext(T.Ctx);
  }
  return 0;
}
