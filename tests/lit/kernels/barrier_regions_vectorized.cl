// OpenCL C 3.0 spec 6.13.8 (barrier fast path, compiler/regions/): a kernel
// with barriers becomes one vectorized work-item loop per region. Before the
// barrier: v = in[i] * 3 for a vector of work-items, stored to the scratch;
// after it: reloaded and added, again vectors. No fiber: nothing is called
// through the work-group context. A work-group scan is one call of the
// collective step between the regions, not one per work-item.
// (tests/unit/CompilerTests.cpp checks the kernels' paths and scratch sizes.)
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma -cl-options=-cl-std=CL2.0 \
// RUN:   %s | FileCheck %s

// CHECK-LABEL: define void @wg_rev(
// CHECK-NOT:   call void %
// CHECK:       fmul <16 x float>
// CHECK-NOT:   call void %
// CHECK:       store <16 x float>
// CHECK-NOT:   call void %
// CHECK:       fadd <16 x float>
// CHECK-NOT:   call void %
// CHECK:       {{^}}}{{$}}
kernel void rev(global const float *in, global float *out, local float *s) {
  size_t l = get_local_id(0), n = get_local_size(0);
  float v = in[get_global_id(0)] * 3.0f;
  s[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[n - 1 - l] + v;
}

// CHECK-LABEL: define void @wg_scan(
// CHECK:       load <{{4|8|16}} x i32>
// CHECK:       call fastcc void @scan.collective(
kernel void scan(global const int *in, global int *out) {
  size_t g = get_global_id(0);
  out[g] = work_group_scan_inclusive_add(in[g]);
}
