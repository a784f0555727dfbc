//===- scheduler/PipeRing.cpp - the pipe operations kernels call ----------===//
//
// The ring of builtins/PipeLayout.h. Each side has a reserved position
// (WritePos, ReadPos), moved by one compare-exchange per reservation, and a
// committed one (WriteDone, ReadDone): a writer may reserve below
// ReadDone + Capacity, a reader below WriteDone. A reservation records its
// run (first position, packet count) in the record of its first slot; a
// commit marks the record committed and, if its run starts at its side's
// Done position, moves Done past it and past each committed run that
// follows. A run committed before an earlier one is left to that one's
// committer, so no commit waits for another, and the other side sees the
// runs in order. Each reservation and commit touches a few words, whatever
// its packet count: a work-group's run of 256 packets costs what one packet
// does.

#include "scheduler/PipeRing.h"

#include "builtins/PipeLayout.h"
#include "scheduler/SyncHints.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>

namespace {

using Header = ClcpuPipeHeader;

constexpr uint64_t NullId = CLCPU_PIPE_NULL_RESERVE_ID;
constexpr uint64_t Committed = CLCPU_PIPE_RUN_COMMITTED;

/// How often a reservation that finds the pipe full (empty) looks again,
/// a pause apart, before it fails: about a microsecond, which is what the
/// other side's work-group takes to commit a run it is copying, and much
/// less than the failure costs the caller (a yield, another reservation).
constexpr unsigned PatientLooks = 32;

Header *header(void *Pipe) { return static_cast<Header *>(Pipe); }

/// One side's positions and run records.
struct Side {
  std::atomic_ref<uint64_t> Reserved, Limit, Done, OtherDone;
  uint64_t *RunPos;
  uint32_t *RunLen;
};

Side sideOf(Header *H, bool Read) {
  char *Runs = reinterpret_cast<char *>(H) + CLCPU_PIPE_RUNS_OFFSET;
  uint64_t Cap = H->Capacity;
  auto *Pos = reinterpret_cast<uint64_t *>(Runs);
  auto *Len = reinterpret_cast<uint32_t *>(Runs + 16 * Cap);
  if (Read)
    return {std::atomic_ref<uint64_t>(H->ReadPos),
            std::atomic_ref<uint64_t>(H->ReadLimit),
            std::atomic_ref<uint64_t>(H->ReadDone),
            std::atomic_ref<uint64_t>(H->WriteDone),
            Pos + Cap,
            Len + Cap};
  return {std::atomic_ref<uint64_t>(H->WritePos),
          std::atomic_ref<uint64_t>(H->WriteLimit),
          std::atomic_ref<uint64_t>(H->WriteDone),
          std::atomic_ref<uint64_t>(H->ReadDone),
          Pos,
          Len};
}

char *packetsOf(Header *H) {
  return reinterpret_cast<char *>(H) + H->DataOffset;
}

/// Reserves \p N positions for a reader (\p Read) or a writer. The bound
/// comes from the side's cached Limit while it suffices, else from the
/// other side's Done: the other side's line, which it writes at every
/// commit, is read (and taken from its core) only when the cached bound is
/// used up. The loop goes round after a failed compare-exchange (another
/// reservation succeeded: lock-free) and, a few times, after a pause when
/// the pipe is full (empty); then the reservation fails.
uint64_t reserve(Header *H, uint32_t N, bool Read) {
  uint64_t Cap = H->Capacity;
  if (N == 0 || N > Cap)
    return NullId;
  Side S = sideOf(H, Read);
  uint64_t Pos = S.Reserved.load(std::memory_order_relaxed);
  // Acquired: the reservation that stored it had acquired the other
  // side's Done, so that side's packets (or its reads of the slots) come
  // before this side's use of them.
  uint64_t Limit = S.Limit.load(std::memory_order_acquire);
  for (unsigned Looks = 0;;) {
    if (Pos + N > Limit) {
      uint64_t Seen = S.OtherDone.load(std::memory_order_acquire);
      if (!Read)
        Seen += Cap;
      if (Seen > Limit) {
        // Another reservation may store an older bound over this one:
        // still a bound (Done only grows), read again sooner.
        Limit = Seen;
        S.Limit.store(Seen, std::memory_order_release);
        continue;
      }
      if (++Looks <= PatientLooks) {
        CLCPU_PAUSE();
        Pos = S.Reserved.load(std::memory_order_relaxed);
        continue;
      }
      // The caller most likely tries again, and what it waits for is the
      // other side's kernel, whose thread may be waiting for this core (a
      // producer and a consumer launched while every worker was busy add
      // the host thread running one of them).
      std::this_thread::yield();
      return NullId;
    }
    if (S.Reserved.compare_exchange_weak(Pos, Pos + N,
                                         std::memory_order_relaxed,
                                         std::memory_order_relaxed))
      break;
    // Pos now holds the counter's value.
  }
  // The record of the run's first slot was last written by a run of this
  // side at least a lap earlier, which Done has passed (this run's slots
  // were free): a committer that still reads it compares its position
  // with a Done it can no longer move.
  uint32_t First = static_cast<uint32_t>(Pos % Cap);
  std::atomic_ref<uint32_t>(S.RunLen[First])
      .store(N, std::memory_order_relaxed);
  std::atomic_ref<uint64_t>(S.RunPos[First])
      .store(Pos, std::memory_order_relaxed);
  return (static_cast<uint64_t>(First) << 32) | N;
}

/// Commits reservation \p Id of a reader (\p Read) or a writer: marks its
/// run's record committed, with release order (the packets written, or the
/// reads of them, and the record's count come before), then moves Done
/// past every committed run from where it stands. The mark and the load of
/// Done here, and a committer's move of Done and its load of the next
/// record, are sequentially consistent: of two committers of neighbouring
/// runs, at least one sees the other's step, so no committed run is left
/// behind Done.
void commit(Header *H, uint64_t Id, bool Read) {
  if (Id == NullId)
    return;
  uint64_t Cap = H->Capacity;
  Side S = sideOf(H, Read);
  uint32_t First = static_cast<uint32_t>(Id >> 32);
  std::atomic_ref<uint64_t> Mine(S.RunPos[First]);
  Mine.store(Mine.load(std::memory_order_relaxed) | Committed,
             std::memory_order_seq_cst);
  uint64_t Done = S.Done.load(std::memory_order_seq_cst);
  for (;;) {
    uint64_t Slot = Done % Cap;
    // Acquires that run's packets and count from its committer's mark.
    if (std::atomic_ref<uint64_t>(S.RunPos[Slot])
            .load(std::memory_order_seq_cst) != (Done | Committed))
      return; // not committed yet (its committer moves Done), or moved on
    uint32_t Len = std::atomic_ref<uint32_t>(S.RunLen[Slot])
                       .load(std::memory_order_relaxed);
    // Releases that run's packets, with the earlier ones, to the other
    // side. A failed exchange means another committer moved Done: Done
    // then holds where it is now.
    if (S.Done.compare_exchange_strong(Done, Done + Len,
                                       std::memory_order_seq_cst))
      Done += Len;
  }
}

} // namespace

extern "C" uint64_t clcpu_pipe_reserve(void *Pipe, uint32_t N, uint32_t Read) {
  return reserve(header(Pipe), N, Read != 0);
}

extern "C" void clcpu_pipe_commit(void *Pipe, uint64_t Id, uint32_t Read) {
  commit(header(Pipe), Id, Read != 0);
}

// "read_pipe ... returns 0 if read_pipe is successful and a negative value
// if the pipe is empty."
extern "C" int32_t clcpu_pipe_read(void *Pipe, void *Packet, uint32_t Size) {
  Header *H = header(Pipe);
  if (Size > H->PacketSize)
    return -1;
  uint64_t Id = reserve(H, 1, true);
  if (Id == NullId)
    return -1;
  std::memcpy(Packet,
              packetsOf(H) + static_cast<uint64_t>(Id >> 32) * H->PacketSize,
              Size);
  commit(H, Id, true);
  return 0;
}

// "write_pipe ... returns 0 if write_pipe is successful and a negative
// value if the pipe is full."
extern "C" int32_t clcpu_pipe_write(void *Pipe, const void *Packet,
                                    uint32_t Size) {
  Header *H = header(Pipe);
  if (Size > H->PacketSize)
    return -1;
  uint64_t Id = reserve(H, 1, false);
  if (Id == NullId)
    return -1;
  std::memcpy(packetsOf(H) + static_cast<uint64_t>(Id >> 32) * H->PacketSize,
              Packet, Size);
  commit(H, Id, false);
  return 0;
}

extern "C" char *clcpu_pipe_packets(const void *Pipe) {
  return packetsOf(header(const_cast<void *>(Pipe)));
}

extern "C" uint32_t clcpu_pipe_capacity(const void *Pipe) {
  return static_cast<const Header *>(Pipe)->Capacity;
}

extern "C" uint32_t clcpu_pipe_packet_size(const void *Pipe) {
  return static_cast<const Header *>(Pipe)->PacketSize;
}

namespace clcpu {

void initPipeRing(void *Data, uint32_t PacketSize, uint32_t MaxPackets,
                  uint64_t DataOffset) {
  auto *H = static_cast<Header *>(Data);
  std::memset(H, 0, sizeof *H);
  H->Capacity = MaxPackets;
  H->PacketSize = PacketSize;
  H->DataOffset = DataOffset;
  // No record names a committed run at position 0 yet: zeros.
  std::memset(static_cast<char *>(Data) + CLCPU_PIPE_RUNS_OFFSET, 0,
              CLCPU_PIPE_RUN_BYTES_PER_PACKET * uint64_t(MaxPackets));
}

const PipeRingSymbol PipeRingSymbols[7] = {
    {"clcpu_pipe_reserve", reinterpret_cast<void *>(&clcpu_pipe_reserve),
     false},
    {"clcpu_pipe_commit", reinterpret_cast<void *>(&clcpu_pipe_commit), false},
    {"clcpu_pipe_read", reinterpret_cast<void *>(&clcpu_pipe_read), false},
    {"clcpu_pipe_write", reinterpret_cast<void *>(&clcpu_pipe_write), false},
    {"clcpu_pipe_packets", reinterpret_cast<void *>(&clcpu_pipe_packets), true},
    {"clcpu_pipe_capacity", reinterpret_cast<void *>(&clcpu_pipe_capacity),
     true},
    {"clcpu_pipe_packet_size",
     reinterpret_cast<void *>(&clcpu_pipe_packet_size), true}};

} // namespace clcpu
