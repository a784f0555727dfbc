// OpenCL 3.0 API spec 5.9.3, reqd_work_group_size
// (compiler/WorkGroupFunction.cpp, xLoopLanes; compiler/WorkItemLoops.cpp): a
// group of 16 work-items in x, as pyopencl's scans use on CPUs, runs each
// region's x-loop as one vector of 16 ints. Left to the cost model, the loop
// took two vectors per iteration, a loop that never ran for 16 work-items, and
// each region ran as two iterations of an 8-lane epilogue.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// CHECK-LABEL: define void @wg_update(
// CHECK-NOT:   <8 x i32>
// CHECK:       @llvm.masked.load.v16i32
// CHECK-NOT:   <8 x i32>
// CHECK:       {{^}}}{{$}}
kernel __attribute__((reqd_work_group_size(16, 1, 1))) void
update(global int *out, global const int *partial, int n, int interval) {
  local int ld[16];
  int begin = interval * (int)get_group_id(0);
  int end = min(begin + interval, n);
  for (int base = begin; base < end; base += 16) {
    int i = base + (int)get_local_id(0);
    if (i < end)
      ld[get_local_id(0)] = partial[i] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < end)
      out[i] = ld[get_local_id(0) ^ 1];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
