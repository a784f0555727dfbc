//===- scheduler/PipeRing.cpp - the pipe operations kernels call ----------===//
//
// The ring of builtins/PipeLayout.h (the bounded queue of D. Vyukov): slot
// S's sequence word says what it is ready for, (uint)P when it is free for
// the writer of position P, (uint)(P + 1) once that packet is written and
// committed, (uint)(P + Capacity) once it is read and committed. A
// reservation checks that every slot of its run is ready for its side and
// claims the run with one compare-exchange on its side's position.

#include "scheduler/PipeRing.h"

#include "builtins/PipeLayout.h"

#include <atomic>
#include <cstring>
#include <thread>

namespace {

using Header = ClcpuPipeHeader;

constexpr uint64_t NullId = CLCPU_PIPE_NULL_RESERVE_ID;

/// In a Len word: the run is a reader's (counts are below 2^31).
constexpr uint32_t ReaderRun = 0x80000000u;

Header *header(void *Pipe) { return static_cast<Header *>(Pipe); }

uint32_t *seqOf(Header *H) {
  return reinterpret_cast<uint32_t *>(reinterpret_cast<char *>(H) +
                                      CLCPU_PIPE_SEQ_OFFSET);
}

/// The low 32 bits of each reservation's first position, and its packet
/// count, in its first slot.
uint32_t *posOf(Header *H) { return seqOf(H) + H->Capacity; }
uint32_t *lenOf(Header *H) { return seqOf(H) + 2 * uint64_t(H->Capacity); }

char *packetsOf(Header *H) {
  return reinterpret_cast<char *>(H) + H->DataOffset;
}

uint32_t loadWord(uint32_t *W, std::memory_order O) {
  return std::atomic_ref<uint32_t>(*W).load(O);
}

void storeWord(uint32_t *W, uint32_t V, std::memory_order O) {
  std::atomic_ref<uint32_t>(*W).store(V, O);
}

/// How positions Pos .. Pos + N - 1 stand for a side whose slots are ready
/// when their word is (uint)(position + Ready): 0 if every one is, else
/// the difference at the first one that is not. Negative: that slot is
/// behind (the pipe is full for a writer, empty for a reader); positive:
/// another reservation took Pos since it was read.
///
/// A ready word that starts a run the other side committed (its Pos word
/// names the position: the writer's reservation of that position, or the
/// reader's one lap earlier) vouches for the whole run, whose commit stored
/// that word last: the words of the run are skipped. When both sides
/// reserve runs of one size, as work-group reservations do, a scan reads a
/// few words instead of one per packet (each a cache line the other side's
/// core last wrote). Skipping is safe because nothing read here can be
/// replaced before the compare-exchange that follows succeeds: the next
/// change to any of those words or to the run's Pos and Len needs a
/// reservation of this side at Pos first.
int32_t scan(Header *H, uint64_t Pos, uint32_t N, uint32_t Ready) {
  uint32_t Cap = H->Capacity;
  uint32_t *Seq = seqOf(H), *RunPos = posOf(H), *RunLen = lenOf(H);
  uint32_t Expected = static_cast<uint32_t>(Pos) + Ready;
  // The other side's run that freed (filled) the slot of position X
  // started at X - Cap for a writer, at X for a reader.
  uint32_t RunShift = Ready ? 0 : Cap;
  uint32_t S = static_cast<uint32_t>(Pos % Cap);
  for (uint32_t K = 0; K < N;) {
    uint32_t W = loadWord(&Seq[S], std::memory_order_acquire);
    if (W != Expected + K)
      return static_cast<int32_t>(W - (Expected + K));
    uint32_t Step = 1;
    if (loadWord(&RunPos[S], std::memory_order_relaxed) ==
        static_cast<uint32_t>(Pos) + K - RunShift) {
      uint32_t L = loadWord(&RunLen[S], std::memory_order_relaxed);
      // Only the other side's run: this side's own run that started here
      // a lap earlier names the same position, and the other side's runs
      // that freed its slots may not all be committed.
      if ((L & ReaderRun) != (Ready ? 0 : ReaderRun))
        L = 1;
      L &= ~ReaderRun;
      Step = L == 0 ? 1 : L < N - K ? L : N - K;
    }
    K += Step;
    S += Step;
    if (S >= Cap)
      S -= Cap;
  }
  return 0;
}

/// Reserves \p N positions of \p Counter (the write or the read position);
/// \p Ready as for scan(). The loop goes round only after a failed
/// compare-exchange, that is, after another reservation succeeded:
/// lock-free.
uint64_t reserve(Header *H, uint64_t &CounterWord, uint32_t N, uint32_t Ready) {
  uint32_t Cap = H->Capacity;
  if (N == 0 || N > Cap)
    return NullId;
  std::atomic_ref<uint64_t> Counter(CounterWord);
  uint64_t Pos = Counter.load(std::memory_order_relaxed);
  for (;;) {
    int32_t State = scan(H, Pos, N, Ready);
    if (State < 0) {
      // Full (empty): the caller most likely tries again, and what it waits
      // for is the other side's kernel, whose thread may be waiting for
      // this core (a producer and a consumer launched while every worker
      // was busy add the host thread running one of them).
      std::this_thread::yield();
      return NullId;
    }
    // The words checked cannot change before the exchange: only the holder
    // of a reservation of those positions changes them, and nobody holds
    // one while the counter is Pos. A stale Pos (State > 0) moves nothing.
    if (Counter.compare_exchange_strong(Pos, State ? Pos : Pos + N,
                                        std::memory_order_relaxed,
                                        std::memory_order_relaxed)) {
      if (State)
        return NullId; // (a word ahead of an unmoved counter: none is)
      // The words read above were released by the other side's commit:
      // its packets (or its reads of them) come before this side's use.
      std::atomic_thread_fence(std::memory_order_acquire);
      uint32_t First = static_cast<uint32_t>(Pos % Cap);
      storeWord(&posOf(H)[First], static_cast<uint32_t>(Pos),
                std::memory_order_relaxed);
      storeWord(&lenOf(H)[First], Ready ? N | ReaderRun : N,
                std::memory_order_relaxed);
      return (static_cast<uint64_t>(First) << 32) | N;
    }
    // Pos now holds the counter's value.
  }
}

/// The word of each position Pos + K of reservation \p Id becomes
/// (uint)(Pos + K + Done): Done is 1 after a write (readable), the capacity
/// after a read (free for the writer one lap later). The release fence
/// orders the packets' bytes (or the reads of them) before the words; the
/// first word goes last, with release order of its own, so that it vouches
/// for the whole run (scan()).
void commit(Header *H, uint64_t Id, uint32_t Done) {
  if (Id == NullId)
    return;
  uint32_t Cap = H->Capacity, First = static_cast<uint32_t>(Id >> 32),
           N = static_cast<uint32_t>(Id);
  uint32_t Word = loadWord(&posOf(H)[First], std::memory_order_relaxed) + Done;
  uint32_t *Seq = seqOf(H);
  std::atomic_thread_fence(std::memory_order_release);
  uint32_t S = First;
  for (uint32_t K = 1; K < N; ++K) {
    if (++S == Cap)
      S = 0;
    storeWord(&Seq[S], Word + K, std::memory_order_relaxed);
  }
  storeWord(&Seq[First], Word, std::memory_order_release);
}

} // namespace

extern "C" uint64_t clcpu_pipe_reserve(void *Pipe, uint32_t N, uint32_t Read) {
  Header *H = header(Pipe);
  return Read ? reserve(H, H->ReadPos, N, 1) : reserve(H, H->WritePos, N, 0);
}

extern "C" void clcpu_pipe_commit(void *Pipe, uint64_t Id, uint32_t Read) {
  Header *H = header(Pipe);
  commit(H, Id, Read ? H->Capacity : 1);
}

// "read_pipe ... returns 0 if read_pipe is successful and a negative value
// if the pipe is empty."
extern "C" int32_t clcpu_pipe_read(void *Pipe, void *Packet, uint32_t Size) {
  Header *H = header(Pipe);
  if (Size > H->PacketSize)
    return -1;
  uint64_t Id = reserve(H, H->ReadPos, 1, 1);
  if (Id == NullId)
    return -1;
  std::memcpy(Packet,
              packetsOf(H) + static_cast<uint64_t>(Id >> 32) * H->PacketSize,
              Size);
  commit(H, Id, H->Capacity);
  return 0;
}

// "write_pipe ... returns 0 if write_pipe is successful and a negative
// value if the pipe is full."
extern "C" int32_t clcpu_pipe_write(void *Pipe, const void *Packet,
                                    uint32_t Size) {
  Header *H = header(Pipe);
  if (Size > H->PacketSize)
    return -1;
  uint64_t Id = reserve(H, H->WritePos, 1, 0);
  if (Id == NullId)
    return -1;
  std::memcpy(packetsOf(H) + static_cast<uint64_t>(Id >> 32) * H->PacketSize,
              Packet, Size);
  commit(H, Id, 1);
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
  uint32_t *Seq = seqOf(H);
  for (uint32_t I = 0; I < MaxPackets; ++I)
    Seq[I] = I;
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
