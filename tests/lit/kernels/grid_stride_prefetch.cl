// OpenCL C 3.0 spec 6.13.8 (barrier fast path,
// compiler/passes/GridStridePrefetch.cpp): a grid-stride loop's gathers
// prefetch a few strides ahead; other gathers do not. The counter i is a slot
// loaded each iteration and stored back plus the uniform step: one prefetch
// of in[i0 + 4 * step], which InstCombine writes as lane 0's index from a
// base 4 * step elements further on.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// CHECK-LABEL: define void @wg_grid(
// CHECK-DAG:   %prefetch.addr = getelementptr float, ptr [[BASE:%[0-9]+]], i64 %
// CHECK-DAG:   [[BASE]] = getelementptr {{i8|float}}, ptr %{{[0-9]+}}, i64 %{{[0-9]+}}
// CHECK:       call void @llvm.prefetch.p0(ptr %prefetch.addr, i32 0, i32 3, i32 1)
// CHECK-NOT:   call void @llvm.prefetch.p0(ptr %prefetch.addr,
// CHECK:       {{^}}}{{$}}
kernel void grid(global const float *in, global float *out, int n) {
  local float s[64];
  float acc = 0.0f;
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    acc += in[i];
  s[get_local_id(0)] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[0];
}

// A neighbour's element: a gather, but no counter advanced by a stride.
// CHECK-LABEL: define void @wg_neighbour(
// CHECK-NOT:   @llvm.prefetch
// CHECK:       {{^}}}{{$}}
kernel void neighbour(global const float *in, global float *out) {
  local float s[64];
  int lid = get_local_id(0);
  s[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[(lid + 1) % 64];
}
