// OpenCL 3.0 API spec 5.9.3, reqd_work_group_size
// (compiler/WorkItemLoops.cpp, markWorkItemLoop): a group of 16 work-items in
// x, as pyopencl's scans use on CPUs, whose region tests the first work-item
// (`lid != 0` to read the left neighbour, `lid == 0` to carry the last value
// on: pyopencl's scan_final_update). Loop peeling took work-item 0 off the
// region's x-loop to drop those tests; the 15 iterations left were fewer than
// a vector of 16 ints and all ran scalar. The x-loop keeps its 16 work-items:
// the tests are masks of one vector iteration.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// CHECK-LABEL: define void @wg_look_behind(
// CHECK-NOT:   .peel
// CHECK:       load <16 x i32>
// CHECK-NOT:   .peel
// CHECK:       store <16 x i32>
// CHECK-NOT:   .peel
// CHECK:       {{^}}}{{$}}
kernel __attribute__((reqd_work_group_size(16, 1, 1))) void
look_behind(global int *out, global const int *partial, int interval) {
  local int ld[16];
  int begin = interval * (int)get_group_id(0);
  int prev = 0;
  for (int base = begin; base < begin + interval; base += 16) {
    int i = base + (int)get_local_id(0);
    ld[get_local_id(0)] = partial[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) != 0)
      prev = ld[get_local_id(0) - 1];
    out[i] = prev;
    if (get_local_id(0) == 0)
      prev = ld[15];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
