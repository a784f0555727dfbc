// cl_ext_float_atomics (compiler/passes/DeferFloatAdds.cpp): a relaxed float
// atomic add with an unused result, into a __global buffer nothing else of
// its work-item may read or write, is queued per thread
// (clcpu_deferred_fadd_f32) instead of run as a compare-exchange loop; one
// that its work-item may read back, or that is not relaxed, stays an atomic.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma -cl-options=-cl-std=CL3.0 %s \
// RUN:   | FileCheck %s

// A histogram over a `restrict` input: deferred.
// CHECK-LABEL: define void @wg_hist(
// CHECK:       call void @clcpu_deferred_fadd_f32(
// CHECK-NOT:   atomicrmw
// CHECK:       {{^}}}{{$}}
kernel void hist(global const float *restrict x,
                 volatile global atomic_float *bins) {
  uint i = (uint)get_global_id(0);
  atomic_fetch_add_explicit(&bins[(i * 2654435761u) >> 24], x[i],
                            memory_order_relaxed, memory_scope_device);
}

// Double subtractions: deferred as adds of the negation.
// CHECK-LABEL: define void @wg_debit(
// CHECK:       fneg double
// CHECK:       call void @clcpu_deferred_fadd_f64(
// CHECK-NOT:   atomicrmw
// CHECK:       {{^}}}{{$}}
kernel void debit(global const double *restrict x,
                  volatile global atomic_double *acct) {
  size_t i = get_global_id(0);
  atomic_fetch_sub_explicit(&acct[i & 7], x[i], memory_order_relaxed);
}

// The input may be the bins (no restrict): a work-item's load could read
// its own add. An atomic stays.
// CHECK-LABEL: define void @wg_may_alias(
// CHECK-NOT:   clcpu_deferred
// CHECK:       atomicrmw volatile fadd
// CHECK:       {{^}}}{{$}}
kernel void may_alias(global const float *x,
                      volatile global atomic_float *bins) {
  uint i = (uint)get_global_id(0);
  atomic_fetch_add_explicit(&bins[i & 255], x[i], memory_order_relaxed);
}

// Sequentially consistent (atomic_fetch_add without _explicit): stays.
// CHECK-LABEL: define void @wg_seq_cst(
// CHECK-NOT:   clcpu_deferred
// CHECK:       atomicrmw volatile fadd {{.*}} seq_cst
// CHECK:       {{^}}}{{$}}
kernel void seq_cst(global const float *restrict x,
                    volatile global atomic_float *bins) {
  uint i = (uint)get_global_id(0);
  atomic_fetch_add(&bins[i & 255], x[i]);
}
