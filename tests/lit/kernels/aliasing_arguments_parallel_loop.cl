// OpenCL 3.0 API spec 5.10 (compiler/passes/ParallelWorkItemLoops.cpp):
// work-items of a group are independent between barriers, so work-item loops
// are annotated parallel (llvm.loop.parallel_accesses) unless work-items may
// communicate: no run-time overlap check between arguments that may alias
// stops the vectorizer.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// A three-pass scan's last pass: no restrict, a gather by i / chunk, which
// is a vector one.
// CHECK-LABEL: define void @wg_add_offsets(
// CHECK-DAG:   call <16 x i32> @llvm.masked.gather.v16i32
// CHECK-DAG:   {{store <|@llvm.masked.store}}
kernel void add_offsets(global int *out, global const int *offsets,
                        int chunk, int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] += offsets[i / chunk];
}

// Work-items communicate through an atomic: not a parallel loop.
// CHECK-LABEL: define void @wg_counted(
// CHECK-NOT:   !llvm.access.group
// CHECK:       {{^}}}{{$}}
// CHECK:       !{!"llvm.loop.parallel_accesses",
kernel void counted(global int *out, global int *n) {
  int i = get_global_id(0);
  out[i] = atomic_inc(n);
}
