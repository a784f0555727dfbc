// pyopencl's scan_final_update (the last pass of GenericScanKernel and of
// RadixSort): each group walks its interval of the data with a stride of
// the group size, up to `min(interval_begin + interval_size, n)`. The
// bound is the same for every work-item of the group; it is an llvm.smin
// call, which the uniformity analysis once took as divergent like any
// call (compiler/analyses/WorkItemUniformity.cpp), so the loop did not
// count as a grid-stride loop (passes/LoopSyncPoints.cpp) and each
// work-item strode through the interval alone. Now each iteration is one
// region vectorized across the group's work-items: loads of consecutive
// elements, one vector per 16 work-items.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s 2>&1 | FileCheck %s

// CHECK: kernel update: barrier regions: {{.*}}1 grid-stride loop
// CHECK-LABEL: define void @wg_update(
// CHECK:       load <16 x i32>
kernel void update(global const int *partial, global int *out, int n,
                   int interval_size, global const int *interval_sums) {
  int begin = interval_size * (int)get_group_id(0);
  int end = min(begin + interval_size, n);
  int carry = get_group_id(0) ? interval_sums[get_group_id(0) - 1] : 0;
  for (int i = begin + (int)get_local_id(0); i < end;
       i += (int)get_local_size(0))
    out[i] = partial[i] + carry;
}
