// A work-group reduction's result is one value for the whole group
// (compiler/analyses/WorkItemUniformity.cpp): on the barrier regions the
// collective step copies it from the first work-item's value slot to a
// group-wide slot (compiler/regions/RegionPlan.h, SyncPoint::Result), and
// the region after it reads it there, an address without the local id. In
// a retry loop the region that reads the result ends at the same
// collective: its first work-items store their next operands in the value
// slots while the later ones have yet to read the result, so the result
// must not be read from the value slots. The group-wide slot here is the
// fifth (offset 32 bytes per work-item: 24 fixed, two uniform slots of the
// loop counter, then the result's).
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma -cl-options=-cl-std=CL3.0 \
// RUN:   %s | FileCheck %s %ctx-vars

// CHECK-LABEL: define internal fastcc void @retry.collective(
// CHECK:       getelementptr inbounds i8, ptr %0, i64 [[#CTX_GroupCollective]]{{$}}
// CHECK:       call void %{{[0-9]+}}(ptr %0, i32 64, ptr [[VALUES:%[0-9]+]],
// CHECK-NEXT:  [[OFF:%[0-9]+]] = shl i64 %3, 5
// CHECK-NEXT:  [[RESULT:%[0-9]+]] = getelementptr inbounds i8, ptr %2, i64 [[OFF]]
// CHECK-NEXT:  [[V:%[0-9]+]] = load i64, ptr [[VALUES]]
// CHECK-NEXT:  store i64 [[V]], ptr [[RESULT]]

// CHECK-LABEL: define void @wg_retry(
// CHECK:       shl nuw i64 %n, 5
// CHECK:       <16 x i32>
kernel void retry(global const int *in, global int *out) {
  size_t g = get_global_id(0);
  int r, round = 0;
  do {
    r = work_group_reduce_min(in[g] + round);
    ++round;
  } while (r < 0 && round < 4);
  out[g] = r;
}
