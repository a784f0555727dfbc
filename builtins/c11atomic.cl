//===- builtins/c11atomic.cl - OpenCL C 3.0 6.15.12 atomic functions ------===//
//
// atomic_init/load/store/exchange/compare_exchange/fetch_<op>/flag, with and
// without _explicit (the implicit forms: OpenCL C 3.0 with
// __opencl_c_atomic_order_seq_cst and __opencl_c_atomic_scope_device): every
// operation is sequentially consistent (at least as strong as any requested
// memory_order) and device-wide (covers every memory_scope).

#include "Builtins.h"

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#define SC __ATOMIC_SEQ_CST

// Load, store and exchange of object type A holding values of T, stored as
// the integer type I.
#define C11_LOAD_STORE(AS, A, T, I, FROM, TO)                                  \
  OVL T atomic_load_explicit(volatile AS A *p, memory_order o,                 \
                             memory_scope s) {                                 \
    return TO(__atomic_load_n((volatile AS I *)p, SC));                        \
  }                                                                            \
  OVL void atomic_store_explicit(volatile AS A *p, T v, memory_order o,        \
                                 memory_scope s) {                             \
    __atomic_store_n((volatile AS I *)p, FROM(v), SC);                         \
  }                                                                            \
  OVL T atomic_exchange_explicit(volatile AS A *p, T v, memory_order o,        \
                                 memory_scope s) {                             \
    return TO(__atomic_exchange_n((volatile AS I *)p, FROM(v), SC));           \
  }                                                                            \
  /* The _explicit forms without a scope mean memory_scope_device. */        \
  OVL T atomic_load_explicit(volatile AS A *p, memory_order o) {               \
    return TO(__atomic_load_n((volatile AS I *)p, SC));                        \
  }                                                                            \
  OVL void atomic_store_explicit(volatile AS A *p, T v, memory_order o) {      \
    __atomic_store_n((volatile AS I *)p, FROM(v), SC);                         \
  }                                                                            \
  OVL T atomic_exchange_explicit(volatile AS A *p, T v, memory_order o) {      \
    return TO(__atomic_exchange_n((volatile AS I *)p, FROM(v), SC));           \
  }                                                                            \
  OVL T atomic_load(volatile AS A *p) {                                        \
    return TO(__atomic_load_n((volatile AS I *)p, SC));                        \
  }                                                                            \
  OVL void atomic_store(volatile AS A *p, T v) {                               \
    __atomic_store_n((volatile AS I *)p, FROM(v), SC);                         \
  }                                                                            \
  OVL T atomic_exchange(volatile AS A *p, T v) {                               \
    return TO(__atomic_exchange_n((volatile AS I *)p, FROM(v), SC));           \
  }

// Every operation on A but the fetch-and-modify ones.
#define C11_COMMON(AS, A, T, I, FROM, TO)                                      \
  OVL void atomic_init(volatile AS A *p, T v) {                                \
    *(volatile AS I *)p = FROM(v);                                             \
  }                                                                            \
  C11_LOAD_STORE(AS, A, T, I, FROM, TO)                                        \
  C11_CMPXCHG(AS, A, T, I, FROM, TO, __global)                                 \
  C11_CMPXCHG(AS, A, T, I, FROM, TO, __local)                                  \
  C11_CMPXCHG(AS, A, T, I, FROM, TO, __private)                                \
  C11_CMPXCHG(AS, A, T, I, FROM, TO, __generic)

#define C11_CMPXCHG(AS, A, T, I, FROM, TO, EAS)                                \
  OVL bool atomic_compare_exchange_strong_explicit(                            \
      volatile AS A *p, EAS T *expected, T desired, memory_order s,            \
      memory_order f, memory_scope sc) {                                       \
    I e = FROM(*expected);                                                     \
    bool ok = __atomic_compare_exchange_n((volatile AS I *)p, &e,              \
                                          FROM(desired), 0, SC, SC);           \
    *expected = TO(e);                                                         \
    return ok;                                                                 \
  }                                                                            \
  OVL bool atomic_compare_exchange_weak_explicit(                              \
      volatile AS A *p, EAS T *expected, T desired, memory_order s,            \
      memory_order f, memory_scope sc) {                                       \
    return atomic_compare_exchange_strong_explicit(p, expected, desired, s,    \
                                                   f, sc);                     \
  }                                                                            \
  OVL bool atomic_compare_exchange_strong_explicit(                            \
      volatile AS A *p, EAS T *expected, T desired, memory_order s,            \
      memory_order f) {                                                        \
    return atomic_compare_exchange_strong_explicit(p, expected, desired, s,    \
                                                   f, memory_scope_device);    \
  }                                                                            \
  OVL bool atomic_compare_exchange_weak_explicit(                              \
      volatile AS A *p, EAS T *expected, T desired, memory_order s,            \
      memory_order f) {                                                        \
    return atomic_compare_exchange_strong_explicit(p, expected, desired, s,    \
                                                   f, memory_scope_device);    \
  }                                                                            \
  OVL bool atomic_compare_exchange_strong(volatile AS A *p, EAS T *expected,   \
                                          T desired) {                         \
    return atomic_compare_exchange_strong_explicit(                            \
        p, expected, desired, memory_order_seq_cst, memory_order_seq_cst,      \
        memory_scope_device);                                                  \
  }                                                                            \
  OVL bool atomic_compare_exchange_weak(volatile AS A *p, EAS T *expected,     \
                                        T desired) {                           \
    return atomic_compare_exchange_strong(p, expected, desired);               \
  }

#define C11_FETCH_OP(AS, A, I, T, OP)                                          \
  OVL I atomic_fetch_##OP##_explicit(volatile AS A *p, T v, memory_order o,    \
                                     memory_scope s) {                         \
    return __atomic_fetch_##OP((volatile AS I *)p, (I)v, SC);                  \
  }                                                                            \
  OVL I atomic_fetch_##OP##_explicit(volatile AS A *p, T v, memory_order o) {  \
    return __atomic_fetch_##OP((volatile AS I *)p, (I)v, SC);                  \
  }                                                                            \
  OVL I atomic_fetch_##OP(volatile AS A *p, T v) {                             \
    return __atomic_fetch_##OP((volatile AS I *)p, (I)v, SC);                  \
  }
#define C11_FETCH(AS, A, I, T)                                                 \
  C11_FETCH_OP(AS, A, I, T, add)                                               \
  C11_FETCH_OP(AS, A, I, T, sub)                                               \
  C11_FETCH_OP(AS, A, I, T, and)                                               \
  C11_FETCH_OP(AS, A, I, T, or)                                                \
  C11_FETCH_OP(AS, A, I, T, xor)                                               \
  C11_FETCH_OP(AS, A, I, T, min)                                               \
  C11_FETCH_OP(AS, A, I, T, max)

// cl_ext_float_atomics: add, sub, min and max on atomic_float,
// atomic_double and atomic_half. Clang emits atomicrmw fadd/fsub/fmin/fmax, which x86 lowers
// to a lock cmpxchg loop on the value's bits: lock-free, and a NaN in memory
// cannot make it spin (the comparison is of bits, not of values). fmin/fmax
// are IEEE minNum/maxNum, the extension's rules: min(x, qNaN) = x,
// min(qNaN, qNaN) = qNaN, and either zero for min(-0, +0).
//
// Add and sub keep a requested memory_order_relaxed (every other order is
// sequentially consistent, as everywhere in this file): a relaxed add whose
// result the kernel ignores may be deferred and applied later in a batch
// (compiler/passes/DeferFloatAdds.cpp), which only the IR's ordering tells.
#define C11_RELAXED_OR_SC(o) ((o) == memory_order_relaxed ? __ATOMIC_RELAXED : SC)
#define C11_FETCH_FP_ORDERED(AS, A, T, OP)                                     \
  OVL T atomic_fetch_##OP##_explicit(volatile AS A *p, T v, memory_order o,    \
                                     memory_scope s) {                         \
    return __atomic_fetch_##OP((volatile AS T *)p, v, C11_RELAXED_OR_SC(o));   \
  }                                                                            \
  OVL T atomic_fetch_##OP##_explicit(volatile AS A *p, T v, memory_order o) {  \
    return __atomic_fetch_##OP((volatile AS T *)p, v, C11_RELAXED_OR_SC(o));   \
  }                                                                            \
  OVL T atomic_fetch_##OP(volatile AS A *p, T v) {                             \
    return __atomic_fetch_##OP((volatile AS T *)p, v, SC);                     \
  }
#define C11_FETCH_FP(AS, A, T)                                                 \
  C11_FETCH_FP_ORDERED(AS, A, T, add)                                          \
  C11_FETCH_FP_ORDERED(AS, A, T, sub)                                          \
  C11_FETCH_OP(AS, A, T, T, min)                                               \
  C11_FETCH_OP(AS, A, T, T, max)

#define SAME(x) (x)
#define C11_AS(AS, _)                                                          \
  C11_COMMON(AS, atomic_int, int, int, SAME, SAME)                             \
  C11_COMMON(AS, atomic_uint, uint, uint, SAME, SAME)                          \
  C11_COMMON(AS, atomic_long, long, long, SAME, SAME)                          \
  C11_COMMON(AS, atomic_ulong, ulong, ulong, SAME, SAME)                       \
  C11_COMMON(AS, atomic_float, float, int, as_int, as_float)                   \
  C11_COMMON(AS, atomic_double, double, long, as_long, as_double)              \
  C11_FETCH(AS, atomic_int, int, int)                                          \
  C11_FETCH(AS, atomic_uint, uint, uint)                                       \
  C11_FETCH(AS, atomic_long, long, long)                                       \
  C11_FETCH(AS, atomic_ulong, ulong, ulong)                                    \
  C11_FETCH(AS, atomic_ulong, ulong, long)                                     \
  C11_FETCH(AS, atomic_long, long, ulong)                                      \
  C11_FETCH_FP(AS, atomic_float, float)                                        \
  C11_FETCH_FP(AS, atomic_double, double)                                      \
  OVL bool atomic_flag_test_and_set_explicit(                                  \
      volatile AS atomic_flag *f, memory_order o, memory_scope s) {            \
    return __atomic_exchange_n((volatile AS int *)f, 1, SC) != 0;              \
  }                                                                            \
  OVL void atomic_flag_clear_explicit(volatile AS atomic_flag *f,              \
                                      memory_order o, memory_scope s) {        \
    __atomic_store_n((volatile AS int *)f, 0, SC);                             \
  }                                                                            \
  OVL bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *f,      \
                                             memory_order o) {                 \
    return __atomic_exchange_n((volatile AS int *)f, 1, SC) != 0;              \
  }                                                                            \
  OVL void atomic_flag_clear_explicit(volatile AS atomic_flag *f,              \
                                      memory_order o) {                        \
    __atomic_store_n((volatile AS int *)f, 0, SC);                             \
  }                                                                            \
  OVL bool atomic_flag_test_and_set(volatile AS atomic_flag *f) {              \
    return __atomic_exchange_n((volatile AS int *)f, 1, SC) != 0;              \
  }                                                                            \
  OVL void atomic_flag_clear(volatile AS atomic_flag *f) {                     \
    __atomic_store_n((volatile AS int *)f, 0, SC);                             \
  }
C11_AS(__global, _)
C11_AS(__local, _)
C11_AS(__generic, _)

// cl_ext_float_atomics with cl_khr_fp16: atomic_half has load, store and
// exchange (the extension's __opencl_c_ext_fp16_*_atomic_load_store) and
// add, sub, min and max; no compare-exchange or atomic_init. The sum is
// computed in float and rounded once: float's 24 bits are enough for a
// correctly rounded half sum (at least 2 x 11 + 2), as for half
// arithmetic everywhere else.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
//
// Clang 19's builtin declarations (-fdeclare-opencl-builtins, which programs
// compile with; OpenCLBuiltins.td) give atomic_store and
// atomic_store_explicit on atomic_half a second parameter of type
// atomic_half rather than half (opencl-c.h has half): the value arrives as
// a half either way, but the mangled name differs (..._AtomicDhS_), so
// those names are defined too, as the same stores.
#define C11_STORE_HALF_TABLEGEN(AS)                                            \
  OVL void atomic_store(volatile AS atomic_half *p, atomic_half v) {           \
    __atomic_store_n((volatile AS short *)p,                                   \
                     as_short(__c11_atomic_load(&v, __ATOMIC_RELAXED)), SC);   \
  }                                                                            \
  OVL void atomic_store_explicit(volatile AS atomic_half *p, atomic_half v,    \
                                 memory_order o) {                             \
    __atomic_store_n((volatile AS short *)p,                                   \
                     as_short(__c11_atomic_load(&v, __ATOMIC_RELAXED)), SC);   \
  }                                                                            \
  OVL void atomic_store_explicit(volatile AS atomic_half *p, atomic_half v,    \
                                 memory_order o, memory_scope s) {             \
    __atomic_store_n((volatile AS short *)p,                                   \
                     as_short(__c11_atomic_load(&v, __ATOMIC_RELAXED)), SC);   \
  }
#define C11_AS_HALF(AS, _)                                                     \
  C11_LOAD_STORE(AS, atomic_half, half, short, as_short, as_half)              \
  C11_STORE_HALF_TABLEGEN(AS)                                                  \
  C11_FETCH_FP(AS, atomic_half, half)
C11_AS_HALF(__global, _)
C11_AS_HALF(__local, _)
C11_AS_HALF(__generic, _)
