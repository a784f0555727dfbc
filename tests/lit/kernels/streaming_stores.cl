// OpenCL 3.0 API spec 5.10 (compiler/passes/NonTemporalStores.cpp): large
// outputs of streaming kernels get non-temporal stores behind a run-time size
// and alignment check (the ptrtoint): each vector store has a non-temporal
// twin, the scalar remainder stays ordinary, and there is no sfence (the
// scheduler fences once per thread and launch). An output that is read as
// well, or a kernel with an atomic in the loop that stores (which would need
// a fence per work-item), keeps ordinary stores.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// CHECK-LABEL: define void @wg_copy(
// CHECK-NOT:   sfence
// CHECK:       ptrtoint
// CHECK-NOT:   sfence
// CHECK:       store <16 x float> {{.*}}, !nontemporal
// CHECK-NOT:   sfence
// CHECK:       store float %
// CHECK-NOT:   !nontemporal
// CHECK-SAME:  {{$}}
// CHECK-NOT:   sfence
// CHECK:       {{^}}}{{$}}
kernel void copy(global const float *restrict a, global float *restrict b) {
  size_t i = get_global_id(0);
  b[i] = a[i];
}

// CHECK-LABEL: define void @wg_vadd(
// CHECK-NOT:   sfence
// CHECK:       ptrtoint
// CHECK-NOT:   sfence
// CHECK:       store <16 x float> {{.*}}, !nontemporal
// CHECK-NOT:   sfence
// CHECK:       store float %
// CHECK-NOT:   !nontemporal
// CHECK-SAME:  {{$}}
// CHECK-NOT:   sfence
// CHECK:       {{^}}}{{$}}
kernel void vadd(global const float *a, global const float *b,
                 global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

// y is read as well: its lines are in the cache, ordinary stores.
// CHECK-LABEL: define void @wg_saxpy(
// CHECK-NOT:   {{!nontemporal|sfence}}
// CHECK:       {{^}}}{{$}}
kernel void saxpy(global float *y, global const float *x, float a) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}

// CHECK-LABEL: define void @wg_counted(
// CHECK-NOT:   {{!nontemporal|sfence}}
// CHECK:       {{^}}}{{$}}
kernel void counted(global const float *a, global float *b,
                    global int *n) {
  size_t i = get_global_id(0);
  b[i] = a[i];
  if (i == 0)
    atomic_inc(n);
}
