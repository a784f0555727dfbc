// cl_khr_subgroup_non_uniform_arithmetic (compiler/regions/ and
// emitRegionDriver): non-uniform calls take the barrier regions with the
// table of which sync points can reach which. Entry s: the sync points
// (numbered from 1 in block order) that can reach sync point s in the same
// round of the loops around s: the if's call (1) none; the if's
// reconvergence point (2) the if's call; the loop's exit (3) those and the
// loop's call (4); the loop's call the first two; elect (5) the first four;
// the ballot (6) all five. (tests/unit/CompilerTests.cpp checks the kernel's
// path.)
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma -cl-options=-cl-std=CL3.0 \
// RUN:   %s | FileCheck %s

// CHECK: @nu.sync.reach = private {{(unnamed_addr )?}}constant [7 x i64] [i64 0, i64 0, i64 2, i64 22, i64 6, i64 30, i64 62]
// CHECK-LABEL: define void @wg_nu(
// CHECK: getelementptr inbounds [7 x i64], ptr @nu.sync.reach,
kernel void nu(global int *out) {
  uint l = get_sub_group_local_id();
  int a = 0;
  if (l & 1)
    a = sub_group_non_uniform_reduce_add(1);
  for (uint i = 0; i <= l % 3; ++i)
    a += sub_group_non_uniform_reduce_add(1);
  out[get_global_id(0)] = a + sub_group_elect() + sub_group_ballot(l & 1).x;
}
