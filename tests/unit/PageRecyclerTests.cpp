// Unit tests of runtime/PageRecycler: released buffer mappings kept for the
// next buffer of the same size and placement (the bug: pyopencl's scan
// allocated its 64 MiB partial sums per call, and every call cleared and
// mapped all their pages again), within the capacity and the age limit.

#include "runtime/PageRecycler.h"

#include <catch2/catch.hpp>

#include <sys/mman.h>

#include <chrono>
#include <cstring>
#include <thread>

using namespace clcpu;
using namespace std::chrono_literals;

namespace {
constexpr size_t MiB = size_t(1) << 20;

void *mapped(size_t Bytes) {
  void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(P != MAP_FAILED);
  return P;
}
} // namespace

TEST_CASE("5.2.1 (page recycler): a released mapping goes to the next "
          "buffer of its size and placement, as it is",
          "[page_recycler]") {
  PageRecycler R(16 * MiB, 10s);
  void *A = mapped(2 * MiB);
  std::memset(A, 0x5a, 2 * MiB);
  R.release(A, 2 * MiB, 0);
  CHECK(R.keptBytes() == 2 * MiB);
  // Another size, another placement: not this mapping.
  CHECK(R.take(3 * MiB, 0) == nullptr);
  CHECK(R.take(2 * MiB, 7) == nullptr);
  // The same size rounded to pages: the mapping, with its bytes (a new
  // buffer's contents are undefined; the pages are not cleared again).
  void *B = R.take(2 * MiB - 100, 0);
  REQUIRE(B == A);
  CHECK(static_cast<unsigned char *>(B)[2 * MiB - 1] == 0x5a);
  CHECK(R.keptBytes() == 0);
  CHECK(R.take(2 * MiB, 0) == nullptr);
  munmap(B, 2 * MiB);
}

TEST_CASE("5.2.1 (page recycler): the most recent of several mappings of a "
          "size is taken first",
          "[page_recycler]") {
  PageRecycler R(16 * MiB, 10s);
  void *A = mapped(MiB), *B = mapped(MiB);
  R.release(A, MiB, 0);
  R.release(B, MiB, 0);
  CHECK(R.take(MiB, 0) == B);
  CHECK(R.take(MiB, 0) == A);
  munmap(A, MiB);
  munmap(B, MiB);
}

TEST_CASE("5.2.1 (page recycler): the kept mappings stay within the "
          "capacity, the oldest unmapped first",
          "[page_recycler]") {
  PageRecycler R(4 * MiB, 10s);
  void *A = mapped(2 * MiB), *B = mapped(MiB), *C = mapped(2 * MiB);
  R.release(A, 2 * MiB, 0);
  R.release(B, MiB, 0);
  CHECK(R.keptBytes() == 3 * MiB);
  // C does not fit beside both: A, the oldest, goes.
  R.release(C, 2 * MiB, 0);
  CHECK(R.keptBytes() == 3 * MiB);
  void *Got = R.take(2 * MiB, 0);
  CHECK(Got == C);
  CHECK(R.take(2 * MiB, 0) == nullptr);
  CHECK(R.take(MiB, 0) == B);
  // A mapping larger than the whole capacity is unmapped at once.
  void *D = mapped(8 * MiB);
  R.release(D, 8 * MiB, 0);
  CHECK(R.keptBytes() == 0);
  CHECK(R.take(8 * MiB, 0) == nullptr);
  munmap(Got, 2 * MiB);
  munmap(B, MiB);
}

TEST_CASE("5.2.1 (page recycler): a capacity of 0 keeps nothing",
          "[page_recycler]") {
  PageRecycler R(0, 10s);
  R.release(mapped(MiB), MiB, 0);
  CHECK(R.keptBytes() == 0);
  CHECK(R.take(MiB, 0) == nullptr);
}

TEST_CASE("5.2.1 (page recycler): mappings older than the age limit are "
          "unmapped, by trim and by the janitor thread",
          "[page_recycler]") {
  {
    PageRecycler R(16 * MiB, 20ms);
    R.release(mapped(MiB), MiB, 0);
    CHECK(R.keptBytes() == MiB);
    std::this_thread::sleep_for(60ms);
    R.trim();
    CHECK(R.keptBytes() == 0);
    // And at the next call without a trim.
    R.release(mapped(MiB), MiB, 0);
    std::this_thread::sleep_for(60ms);
    CHECK(R.take(MiB, 0) == nullptr);
    CHECK(R.keptBytes() == 0);
  }
  // With a janitor, with no call after the release (an idle application).
  // It must outlive its thread: leaked, as the driver's is.
  auto *R = new PageRecycler(16 * MiB, 20ms, /*Janitor=*/true);
  R->release(mapped(MiB), MiB, 0);
  R->release(mapped(2 * MiB), 2 * MiB, 0);
  auto Until = std::chrono::steady_clock::now() + 5s;
  while (R->keptBytes() != 0 && std::chrono::steady_clock::now() < Until)
    std::this_thread::sleep_for(5ms);
  CHECK(R->keptBytes() == 0);
}
