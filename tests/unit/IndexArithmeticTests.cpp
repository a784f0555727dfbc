// compiler/passes/InvariantDivision.cpp and
// compiler/passes/ParallelWorkItemLoops.cpp: index arithmetic (`i / chunk`, `i
// % width`) and gathers through arguments that may alias no longer keep a
// work-item loop scalar (OpenCL 3.0 API 5.10: work-items of a group are
// independent between barriers).

#include "IrText.h"
#include "compiler/Compiler.h"

#include <catch2/catch.hpp>

#include <string>

using namespace clcpu::compiler;
using clcpu::test::functionText;
using clcpu::test::has;

namespace {
const char *Src = R"(
// A three-pass scan's last pass: no restrict, a gather by i / chunk.
kernel void add_offsets(global int *out, global const int *offsets,
                        int chunk, int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] += offsets[i / chunk];
}
// Signed and unsigned quotients and remainders by kernel arguments.
kernel void divide(global const int *a, global int *q, global int *r,
                   global uint *uq, global uint *ur, int d, uint ud) {
  int i = get_global_id(0);
  q[i] = a[i] / d;
  r[i] = a[i] % d;
  uq[i] = (uint)a[i] / ud;
  ur[i] = (uint)a[i] % ud;
}
// The divisor changes per work-item: a real division stays.
kernel void varying(global const int *a, global int *q) {
  int i = get_global_id(0);
  q[i] = a[i] / (i < 5 ? 1 : a[i + 1]);
}
// Work-items communicate through an atomic: not a parallel loop.
kernel void counted(global int *out, global int *n) {
  int i = get_global_id(0);
  out[i] = atomic_inc(n);
}
)";
} // namespace

TEST_CASE("5.10 (compiler/passes/InvariantDivision.cpp): division by a kernel "
          "argument becomes a multiply-high in a vectorized loop",
          "[compiler]") {
  std::string Log;
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  std::string Divide = functionText(IR, "wg_divide"),
              Varying = functionText(IR, "wg_varying");
  REQUIRE_FALSE(Divide.empty());
  REQUIRE_FALSE(Varying.empty());
  {
    INFO(Divide);
    // The magic numbers are computed once, in 64 bits, outside the loop;
    // no 32-bit division is left, scalar or vector.
    CHECK_FALSE(has(Divide, "sdiv i32"));
    CHECK_FALSE(has(Divide, "srem i32"));
    CHECK_FALSE(has(Divide, "udiv i32"));
    CHECK_FALSE(has(Divide, "urem i32"));
    CHECK_FALSE(has(Divide, "div <"));
    CHECK_FALSE(has(Divide, "rem <"));
    CHECK(has(Divide, "udiv i64"));
    // The loop is vectorized: vector multiplies of the widened dividends.
    CHECK(has(Divide, "mul <"));
    CHECK(has(Divide, "load <"));
  }
  {
    INFO(Varying);
    // A divisor that is not loop-invariant is left to the backend.
    CHECK((has(Varying, "sdiv") || has(Varying, "srem")));
  }
}

TEST_CASE(
    "5.10 (compiler/passes/ParallelWorkItemLoops.cpp): work-item loops are "
    "annotated parallel unless work-items may communicate",
    "[compiler]") {
  std::string Log;
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  std::string Add = functionText(IR, "wg_add_offsets"),
              Counted = functionText(IR, "wg_counted");
  REQUIRE_FALSE(Add.empty());
  REQUIRE_FALSE(Counted.empty());
  {
    INFO(Add);
    // No run-time overlap check between out and offsets stops the
    // vectorizer: the gather of offsets[i / chunk] is a vector one.
    CHECK(has(Add, "gather"));
    CHECK((has(Add, "store <") || has(Add, "masked.store")));
  }
  {
    INFO(Counted);
    CHECK_FALSE(has(Counted, "!llvm.access.group"));
  }
  CHECK(has(IR, "llvm.loop.parallel_accesses"));
}
