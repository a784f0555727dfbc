#include "scheduler/Fiber.h"

#include <boost/context/detail/fcontext.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <new>
#include <vector>

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
// ThreadSanitizer must know which stack runs: one TSan fiber per fiber.
#define CLCPU_TSAN_FIBERS 1
#endif

namespace clcpu {

namespace ctx = boost::context::detail;

namespace {

size_t pageSize() {
  static const size_t P = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return P;
}

struct Fiber;

/// One work-group's fiber state: what Ctx->Group points at.
struct Group {
  WorkGroupFn Fn;
  void **Args;
  size_t Count;
  /// Collectives: one 64-bit slot per work-item (linear local id).
  std::vector<uint64_t> Scratch;
  bool Pending = false;
  uint32_t Op = 0;
  size_t BroadcastFrom = 0;
  void *TsanCaller = nullptr; // the group loop's TSan fiber
};

/// A fiber and its stack. The fiber's entry loops forever: run a work-item,
/// switch back, run the next one it is given. Fibers are thus made once and
/// reused by every group this thread runs.
struct Fiber {
  void *Mapping = nullptr; // guard page + stack
  size_t MappingSize = 0;
  ctx::fcontext_t Resume = nullptr; // where this fiber continues
  ctx::fcontext_t Caller = nullptr; // the group loop, to switch back to
  bool Done = true;
  void *TsanFiber = nullptr;
  WorkGroupContext Ctx{};
};

/// Switches from a fiber back to its group loop.
void toCaller(Fiber *F) {
#ifdef CLCPU_TSAN_FIBERS
  __tsan_switch_to_fiber(static_cast<Group *>(F->Ctx.Group)->TsanCaller, 0);
#endif
  F->Caller = ctx::jump_fcontext(F->Caller, nullptr).fctx;
}

Fiber *fiberOf(const WorkGroupContext *C) {
  return reinterpret_cast<Fiber *>(
      reinterpret_cast<char *>(const_cast<WorkGroupContext *>(C)) -
      offsetof(Fiber, Ctx));
}

void fiberMain(ctx::transfer_t T) {
  auto *F = static_cast<Fiber *>(T.data);
  F->Caller = T.fctx;
  for (;;) {
    auto *G = static_cast<Group *>(F->Ctx.Group);
    G->Fn(G->Args, &F->Ctx);
    F->Done = true;
    toCaller(F);
  }
}

void barrierImpl(const WorkGroupContext *C) { toCaller(fiberOf(C)); }

size_t linearId(const WorkGroupContext *C) {
  return C->LocalId[0] +
         C->LocalSize[0] * (C->LocalId[1] + C->LocalSize[1] * C->LocalId[2]);
}

template <typename T> T load(uint64_t Bits) {
  T V;
  std::memcpy(&V, &Bits, sizeof V);
  return V;
}
template <typename T> uint64_t store(T V) {
  uint64_t Bits = 0;
  std::memcpy(&Bits, &V, sizeof V);
  return Bits;
}

template <typename T> T highest() {
  if constexpr (std::numeric_limits<T>::has_infinity)
    return std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::max();
}
template <typename T> T lowest() {
  if constexpr (std::numeric_limits<T>::has_infinity)
    return -std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::lowest();
}

/// One pass over the group's values in increasing linear local id.
template <typename T> void collective(Group &G, uint32_t Kind) {
  uint64_t *S = G.Scratch.data();
  size_t N = G.Count;
  auto Combine = [Kind](T A, T B) -> T {
    switch (Kind) {
    case CollReduceMin:
    case CollScanInclusiveMin:
    case CollScanExclusiveMin:
      return B < A ? B : A;
    case CollReduceMax:
    case CollScanInclusiveMax:
    case CollScanExclusiveMax:
      return A < B ? B : A;
    default:
      // Unsigned wrap-around for the integer types, like the device's add.
      if constexpr (std::is_integral_v<T>)
        return static_cast<T>(static_cast<std::make_unsigned_t<T>>(A) +
                              static_cast<std::make_unsigned_t<T>>(B));
      else
        return A + B;
    }
  };
  T Identity = T(0);
  if (Kind == CollScanExclusiveMin || Kind == CollReduceMin ||
      Kind == CollScanInclusiveMin)
    Identity = highest<T>();
  else if (Kind == CollScanExclusiveMax || Kind == CollReduceMax ||
           Kind == CollScanInclusiveMax)
    Identity = lowest<T>();
  switch (Kind) {
  case CollAll:
  case CollAny: {
    bool All = true, Any = false;
    for (size_t I = 0; I < N; ++I) {
      bool B = load<T>(S[I]) != T(0);
      All &= B;
      Any |= B;
    }
    uint64_t R = store<int32_t>((Kind == CollAll ? All : Any) ? 1 : 0);
    for (size_t I = 0; I < N; ++I)
      S[I] = R;
    return;
  }
  case CollBroadcast: {
    uint64_t R = G.BroadcastFrom < N ? S[G.BroadcastFrom] : 0;
    for (size_t I = 0; I < N; ++I)
      S[I] = R;
    return;
  }
  case CollReduceAdd:
  case CollReduceMin:
  case CollReduceMax: {
    T Acc = Identity;
    for (size_t I = 0; I < N; ++I)
      Acc = Combine(Acc, load<T>(S[I]));
    uint64_t R = store(Acc);
    for (size_t I = 0; I < N; ++I)
      S[I] = R;
    return;
  }
  case CollScanInclusiveAdd:
  case CollScanInclusiveMin:
  case CollScanInclusiveMax: {
    T Acc = Identity;
    for (size_t I = 0; I < N; ++I) {
      Acc = Combine(Acc, load<T>(S[I]));
      S[I] = store(Acc);
    }
    return;
  }
  default: { // exclusive scans
    T Acc = Identity;
    for (size_t I = 0; I < N; ++I) {
      T V = load<T>(S[I]);
      S[I] = store(Acc);
      Acc = Combine(Acc, V);
    }
    return;
  }
  }
}

void runCollective(Group &G) {
  uint32_t Kind = G.Op / 16;
  switch (G.Op % 16) {
  case CollInt:
    return collective<int32_t>(G, Kind);
  case CollUInt:
    return collective<uint32_t>(G, Kind);
  case CollLong:
    return collective<int64_t>(G, Kind);
  case CollULong:
    return collective<uint64_t>(G, Kind);
  case CollFloat:
    return collective<float>(G, Kind);
  case CollDouble:
    return collective<double>(G, Kind);
  }
}

/// Every work-item stores its value, waits at a barrier (the group loop
/// runs the pass when all arrived), then reads its own slot.
uint64_t collectiveImpl(const WorkGroupContext *C, uint32_t Op, uint64_t Value,
                        uint64_t X, uint64_t Y, uint64_t Z) {
  auto *G = static_cast<Group *>(C->Group);
  size_t Id = linearId(C);
  G->Scratch[Id] = Value;
  G->Pending = true;
  G->Op = Op;
  G->BroadcastFrom = X + C->LocalSize[0] * (Y + C->LocalSize[1] * Z);
  barrierImpl(C);
  return G->Scratch[Id];
}

/// The calling thread's fibers.
struct Pool {
  std::vector<Fiber *> Fibers;
  size_t StackSize = 0;

  ~Pool() { clear(); }
  void clear() {
    for (Fiber *F : Fibers) {
#ifdef CLCPU_TSAN_FIBERS
      __tsan_destroy_fiber(F->TsanFiber);
#endif
      munmap(F->Mapping, F->MappingSize);
      delete F;
    }
    Fibers.clear();
  }
  void reserve(size_t N, size_t Stack) {
    if (Stack > StackSize) {
      clear(); // every fiber is idle between groups
      StackSize = Stack;
    }
    while (Fibers.size() < N) {
      auto *F = new Fiber;
      size_t Guard = pageSize();
      F->MappingSize = Guard + StackSize;
      F->Mapping =
          mmap(nullptr, F->MappingSize, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
      if (F->Mapping == MAP_FAILED) {
        delete F;
        throw std::bad_alloc();
      }
      // The stack grows down: the guard page is the lowest one.
      mprotect(F->Mapping, Guard, PROT_NONE);
      F->Resume =
          ctx::make_fcontext(static_cast<char *>(F->Mapping) + F->MappingSize,
                             StackSize, fiberMain);
      F->Done = true;
#ifdef CLCPU_TSAN_FIBERS
      F->TsanFiber = __tsan_create_fiber(0);
#endif
      Fibers.push_back(F);
    }
  }
};
thread_local Pool ThreadPool;

void resume(Fiber *F) {
#ifdef CLCPU_TSAN_FIBERS
  __tsan_switch_to_fiber(F->TsanFiber, 0);
#endif
  F->Resume = ctx::jump_fcontext(F->Resume, F).fctx;
}

} // namespace

size_t fiberStackSize(size_t PrivateMemSize) {
  size_t Want = PrivateMemSize + 32 * 1024;
  size_t P = pageSize();
  Want = (Want + P - 1) / P * P;
  return Want > DefaultFiberStack ? Want : DefaultFiberStack;
}

void runGroupOnFibers(WorkGroupFn Fn, void **Args, const WorkGroupContext &Base,
                      size_t StackSize) {
  size_t L0 = Base.LocalSize[0], L1 = Base.LocalSize[1], L2 = Base.LocalSize[2];
  size_t N = L0 * L1 * L2;
  Group G{Fn, Args, N, std::vector<uint64_t>(N)};
#ifdef CLCPU_TSAN_FIBERS
  G.TsanCaller = __tsan_get_current_fiber();
#endif
  Pool &P = ThreadPool;
  P.reserve(N, StackSize ? StackSize : DefaultFiberStack);
  size_t I = 0;
  for (size_t Z = 0; Z < L2; ++Z)
    for (size_t Y = 0; Y < L1; ++Y)
      for (size_t X = 0; X < L0; ++X, ++I) {
        Fiber *F = P.Fibers[I];
        F->Ctx = Base;
        F->Ctx.LocalId[0] = X;
        F->Ctx.LocalId[1] = Y;
        F->Ctx.LocalId[2] = Z;
        F->Ctx.Barrier = barrierImpl;
        F->Ctx.Collective = collectiveImpl;
        F->Ctx.Group = &G;
        F->Done = false;
      }
  // Rounds: resume every unfinished work-item once, in linear order; each
  // runs until its next barrier or its end. A work-item that finished while
  // others wait at a barrier (a divergent barrier, undefined behaviour) is
  // simply skipped, so that every fiber always runs to its end.
  for (;;) {
    size_t Waiting = 0;
    for (size_t J = 0; J < N; ++J) {
      Fiber *F = P.Fibers[J];
      if (F->Done)
        continue;
      resume(F);
      Waiting += !F->Done;
    }
    if (G.Pending) {
      runCollective(G);
      G.Pending = false;
    }
    if (!Waiting)
      break;
  }
}

void releaseThreadFibers() { ThreadPool.clear(); }
size_t threadFiberCount() { return ThreadPool.Fibers.size(); }

} // namespace clcpu
