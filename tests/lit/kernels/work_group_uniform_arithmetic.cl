// cl_khr_work_group_uniform_arithmetic: programs see the declarations of
// builtins/opencl-c-clcpu.h (Clang 19 has none), and each call is a
// work-group collective of its own kind (compiler/Barriers.cpp,
// collectiveKind), taking the paths work_group_reduce_add takes. On the
// barrier regions each call is a sync point, computed between two region
// loops by one call of WorkGroupContext::GroupCollective (CTX_GroupCollective,
// %ctx-vars) with its Op, Kind * 16 + Type (compiler/WorkGroupContext.h):
// work_group_reduce_mul(int) 256, work_group_scan_exclusive_logical_xor(int)
// 576, work_group_scan_inclusive_and(ulong) 387,
// work_group_scan_exclusive_mul(half) 490. On fibers each work-item calls
// WorkGroupContext::Collective (CTX_Collective) with the same Ops.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma -cl-options=-cl-std=CL3.0 \
// RUN:   %s | FileCheck %s %ctx-vars --check-prefix=REGIONS
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma \
// RUN:   '-cl-options=-cl-std=CL3.0 -clcpu-force-fibers' %s \
// RUN:   | FileCheck %s %ctx-vars --check-prefix=FIBERS

// REGIONS-LABEL: define internal fastcc void @wg.collective(
// REGIONS:       getelementptr inbounds i8, ptr %0, i64 [[#CTX_GroupCollective]]{{$}}
// REGIONS:       call void %{{[0-9]+}}(ptr %0, i32 256,
// REGIONS:       getelementptr inbounds i8, ptr %0, i64 [[#CTX_GroupCollective]]{{$}}
// REGIONS:       call void %{{[0-9]+}}(ptr %0, i32 576,
// REGIONS:       getelementptr inbounds i8, ptr %0, i64 [[#CTX_GroupCollective]]{{$}}
// REGIONS:       call void %{{[0-9]+}}(ptr %0, i32 387,
// REGIONS:       getelementptr inbounds i8, ptr %0, i64 [[#CTX_GroupCollective]]{{$}}
// REGIONS:       call void %{{[0-9]+}}(ptr %0, i32 490,
// REGIONS-LABEL: define void @wg_wg(
// REGIONS:       call fastcc void @wg.collective(

// FIBERS-LABEL: define void @wg_wg(
// FIBERS:       getelementptr inbounds i8, ptr %1, i64 [[#CTX_Collective]]{{$}}
// FIBERS:       call i64 %[[FN:[0-9]+]](ptr nonnull %1, i32 256,
// FIBERS:       call i64 %[[FN]](ptr nonnull %1, i32 576,
// FIBERS:       call i64 %[[FN]](ptr nonnull %1, i32 387,
// FIBERS:       call i64 %[[FN]](ptr nonnull %1, i32 490,
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void wg(global const int *in, global const ulong *bits,
               global const half *h, global int *out, global ulong *bout,
               global half *hout) {
  size_t g = get_global_id(0);
  out[g] = work_group_reduce_mul(in[g]) +
           work_group_scan_exclusive_logical_xor(in[g]);
  bout[g] = work_group_scan_inclusive_and(bits[g]);
  hout[g] = work_group_scan_exclusive_mul(h[g]);
}
