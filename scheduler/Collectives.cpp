#include "scheduler/Collectives.h"
#include "scheduler/PipeRing.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace clcpu {

namespace {

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

// _Float16 (cl_khr_fp16's half; its arithmetic rounds each step to half,
// as the device's does) has no std::numeric_limits.
template <typename T> T highest() {
  if constexpr (std::is_same_v<T, _Float16>)
    return T(std::numeric_limits<float>::infinity());
  else if constexpr (std::numeric_limits<T>::has_infinity)
    return std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::max();
}
template <typename T> T lowest() {
  if constexpr (std::is_same_v<T, _Float16>)
    return T(-std::numeric_limits<float>::infinity());
  else if constexpr (std::numeric_limits<T>::has_infinity)
    return -std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::lowest();
}

using Combine = CollCombine;

template <typename T, Combine C> T combine(T A, T B) {
  if constexpr (C == Combine::Min)
    return B < A ? B : A;
  else if constexpr (C == Combine::Max)
    return A < B ? B : A;
  else if constexpr (C == Combine::LAnd)
    return T(A != T(0) && B != T(0));
  else if constexpr (C == Combine::LOr)
    return T(A != T(0) || B != T(0));
  else if constexpr (C == Combine::LXor)
    return T((A != T(0)) != (B != T(0)));
  else if constexpr (!std::is_integral_v<T>) {
    if constexpr (C == Combine::Mul)
      return A * B;
    else
      return A + B; // (no bitwise operations on floating-point types)
  }
  // Integers wrap around, like the device's arithmetic: computed in 64-bit
  // unsigned arithmetic and truncated.
  else if constexpr (C == Combine::Add)
    return static_cast<T>(uint64_t(A) + uint64_t(B));
  else if constexpr (C == Combine::Mul)
    return static_cast<T>(uint64_t(A) * uint64_t(B));
  else if constexpr (C == Combine::And)
    return A & B;
  else if constexpr (C == Combine::Or)
    return A | B;
  else
    return A ^ B;
}

template <typename T, Combine C> T identity() {
  if constexpr (C == Combine::Min)
    return highest<T>();
  else if constexpr (C == Combine::Max)
    return lowest<T>();
  else if constexpr (C == Combine::Mul || C == Combine::LAnd)
    return T(1);
  else if constexpr (C == Combine::And) {
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(~uint64_t(0));
    return T(0);
  } else
    return T(0);
}

/// The reductions and scans of one operation, \p C known at compile time
/// so each loop is a load, a combine and a store per work-item.
template <typename T, Combine C> struct Pass {
  static void reduce(uint64_t *S, size_t N) {
    T Acc = identity<T, C>();
    for (size_t I = 0; I < N; ++I)
      Acc = combine<T, C>(Acc, load<T>(S[I]));
    std::fill_n(S, N, store(Acc));
  }
  static void inclusive(uint64_t *S, size_t N) {
    T Acc = identity<T, C>();
    for (size_t I = 0; I < N; ++I) {
      Acc = combine<T, C>(Acc, load<T>(S[I]));
      S[I] = store(Acc);
    }
  }
  static void exclusive(uint64_t *S, size_t N) {
    T Acc = identity<T, C>();
    for (size_t I = 0; I < N; ++I) {
      T V = load<T>(S[I]);
      S[I] = store(Acc);
      Acc = combine<T, C>(Acc, V);
    }
  }
  /// sub_group_clustered_reduce_*: one reduction per \p Cluster
  /// consecutive values (the last cluster of a partial sub-group may be
  /// shorter).
  static void clustered(uint64_t *S, size_t N, size_t Cluster) {
    for (size_t B = 0; B < N; B += Cluster)
      reduce(S + B, std::min(Cluster, N - B));
  }
};

using Mode = CollMode;

template <typename T, Combine C>
void run(uint64_t *S, size_t N, Mode M, size_t Cluster) {
  if (Cluster)
    return Pass<T, C>::clustered(S, N, Cluster);
  switch (M) {
  case Mode::Reduce:
    return Pass<T, C>::reduce(S, N);
  case Mode::Inclusive:
    return Pass<T, C>::inclusive(S, N);
  case Mode::Exclusive:
    return Pass<T, C>::exclusive(S, N);
  }
}

/// run<T, C> for the \p C known only at run time: a table of the
/// instantiations, one per Combine enumerator (\p I).
template <typename T, size_t... I>
void runCombine(Combine C, uint64_t *S, size_t N, Mode M, size_t Cluster,
                std::index_sequence<I...>) {
  using RunFn = void (*)(uint64_t *, size_t, Mode, size_t);
  static constexpr RunFn Runs[] = {run<T, Combine(I)>...};
  Runs[size_t(C)](S, N, M, Cluster);
}

/// One pass over the \p N values at \p S (a work-group's or a sub-group's,
/// or a sub-group's active work-items') in increasing linear local id.
/// \p Cluster: a clustered reduction's cluster size (0: none).
template <typename T>
void collective(uint64_t *S, size_t N, uint32_t Kind, size_t BroadcastFrom,
                size_t Cluster) {
  Combine C;
  Mode M;
  if (collectiveArithmetic(Kind, C, M)) {
    return runCombine<T>(C, S, N, M, Cluster,
                         std::make_index_sequence<size_t(Combine::LXor) + 1>());
  }
  switch (Kind) {
  case CollAll:
  case CollAny: {
    bool All = true, Any = false;
    for (size_t I = 0; I < N; ++I) {
      bool B = load<T>(S[I]) != T(0);
      All &= B;
      Any |= B;
    }
    std::fill_n(S, N, store<int32_t>((Kind == CollAll ? All : Any) ? 1 : 0));
    return;
  }
  case CollAllEqual: {
    bool Equal = true;
    for (size_t I = 1; I < N; ++I)
      Equal &= load<T>(S[I]) == load<T>(S[0]);
    std::fill_n(S, N, store<int32_t>(Equal ? 1 : 0));
    return;
  }
  case CollBroadcast:
    std::fill_n(S, N, BroadcastFrom < N ? S[BroadcastFrom] : 0);
    return;
  case CollBroadcastFirst:
    std::fill_n(S, N, N ? S[0] : 0);
    return;
  }
}

/// The element type of each CollectiveType, in the enumeration's order.
using CollTypes =
    std::tuple<int32_t, uint32_t, int64_t, uint64_t, float, double, int8_t,
               uint8_t, int16_t, uint16_t, _Float16>;
static_assert(std::tuple_size_v<CollTypes> == CollHalf + 1);

/// collective<T> for the CollectiveType \p Type known only at run time: a
/// table of the instantiations, one per element type (\p I); a \p Type
/// past the last does nothing.
template <size_t... I>
void collectiveOfType(uint32_t Type, uint64_t *S, size_t N, uint32_t Kind,
                      size_t BroadcastFrom, size_t Cluster,
                      std::index_sequence<I...>) {
  using CollectiveFn = void (*)(uint64_t *, size_t, uint32_t, size_t, size_t);
  static constexpr CollectiveFn ByType[] = {
      collective<std::tuple_element_t<I, CollTypes>>...};
  if (Type < sizeof...(I))
    ByType[Type](S, N, Kind, BroadcastFrom, Cluster);
}

/// Scratch for N values on the stack when a sub-group is at most 64 wide
/// (always, on the widths clcpu reports), else on the heap. (A thread_local
/// buffer costs a __tls_get_addr call per use in a shared library: a quarter
/// of a ballot kernel's time.)
template <typename T> struct Buffer {
  T Small[64];
  std::vector<T> Large;
  T *get(size_t N) {
    if (N <= 64)
      return Small;
    Large.resize(N);
    return Large.data();
  }
};

/// sub_group_shuffle* and sub_group_[clustered_]rotate: work-item I gets
/// the value of work-item Src(I) of its sub-group (\p A holds each one's
/// index, mask or delta). An index outside the sub-group (undefined by the
/// extensions) gives I its own value.
void shuffle(uint64_t *S, const uint64_t *A, size_t N, uint32_t Op,
             size_t MaxSubGroup) {
  uint32_t Kind = (Op % CollSubGroup) / 16;
  // The values before the shuffle.
  Buffer<uint64_t> B;
  uint64_t *In = B.get(N);
  std::copy(S, S + N, In);
  // sub_group_rotate: the delta is an int; the remainder of a division by
  // the maximum sub-group size (or the cluster size) is not negative.
  size_t Cluster = MaxSubGroup ? MaxSubGroup : N;
  if (Op & CollClustered)
    Cluster = size_t(1) << ((Op >> CollClusterShift) - 1);
  for (size_t I = 0; I < N; ++I) {
    uint64_t Src = A[I];
    if (Kind == CollShuffleXor)
      Src = I ^ A[I];
    else if (Kind == CollShuffleUp)
      Src = I - A[I]; // wraps around to a large value below 0
    else if (Kind == CollShuffleDown)
      Src = I + A[I];
    else if (Kind == CollRotate) {
      int64_t Delta = static_cast<int32_t>(static_cast<uint32_t>(A[I]));
      int64_t C = static_cast<int64_t>(Cluster);
      int64_t First = static_cast<int64_t>(I) / C * C;
      int64_t R = (static_cast<int64_t>(I) - First + Delta) % C;
      Src = static_cast<uint64_t>(First + (R < 0 ? R + C : R));
    }
    S[I] = Src < N ? In[Src] : In[I];
  }
}

/// The reservation of \p Kind (CollPipeReserveRead or _Write) of the
/// \p N work-items at \p S: the pipe is their value, the packet count
/// their index argument (the same in every work-item); each gets the id.
void pipeReserve(uint64_t *S, const uint64_t *A, size_t N, uint32_t Kind) {
  if (N == 0)
    return;
  uint64_t Id = clcpu_pipe_reserve(reinterpret_cast<void *>(S[0]),
                                   static_cast<uint32_t>(A[0]),
                                   Kind == CollPipeReserveRead);
  std::fill(S, S + N, Id);
}

/// The commit of \p Kind (CollPipeCommitRead or _Write) of the \p N
/// work-items at \p S, every one of them past its copies: the pipe is their
/// value, the reservation's id their index argument (the same in every
/// work-item).
void pipeCommit(const uint64_t *S, const uint64_t *A, size_t N, uint32_t Kind) {
  if (N == 0)
    return;
  clcpu_pipe_commit(reinterpret_cast<void *>(S[0]), A[0],
                    Kind == CollPipeCommitRead);
}

} // namespace

void runCollective(uint64_t *S, const uint64_t *A, size_t N, uint32_t Op,
                   size_t BroadcastFrom, size_t MaxSubGroup) {
  uint32_t Kind = (Op % CollSubGroup) / 16;
  if (Kind == CollPipeReserveRead || Kind == CollPipeReserveWrite)
    return pipeReserve(S, A, N, Kind);
  if (Kind == CollPipeCommitRead || Kind == CollPipeCommitWrite)
    return pipeCommit(S, A, N, Kind);
  if ((Kind >= CollShuffle && Kind <= CollShuffleDown) || Kind == CollRotate)
    return shuffle(S, A, N, Op, MaxSubGroup);
  // A clustered reduction's cluster size is its index argument (the same
  // in every work-item); one that is 0 or not a power of two (undefined)
  // is the whole sub-group.
  size_t Cluster = 0;
  if (Op & CollClustered) {
    Cluster = N ? A[0] : 0;
    if (Cluster == 0 || (Cluster & (Cluster - 1)) != 0)
      Cluster = N;
  }
  collectiveOfType(Op % 16, S, N, Kind, BroadcastFrom, Cluster,
                   std::make_index_sequence<std::tuple_size_v<CollTypes>>());
}

void runNonUniform(uint64_t *S, const uint64_t *A, size_t N,
                   const uint8_t *Active, uint32_t Op, size_t MaxSubGroup) {
  uint32_t Kind = (Op % CollSubGroup) / 16;
  if (Kind == CollPipeReserveRead || Kind == CollPipeReserveWrite) {
    // A sub-group split between two sync points (undefined for a
    // reservation, which every work-item of the sub-group must reach): one
    // reservation for those here.
    size_t First = 0;
    while (First < N && !Active[First])
      ++First;
    if (First == N)
      return;
    uint64_t Id = S[First];
    pipeReserve(&Id, A + First, 1, Kind);
    for (size_t I = First; I < N; ++I)
      if (Active[I])
        S[I] = Id;
    return;
  }
  if (Kind == CollReconverge)
    return; // a meeting point only (compiler/passes/Reconvergence.cpp)
  if ((Kind >= CollShuffle && Kind <= CollShuffleDown) || Kind == CollRotate) {
    // Shuffles and rotations read by sub-group local id (an inactive
    // source is undefined); only the active work-items take a result, the
    // others keep their values for the collective they wait at.
    Buffer<uint64_t> B;
    uint64_t *Out = B.get(N);
    std::copy(S, S + N, Out);
    shuffle(Out, A, N, Op, MaxSubGroup);
    for (size_t I = 0; I < N; ++I)
      if (Active[I])
        S[I] = Out[I];
    return;
  }
  // The active work-items' values, in increasing sub-group local id.
  Buffer<uint64_t> VB;
  Buffer<size_t> IdB;
  uint64_t *V = VB.get(N);
  size_t *Ids = IdB.get(N);
  size_t Count = 0;
  uint64_t Ballot = 0;
  for (size_t I = 0; I < N; ++I)
    if (Active[I]) {
      V[Count] = S[I];
      Ids[Count++] = I;
      // The predicate is an int: its low 32 bits.
      if (static_cast<uint32_t>(S[I]) != 0 && I < 64)
        Ballot |= uint64_t(1) << I;
    }
  if (Count == 0)
    return;
  switch (Kind) {
  case CollElect:
    for (size_t K = 0; K < Count; ++K)
      S[Ids[K]] = K == 0 ? 1 : 0;
    return;
  case CollBallot:
    for (size_t K = 0; K < Count; ++K)
      S[Ids[K]] = Ballot;
    return;
  case CollBroadcast: {
    // sub_group_non_uniform_broadcast: the source must be active (else
    // undefined); a source outside the sub-group gives the first active
    // work-item's value.
    uint64_t From = A[Ids[0]];
    uint64_t Value = From < N ? S[From] : S[Ids[0]];
    for (size_t K = 0; K < Count; ++K)
      S[Ids[K]] = Value;
    return;
  }
  default:
    runCollective(V, nullptr, Count, Op & ~CollClustered, 0);
    for (size_t K = 0; K < Count; ++K)
      S[Ids[K]] = V[K];
    return;
  }
}

void groupCollective(const WorkGroupContext *Ctx, uint32_t Op, uint64_t *Values,
                     const uint64_t *Args, size_t N, const uint32_t *States,
                     uint32_t Region) {
  if (!(Op & CollSubGroup))
    return runCollective(Values, Args, N, Op, Args[0]);
  size_t S = Ctx->Launch.SubGroupSize ? Ctx->Launch.SubGroupSize : N;
  // get_max_sub_group_size(): from the enqueued local size.
  const size_t *L = Ctx->Launch.EnqueuedLocalSize;
  size_t Enqueued = L[0] * L[1] * L[2];
  size_t MaxS = std::min(S, Enqueued);
  Buffer<uint8_t> AB;
  uint32_t Kind = (Op % CollSubGroup) / 16;
  bool NonUniform = (Op & CollNonUniform) != 0;
  if (NonUniform && Kind == CollReconverge)
    return; // a meeting point only (compiler/passes/Reconvergence.cpp)
  for (size_t Begin = 0; Begin < N; Begin += S) {
    size_t Count = std::min(S, N - Begin);
    uint64_t *V = Values + Begin;
    if (States) {
      // Work-items elsewhere keep their values (for their own collective):
      // a non-uniform call's active set, or a sub-group split between two
      // sync points (a shuffle in each branch of an if on the sub-group
      // local id), computes each over the work-items there, as the fiber
      // path does.
      uint8_t *Active = AB.get(Count);
      size_t Here = 0;
      for (size_t J = 0; J < Count; ++J)
        Here += Active[J] = States[Begin + J] == Region;
      if (Here == 0)
        continue;
      if (Here < Count || (NonUniform && Kind == CollBroadcast)) {
        runNonUniform(V, Args + Begin, Count, Active, Op | CollNonUniform,
                      MaxS);
        continue;
      }
    }
    // Every work-item of the sub-group is here (active).
    if (NonUniform && Kind == CollElect) {
      V[0] = 1;
      std::fill(V + 1, V + Count, 0);
    } else if (NonUniform && Kind == CollBallot) {
      uint64_t Mask = 0;
      for (size_t J = 0; J < Count && J < 64; ++J)
        Mask |= uint64_t(static_cast<uint32_t>(V[J]) != 0) << J;
      std::fill(V, V + Count, Mask);
    } else if (NonUniform && Kind == CollBroadcast) {
      uint8_t *Active = AB.get(Count);
      std::fill(Active, Active + Count, 1);
      runNonUniform(V, Args + Begin, Count, Active, Op, MaxS);
    } else {
      runCollective(V, Args + Begin, Count, Op, Args[Begin], MaxS);
    }
  }
}

} // namespace clcpu
