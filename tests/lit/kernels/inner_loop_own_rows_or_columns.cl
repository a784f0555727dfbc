// OpenCL 3.0 API spec 5.10 (compiler/WorkItemLoops.cpp): a work-item loop
// whose inner loop walks each work-item's own consecutive elements stays
// scalar, its inner loops vectorized (the sum a vector reduction, the running
// sum in vector lanes; no gather or scatter of stride k); one whose inner loop
// reads across work-items is vectorized across them (adjacent work-items'
// elements are adjacent).
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// CHECK-LABEL: define void @wg_own_rows(
// CHECK-NOT:   @llvm.masked.{{gather|scatter}}
// CHECK:       call i32 @llvm.vector.reduce.add.v16i32(
// CHECK-NOT:   @llvm.masked.{{gather|scatter}}
// CHECK:       {{^}}scan.vec:
// CHECK-NOT:   @llvm.masked.{{gather|scatter}}
// CHECK:       {{^}}}{{$}}
kernel void own_rows(global const int *restrict in, global int *restrict out,
                     global int *restrict sums, int k) {
  int base = get_global_id(0) * k;
  int s = 0;
  for (int j = 0; j < k; ++j)
    s += in[base + j];
  int pre = 0;
  for (int j = 0; j < k; ++j) {
    int v = in[base + j];
    out[base + j] = pre;
    pre += v;
  }
  sums[get_global_id(0)] = s + pre;
}

// CHECK-LABEL: define void @wg_columns(
// CHECK-NOT:   scan.
// CHECK:       load <16 x i32>
// CHECK-NOT:   scan.
// CHECK:       store <16 x i32>
// CHECK-NOT:   scan.
// CHECK:       {{^}}}{{$}}
kernel void columns(global const int *restrict in, global int *restrict out,
                    int k, int w) {
  int pre = 0;
  for (int j = 0; j < k; ++j) {
    int v = in[j * w + get_global_id(0)];
    out[j * w + get_global_id(0)] = pre;
    pre += v;
  }
}
