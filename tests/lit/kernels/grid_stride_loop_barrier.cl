// OpenCL C 3.0 spec 6.13.8 (barrier fast path, compiler/LoopSyncPoints.cpp):
// a grid-stride loop before a barrier runs one vectorized region per
// iteration: one iteration of every work-item at a time, the loads of in[]
// one (masked) vector gather per vector of work-items, the sums vector adds.
// (tests/unit/CompilerTests.cpp checks that only this kernel's path counts a
// grid-stride loop: a uniform loop and one with an atomic stay whole.)
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// CHECK-LABEL: define void @wg_grid(
// CHECK:       call <16 x float> @llvm.masked.gather.v16f32
// CHECK:       fadd <16 x float>
kernel void grid(global const float *in, global float *out, int n) {
  local float s[64];
  float acc = 0.0f;
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    acc += in[i];
  s[get_local_id(0)] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[0];
}
