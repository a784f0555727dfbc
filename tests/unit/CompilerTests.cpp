// Unit tests of the kernel compiler (OpenCL 3.0 API spec, 5.8 "Program
// Objects": building; the work-group functions it generates).

#include "compiler/Compiler.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <regex>

using namespace clcpu;
using namespace clcpu::compiler;

namespace {
const char *VAdd = R"(
kernel void vadd(global const float *a, global const float *b,
                 global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
)";

/// The body of function \p Name in textual IR.
std::string functionText(const std::string &IR, const std::string &Name) {
  size_t B = IR.find("@" + Name + "(");
  if (B == std::string::npos)
    return "";
  B = IR.rfind("define", B);
  size_t E = IR.find("\n}\n", B);
  return IR.substr(B, E == std::string::npos ? std::string::npos : E - B);
}
} // namespace

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
}

TEST_CASE("5.10: vadd's work-group function is vectorized for the host",
          "[compiler]") {
  std::string Log;
  std::string IR = optimizedIR(VAdd, "", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  std::string WG = functionText(IR, "wg_vadd");
  REQUIRE_FALSE(WG.empty());
  INFO(WG);
  // The x-loop became vector loads, adds and stores of floats.
  std::regex Vec("fadd <(4|8|16) x float>");
  CHECK(std::regex_search(WG, Vec));
  // No work-item function is left as a call.
  CHECK(IR.find("get_global_id") == std::string::npos);
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
  SECTION("barrier() is rejected until work-groups run on fibers") {
    CHECK(build("kernel void k(global int *p) { p[0] = 1;"
                " barrier(CLK_LOCAL_MEM_FENCE); }",
                "", Log, P) == CL_BUILD_PROGRAM_FAILURE);
    CHECK(Log.find("barrier") != std::string::npos);
  }
  SECTION("a builtin without an implementation is named in the log") {
    CHECK(build("kernel void k(global float *p) { p[0] = tgamma(p[1]); }", "",
                Log, P) == CL_BUILD_PROGRAM_FAILURE);
    CHECK(Log.find("'tgamma'") != std::string::npos);
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
  C.GlobalSize[0] = 8;
  C.GlobalSize[1] = 4;
  C.GlobalSize[2] = 1;
  C.NumGroups[0] = 2;
  C.NumGroups[1] = 2;
  C.NumGroups[2] = 1;
  C.WorkDim = 2;
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
  C.GlobalSize[0] = 16;
  C.GlobalSize[1] = C.GlobalSize[2] = 1;
  C.NumGroups[0] = 2;
  C.NumGroups[1] = C.NumGroups[2] = 1;
  C.WorkDim = 1;
  C.LocalMem = Block;
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
