//===- scheduler/DeferredAdds.cpp - per-thread queues of float atomic adds ===//
//
// A thread's queue is a small open-addressing table of the addresses it
// adds to, and the queued values in the order they came, each with its
// address's slot. Applying the queue first groups the values by slot,
// keeping their order (a counting sort: the values of one address then lie
// together, so adding them is a run through memory, not a chase from value
// to value), then per address reads the value there, adds the address's
// values one by one in the element type (each add rounded, as the atomic
// add would round it) and stores the result with a compare-exchange; if
// another thread changed the value meanwhile, the values are added again to
// what it finds. The queue is applied when it fills (addresses or values)
// and at the end of the thread's share of a launch; if it cannot be
// allocated, the add is applied at once.

#include "scheduler/DeferredAdds.h"

#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>
#include <new>

namespace clcpu {
namespace {

constexpr uint32_t Slots = 1024; // addresses, a power of two
constexpr uint32_t MaxAddresses = Slots / 2;
// Values between two applications: the queue's three arrays (about 290
// KiB) stay in a core's L2.
constexpr uint32_t MaxValues = 1 << 14;

struct Queue {
  struct Slot {
    uintptr_t Address = 0; // 0: free
    uint32_t Count = 0;    // values queued for it
    uint32_t Start = 0;    // where they begin in Grouped (when applying)
    bool Double = false;
  };
  Slot Table[Slots];
  uint16_t UsedSlots[MaxAddresses];
  uint32_t Addresses = 0;
  double Values[MaxValues]; // a float's value is exact in a double
  uint16_t SlotOf[MaxValues];
  double Grouped[MaxValues];
  uint32_t Count = 0;
};

// Initial-exec: a few bytes of static TLS, read without a call on every
// add.
thread_local Queue *Mine __attribute__((tls_model("initial-exec"))) = nullptr;
thread_local bool Now __attribute__((tls_model("initial-exec"))) = false;

/// Frees the thread's queue when the thread ends (applied already: every
/// share of a launch ends with a flush).
struct QueueOwner {
  ~QueueOwner() {
    flushDeferredAdds();
    delete Mine;
    Mine = nullptr;
  }
};
thread_local QueueOwner Owner;

/// `*P += V[0]; *P += V[1]; ...` atomically, for element type T stored as
/// bits U.
template <typename T, typename U>
void apply(uintptr_t Address, const double *V, uint32_t N) {
  std::atomic_ref<U> Ref(*reinterpret_cast<U *>(Address));
  U Old = Ref.load(std::memory_order_relaxed);
  for (;;) {
    T Sum = std::bit_cast<T>(Old);
    for (uint32_t I = 0; I < N; ++I)
      Sum = Sum + static_cast<T>(V[I]);
    if (Ref.compare_exchange_weak(Old, std::bit_cast<U>(Sum),
                                  std::memory_order_seq_cst,
                                  std::memory_order_relaxed))
      return;
  }
}

template <typename T, typename U> void addNow(T *P, T V) {
  std::atomic_ref<U> Ref(*reinterpret_cast<U *>(P));
  U Old = Ref.load(std::memory_order_relaxed);
  while (!Ref.compare_exchange_weak(
      Old, std::bit_cast<U>(std::bit_cast<T>(Old) + V),
      std::memory_order_seq_cst, std::memory_order_relaxed)) {
  }
}

void flush(Queue &Q) {
  uint32_t At = 0;
  for (uint32_t K = 0; K < Q.Addresses; ++K) {
    Queue::Slot &S = Q.Table[Q.UsedSlots[K]];
    S.Start = At;
    At += S.Count;
  }
  // Stable: each address's values keep the order they were queued in.
  for (uint32_t I = 0; I < Q.Count; ++I)
    Q.Grouped[Q.Table[Q.SlotOf[I]].Start++] = Q.Values[I];
  for (uint32_t K = 0; K < Q.Addresses; ++K) {
    Queue::Slot &S = Q.Table[Q.UsedSlots[K]];
    const double *V = Q.Grouped + (S.Start - S.Count);
    if (S.Double)
      apply<double, uint64_t>(S.Address, V, S.Count);
    else
      apply<float, uint32_t>(S.Address, V, S.Count);
    S = Queue::Slot();
  }
  Q.Addresses = 0;
  Q.Count = 0;
}

/// Queues V for address P; false if there is no queue (out of memory).
bool enqueue(uintptr_t P, double V, bool Double) {
  Queue *Q = Mine;
  if (!Q) {
    Q = new (std::nothrow) Queue;
    if (!Q)
      return false;
    (void)&Owner; // constructs the owner, which frees the queue
    Mine = Q;
  }
  if (Q->Count == MaxValues)
    flush(*Q);
  // Fibonacci hashing of the element address.
  uint32_t H = uint32_t(((P >> 2) * 0x9E3779B97F4A7C15ull) >> 54) & (Slots - 1);
  for (;; H = (H + 1) & (Slots - 1)) {
    Queue::Slot &S = Q->Table[H];
    if (S.Address == P && S.Double == Double)
      break;
    if (S.Address == 0) {
      // A new address; at most half the slots in use keeps probes short.
      if (Q->Addresses == MaxAddresses) {
        flush(*Q);
        return enqueue(P, V, Double);
      }
      S.Address = P;
      S.Double = Double;
      Q->UsedSlots[Q->Addresses++] = uint16_t(H);
      break;
    }
  }
  ++Q->Table[H].Count;
  Q->Values[Q->Count] = V;
  Q->SlotOf[Q->Count++] = uint16_t(H);
  return true;
}

} // namespace

AddsNowScope::AddsNowScope() : Saved(Now) { Now = true; }

AddsNowScope::~AddsNowScope() { Now = Saved; }

void flushDeferredAdds() noexcept {
  if (Queue *Q = Mine; Q && Q->Addresses)
    flush(*Q);
}

} // namespace clcpu

extern "C" void clcpu_deferred_fadd_f32(float *P, float V) {
  if (clcpu::Now || !clcpu::enqueue(reinterpret_cast<uintptr_t>(P), V, false))
    clcpu::addNow<float, uint32_t>(P, V);
}

extern "C" void clcpu_deferred_fadd_f64(double *P, double V) {
  if (clcpu::Now || !clcpu::enqueue(reinterpret_cast<uintptr_t>(P), V, true))
    clcpu::addNow<double, uint64_t>(P, V);
}
