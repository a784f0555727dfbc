#ifndef CLCPU_TESTS_E2E_COLLECTIVEREFERENCE_H
#define CLCPU_TESTS_E2E_COLLECTIVEREFERENCE_H

// The host reference for the work-group and sub-group collective tests
// (CollectiveTests.cpp, SubGroupTests.cpp): both kernels write, per
// work-item, the same twelve results over their group or sub-group.

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <vector>

namespace collective {

/// Results per work-item: reduce add/min/max, inclusive scan add/min/max,
/// exclusive scan add/min/max, broadcast, all(v > -40), any(v == 7).
constexpr int Ops = 12;

template <typename T> T highestOf() {
  if constexpr (std::numeric_limits<T>::has_infinity)
    return std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::max();
}
template <typename T> T lowestOf() {
  if constexpr (std::numeric_limits<T>::has_infinity)
    return -std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::lowest();
}

/// The expected results of the work-items \p Ids (global ids into \p In, in
/// scan order) of one group or sub-group; the broadcast reads Ids[From].
template <typename T>
std::vector<std::array<T, Ops>> reference(const std::vector<T> &In,
                                          const std::vector<size_t> &Ids,
                                          size_t From) {
  T Sum = 0, Mn = highestOf<T>(), Mx = lowestOf<T>();
  bool All = true, Any = false;
  for (size_t I : Ids) {
    Sum += In[I];
    Mn = std::min(Mn, In[I]);
    Mx = std::max(Mx, In[I]);
    All &= In[I] > static_cast<T>(-40);
    Any |= In[I] == static_cast<T>(7);
  }
  T Bc = In[Ids[From]];
  T IAdd = 0, IMin = highestOf<T>(), IMax = lowestOf<T>();
  std::vector<std::array<T, Ops>> Out;
  for (size_t I : Ids) {
    std::array<T, Ops> W;
    W[0] = Sum;
    W[1] = Mn;
    W[2] = Mx;
    W[6] = IAdd;
    W[7] = IMin;
    W[8] = IMax;
    IAdd += In[I];
    IMin = std::min(IMin, In[I]);
    IMax = std::max(IMax, In[I]);
    W[3] = IAdd;
    W[4] = IMin;
    W[5] = IMax;
    W[9] = Bc;
    W[10] = static_cast<T>(All ? 1 : 0);
    W[11] = static_cast<T>(Any ? 1 : 0);
    Out.push_back(W);
  }
  return Out;
}

} // namespace collective

#endif
