// CLBlast's Xgemm as tuned for AMD CPUs, reduced (issue "other people's
// kernels"): reqd_work_group_size(8, 16, 1), narrower in x than a register
// of 16 float lanes; `volatile int tid`, a private variable kept across
// the barriers; accumulators in a private array; and the loop over k
// unrolled by hand, stepping by 2. Each of these kept the region that
// accumulates from being widened across work-items, so that it ran one
// work-item at a time, a serial chain of FMAs:
// - the volatile loads of tid (passes/OrdinaryPrivateVolatiles.cpp),
// - an x-loop of 8 work-items under a vector of 16 (xLoopLanes in
//   WorkGroupFunction.cpp: the loops get 8 lanes),
// - the inner loop's step of 2, which the vectorizer's outer-loop path
//   refuses (passes/CountedInnerLoops.cpp).
// The accumulation's FMAs are <8 x float>, one lane per work-item, and no
// volatile access is left.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// CHECK-LABEL: define void @wg_tile_acc(
// CHECK-NOT:   volatile
// CHECK:       call <8 x float> @llvm.fma.v8f32(
// CHECK-NOT:   volatile
// CHECK:       {{^}}}
__attribute__((reqd_work_group_size(8, 16, 1))) kernel void
tile_acc(global const float *a, global const float *b, global float *out,
         int k_size) {
  local float la[8 * 32];
  local float lb[16 * 32];
  volatile int tid = get_local_id(1) * 8 + get_local_id(0);
  float acc[2] = {0.0f, 0.0f};
  int x = tid % 8, y = tid / 8;
  for (int k0 = 0; k0 < k_size; k0 += 32) {
    for (int i = y; i < 32; i += 16)
      la[i * 8 + x] = a[(k0 + i) * 8 + x];
    for (int i = x; i < 32; i += 8)
      lb[i * 16 + y] = b[(k0 + i) * 16 + y];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 32; k += 2)
      for (int u = 0; u < 2; ++u) {
        float av = la[(k + u) * 8 + x], bv = lb[(k + u) * 16 + y];
        acc[0] = fma(av, bv, acc[0]);
        acc[1] = fma(av, 2.0f * bv, acc[1]);
      }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[tid * 2] = acc[0];
  out[tid * 2 + 1] = acc[1];
}
