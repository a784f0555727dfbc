// cl_khr_subgroups (compiler/WorkGroupFunction.cpp, subGroupQuery): the
// sub-group size is a constant, so the sub-group local id and id are a mask
// and a shift, not a division by WorkGroupContext::SubGroupSize
// (CTX_SubGroupSize, %ctx-vars: never loaded). The sub-group size is the host's
// (compiler::hostSubGroupSize: 4, 8 or 16 lanes), whatever -mcpu says: the
// mask and shift are matched for any of them.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s %ctx-vars

// CHECK-LABEL: define void @wg_ids(
// CHECK-NOT:   {{udiv|urem}}
// CHECK-NOT:   getelementptr inbounds i8, ptr %1, i64 [[#CTX_SubGroupSize]]{{$}}
// CHECK:       and i32 %{{[0-9]+}}, {{3|7|15}}{{$}}
// CHECK-NOT:   {{udiv|urem}}
// CHECK-NOT:   getelementptr inbounds i8, ptr %1, i64 [[#CTX_SubGroupSize]]{{$}}
// CHECK:       lshr i64 %{{[0-9]+}}, {{2|3|4}}{{$}}
// CHECK-NOT:   {{udiv|urem}}
// CHECK-NOT:   getelementptr inbounds i8, ptr %1, i64 [[#CTX_SubGroupSize]]{{$}}
// CHECK:       {{^}}}{{$}}
kernel void ids(global uint *out) {
  size_t g = get_global_id(0);
  out[2 * g] = get_sub_group_local_id();
  out[2 * g + 1] = get_sub_group_id();
}
