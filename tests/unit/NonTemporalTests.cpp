// compiler/passes/NonTemporalStores.cpp: which stores of a work-group function
// may become non-temporal (behind a run-time size and alignment check), and
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
using clcpu::test::has;

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
// groups, as a look-back scan does: streaming stores; the fence is an
// mfence, which orders them, so neither it nor the exchange right after it
// needs an sfence.
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
// (compiler/passes/ScanLoopVectorize.cpp): full vector stores, then a masked tail
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
          "streaming stores and an sfence before each release no mfence "
          "already orders",
          "[compiler]") {
  std::string Log;
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  std::string Publish = functionText(IR, "wg_publish");
  REQUIRE_FALSE(Publish.empty());
  INFO(Publish);
  // OpenCL 2.0: a release store with no fence before it.
  const char *Release = R"(
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void publish_release(global const int *restrict in, global int *restrict out,
                     volatile global atomic_int *flags) {
  size_t i = get_global_id(0);
  out[i] = in[i] * 2;
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    atomic_store_explicit(&flags[get_group_id(0)], 1, memory_order_release,
                          memory_scope_device);
}
)";
  std::string IR20 = optimizedIR(Release, "-cl-std=CL2.0", Log);
  INFO(Log);
  std::string Store = functionText(IR20, "wg_publish_release");
  REQUIRE_FALSE(Store.empty());
  INFO(Store);
#if defined(__x86_64__) || defined(__i386__)
  const std::string SFence = "call void @llvm.x86.sse.sfence()";
  CHECK(count(Publish, "!nontemporal") > 0);
  CHECK(has(Publish, "fence seq_cst"));
  CHECK(has(Publish, "atomicrmw volatile xchg"));
  CHECK_FALSE(has(Publish, SFence));
  CHECK(count(Store, "!nontemporal") > 0);
  // Each release store is on the line right after an sfence.
  size_t At = Store.find("store atomic");
  REQUIRE(At != std::string::npos);
  for (; At != std::string::npos; At = Store.find("store atomic", At + 1)) {
    size_t LineStart = Store.rfind('\n', At);
    size_t PrevStart = Store.rfind('\n', LineStart - 1);
    CHECK(Store.substr(PrevStart + 1, LineStart - PrevStart - 1).find(SFence) !=
          std::string::npos);
  }
  // Large is per launch: the StreamArgs field of the context
  // (WorkGroupContext.h: offset 280) decides too.
  CHECK(has(Store, "ptr %1, i64 280"));
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
  // The running-sum loop's stores advance one vector per iteration: their
  // alignment is tested once before the loop, not on every store.
  size_t Loop = Blocks.find("\nscan.vec:"),
         End = Blocks.find("\nscan.vec.end:");
  REQUIRE(Loop != std::string::npos);
  REQUIRE(End != std::string::npos);
  std::string Body = Blocks.substr(Loop, End - Loop);
  CHECK(count(Body, "!nontemporal") > 0);
  CHECK(count(Body, "ptrtoint") == 0);
  // Bug: the test then sat in the loop, a branch around each
  // store. The loop now runs in two versions picked before it: this one
  // stores non-temporally with no branch but its latch, the copy
  // (scan.vec.st) has the ordinary stores.
  CHECK(count(Body, " br ") == 1);
  size_t Copy = Blocks.find("\nscan.vec.st:");
  REQUIRE(Copy != std::string::npos);
  std::string CopyBody = Blocks.substr(Copy, Blocks.find("\n\n", Copy) - Copy);
  INFO(CopyBody);
  CHECK(count(CopyBody, "store <") > 0);
  CHECK(count(CopyBody, "!nontemporal") == 0);
#endif
}

TEST_CASE("5.10, #6 (a VM shown its host's 300 MiB L3): the streaming "
          "threshold counts at most 12 MiB of last-level cache per CPU",
          "[compiler]") {
  constexpr uint64_t MiB = uint64_t(1) << 20;
  CHECK(countCpuList("0-1") == 2);
  CHECK(countCpuList("0") == 1);
  CHECK(countCpuList("0-3,8,10-11") == 7);
  CHECK(countCpuList("") == 0);
  CHECK(countCpuList("x") == 0);
  CHECK(countCpuList("3-1") == 0);
  // A VM shown its host's 300 MiB, shared by CPUs 0-1.
  CHECK(streamingThreshold(300 * MiB, 2) == 24 * MiB);
  // A desktop part and a server CCX keep their whole cache.
  CHECK(streamingThreshold(32 * MiB, 16) == 32 * MiB);
  CHECK(streamingThreshold(96 * MiB, 8) == 96 * MiB);
  // Unknown sharing: the size as reported; unknown size: 8 MiB.
  CHECK(streamingThreshold(300 * MiB, 0) == 300 * MiB);
  CHECK(streamingThreshold(0, 2) == 8 * MiB);
  // The process-wide value is one of these.
  CHECK(streamingStoreMinBytes() > 0);
}
