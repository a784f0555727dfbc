// compiler/NonTemporalStores.cpp: which stores of a work-group function may
// become non-temporal (behind a run-time size and alignment check), with no
// fence of their own (the scheduler fences once per thread and launch).

#include "IrText.h"
#include "compiler/Compiler.h"

#include <catch2/catch.hpp>

#include <string>

using namespace clcpu::compiler;
using clcpu::test::count;
using clcpu::test::functionText;

namespace {
const char *Src = R"(
kernel void copy(global const float *restrict a, global float *restrict b) {
  size_t i = get_global_id(0);
  b[i] = a[i];
}
kernel void vadd(global const float *a, global const float *b,
                 global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
// y is read as well: its lines are in the cache, ordinary stores.
kernel void saxpy(global float *y, global const float *x, float a) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
// An atomic orders memory: no streaming stores in this kernel.
kernel void counted(global const float *a, global float *b,
                    global int *n) {
  size_t i = get_global_id(0);
  b[i] = a[i];
  if (i == 0)
    atomic_inc(n);
}
)";
} // namespace

TEST_CASE("5.10: large outputs of streaming kernels get non-temporal stores "
          "behind a size and alignment check",
          "[compiler]") {
  std::string Log;
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  std::string Copy = functionText(IR, "wg_copy"),
              VAdd = functionText(IR, "wg_vadd"),
              Saxpy = functionText(IR, "wg_saxpy"),
              Counted = functionText(IR, "wg_counted");
  REQUIRE_FALSE(Copy.empty());
  REQUIRE_FALSE(VAdd.empty());
  REQUIRE_FALSE(Saxpy.empty());
  REQUIRE_FALSE(Counted.empty());
#if defined(__x86_64__) || defined(__i386__)
  for (const std::string *F : {&Copy, &VAdd}) {
    INFO(*F);
    // Each vector store has a non-temporal twin; the scalar remainder stays.
    CHECK(count(*F, "!nontemporal") > 0);
    CHECK(count(*F, "!nontemporal") < count(*F, "store "));
    CHECK(F->find("ptrtoint") != std::string::npos); // the alignment check
    // The fence is the scheduler's, once per thread and launch.
    CHECK(F->find("sfence") == std::string::npos);
  }
#endif
  INFO(Saxpy);
  CHECK(Saxpy.find("!nontemporal") == std::string::npos);
  CHECK(Saxpy.find("sfence") == std::string::npos);
  INFO(Counted);
  CHECK(Counted.find("!nontemporal") == std::string::npos);
}
