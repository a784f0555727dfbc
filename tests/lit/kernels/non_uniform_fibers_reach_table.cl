// cl_khr_subgroup_non_uniform_arithmetic (compiler/Barriers.cpp): on fibers,
// non-uniform calls pass their site number and the table of which sites can
// follow which. Sites in reverse post-order: the if's call (0), the
// reconvergence point where the if's sides meet (1), the one at the loop's
// exit (2: the loop's exit block comes before its body), elect (3), the
// loop's call (4) (compiler/passes/Reconvergence.cpp). Bit j of entry i: site
// j can follow site i in the same round of the loops around j. The if's call
// reaches all others; its reconvergence point all but the if's call; the
// loop's exit elect; elect none; the loop's call the loop's exit and elect,
// but not itself (that is the next round).
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma \
// RUN:   '-cl-options=-cl-std=CL3.0 -clcpu-force-fibers' %s | FileCheck %s

// CHECK: @nu.body.nonuniform.reach = private {{(unnamed_addr )?}}constant [5 x i64] [i64 30, i64 28, i64 8, i64 0, i64 12]
// CHECK-LABEL: define void @wg_nu(
// CHECK: ptrtoint (ptr @nu.body.nonuniform.reach to i64), i64 0)
kernel void nu(global int *out) {
  uint l = get_sub_group_local_id();
  int a = 0;
  if (l & 1)
    a = sub_group_non_uniform_reduce_add(1);
  for (uint i = 0; i <= l % 3; ++i)
    a += sub_group_non_uniform_reduce_add(1);
  out[get_global_id(0)] = a + sub_group_elect();
}
