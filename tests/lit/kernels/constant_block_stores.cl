// OpenCL 3.0 API spec 5.10 (compiler/passes/BlockedStores.cpp): a work-item
// loop that stores each work-item's own S consecutive elements (S a constant,
// the inner loop unrolled) stays scalar: across work-items each of the four
// stores would be lanes 4 elements apart (scatters or an interleaved group);
// scalar they are adjacent. float4 stores do not count: they are split only
// after the check, and still widened across work-items.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

#define S 4

// CHECK-LABEL: define void @wg_blocks(
// CHECK-NOT:   @llvm.masked.scatter
// CHECK-NOT:   <{{8|16|32|64}} x i32>
// CHECK:       {{^}}}{{$}}
kernel void blocks(global const int *restrict in, global int *restrict out) {
  int b = get_global_id(0) * S, pre = 0;
  for (int j = 0; j < S; ++j) {
    int v = in[b + j];
    out[b + j] = pre;
    pre += v;
  }
}

// CHECK-LABEL: define void @wg_quads(
// CHECK:       store <{{32|64}} x float>
kernel void quads(global const float4 *restrict in,
                  global float4 *restrict out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * 2.0f + 1.0f;
}
