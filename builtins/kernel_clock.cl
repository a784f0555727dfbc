//===- builtins/kernel_clock.cl - cl_khr_kernel_clock ---------------------===//
//
// clock_read_{device,work_group,sub_group} and their _hilo forms (OpenCL C
// 3.0, 6.15.21 "Kernel Clock Functions"). All three scopes read the CPU's
// time-stamp counter: the device offers the scopes only where the counter
// is invariant (compiler/Frontend.cpp, openclCFeatures), which makes it one
// clock that runs at a constant rate on every CPU, so a work-group, its
// sub-groups and the whole device share it, whichever worker thread or CPU
// a work-item runs on.
//
// RDTSC alone may execute before earlier loads complete (Intel SDM,
// RDTSC), so a read made after seeing another work-item's store could
// return a smaller value than that work-item read before storing; the
// LFENCE before it waits for earlier loads, so reads ordered by memory are
// ordered in time too. Both are side effects to the optimizer: reads are
// neither merged nor reordered, and the work-item loop of a kernel that
// reads the clock stays scalar.

#include "Builtins.h"

static ulong read_tsc(void) {
  __builtin_ia32_lfence();
  return __builtin_ia32_rdtsc();
}

static uint2 hilo(ulong t) { return (uint2)((uint)t, (uint)(t >> 32)); }

OVL ulong clock_read_device(void) { return read_tsc(); }
OVL ulong clock_read_work_group(void) { return read_tsc(); }
OVL ulong clock_read_sub_group(void) { return read_tsc(); }
OVL uint2 clock_read_hilo_device(void) { return hilo(read_tsc()); }
OVL uint2 clock_read_hilo_work_group(void) { return hilo(read_tsc()); }
OVL uint2 clock_read_hilo_sub_group(void) { return hilo(read_tsc()); }
