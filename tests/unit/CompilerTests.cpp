// Unit tests of the kernel compiler (OpenCL 3.0 API spec, 5.8 "Program
// Objects": building; the work-group functions it generates). What the
// generated IR looks like is checked by FileCheck in tests/lit/kernels.

#include "compiler/Binary.h"
#include "compiler/Cache.h"
#include "compiler/Compiler.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <spawn.h>
#include <sstream>
#include <string_view>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace clcpu;
using namespace clcpu::compiler;

namespace {
/// A grid-stride loop before a barrier (compiler/LoopSyncPoints.cpp): the
/// loop's region stops at its sync point or at the barrier depending on
/// each work-item's own index.
const char *GridStride = R"(
kernel void grid(global const float *in, global float *out, int n) {
  local float s[64];
  float acc = 0.0f;
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    acc += in[i];
  s[get_local_id(0)] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[0];
}
)";

const char *VAdd = R"(
kernel void vadd(global const float *a, global const float *b,
                 global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
)";

} // namespace

// The headers the frontend serves from memory (builtins/Embed.cpp.in).
extern "C" const char clcpu_opencl_c_base_h[];
extern "C" const unsigned long long clcpu_opencl_c_base_h_size;
extern "C" const char clcpu_opencl_c_clcpu_h[];
extern "C" const unsigned long long clcpu_opencl_c_clcpu_h_size;

TEST_CASE("5.8.2 clBuildProgram: the headers the frontend embeds end with "
          "a NUL past their size, where Clang's lexer stops (a header of a "
          "multiple of 8 bytes would be followed by its size, and Clang "
          "would lex past its end)",
          "[compiler]") {
  std::string_view Base(clcpu_opencl_c_base_h, clcpu_opencl_c_base_h_size);
  CHECK(Base.find("_OPENCL_BASE_H_") != std::string_view::npos);
  CHECK(clcpu_opencl_c_base_h[clcpu_opencl_c_base_h_size] == '\0');
  std::string_view Clcpu(clcpu_opencl_c_clcpu_h, clcpu_opencl_c_clcpu_h_size);
  CHECK(Clcpu.find("work_group_reduce_mul") != std::string_view::npos);
  CHECK(clcpu_opencl_c_clcpu_h[clcpu_opencl_c_clcpu_h_size] == '\0');
}

TEST_CASE("5.8.6: build options are parsed and checked", "[compiler]") {
  Options O;
  std::string Err;
  CHECK(parseOptions("", O, Err));
  CHECK(O.ClStd == "CL1.2");
  CHECK(parseOptions("-D N=4 -DM -I /tmp -Ifoo -w -Werror -cl-std=CL3.0 "
                     "-cl-mad-enable -cl-kernel-arg-info -cl-fast-relaxed-math",
                     O, Err));
  CHECK(O.ClStd == "CL3.0");
  CHECK(O.KernelArgInfo);
  CHECK(std::find(O.ClangArgs.begin(), O.ClangArgs.end(), "-DN=4") !=
        O.ClangArgs.end());
  CHECK(std::find(O.ClangArgs.begin(), O.ClangArgs.end(), "-I/tmp") !=
        O.ClangArgs.end());
  CHECK_FALSE(parseOptions("-cl-no-such-option", O, Err));
  CHECK(Err.find("-cl-no-such-option") != std::string::npos);
  CHECK_FALSE(parseOptions("-cl-std=CL9.9", O, Err));
  CHECK_FALSE(parseOptions("-D", O, Err));
  CHECK(parseOptions("-D \"X=1 + 2\"", O, Err));
  CHECK(O.ClangArgs.back() == "-DX=1 + 2");
  // The other documented options are accepted (what they do to the IR:
  // tests/lit/kernels/build_options_ir.cl, math_options_ir.cl).
  CHECK(parseOptions("-g -cl-denorms-are-zero -cl-single-precision-constant "
                     "-cl-fp32-correctly-rounded-divide-sqrt -cl-mad-enable "
                     "-cl-no-signed-zeros -cl-unsafe-math-optimizations "
                     "-cl-finite-math-only",
                     O, Err));
}

TEST_CASE("6.13.8 (barrier fast path, compiler/regions/): a "
          "kernel with barriers and one with a work-group collective run as "
          "barrier regions (their IR: tests/lit/kernels/"
          "barrier_regions_vectorized.cl)",
          "[compiler]") {
  const char *Src = R"(
kernel void rev(global const float *in, global float *out, local float *s) {
  size_t l = get_local_id(0), n = get_local_size(0);
  float v = in[get_global_id(0)] * 3.0f;
  s[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[n - 1 - l] + v;
}
kernel void scan(global const int *in, global int *out) {
  size_t g = get_global_id(0);
  out[g] = work_group_scan_inclusive_add(in[g]);
}
)";
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Src, "-cl-std=CL2.0", Log, P) == CL_SUCCESS);
  for (const KernelInfo &K : P->Kernels) {
    INFO(K.Name << ": " << K.Path);
    CHECK_FALSE(K.PerWorkItem);
    CHECK(K.RegionScratch >= 24);
    CHECK(K.Path.rfind("barrier regions: 2 regions", 0) == 0);
  }
}

TEST_CASE("6.13.8 (barrier fast path, compiler/LoopSyncPoints.cpp): a "
          "grid-stride loop in a barrier kernel runs as a region per "
          "iteration; other loops stay whole (the grid-stride loop's IR: "
          "tests/lit/kernels/grid_stride_loop_barrier.cl)",
          "[compiler]") {
  const std::string Src = std::string(GridStride) + R"(
// The same count for every work-item: the outer-loop vectorizer's.
kernel void uniform(global const float *in, global float *out, int n) {
  local float s[64];
  float acc = 0.0f;
  for (int i = 0; i < n; ++i)
    acc += in[i];
  s[get_local_id(0)] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[0];
}
// An atomic in the loop: left alone.
kernel void atomic(global int *c, global float *out, int n) {
  local float s[64];
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_inc(c);
  s[get_local_id(0)] = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[0];
}
)";
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Src, "", Log, P) == CL_SUCCESS);
  REQUIRE(P->Kernels.size() == 3);
  for (const KernelInfo &K : P->Kernels) {
    INFO(K.Name << ": " << K.Path);
    CHECK_FALSE(K.PerWorkItem);
    bool Grid = K.Name == "grid";
    CHECK((K.Path.find("1 grid-stride loop") != std::string::npos) == Grid);
  }
}

TEST_CASE("6.13.8 (barrier fast path, compiler/regions/): a "
          "uniform loop counter lives in one group-wide slot, and regions "
          "whose exit is uniform skip the scan of the work-items' states "
          "(their IR: tests/lit/kernels/uniform_loop_counter_barrier.cl)",
          "[compiler]") {
  // bench's barrier_stress: k is the same for every work-item, and every
  // region stops where the uniform loop condition says.
  const std::string Src = R"(
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void stress(global int *out, int iters) {
  local int s[64];
  int lid = get_local_id(0);
  int v = get_global_id(0);
  for (int k = 0; k < iters; ++k) {
    s[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = s[(lid + 1) % 64] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = v;
}
)" + std::string(GridStride);
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Src, "", Log, P) == CL_SUCCESS);
  REQUIRE(P->Kernels.size() == 2);
  for (const KernelInfo &K : P->Kernels) {
    INFO(K.Name << ": " << K.Path);
    if (K.Name == "stress") {
      CHECK(K.Path.find("2 values (1 uniform)") != std::string::npos);
      CHECK(K.Path.find("3 regions with uniform exits") != std::string::npos);
    } else {
      CHECK(K.Path.find("3 regions with uniform exits") == std::string::npos);
    }
  }
}

TEST_CASE("6.13.8 (barrier fast path, compiler/regions/): "
          "uniform values of a loop with a single barrier stay uniform, "
          "saved in a second group-wide slot the collective step copies "
          "(their IR: tests/lit/kernels/barrier_loop_uniform_pointers.cl)",
          "[compiler]") {
  // A Hillis-Steele scan: the local pointers (swapped after the barrier)
  // and the offset are saved at the barrier the region after it also
  // starts from. With one slot, later work-items would read what earlier
  // ones saved for the next iteration; per-work-item slots would make the
  // pointers vectors and the accesses gathers.
  const std::string Src = R"(
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void hs(global const int *in, global int *out) {
  local int a[64], b[64];
  size_t l = get_local_id(0);
  local int *src = a, *dst = b;
  src[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t o = 1; o < 64; o <<= 1) {
    int v = src[l];
    if (l >= o)
      v += src[l - o];
    dst[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    local int *t = src;
    src = dst;
    dst = t;
  }
  out[get_global_id(0)] = src[l];
}
)";
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Src, "", Log, P) == CL_SUCCESS);
  REQUIRE(P->Kernels.size() == 1);
  INFO(P->Kernels[0].Path);
  CHECK(P->Kernels[0].Path.find("3 values (3 uniform)") != std::string::npos);
}

TEST_CASE("6.13.8 (barrier fast path, compiler/regions/): a "
          "value one work-item broadcasts through local memory is uniform "
          "after the barrier; a volatile one is not",
          "[compiler]") {
  // A plain load of one address for the whole group: another work-item's
  // store to it in the same region would be a data race (OpenCL C 2.0
  // 3.3.4), so every work-item reads the same value. The loop over `count`
  // then exits uniformly (without it, the region after the first barrier
  // would end with a scan of every work-item's state), and `off` gets a
  // group-wide slot; read through `volatile`, it gets one per work-item.
  const char *Src = R"(
#define KERNEL(NAME, QUAL)                                                    \
kernel __attribute__((reqd_work_group_size(64, 1, 1)))                        \
void NAME(global const int *in, global int *out) {                            \
  local int count;                                                            \
  local QUAL int off;                                                         \
  local int s[64];                                                            \
  int l = get_local_id(0);                                                    \
  if (l == 0) {                                                               \
    count = in[get_group_id(0)];                                              \
    off = in[get_group_id(0) + 1];                                            \
  }                                                                           \
  barrier(CLK_LOCAL_MEM_FENCE);                                               \
  int v = in[get_global_id(0)], o = off;                                      \
  for (int i = 0; i < count; ++i) {                                           \
    s[l] = v;                                                                 \
    barrier(CLK_LOCAL_MEM_FENCE);                                             \
    v = s[(l + o) % 64];                                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                             \
  }                                                                           \
  out[get_global_id(0)] = v * o;                                              \
}
KERNEL(plain, )
KERNEL(vol, volatile)
)";
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Src, "", Log, P) == CL_SUCCESS);
  REQUIRE(P->Kernels.size() == 2);
  for (const KernelInfo &K : P->Kernels) {
    INFO(K.Name << ": " << K.Path);
    CHECK(K.Path.find("4 regions with uniform exits") != std::string::npos);
    if (K.Name == "plain")
      CHECK(K.Path.find("3 values (2 uniform)") != std::string::npos);
    else
      CHECK(K.Path.find("3 values (1 uniform)") != std::string::npos);
  }
}

TEST_CASE("6.13.8 (barrier fast path): kernels the regions do not take run "
          "on fibers, with the reason",
          "[compiler]") {
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  // A work-item waiting for another one (a spin loop on an atomic) needs
  // independent forward progress.
  REQUIRE(build(R"(
kernel void wait(volatile global int *flag, global int *out) {
  if (get_local_id(0) == 0) { while (atomic_add(flag, 0) == 0) {} }
  else if (get_local_id(0) == 1) atomic_xchg(flag, 1);
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] = 1;
}
)",
                "", Log, P) == CL_SUCCESS);
  CHECK(P->Kernels.at(0).PerWorkItem);
  CHECK(P->Kernels.at(0).Path.find("independent forward progress") !=
        std::string::npos);
  // sub_group_broadcast of a vector (cl_khr_subgroup_extended_types): one
  // scalar broadcast per component (compiler/passes/VectorCollectives.cpp), on
  // the barrier regions.
  REQUIRE(build(R"(
kernel void bc(global float4 *p) {
  size_t g = get_global_id(0);
  p[g] = sub_group_broadcast(p[g], 0);
}
)",
                "-cl-std=CL3.0", Log, P) == CL_SUCCESS);
  CHECK_FALSE(P->Kernels.at(0).PerWorkItem);
  CHECK(P->Kernels.at(0).Path.rfind(
            "barrier regions: 5 regions (0 barriers, 4 collectives, 4 of "
            "them inline)",
            0) == 0);
  // A barrier-free kernel: the work-item loop.
  REQUIRE(build(VAdd, "", Log, P) == CL_SUCCESS);
  CHECK(P->Kernels.at(0).Path == "work-item loop");
}

TEST_CASE("cl_khr_subgroup_non_uniform_arithmetic (compiler/Barriers.cpp): "
          "non-uniform calls build on fibers (their site numbers and the "
          "table of which sites can follow which: tests/lit/kernels/"
          "non_uniform_fibers_reach_table.cl)",
          "[compiler]") {
  const char *Src = R"(
kernel void nu(global int *out) {
  uint l = get_sub_group_local_id();
  int a = 0;
  if (l & 1)
    a = sub_group_non_uniform_reduce_add(1);
  for (uint i = 0; i <= l % 3; ++i)
    a += sub_group_non_uniform_reduce_add(1);
  out[get_global_id(0)] = a + sub_group_elect();
}
)";
  std::string Log;
  const char *Fibers = "-cl-std=CL3.0 -clcpu-force-fibers";
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Src, Fibers, Log, P) == CL_SUCCESS);
  CHECK(P->Kernels.at(0).PerWorkItem);
}

TEST_CASE("cl_khr_subgroup_non_uniform_arithmetic (compiler/regions/ "
          "and emitRegionDriver): non-uniform calls take the barrier regions "
          "(the table of which sync points can reach which: tests/lit/"
          "kernels/non_uniform_regions_reach_table.cl)",
          "[compiler]") {
  const char *Src = R"(
kernel void nu(global int *out) {
  uint l = get_sub_group_local_id();
  int a = 0;
  if (l & 1)
    a = sub_group_non_uniform_reduce_add(1);
  for (uint i = 0; i <= l % 3; ++i)
    a += sub_group_non_uniform_reduce_add(1);
  out[get_global_id(0)] = a + sub_group_elect() + sub_group_ballot(l & 1).x;
}
)";
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Src, "-cl-std=CL3.0", Log, P) == CL_SUCCESS);
  const KernelInfo &K = P->Kernels.at(0);
  INFO(K.Path);
  CHECK_FALSE(K.PerWorkItem);
  CHECK(K.Path.rfind("barrier regions: 7 regions (0 barriers, 4 collectives, "
                     "4 of them inline, 2 reconvergence points)",
                     0) == 0);
}

// (Catch2's console reporter loops forever printing a failed test whose
// name has its first ": " past the console width: keep it early.)
TEST_CASE("cl_khr_work_group_uniform_arithmetic (clcpu-uniformity): its "
          "collectives take the barrier regions, and a loop that runs while "
          "a work-group reduction of any operation says so exits uniformly, "
          "as with work_group_any (compiler/Barriers.cpp)",
          "[compiler][uniform_arithmetic]") {
  // Every work-item leaves the loop together: its counter needs one slot,
  // not one per work-item, and its regions' exits are uniform.
  auto Source = [](const std::string &Condition) {
    return R"(
kernel void converge(global const int *in, global int *out) {
  int v = in[get_global_id(0)], changed = 1, rounds = 0;
  while ()" +
           Condition + R"() {
    changed = v > rounds;
    v += work_group_scan_exclusive_xor(v) & 1;
    ++rounds;
  }
  out[get_global_id(0)] = rounds + v;
}
)";
  };
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Source("work_group_any(changed)"), "-cl-std=CL3.0", Log, P) ==
          CL_SUCCESS);
  const std::string Any = P->Kernels.at(0).Path;
  INFO("work_group_any: " << Any);
  REQUIRE(Any.rfind("barrier regions: ", 0) == 0);
  CHECK(Any.find("values (1 uniform)") != std::string::npos);
  for (const char *Condition :
       {"work_group_reduce_logical_or(changed)",
        "work_group_reduce_or(changed)", "work_group_reduce_mul(changed)",
        "work_group_reduce_logical_xor(changed)"}) {
    INFO(Condition);
    REQUIRE(build(Source(Condition), "-cl-std=CL3.0", Log, P) == CL_SUCCESS);
    CHECK(P->Kernels.at(0).Path == Any);
  }
}

TEST_CASE("5.8: a kernel's arguments are described from its metadata",
          "[compiler]") {
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  const char *Src = R"(
typedef struct { int a; float b; double c; } S;
kernel void k(global float *g, constant int *c, local float *l, float4 v,
              S s, uint n) __attribute__((reqd_work_group_size(8, 2, 1))) {
  g[get_global_id(0)] = v.x + s.b + n + c[0];
}
)";
  // double needs cl_khr_fp64, which OpenCL C 1.2 makes optional: the
  // struct uses long instead.
  std::string Source =
      std::regex_replace(std::string(Src), std::regex("double"), "long");
  REQUIRE(build(Source, "-cl-kernel-arg-info", Log, P) == CL_SUCCESS);
  REQUIRE(P->Kernels.size() == 1);
  const KernelInfo &K = P->Kernels[0];
  CHECK(K.Name == "k");
  CHECK(K.Fn != nullptr);
  CHECK(K.ArgInfoAvailable);
  REQUIRE(K.Args.size() == 6);
  CHECK(K.Args[0].AddressSpace == ArgGlobal);
  CHECK(K.Args[0].Size == sizeof(void *));
  CHECK(K.Args[1].AddressSpace == ArgConstant);
  CHECK(K.Args[2].AddressSpace == ArgLocal);
  CHECK(K.Args[3].Size == 16);
  CHECK(K.Args[3].TypeName == "float4");
  CHECK(K.Args[4].Size == 16);
  CHECK(K.Args[5].Size == 4);
  CHECK(K.Args[5].Name == "n");
  CHECK(K.ReqdWorkGroupSize[0] == 8);
  CHECK(K.ReqdWorkGroupSize[1] == 2);
  CHECK(K.ReqdWorkGroupSize[2] == 1);
  CHECK(K.Attributes.find("reqd_work_group_size(8,2,1)") != std::string::npos);
}

TEST_CASE("5.8: build failures are reported with a reason", "[compiler]") {
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  SECTION("syntax error: file:line:col in the log") {
    CHECK(build("kernel void k(global int *p) {\n  p[0] = ;\n}\n", "", Log,
                P) == CL_BUILD_PROGRAM_FAILURE);
    CHECK(std::regex_search(Log, std::regex(":2:[0-9]+: error")));
  }
  SECTION("barrier() makes the kernel run as barrier regions, or per "
          "work-item on fibers with -clcpu-force-fibers") {
    const char *Src = "kernel void k(global int *p) { p[0] = 1;"
                      " barrier(CLK_LOCAL_MEM_FENCE); }";
    REQUIRE(build(Src, "", Log, P) == CL_SUCCESS);
    CHECK_FALSE(P->Kernels.at(0).PerWorkItem);
    CHECK(P->Kernels.at(0).RegionScratch > 0);
    REQUIRE(build(Src, "-clcpu-force-fibers", Log, P) == CL_SUCCESS);
    CHECK(P->Kernels.at(0).PerWorkItem);
    CHECK(P->Kernels.at(0).RegionScratch == 0);
    P.reset();
  }
  SECTION("a function without a definition is named in the log") {
    CHECK(build("float helper(float);\n"
                "kernel void k(global float *p) { p[0] = helper(p[1]); }",
                "", Log, P) == CL_BUILD_PROGRAM_FAILURE);
    CHECK(Log.find("'helper'") != std::string::npos);
  }
  SECTION("unknown option") {
    CHECK(build("kernel void k() {}", "-bogus", Log, P) ==
          CL_INVALID_BUILD_OPTIONS);
  }
  SECTION("-Werror turns a warning into a failure") {
    const char *Src = "kernel void k(global int *p) { p[0] = 1; p[1] == 2; }";
    CHECK(build(Src, "", Log, P) == CL_SUCCESS);
    CHECK(Log.find("warning") != std::string::npos);
    P.reset();
    CHECK(build(Src, "-w -Werror", Log, P) == CL_SUCCESS);
    P.reset();
    // -w: "Inhibit all warning messages."
    Log.clear();
    CHECK(build(Src, "-w", Log, P) == CL_SUCCESS);
    CHECK(Log.find("warning") == std::string::npos);
    P.reset();
    CHECK(build(Src, "-Werror", Log, P) == CL_BUILD_PROGRAM_FAILURE);
  }
  CHECK(P == nullptr);
}

TEST_CASE("5.10: work-item functions inside helper functions", "[compiler]") {
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  const char *Src = R"(
size_t lin(void) { return get_global_id(1) * get_global_size(0) + get_global_id(0); }
kernel void k(global uint *out) {
  out[lin()] = get_local_id(0) + 100 * get_group_id(1) + 10000 * get_work_dim();
}
)";
  REQUIRE(build(Src, "", Log, P) == CL_SUCCESS);
  REQUIRE(P->Kernels.size() == 1);
  std::vector<unsigned> Out(8 * 4, 0);
  void *Buf = Out.data();
  void *Args[] = {&Buf};
  WorkGroupContext C{};
  C.LocalSize[0] = 4;
  C.LocalSize[1] = 2;
  C.LocalSize[2] = 1;
  C.Launch.GlobalSize[0] = 8;
  C.Launch.GlobalSize[1] = 4;
  C.Launch.GlobalSize[2] = 1;
  C.Launch.NumGroups[0] = 2;
  C.Launch.NumGroups[1] = 2;
  C.Launch.NumGroups[2] = 1;
  C.Launch.WorkDim = 2;
  for (int D = 0; D < 3; ++D)
    C.Launch.EnqueuedLocalSize[D] = C.LocalSize[D];
  for (size_t GY = 0; GY < 2; ++GY)
    for (size_t GX = 0; GX < 2; ++GX) {
      C.GroupId[0] = GX;
      C.GroupId[1] = GY;
      P->Kernels[0].Fn(Args, &C);
    }
  for (unsigned Y = 0; Y < 4; ++Y)
    for (unsigned X = 0; X < 8; ++X)
      CHECK(Out[Y * 8 + X] == X % 4 + 100 * (Y / 2) + 20000);
}

TEST_CASE("5.10: a kernel's __local variables live in the work-group's block",
          "[compiler]") {
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  const char *Src = R"(
kernel void k(global int *out) {
  local int tmp[8];
  local int one;
  size_t l = get_local_id(0);
  tmp[l] = (int)get_global_id(0) * 3;
  one = 1;
  out[get_global_id(0)] = tmp[l] + one;
}
)";
  REQUIRE(build(Src, "", Log, P) == CL_SUCCESS);
  const KernelInfo &K = P->Kernels.at(0);
  CHECK(K.LocalMemSize >= 8 * sizeof(int) + sizeof(int));
  std::vector<int> Out(16, 0);
  alignas(64) unsigned char Block[256] = {};
  void *Buf = Out.data();
  void *Args[] = {&Buf};
  WorkGroupContext C{};
  C.LocalSize[0] = 8;
  C.LocalSize[1] = C.LocalSize[2] = 1;
  C.Launch.GlobalSize[0] = 16;
  C.Launch.GlobalSize[1] = C.Launch.GlobalSize[2] = 1;
  C.Launch.NumGroups[0] = 2;
  C.Launch.NumGroups[1] = C.Launch.NumGroups[2] = 1;
  C.Launch.WorkDim = 1;
  C.LocalMem = Block;
  for (int D = 0; D < 3; ++D)
    C.Launch.EnqueuedLocalSize[D] = C.LocalSize[D];
  for (size_t G = 0; G < 2; ++G) {
    C.GroupId[0] = G;
    K.Fn(Args, &C);
  }
  for (int I = 0; I < 16; ++I)
    CHECK(Out[I] == 3 * I + 1);
  // The last group's values are in the block given, not in a global.
  int Seen[8];
  bool Found = false;
  for (size_t Off = 0; Off + sizeof Seen <= sizeof Block; Off += 4) {
    std::memcpy(Seen, Block + Off, sizeof Seen);
    Found |= Seen[0] == 24 && Seen[7] == 45;
  }
  CHECK(Found);
}

namespace {
/// A fresh, empty directory under the system's temporary directory.
struct TempDir {
  std::string Path;
  TempDir() {
    std::string T =
        (std::filesystem::temp_directory_path() / "clcpu-cache-test-XXXXXX")
            .string();
    REQUIRE(mkdtemp(T.data()));
    Path = T;
  }
  ~TempDir() {
    std::error_code EC;
    std::filesystem::remove_all(Path, EC);
  }
  std::vector<std::string> entries() const {
    std::vector<std::string> Out;
    for (const auto &E : std::filesystem::directory_iterator(Path))
      Out.push_back(E.path().string());
    return Out;
  }
};

const char *Scale = R"(
kernel void scale(global float *p, float f) {
  p[get_global_id(0)] = p[get_global_id(0)] * f + SHIFT;
}
)";

std::vector<std::string> kernelNames(const CompiledProgram &P) {
  std::vector<std::string> N;
  for (const KernelInfo &K : P.Kernels)
    N.push_back(K.Name);
  return N;
}
} // namespace

TEST_CASE("5.8.1: program binaries are checked: magic, checksum, versions, "
          "CPU",
          "[compiler][binary]") {
  BinaryContents In;
  In.Type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
  In.Options = "-DX=1";
  In.Payload = std::string("BC\xc0\xde payload", 12);
  std::string Bin = writeBinary(In, "1.2.3");
  auto Bytes = [&](const std::string &B) {
    return reinterpret_cast<const unsigned char *>(B.data());
  };
  BinaryContents Out;
  std::string Why;
  REQUIRE(readBinary(Bytes(Bin), Bin.size(), "1.2.3", Out, Why));
  CHECK(Out.Type == In.Type);
  CHECK(Out.Options == In.Options);
  CHECK(Out.Payload == In.Payload);
  // Another driver version.
  CHECK_FALSE(readBinary(Bytes(Bin), Bin.size(), "1.2.4", Out, Why));
  CHECK(Why.find("1.2.3") != std::string::npos);
  // Every truncation and every single flipped byte is detected.
  for (size_t N = 0; N < Bin.size(); ++N)
    CHECK_FALSE(readBinary(Bytes(Bin), N, "1.2.3", Out, Why));
  for (size_t I = 0; I < Bin.size(); ++I) {
    std::string Bad = Bin;
    Bad[I] ^= 0x20;
    CHECK_FALSE(readBinary(Bytes(Bad), Bad.size(), "1.2.3", Out, Why));
  }
  CHECK_FALSE(readBinary(nullptr, 0, "1.2.3", Out, Why));
  std::string Foreign = "\x7f"
                        "ELF not ours at all, long enough to parse";
  CHECK_FALSE(readBinary(Bytes(Foreign), Foreign.size(), "1.2.3", Out, Why));
  CHECK(Why.find("not a clcpu") != std::string::npos);
}

TEST_CASE("5.8.1: an executable's payload is JIT'd again with the same "
          "kernels",
          "[compiler][binary]") {
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Scale, "-DSHIFT=1 -cl-kernel-arg-info", Log, P) == CL_SUCCESS);
  REQUIRE_FALSE(P->Payload.empty());
  std::unique_ptr<CompiledProgram> Q;
  REQUIRE(loadExecutable(P->Payload, "", Log, Q) == CL_SUCCESS);
  CHECK(kernelNames(*Q) == kernelNames(*P));
  REQUIRE(Q->Kernels.size() == 1);
  CHECK(Q->Kernels[0].Fn != nullptr);
  CHECK(Q->Kernels[0].Args.size() == 2);
  CHECK(Q->Kernels[0].Args[1].Name == "f");
  CHECK(Q->Kernels[0].Args[1].Size == 4);
  CHECK(Q->Kernels[0].ArgInfoAvailable);
  // A damaged payload fails cleanly.
  std::string Bad = P->Payload.substr(0, P->Payload.size() / 2);
  CHECK(loadExecutable(Bad, "", Log, Q) == CL_BUILD_PROGRAM_FAILURE);
}

TEST_CASE("5.8.3: the kernel cache: miss, hit, corrupt entry, off",
          "[compiler][cache]") {
  TempDir Dir;
  BuildSettings S;
  S.CacheDir = Dir.Path + "/sub/dir";
  S.DriverVersion = "test";
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  // Miss: built and stored (one entry, no temporary file left).
  REQUIRE(build(Scale, "-DSHIFT=2", Log, P, S) == CL_SUCCESS);
  CHECK_FALSE(P->FromCache);
  std::vector<std::string> Files;
  for (const auto &E : std::filesystem::directory_iterator(S.CacheDir))
    Files.push_back(E.path().string());
  REQUIRE(Files.size() == 1);
  CHECK(Files[0].find(".tmp") == std::string::npos);
  // Hit: same source and options.
  std::unique_ptr<CompiledProgram> Hit;
  REQUIRE(build(Scale, "-DSHIFT=2", Log, Hit, S) == CL_SUCCESS);
  CHECK(Hit->FromCache);
  CHECK(kernelNames(*Hit) == kernelNames(*P));
  CHECK(Hit->Kernels[0].Fn != nullptr);
  CHECK(Hit->Payload == P->Payload);
  // Other options, other source: misses.
  std::unique_ptr<CompiledProgram> Miss;
  REQUIRE(build(Scale, "-DSHIFT=3", Log, Miss, S) == CL_SUCCESS);
  CHECK_FALSE(Miss->FromCache);
  REQUIRE(build(std::string(Scale) + "\n", "-DSHIFT=2", Log, Miss, S) ==
          CL_SUCCESS);
  CHECK_FALSE(Miss->FromCache);
  CHECK(cache::key(Scale, "-DSHIFT=2", "test") !=
        cache::key(Scale, "-DSHIFT=2", "other"));

  // Corrupt the first entry: detected, noted in the log, rebuilt, rewritten.
  {
    std::fstream F(Files[0], std::ios::in | std::ios::out | std::ios::binary);
    F.seekp(100);
    F.put('\x55');
  }
  std::string CorruptLog;
  std::unique_ptr<CompiledProgram> Rebuilt;
  REQUIRE(build(Scale, "-DSHIFT=2", CorruptLog, Rebuilt, S) == CL_SUCCESS);
  CHECK_FALSE(Rebuilt->FromCache);
  CHECK(CorruptLog.find("corrupt") != std::string::npos);
  REQUIRE(build(Scale, "-DSHIFT=2", Log, Rebuilt, S) == CL_SUCCESS);
  CHECK(Rebuilt->FromCache);
  // Truncated entry.
  std::filesystem::resize_file(Files[0], 40);
  REQUIRE(build(Scale, "-DSHIFT=2", Log, Rebuilt, S) == CL_SUCCESS);
  CHECK_FALSE(Rebuilt->FromCache);

  // Cache off (empty directory): never a hit, nothing written.
  TempDir Off;
  BuildSettings NoCache;
  REQUIRE(build(Scale, "-DSHIFT=2", Log, Rebuilt, NoCache) == CL_SUCCESS);
  CHECK_FALSE(Rebuilt->FromCache);
  REQUIRE(build(Scale, "-DSHIFT=2", Log, Rebuilt, NoCache) == CL_SUCCESS);
  CHECK_FALSE(Rebuilt->FromCache);
  CHECK(Off.entries().empty());

  // Build failures and bad options are not cached.
  CHECK(build("kernel void k( {", "", Log, Rebuilt, S) ==
        CL_BUILD_PROGRAM_FAILURE);
  CHECK(build(Scale, "-bogus", Log, Rebuilt, S) == CL_INVALID_BUILD_OPTIONS);
}

TEST_CASE("5.8.3: concurrent builds of one source share the cache safely",
          "[compiler][cache]") {
  TempDir Dir;
  BuildSettings S;
  S.CacheDir = Dir.Path;
  const int N = 4;
  std::vector<std::thread> Ts;
  std::vector<int> Ok(N, 0);
  // Two other processes (this test binary, running the hidden test below)
  // build the same source into the same directory at the same time.
  std::vector<pid_t> Children;
  std::string EnvVar = "CLCPU_TEST_CACHE_CHILD_DIR=" + Dir.Path;
  for (int I = 0; I < 2; ++I) {
    char Exe[] = "/proc/self/exe", Tag[] = "[.cache-child]";
    char *Argv[] = {Exe, Tag, nullptr};
    char *Envp[] = {EnvVar.data(), nullptr};
    pid_t C = -1;
    REQUIRE(posix_spawn(&C, "/proc/self/exe", nullptr, nullptr, Argv, Envp) ==
            0);
    Children.push_back(C);
  }
  for (int I = 0; I < N; ++I)
    Ts.emplace_back([&, I] {
      std::string Log;
      std::unique_ptr<CompiledProgram> P;
      Ok[I] = build(Scale, "-DSHIFT=4", Log, P, S) == CL_SUCCESS && P &&
              P->Kernels.size() == 1 && P->Kernels[0].Fn;
    });
  for (auto &T : Ts)
    T.join();
  for (pid_t C : Children) {
    int Status = -1;
    REQUIRE(waitpid(C, &Status, 0) == C);
    CHECK(WIFEXITED(Status));
    CHECK(WEXITSTATUS(Status) == 0);
  }
  for (int I = 0; I < N; ++I)
    CHECK(Ok[I] == 1);
  // One complete entry, no temporary file left, and it hits.
  std::vector<std::string> Files = Dir.entries();
  REQUIRE(Files.size() == 1);
  CHECK(Files[0].find(".tmp") == std::string::npos);
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Scale, "-DSHIFT=4", Log, P, S) == CL_SUCCESS);
  CHECK(P->FromCache);
}

TEST_CASE("5.8.3: (child process of the concurrent cache test)",
          "[.cache-child]") {
  const char *Dir = std::getenv("CLCPU_TEST_CACHE_CHILD_DIR");
  REQUIRE(Dir);
  BuildSettings S;
  S.CacheDir = Dir;
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Scale, "-DSHIFT=4", Log, P, S) == CL_SUCCESS);
  CHECK(P->Kernels.size() == 1);
}

TEST_CASE("5.8.3: CLCPU_DUMP_IR_BEFORE/AFTER and CLCPU_DUMP_ASM write the "
          "build's IR and assembly",
          "[compiler]") {
  TempDir Dir;
  BuildSettings S;
  S.DumpIRBefore = S.DumpIRAfter = Dir.Path + "/ir";
  S.DumpAsm = Dir.Path + "/asm";
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Scale, "-DSHIFT=5", Log, P, S) == CL_SUCCESS);
  auto Read = [](const std::filesystem::path &F) {
    std::ifstream In(F);
    return std::string((std::istreambuf_iterator<char>(In)),
                       std::istreambuf_iterator<char>());
  };
  std::string Before, After, Asm;
  for (const auto &E : std::filesystem::directory_iterator(Dir.Path + "/ir")) {
    std::string Name = E.path().filename().string();
    if (Name.find("before") != std::string::npos)
      Before = Read(E.path());
    else if (Name.find("after") != std::string::npos)
      After = Read(E.path());
  }
  for (const auto &E : std::filesystem::directory_iterator(Dir.Path + "/asm"))
    Asm = Read(E.path());
  // Before the kernel passes: the kernel as Clang emitted it; after: the
  // work-group function; the assembly defines it.
  CHECK(Before.find("define") != std::string::npos);
  CHECK(Before.find("wg_scale") == std::string::npos);
  CHECK(After.find("define void @wg_scale") != std::string::npos);
  CHECK(Asm.find("wg_scale:") != std::string::npos);
}

TEST_CASE("5.8.3: CLCPU_PERF_MAP names each JIT-compiled work-group function "
          "in /tmp/perf-<pid>.map at its address",
          "[compiler]") {
  std::string Map = "/tmp/perf-" + std::to_string(getpid()) + ".map";
  std::filesystem::remove(Map);
  BuildSettings S;
  S.PerfMap = true;
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Scale, "-DSHIFT=6", Log, P, S) == CL_SUCCESS);
  REQUIRE(P->Kernels.size() == 1);
  // "<hex address> <hex size> <name>", the format perf reads.
  std::ifstream In(Map);
  std::string Line;
  bool Found = false;
  while (std::getline(In, Line)) {
    std::istringstream Fields(Line);
    std::string Addr, Size, Name;
    REQUIRE(static_cast<bool>(Fields >> Addr >> Size >> Name));
    if (Name != "wg_scale")
      continue;
    Found = true;
    CHECK(std::stoull(Addr, nullptr, 16) ==
          reinterpret_cast<uintptr_t>(P->Kernels[0].Fn));
    CHECK(std::stoull(Size, nullptr, 16) > 0);
    // Its linked code, byte for byte, in /tmp/perf-<pid>-<address>.bin.
    std::string Bin =
        "/tmp/perf-" + std::to_string(getpid()) + "-" + Addr + ".bin";
    std::ifstream Code(Bin, std::ios::binary);
    std::string Bytes((std::istreambuf_iterator<char>(Code)),
                      std::istreambuf_iterator<char>());
    CHECK(Bytes.size() == std::stoull(Size, nullptr, 16));
    CHECK(std::memcmp(Bytes.data(),
                      reinterpret_cast<const void *>(P->Kernels[0].Fn),
                      Bytes.size()) == 0);
    std::filesystem::remove(Bin);
  }
  CHECK(Found);
  std::filesystem::remove(Map);

  // Off by default: nothing written.
  BuildSettings Off;
  REQUIRE(build(Scale, "-DSHIFT=7", Log, P, Off) == CL_SUCCESS);
  CHECK_FALSE(std::filesystem::exists(Map));
}
