// Unit tests of the builtin library's linking (OpenCL C 3.0 spec, 6.15
// "Built-in Functions"): the functions a program uses are linked from the
// embedded bitcode and inlined; nothing else is kept.

#include "compiler/Compiler.h"

#include <catch2/catch.hpp>

#include <regex>
#include <string>

using namespace clcpu::compiler;

namespace {
std::string irFor(const char *Src, const char *Options = "") {
  std::string Log;
  std::string IR = optimizedIR(Src, Options, Log);
  INFO(Log);
  REQUIRE(!IR.empty());
  return IR;
}
/// Calls of Itanium-mangled (OpenCL builtin) functions left in \p IR.
size_t mangledCalls(const std::string &IR) {
  std::regex Call(R"(call [^@\n]*@_Z)");
  return std::distance(std::sregex_iterator(IR.begin(), IR.end(), Call),
                       std::sregex_iterator());
}
} // namespace

TEST_CASE("6.15: builtins are linked from the library and inlined",
          "[builtins]") {
  std::string IR = irFor(R"(
kernel void k(global float *f, global int *i, global uint *u,
              global float16 *v) {
  size_t g = get_global_id(0);
  f[g] = sin(f[g]) + clamp(f[g], 0.0f, 1.0f) + pown(f[g], 3);
  i[g] = convert_int_sat_rte(f[g]) + popcount(i[g]) + abs_diff(i[g], 7);
  atomic_add(u, 1u);
  v[g] = vload16(g + 1, f);
  vstore_half_rtz(f[g], g, (global half *)u);
  float4 a = vload4(g, f);
  f[g] = dot(a, a) + length(a);
}
)");
  CHECK(mangledCalls(IR) == 0);
  // Only what the kernel uses (and what that calls) is linked: no other
  // builtin survives, and unrelated ones were never copied in.
  CHECK(IR.find("@_Z3cosf") == std::string::npos);
  CHECK(IR.find("@_Z8popcountDv") == std::string::npos);
  CHECK(IR.find("atomicrmw volatile add ptr") != std::string::npos);
}

TEST_CASE("6.15.12.9: atomic_cmpxchg and atom_* become LLVM atomics",
          "[builtins]") {
  std::string IR = irFor(R"(
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
kernel void k(global int *p, global long *q, local int *l) {
  atomic_cmpxchg(p, 1, 2);
  atom_xchg(q, 5L);
  atomic_max(l, 3);
  p[1] = l[0];
}
)");
  CHECK(mangledCalls(IR) == 0);
  CHECK(IR.find("cmpxchg") != std::string::npos);
  CHECK(IR.find("atomicrmw volatile xchg ptr") != std::string::npos);
  CHECK(IR.find("atomicrmw volatile max ptr") != std::string::npos);
}

TEST_CASE("6.15.2: math builtins of every OpenCL C version link",
          "[builtins]") {
  for (const char *Std : {"-cl-std=CL1.2", "-cl-std=CL3.0"}) {
    INFO(Std);
    std::string IR = irFor(R"(
kernel void k(global float *f, global int *e) {
  size_t g = get_global_id(0);
  float ip, c;
  int q;
  f[g] = fract(f[g], &ip) + ip + frexp(f[g], e) + remquo(f[g], 3.0f, &q) + q +
         sincos(f[g], &c) + c + tgamma(f[g]) + half_exp(f[g]) +
         native_sqrt(f[g]);
}
)",
                           Std);
    CHECK(mangledCalls(IR) == 0);
  }
}

TEST_CASE("6.15.5: inlined builtins do not block vectorization of the "
          "work-item loop",
          "[builtins]") {
  std::string IR = irFor(R"(
kernel void k(global const float *a, global float *o, global int *n) {
  size_t i = get_global_id(0);
  o[i] = clamp(a[i], 0.0f, 1.0f) * fabs(a[i]) + fmax(a[i], 2.0f);
  n[i] = add_sat(n[i], 5) + popcount(n[i]);
}
)");
  CHECK(mangledCalls(IR) == 0);
  CHECK(std::regex_search(IR, std::regex(R"(<(4|8|16) x float>)")));
  CHECK(std::regex_search(IR, std::regex(R"(<(4|8|16) x i32>)")));
}
