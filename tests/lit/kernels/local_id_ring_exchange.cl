// OpenCL C 2.0 spec 6.13.8 (barrier; compiler/passes/LocalIdModulo.cpp): a
// ring exchange through local memory, `s[(lid + 1) % 256]` in a group of
// 256. With an unsigned id the remainder is an `and` the loop vectorizer
// takes as consecutive on the condition that it does not wrap over the
// group, and every group wraps: the loop was versioned on that condition
// and ran its scalar copy for every group. The exchange is now gathered
// through, and each vector whose lanes are adjacent is loaded as one at run
// time; no condition on the group's wrapping is left.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// CHECK-LABEL: define void @wg_ring_uint(
// CHECK-NOT:   icmp ugt i64 %{{[0-9]+}}, 255
// CHECK:       %lanes.adjacent =
// CHECK:       @llvm.masked.gather
// CHECK-NOT:   icmp ugt i64 %{{[0-9]+}}, 255
// CHECK:       {{^}}}{{$}}
kernel void ring_uint(global int *out, int iters) {
  local int s[256];
  size_t lid = get_local_id(0);
  int v = get_global_id(0);
  for (int k = 0; k < iters; ++k) {
    s[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = s[(lid + 1) % 256] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = v;
}
