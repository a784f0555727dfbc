// Unit tests of scheduler/PipeRing.cpp, the pipe operations kernels call
// (OpenCL C 3.0 6.15.16, builtins/PipeLayout.h): reservations and commits
// of runs of packets, the reservation id's slot and count, full and empty
// pipes, runs that wrap around the ring, and producers and consumers on
// several threads moving every packet exactly once.

#include "builtins/PipeLayout.h"
#include "scheduler/PipeRing.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

using namespace clcpu;

namespace {

constexpr uint64_t NullId = CLCPU_PIPE_NULL_RESERVE_ID;

/// A pipe's memory laid out as runtime/Mem.cpp lays it out.
struct TestPipe {
  TestPipe(uint32_t PacketSize, uint32_t Capacity) {
    uint64_t Offset = (CLCPU_PIPE_RUNS_OFFSET +
                       uint64_t(Capacity) * CLCPU_PIPE_RUN_BYTES_PER_PACKET +
                       CLCPU_PIPE_DATA_ALIGN - 1) /
                      CLCPU_PIPE_DATA_ALIGN * CLCPU_PIPE_DATA_ALIGN;
    Bytes.reset(static_cast<char *>(std::aligned_alloc(
        CLCPU_PIPE_DATA_ALIGN,
        (Offset + uint64_t(PacketSize) * Capacity + CLCPU_PIPE_DATA_ALIGN - 1) /
            CLCPU_PIPE_DATA_ALIGN * CLCPU_PIPE_DATA_ALIGN)));
    initPipeRing(Bytes.get(), PacketSize, Capacity, Offset);
  }
  void *get() { return Bytes.get(); }
  int *packet(uint64_t Id, uint32_t Index) {
    uint32_t Slot =
        (uint32_t(Id >> 32) + Index) % clcpu_pipe_capacity(Bytes.get());
    return reinterpret_cast<int *>(clcpu_pipe_packets(Bytes.get()) +
                                   uint64_t(Slot) *
                                       clcpu_pipe_packet_size(Bytes.get()));
  }
  struct Free {
    void operator()(char *P) { std::free(P); }
  };
  std::unique_ptr<char, Free> Bytes;
};

} // namespace

TEST_CASE("6.15.16.2: a reservation's id holds its first slot and packet "
          "count; its packets become readable at the commit",
          "[pipe_ring]") {
  TestPipe P(4, 8);
  CHECK(clcpu_pipe_capacity(P.get()) == 8);
  CHECK(clcpu_pipe_packet_size(P.get()) == 4);
  // Nothing to read in an empty pipe.
  CHECK(clcpu_pipe_reserve(P.get(), 1, 1) == NullId);
  uint64_t W = clcpu_pipe_reserve(P.get(), 3, 0);
  REQUIRE(W != NullId);
  CHECK(W >> 32 == 0);
  CHECK(uint32_t(W) == 3);
  for (uint32_t I = 0; I < 3; ++I)
    *P.packet(W, I) = int(10 + I);
  // Reserved, not committed: not readable yet.
  CHECK(clcpu_pipe_reserve(P.get(), 1, 1) == NullId);
  clcpu_pipe_commit(P.get(), W, 0);
  uint64_t R = clcpu_pipe_reserve(P.get(), 2, 1);
  REQUIRE(R != NullId);
  CHECK(*P.packet(R, 0) == 10);
  CHECK(*P.packet(R, 1) == 11);
  clcpu_pipe_commit(P.get(), R, 1);
  int V = 0;
  CHECK(clcpu_pipe_read(P.get(), &V, 4) == 0);
  CHECK(V == 12);
  CHECK(clcpu_pipe_read(P.get(), &V, 4) == -1);
  // A packet type larger than the pipe's packets is refused.
  long long Big = 0;
  CHECK(clcpu_pipe_write(P.get(), &Big, 8) == -1);
  CHECK(clcpu_pipe_read(P.get(), &Big, 8) == -1);
}

TEST_CASE("6.15.16.2: a full pipe refuses writes; runs wrap around the ring",
          "[pipe_ring]") {
  TestPipe P(4, 5);
  // More than the capacity, or nothing, is never a valid reservation.
  CHECK(clcpu_pipe_reserve(P.get(), 6, 0) == NullId);
  CHECK(clcpu_pipe_reserve(P.get(), 0, 0) == NullId);
  int Next = 0, Expect = 0;
  for (int Round = 0; Round < 20; ++Round) {
    // Write 3, read 3: the runs start at every slot in turn and wrap.
    uint64_t W = clcpu_pipe_reserve(P.get(), 3, 0);
    REQUIRE(W != NullId);
    CHECK(uint32_t(W >> 32) == uint32_t(Round * 3 % 5));
    for (uint32_t I = 0; I < 3; ++I)
      *P.packet(W, I) = Next++;
    clcpu_pipe_commit(P.get(), W, 0);
    // Three of five slots hold packets: three more do not fit.
    CHECK(clcpu_pipe_reserve(P.get(), 3, 0) == NullId);
    uint64_t R = clcpu_pipe_reserve(P.get(), 3, 1);
    REQUIRE(R != NullId);
    for (uint32_t I = 0; I < 3; ++I)
      CHECK(*P.packet(R, I) == Expect++);
    clcpu_pipe_commit(P.get(), R, 1);
  }
  // Five one-packet writes fill it; the sixth fails until a read.
  for (int I = 0; I < 5; ++I)
    CHECK(clcpu_pipe_write(P.get(), &I, 4) == 0);
  int V = 99;
  CHECK(clcpu_pipe_write(P.get(), &V, 4) == -1);
  CHECK(clcpu_pipe_read(P.get(), &V, 4) == 0);
  CHECK(V == 0);
  CHECK(clcpu_pipe_write(P.get(), &V, 4) == 0);
  // Committing an invalid id does nothing.
  clcpu_pipe_commit(P.get(), NullId, 0);
  clcpu_pipe_commit(P.get(), NullId, 1);
}

TEST_CASE("6.15.16.2: slots a reader has reserved and not committed are "
          "not free for a writer a lap later",
          "[pipe_ring]") {
  // Slot 2 starts a writer's run of 4 and, a lap later, is free while
  // slots 3 to 5 are still held by a reader: the writer's record of that
  // run is no reason to reuse them.
  TestPipe P(4, 8);
  auto Write = [&](uint32_t N) {
    uint64_t Id = clcpu_pipe_reserve(P.get(), N, 0);
    REQUIRE(Id != NullId);
    clcpu_pipe_commit(P.get(), Id, 0);
  };
  Write(2); // positions 0-1
  Write(4); // positions 2-5: slot 2 starts the run
  uint64_t R = clcpu_pipe_reserve(P.get(), 3, 1); // 0-2
  REQUIRE(R != NullId);
  clcpu_pipe_commit(P.get(), R, 1);
  uint64_t Held = clcpu_pipe_reserve(P.get(), 3, 1); // 3-5, not committed
  REQUIRE(Held != NullId);
  Write(2); // positions 6-7
  Write(2); // positions 8-9, slots 0-1
  // Positions 10-13 are slots 2-5: slot 2 is free, 3-5 are not.
  CHECK(clcpu_pipe_reserve(P.get(), 4, 0) == NullId);
  clcpu_pipe_commit(P.get(), Held, 1);
  CHECK(clcpu_pipe_reserve(P.get(), 4, 0) != NullId);
}

TEST_CASE("6.15.16.2: runs committed out of order become readable in "
          "order, once every earlier run is committed",
          "[pipe_ring]") {
  // Three writers' runs committed last to first: nothing is readable
  // until the first commits, then all of them are (its committer moves
  // the committed position past the two later runs). The same for the
  // readers' runs and the space they free.
  TestPipe P(4, 8);
  uint64_t A = clcpu_pipe_reserve(P.get(), 2, 0); // positions 0-1
  uint64_t B = clcpu_pipe_reserve(P.get(), 3, 0); // 2-4
  uint64_t C = clcpu_pipe_reserve(P.get(), 1, 0); // 5
  REQUIRE((A != NullId && B != NullId && C != NullId));
  int Next = 0;
  for (uint64_t Id : {A, B, C})
    for (uint32_t I = 0; I < uint32_t(Id); ++I)
      *P.packet(Id, I) = Next++;
  clcpu_pipe_commit(P.get(), C, 0);
  clcpu_pipe_commit(P.get(), B, 0);
  CHECK(clcpu_pipe_reserve(P.get(), 1, 1) == NullId);
  clcpu_pipe_commit(P.get(), A, 0);
  uint64_t R1 = clcpu_pipe_reserve(P.get(), 4, 1); // 0-3
  uint64_t R2 = clcpu_pipe_reserve(P.get(), 2, 1); // 4-5
  REQUIRE((R1 != NullId && R2 != NullId));
  for (uint32_t I = 0; I < 4; ++I)
    CHECK(*P.packet(R1, I) == int(I));
  CHECK(*P.packet(R2, 0) == 4);
  CHECK(*P.packet(R2, 1) == 5);
  // Two slots free; the six read ones are freed only when the first
  // reader's run is committed, whatever the second does.
  clcpu_pipe_commit(P.get(), R2, 1);
  CHECK(clcpu_pipe_reserve(P.get(), 3, 0) == NullId);
  CHECK(clcpu_pipe_reserve(P.get(), 2, 0) != NullId);
  clcpu_pipe_commit(P.get(), R1, 1);
  CHECK(clcpu_pipe_reserve(P.get(), 6, 0) != NullId);
}

TEST_CASE("6.15.16.3: producers and consumers on several threads move every "
          "packet exactly once",
          "[pipe_ring]") {
  // Runs of 1 to 7 packets from two producers, read in runs of 1 to 5 by
  // two consumers, through a ring smaller than any thread's share.
  TestPipe P(4, 64);
  constexpr int PerProducer = 200000;
  std::vector<std::atomic<unsigned char>> Seen(2 * PerProducer);
  std::atomic<int> Read{0};
  std::vector<std::thread> Threads;
  for (int T = 0; T < 2; ++T)
    Threads.emplace_back([&, T] {
      int Value = T * PerProducer, End = Value + PerProducer;
      for (uint32_t Run = 1; Value < End; Run = Run % 7 + 1) {
        uint32_t N = std::min<uint32_t>(Run, uint32_t(End - Value));
        uint64_t Id = clcpu_pipe_reserve(P.get(), N, 0);
        if (Id == NullId)
          continue;
        for (uint32_t I = 0; I < N; ++I)
          *P.packet(Id, I) = Value++;
        clcpu_pipe_commit(P.get(), Id, 0);
      }
    });
  for (int T = 0; T < 2; ++T)
    Threads.emplace_back([&] {
      for (uint32_t Run = 1; Read.load() < 2 * PerProducer; Run = Run % 5 + 1) {
        uint64_t Id = clcpu_pipe_reserve(P.get(), Run, 1);
        if (Id == NullId)
          Id = clcpu_pipe_reserve(P.get(), 1, 1);
        if (Id == NullId)
          continue;
        for (uint32_t I = 0; I < uint32_t(Id); ++I)
          Seen[*P.packet(Id, I)].fetch_add(1);
        clcpu_pipe_commit(P.get(), Id, 1);
        Read.fetch_add(int(uint32_t(Id)));
      }
    });
  for (std::thread &T : Threads)
    T.join();
  CHECK(Read.load() == 2 * PerProducer);
  size_t Once = 0;
  for (auto &S : Seen)
    Once += S.load() == 1;
  CHECK(Once == Seen.size());
}
