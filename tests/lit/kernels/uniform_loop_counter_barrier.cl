// OpenCL C 3.0 spec 6.13.8 (barrier fast path, compiler/regions/): a uniform
// loop counter lives in one group-wide slot, and regions whose exit is
// uniform skip the scan of the work-items' states (bench's barrier_stress:
// k is the same for every work-item, and every region stops where the
// uniform loop condition says). The regions still vectorize (the counter's
// slot does not alias the per-work-item ones), and no loop reads every
// work-item's state; a grid-stride loop, whose exit is not uniform, keeps the
// scan. (tests/unit/CompilerTests.cpp checks the paths' counts of uniform
// values and regions.)
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// CHECK-LABEL: define void @wg_stress(
// CHECK-NOT:   states
// CHECK:       store <16 x i32>
// CHECK-NOT:   states
// CHECK:       {{^}}}{{$}}
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void stress(global int *out, int iters) {
  local int s[64];
  int lid = get_local_id(0);
  int v = get_global_id(0);
  for (int k = 0; k < iters; ++k) {
    s[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = s[(lid + 1) % 64] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = v;
}

// CHECK-LABEL: define void @wg_grid(
// CHECK:       {{^}}states{{[.a-z0-9]*}}:
kernel void grid(global const float *in, global float *out, int n) {
  local float s[64];
  float acc = 0.0f;
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    acc += in[i];
  s[get_local_id(0)] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[0];
}
