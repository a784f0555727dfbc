// Unit tests for Kernel::chooseLocalSize, the local size of a launch whose
// local_work_size is NULL (OpenCL 3.0 API spec, 5.9 "clEnqueueNDRangeKernel":
// with a NULL local_work_size the implementation decides how the global
// work-items are divided into work-groups).

#include "runtime/Kernel.h"

#include <catch2/catch.hpp>

using namespace clcpu;

namespace {
size_t chosen(size_t G0, size_t G1, unsigned Threads, bool PerWorkItem = false,
              bool Regions = false, size_t MaxTotal = 4096) {
  LaunchDescription L{};
  L.WorkDim = G1 > 1 ? 2 : 1;
  L.GlobalSize[0] = G0;
  L.GlobalSize[1] = G1;
  L.GlobalSize[2] = 1;
  Kernel::chooseLocalSize(L, MaxTotal, Threads, PerWorkItem, Regions);
  CHECK(L.EnqueuedLocalSize[1] == 1);
  CHECK(L.EnqueuedLocalSize[2] == 1);
  CHECK(G0 % L.EnqueuedLocalSize[0] == 0);
  return L.EnqueuedLocalSize[0];
}
} // namespace

TEST_CASE("5.9 (NULL local size, nbody on 16 threads): a small global size "
          "leaves every thread 16 groups, down to groups of 64",
          "[kernel]") {
  // 16,384 items on 16 threads: 64 groups of 256 gave each thread 4 and
  // the slowest thread's last group idled the others.
  CHECK(chosen(16384, 1, 16) == 64);
  CHECK(chosen(16384, 1, 2) == 512);
  CHECK(chosen(16384, 1, 128) == 64);
  // Large global sizes keep large groups; barrier regions at most 1024.
  CHECK(chosen(size_t(1) << 28, 1, 16) == 4096);
  CHECK(chosen(size_t(1) << 28, 1, 16, false, true) == 1024);
  // Fibers: 256, whatever the global size.
  CHECK(chosen(size_t(1) << 20, 1, 2, true) == 256);
  // The other dimensions count as groups: 4096 rows are enough groups.
  CHECK(chosen(4096, 4096, 16) == 4096);
}

TEST_CASE("5.9 (NULL local size): the group divides the global size, a "
          "multiple of 16 where one divides it, within the kernel's maximum",
          "[kernel]") {
  CHECK(chosen(1000, 1, 16) == 50); // no multiple of 16 divides 1000
  CHECK(chosen(17, 1, 2) == 17);
  CHECK(chosen(97, 1, 2) == 1); // a prime above the limit
  CHECK(chosen(size_t(1) << 20, 1, 2, false, false, 128) == 128);
}
