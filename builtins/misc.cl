//===- builtins/misc.cl - fences, async copies, prefetch ------------------===//

#include "Builtins.h"

// 6.15.11 / 6.15.12: the work-items of a group share one thread, so a fence
// only has to order memory against other threads.
OVL void mem_fence(cl_mem_fence_flags flags) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
OVL void read_mem_fence(cl_mem_fence_flags flags) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
OVL void write_mem_fence(cl_mem_fence_flags flags) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

// 6.15.14 async copies: the group's first work-item copies synchronously
// when it reaches the call. Work-items of a group run in local-id order
// between barriers on one thread, so the data is in place before any other
// work-item of the group reaches the same call; events are no-ops. That
// order is a promise the compiler must keep: the signal fence (no
// instruction) keeps a work-item loop holding a copy sequential, neither
// declared free of dependences between work-items
// (compiler/passes/ParallelWorkItemLoops.cpp) nor vectorized, which would let a
// later work-item's read of the destination move before the copy.
static int first_item(void) {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  return get_local_id(0) == 0 && get_local_id(1) == 0 && get_local_id(2) == 0;
}
#define ASYNC_COPY(T)                                                          \
  OVL event_t async_work_group_copy(__local T *dst, const __global T *src,     \
                                    size_t n, event_t e) {                     \
    if (first_item())                                                          \
      for (size_t i = 0; i < n; ++i)                                           \
        dst[i] = src[i];                                                       \
    return e;                                                                  \
  }                                                                            \
  OVL event_t async_work_group_copy(__global T *dst, const __local T *src,     \
                                    size_t n, event_t e) {                     \
    if (first_item())                                                          \
      for (size_t i = 0; i < n; ++i)                                           \
        dst[i] = src[i];                                                       \
    return e;                                                                  \
  }                                                                            \
  OVL event_t async_work_group_strided_copy(                                   \
      __local T *dst, const __global T *src, size_t n, size_t stride,          \
      event_t e) {                                                             \
    if (first_item())                                                          \
      for (size_t i = 0; i < n; ++i)                                           \
        dst[i] = src[i * stride];                                              \
    return e;                                                                  \
  }                                                                            \
  OVL event_t async_work_group_strided_copy(                                   \
      __global T *dst, const __local T *src, size_t n, size_t stride,          \
      event_t e) {                                                             \
    if (first_item())                                                          \
      for (size_t i = 0; i < n; ++i)                                           \
        dst[i * stride] = src[i];                                              \
    return e;                                                                  \
  }                                                                            \
  OVL void prefetch(const __global T *p, size_t n) {}
#define ASYNC_COPY_N(T, n) ASYNC_COPY(T##n)
#define ASYNC_ALL(T) ASYNC_COPY(T) FOR_N(ASYNC_COPY_N, T)
ASYNC_ALL(char)
ASYNC_ALL(uchar)
ASYNC_ALL(short)
ASYNC_ALL(ushort)
ASYNC_ALL(int)
ASYNC_ALL(uint)
ASYNC_ALL(long)
ASYNC_ALL(ulong)
ASYNC_ALL(float)
ASYNC_ALL(double)
ASYNC_ALL(half)

OVL void wait_group_events(int n, __private event_t *events) {}
OVL void wait_group_events(int n, __generic event_t *events) {}

OVL void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order,
                                memory_scope scope) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
