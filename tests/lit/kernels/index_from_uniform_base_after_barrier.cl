// OpenCL C 2.0 spec 6.13.8 (barrier; compiler/regions/Liveness.cpp):
// pyopencl's scan_final_update walks its interval a group at a time with
// two barriers per step, `i = base + lid` computed before the first and
// `out[i]` stored after it. i is the same expression in every work-item
// over the loop's uniform base: the region after the barrier computes it
// again from the base, kept in a group-wide slot, instead of reloading a
// per-work-item i from the scratch. Reloaded, out[i]'s address was a
// vector of unknown addresses, a scatter (with a run-time test for
// consecutive lanes); computed again, the store is consecutive.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s 2>&1 | FileCheck %s

// CHECK:       kernel walk: barrier regions: 3 regions (2 barriers, 0
// collectives), 2 values (2 uniform) CHECK-LABEL: define void @wg_walk(
// CHECK-NOT:   masked.scatter
// CHECK:       store <16 x i32> {{.*}}!nontemporal
// CHECK-NOT:   masked.scatter
// CHECK:       {{^}}}{{$}}
kernel void walk(global const int *in, global int *out, int n, int interval) {
  local int ld[256];
  int lid = get_local_id(0);
  int begin = interval * (int)get_group_id(0);
  int end = min(begin + interval, n);
  for (int base = begin; base < end; base += (int)get_local_size(0)) {
    int i = base + lid;
    if (i < end)
      ld[lid] = in[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < end)
      out[i] = ld[lid ? lid - 1 : 0];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
