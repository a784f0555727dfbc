// OpenCL C 3.0 spec 6.13.8, 6.15.1 (barrier fast path): get_global_id(0) is
// computed again after a barrier, not kept per work-item in the scratch, so
// the read-modify-write after it is vector loads, adds and stores. (It was
// once over the recompute budget, with the three dimensions' global ids and
// the selects between them: g went to a slot of i64s and the second region
// read it back and stored element by element.)
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// CHECK-LABEL: define void @wg_gid(
// CHECK-NOT:   x i64>
// CHECK:       [[V:%[0-9]+]] = add nsw <16 x i32> %{{[^,]+}}, <i32 2,
// CHECK-NOT:   x i64>
// CHECK:       store <16 x i32> [[V]], ptr
// CHECK-NOT:   x i64>
// CHECK:       {{^}}}{{$}}
kernel void gid(global int *o) {
  size_t g = get_global_id(0);
  o[g] = 1;
  barrier(CLK_GLOBAL_MEM_FENCE);
  o[g] += 2;
}
