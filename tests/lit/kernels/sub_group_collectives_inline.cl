// cl_khr_subgroups, cl_khr_subgroup_ballot (compiler/InlineCollectives.cpp):
// with every work-item at a sub-group collective, the collective step
// computes it as one vector per sub-group: the reduction's, the ballot's and
// the shuffle's sub-groups (and the shuffle's indices) are vector loads and
// stores of <S x i64> slots, a shuffle a gather within the vector. A partial
// sub-group (and diverged work-items) stays with the runtime:
// WorkGroupContext::GroupCollective (CTX_GroupCollective, %ctx-vars) is
// still called. S is the host's sub-group size (compiler::hostSubGroupSize),
// whatever -mcpu says.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma -cl-options=-cl-std=CL3.0 \
// RUN:   %s | FileCheck %s %ctx-vars

// CHECK-LABEL: define internal fastcc void @sg.collective(
// CHECK:       getelementptr inbounds i8, ptr %0, i64 [[#CTX_GroupCollective]]{{$}}
// CHECK:       load <[[S:[0-9]+]] x i64>
// CHECK-DAG:   load <[[S]] x i64>
// CHECK-DAG:   load <[[S]] x i64>
// CHECK-DAG:   store <[[S]] x i64>
// CHECK-DAG:   store <[[S]] x i64>
// CHECK-DAG:   store <[[S]] x i64>
// CHECK-DAG:   call <[[S]] x i64> @llvm.masked.gather.v[[S]]i64
// CHECK-LABEL: define void @wg_sg(
kernel void sg(global int *out, global const int *in) {
  size_t g = get_global_id(0);
  int v = in[g];
  int r = sub_group_reduce_add(v);
  uint4 b = sub_group_ballot(v > 0);
  out[g] = r + (int)b.x + sub_group_shuffle(v, 1);
}
