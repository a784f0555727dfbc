// End-to-end: cl_khr_kernel_clock 1.0.0 through the ICD loader: the device
// query (OpenCL API 4.2) and the clock functions of each scope (OpenCL C
// 3.0, 6.15.21 "Kernel Clock Functions"): monotonic in a work-item, across
// a work-group's barrier and along a chain of work-groups on different
// worker threads, and advancing.

#include "SchedulerCommon.h"
#include "runtime/ExtensionEnums.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using sched::Env;

constexpr cl_device_kernel_clock_capabilities_khr AllScopes =
    CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR |
    CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR |
    CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR;

cl_device_kernel_clock_capabilities_khr scopes(cl_device_id D) {
  cl_device_kernel_clock_capabilities_khr Caps = 0;
  size_t Size = 0;
  REQUIRE(clGetDeviceInfo(D, CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR,
                          sizeof Caps, &Caps, &Size) == CL_SUCCESS);
  CHECK(Size == sizeof Caps);
  return Caps;
}

/// The time-stamp counter is one clock for the whole machine: what the
/// device needs for its clock scopes (builtins/kernel_clock.cl).
bool invariantTsc() {
  return cpuFlag("constant_tsc") && cpuFlag("nonstop_tsc");
}

} // namespace

TEST_CASE("cl_khr_kernel_clock 1.0.0 (OpenCL API 4.2, "
          "CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR): every scope where the "
          "time-stamp counter is invariant, each with its OpenCL C feature",
          "[device][kernel_clock]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  CHECK(extensionVersion(D, "cl_khr_kernel_clock") == CL_MAKE_VERSION(1, 0, 0));
  cl_device_kernel_clock_capabilities_khr Caps = scopes(D);
  CHECK(Caps == (invariantTsc() ? AllScopes : 0));
  // Each scope's feature, with the extension's version, exactly where the
  // device has the scope.
  const std::pair<const char *, cl_device_kernel_clock_capabilities_khr>
      Macros[] = {{"__opencl_c_kernel_clock_scope_device",
                   CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR},
                  {"__opencl_c_kernel_clock_scope_work_group",
                   CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR},
                  {"__opencl_c_kernel_clock_scope_sub_group",
                   CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR}};
  for (auto [Macro, Bit] : Macros) {
    INFO(Macro);
    CHECK(featureVersion(D, Macro) ==
          (Caps & Bit ? CL_MAKE_VERSION(1, 0, 0) : 0));
  }
}

TEST_CASE("cl_khr_kernel_clock (OpenCL C 6.15.21): each scope's clock, "
          "ulong and hilo, never goes back in a work-item and advances "
          "over work",
          "[builtins][kernel_clock]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  if (scopes(D) != AllScopes) {
    // No invariant time-stamp counter: no scope, so no clock function.
    Env E;
    std::string Log;
    CHECK(!E.tryBuild("kernel void k(global ulong *o) { *o = "
                      "clock_read_device(); }",
                      "-cl-std=CL3.0", Log));
    return;
  }
  // t[0..5]: a ulong read, the hilo read, a ulong read, per scope; then
  // the clock before and after a loop of dependent multiplies.
  const char *Src = R"(
#if !defined(cl_khr_kernel_clock) ||                                          \
    !defined(__opencl_c_kernel_clock_scope_device) ||                         \
    !defined(__opencl_c_kernel_clock_scope_work_group) ||                     \
    !defined(__opencl_c_kernel_clock_scope_sub_group)
#error "cl_khr_kernel_clock or its scope macros are not defined"
#endif
ulong joined(uint2 v) { return (ulong)v.x | (ulong)v.y << 32; }
kernel void clocks(global ulong *t, global uint *sink, uint spins) {
  size_t i = get_global_id(0);
  global ulong *o = t + 11 * i;
  o[0] = clock_read_device();
  o[1] = joined(clock_read_hilo_device());
  o[2] = clock_read_device();
  o[3] = clock_read_work_group();
  o[4] = joined(clock_read_hilo_work_group());
  o[5] = clock_read_work_group();
  o[6] = clock_read_sub_group();
  o[7] = joined(clock_read_hilo_sub_group());
  o[8] = clock_read_sub_group();
  uint x = (uint)i | 1;
  o[9] = clock_read_device();
  for (uint k = 0; k < spins; ++k)
    x = x * 2654435761u + k;
  sink[i] = x;
  o[10] = clock_read_device();
}
)";
  for (const char *Options : {"", "-cl-std=CL3.0"}) {
    INFO("options '" << Options << "'");
    Env E;
    constexpr size_t N = 256;
    cl_program P = E.build(Src, Options);
    cl_mem T = E.buffer(std::vector<uint64_t>(11 * N));
    cl_mem Sink = E.buffer(std::vector<uint32_t>(N));
    E.launch(P, "clocks", N, 64, T, Sink, cl_uint(10000));
    std::vector<uint64_t> Got = E.read<uint64_t>(T, 11 * N);
    int Bad = 0;
    for (size_t I = 0; I < N && Bad < 8; ++I) {
      const uint64_t *O = &Got[11 * I];
      bool Ok = O[0] <= O[1] && O[1] <= O[2] && O[2] <= O[3] && O[3] <= O[4] &&
                O[4] <= O[5] && O[5] <= O[6] && O[6] <= O[7] && O[7] <= O[8] &&
                O[8] <= O[9] && O[9] < O[10];
      if (!Ok) {
        ++Bad;
        FAIL_CHECK("work-item " << I << ": reads " << O[0] << " " << O[1] << " "
                                << O[2] << " " << O[3] << " " << O[4] << " "
                                << O[5] << " " << O[6] << " " << O[7] << " "
                                << O[8] << " " << O[9] << " " << O[10]);
      }
    }
    CHECK(Bad == 0);
  }
}

TEST_CASE("cl_khr_kernel_clock (OpenCL C 6.15.21): work-group clocks read "
          "before a barrier are at most those read after it, in every "
          "work-group",
          "[builtins][kernel_clock]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  if (!(scopes(D) & CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR))
    return; // no scope: the test case above checks the build fails
  const char *Src = R"(
kernel void around_barrier(global ulong *before, global ulong *after) {
  size_t i = get_global_id(0);
  before[i] = clock_read_work_group();
  barrier(CLK_GLOBAL_MEM_FENCE);
  after[i] = clock_read_work_group();
}
)";
  Env E;
  constexpr size_t N = 4096, L = 256;
  cl_program P = E.build(Src);
  cl_mem Before = E.buffer(std::vector<uint64_t>(N));
  cl_mem After = E.buffer(std::vector<uint64_t>(N));
  E.launch(P, "around_barrier", N, L, Before, After);
  std::vector<uint64_t> B = E.read<uint64_t>(Before, N);
  std::vector<uint64_t> A = E.read<uint64_t>(After, N);
  for (size_t G = 0; G < N / L; ++G) {
    uint64_t LastBefore = *std::max_element(&B[G * L], &B[G * L] + L);
    uint64_t FirstAfter = *std::min_element(&A[G * L], &A[G * L] + L);
    INFO("work-group " << G);
    CHECK(LastBefore <= FirstAfter);
  }
}

TEST_CASE("cl_khr_kernel_clock (OpenCL C 6.15.21): the device clock is one "
          "clock for every worker thread: along a chain of work-groups, "
          "each waiting for the previous one's release, it never goes back",
          "[builtins][kernel_clock]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  if (!(scopes(D) & CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR))
    return; // no scope: the first test case checks the build fails
  // Work-group g waits for g - 1 (an earlier group always makes progress:
  // groups are handed out in increasing order), reads the clock, publishes
  // it with a release. Groups run on every worker thread, so consecutive
  // links cross threads and CPUs.
  const char *Src = R"(
kernel void chain(global ulong *t, global atomic_uint *turn) {
  uint g = get_group_id(0);
  while (atomic_load_explicit(turn, memory_order_acquire,
                              memory_scope_device) != g)
    ;
  t[g] = clock_read_device();
  atomic_store_explicit(turn, g + 1, memory_order_release,
                        memory_scope_device);
}
)";
  Env E;
  constexpr size_t Groups = 512;
  cl_program P = E.build(Src, "-cl-std=CL3.0");
  cl_mem T = E.buffer(std::vector<uint64_t>(Groups));
  cl_mem Turn = E.buffer(std::vector<uint32_t>(1, 0));
  E.launch(P, "chain", Groups, 1, T, Turn);
  std::vector<uint64_t> Got = E.read<uint64_t>(T, Groups);
  int Bad = 0;
  for (size_t G = 1; G < Groups; ++G)
    if (Got[G] < Got[G - 1] && Bad++ < 4)
      FAIL_CHECK("work-group " << G << " read " << Got[G] << " after "
                               << Got[G - 1]);
  CHECK(Bad == 0);
  CHECK(Got[Groups - 1] > Got[0]);
}
