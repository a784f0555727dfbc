#include "scheduler/Collectives.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>
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

enum class Combine { Add, Min, Max };

template <typename T, Combine C> T combine(T A, T B) {
  if constexpr (C == Combine::Min)
    return B < A ? B : A;
  else if constexpr (C == Combine::Max)
    return A < B ? B : A;
  // Unsigned wrap-around for the integer types, like the device's add.
  else if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(A) +
                          static_cast<std::make_unsigned_t<T>>(B));
  else
    return A + B;
}

template <typename T, Combine C> T identity() {
  if constexpr (C == Combine::Min)
    return highest<T>();
  else if constexpr (C == Combine::Max)
    return lowest<T>();
  else
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
};

/// One pass over the \p N values at \p S (a work-group's or a sub-group's)
/// in increasing linear local id.
template <typename T>
void collective(uint64_t *S, size_t N, uint32_t Kind, size_t BroadcastFrom) {
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
  case CollBroadcast:
    std::fill_n(S, N, BroadcastFrom < N ? S[BroadcastFrom] : 0);
    return;
  case CollReduceAdd:
    return Pass<T, Combine::Add>::reduce(S, N);
  case CollReduceMin:
    return Pass<T, Combine::Min>::reduce(S, N);
  case CollReduceMax:
    return Pass<T, Combine::Max>::reduce(S, N);
  case CollScanInclusiveAdd:
    return Pass<T, Combine::Add>::inclusive(S, N);
  case CollScanInclusiveMin:
    return Pass<T, Combine::Min>::inclusive(S, N);
  case CollScanInclusiveMax:
    return Pass<T, Combine::Max>::inclusive(S, N);
  case CollScanExclusiveAdd:
    return Pass<T, Combine::Add>::exclusive(S, N);
  case CollScanExclusiveMin:
    return Pass<T, Combine::Min>::exclusive(S, N);
  case CollScanExclusiveMax:
    return Pass<T, Combine::Max>::exclusive(S, N);
  }
}

/// sub_group_shuffle*: work-item I gets the value of work-item Src(I) of
/// its sub-group (\p A holds each one's index, mask or delta). An index
/// outside the sub-group (undefined by the extension) gives I its own value.
void shuffle(uint64_t *S, const uint64_t *A, size_t N, uint32_t Kind) {
  // The values before the shuffle (a buffer kept per thread: this runs once
  // per sub-group per shuffle).
  thread_local std::vector<uint64_t> In;
  In.assign(S, S + N);
  for (size_t I = 0; I < N; ++I) {
    uint64_t Src = A[I];
    if (Kind == CollShuffleXor)
      Src = I ^ A[I];
    else if (Kind == CollShuffleUp)
      Src = I - A[I]; // wraps around to a large value below 0
    else if (Kind == CollShuffleDown)
      Src = I + A[I];
    S[I] = Src < N ? In[Src] : In[I];
  }
}

} // namespace

void runCollective(uint64_t *S, const uint64_t *A, size_t N, uint32_t Op,
                   size_t BroadcastFrom) {
  uint32_t Kind = (Op % CollSubGroup) / 16;
  if (Kind >= CollShuffle)
    return shuffle(S, A, N, Kind);
  switch (Op % 16) {
  case CollInt:
    return collective<int32_t>(S, N, Kind, BroadcastFrom);
  case CollUInt:
    return collective<uint32_t>(S, N, Kind, BroadcastFrom);
  case CollLong:
    return collective<int64_t>(S, N, Kind, BroadcastFrom);
  case CollULong:
    return collective<uint64_t>(S, N, Kind, BroadcastFrom);
  case CollFloat:
    return collective<float>(S, N, Kind, BroadcastFrom);
  case CollDouble:
    return collective<double>(S, N, Kind, BroadcastFrom);
  case CollChar:
    return collective<int8_t>(S, N, Kind, BroadcastFrom);
  case CollUChar:
    return collective<uint8_t>(S, N, Kind, BroadcastFrom);
  case CollShort:
    return collective<int16_t>(S, N, Kind, BroadcastFrom);
  case CollUShort:
    return collective<uint16_t>(S, N, Kind, BroadcastFrom);
  }
}

void groupCollective(const WorkGroupContext *Ctx, uint32_t Op, uint64_t *Values,
                     const uint64_t *Args, size_t N, const uint32_t *States,
                     uint32_t Region) {
  if (!(Op & CollSubGroup))
    return runCollective(Values, Args, N, Op, Args[0]);
  size_t S = Ctx->SubGroupSize ? Ctx->SubGroupSize : N;
  for (size_t Begin = 0; Begin < N; Begin += S) {
    // Sub-groups elsewhere keep their values (for their own collective).
    if (States && States[Begin] != Region)
      continue;
    size_t Count = std::min(S, N - Begin);
    runCollective(Values + Begin, Args + Begin, Count, Op, Args[Begin]);
  }
}

} // namespace clcpu
