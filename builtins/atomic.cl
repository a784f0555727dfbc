//===- builtins/atomic.cl - OpenCL 1.x atomic_* and atom_* functions ------===//
//
// OpenCL C 3.0 6.15.12.9 (atomic_*, 32-bit, global and local) and the
// cl_khr_{global,local}_int32_{base,extended}_atomics / cl_khr_int64_*
// atom_* functions: one atomicrmw / cmpxchg each.

#include "Builtins.h"

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#define ORDER __ATOMIC_SEQ_CST

#define ATOMIC_RMW(AS, PRE, T)                                                 \
  OVL T PRE##add(volatile AS T *p, T v) {                                      \
    return __atomic_fetch_add(p, v, ORDER);                                    \
  }                                                                            \
  OVL T PRE##sub(volatile AS T *p, T v) {                                      \
    return __atomic_fetch_sub(p, v, ORDER);                                    \
  }                                                                            \
  OVL T PRE##xchg(volatile AS T *p, T v) {                                     \
    return __atomic_exchange_n(p, v, ORDER);                                   \
  }                                                                            \
  OVL T PRE##inc(volatile AS T *p) { return __atomic_fetch_add(p, 1, ORDER); } \
  OVL T PRE##dec(volatile AS T *p) { return __atomic_fetch_sub(p, 1, ORDER); } \
  OVL T PRE##cmpxchg(volatile AS T *p, T cmp, T v) {                           \
    __atomic_compare_exchange_n(p, &cmp, v, 0, ORDER, ORDER);                  \
    return cmp;                                                                \
  }                                                                            \
  OVL T PRE##min(volatile AS T *p, T v) {                                      \
    return __atomic_fetch_min(p, v, ORDER);                                    \
  }                                                                            \
  OVL T PRE##max(volatile AS T *p, T v) {                                      \
    return __atomic_fetch_max(p, v, ORDER);                                    \
  }                                                                            \
  OVL T PRE##and(volatile AS T *p, T v) {                                      \
    return __atomic_fetch_and(p, v, ORDER);                                    \
  }                                                                            \
  OVL T PRE##or(volatile AS T *p, T v) {                                       \
    return __atomic_fetch_or(p, v, ORDER);                                     \
  }                                                                            \
  OVL T PRE##xor(volatile AS T *p, T v) {                                      \
    return __atomic_fetch_xor(p, v, ORDER);                                    \
  }

#define ATOMIC_AS(AS)                                                          \
  ATOMIC_RMW(AS, atomic_, int)                                                 \
  ATOMIC_RMW(AS, atomic_, uint)                                                \
  ATOMIC_RMW(AS, atom_, int)                                                   \
  ATOMIC_RMW(AS, atom_, uint)                                                  \
  ATOMIC_RMW(AS, atom_, long)                                                  \
  ATOMIC_RMW(AS, atom_, ulong)                                                 \
  OVL float atomic_xchg(volatile AS float *p, float v) {                       \
    return as_float(                                                           \
        __atomic_exchange_n((volatile AS int *)p, as_int(v), ORDER));          \
  }
ATOMIC_AS(__global)
ATOMIC_AS(__local)
