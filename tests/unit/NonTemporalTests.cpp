// compiler/NonTemporalStores.cpp: which stores of a work-group function may
// become non-temporal (behind a run-time size and alignment check), and
// where an sfence orders them: none in streaming kernels (the scheduler
// fences once per thread and launch), one before each release of a kernel
// that publishes to other work-groups.

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
// An atomic in the loop that stores would need a fence per work-item:
// ordinary stores in this kernel.
kernel void counted(global const float *a, global float *b,
                    global int *n) {
  size_t i = get_global_id(0);
  b[i] = a[i];
  if (i == 0)
    atomic_inc(n);
}
// The group writes its part of out, then publishes a flag for later
// groups, as a look-back scan does: streaming stores, and an sfence before
// the fence and the atomic that publish.
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void publish(global const int *restrict in, global int *restrict out,
             volatile global int *flags) {
  size_t i = get_global_id(0);
  out[i] = in[i] * 2;
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_xchg(&flags[get_group_id(0)], 1);
  }
}
// Each work-item writes a running sum over its own k elements
// (compiler/ScanLoopVectorize.cpp): full vector stores, then a masked tail
// store into the same output, which stays write-only.
kernel void blocks(global const int *restrict in, global int *restrict out,
                   int n, int k) {
  int base = get_global_id(0) * k, pre = 0;
  for (int j = 0; j < k; ++j)
    if (base + j < n) {
      int v = in[base + j];
      out[base + j] = pre;
      pre += v;
    }
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
  CHECK(Counted.find("sfence") == std::string::npos);
}

TEST_CASE("5.10, 6.15.12.9: a kernel that publishes to other work-groups gets "
          "streaming stores and an sfence before each release",
          "[compiler]") {
  std::string Log;
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  std::string Publish = functionText(IR, "wg_publish");
  REQUIRE_FALSE(Publish.empty());
  INFO(Publish);
#if defined(__x86_64__) || defined(__i386__)
  CHECK(count(Publish, "!nontemporal") > 0);
  // The fence and the exchange each get one.
  CHECK(count(Publish, "call void @llvm.x86.sse.sfence()") >= 2);
  size_t Fence = Publish.find("fence seq_cst"),
         Xchg = Publish.find("atomicrmw volatile xchg");
  REQUIRE(Fence != std::string::npos);
  REQUIRE(Xchg != std::string::npos);
  // Each release is right after an sfence.
  for (size_t At : {Fence, Xchg}) {
    size_t Before = Publish.rfind("sfence", At);
    REQUIRE(Before != std::string::npos);
    CHECK(Publish.find('\n', Publish.find('\n', Before) + 1) > At);
  }
  // Large is per launch: the StreamArgs field of the context decides too.
  CHECK(Publish.find("i64 280") != std::string::npos);
#endif
}

TEST_CASE("5.10: an output written by full and masked vector stores gets "
          "non-temporal full stores",
          "[compiler]") {
  std::string Log;
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  std::string Blocks = functionText(IR, "wg_blocks");
  REQUIRE_FALSE(Blocks.empty());
  INFO(Blocks);
#if defined(__x86_64__) || defined(__i386__)
  CHECK(Blocks.find("scan.vec") != std::string::npos);
  CHECK(Blocks.find("llvm.masked.store") != std::string::npos);
  CHECK(count(Blocks, "!nontemporal") > 0);
  CHECK(Blocks.find("sfence") == std::string::npos);
#endif
}
