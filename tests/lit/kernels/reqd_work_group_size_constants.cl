// OpenCL 3.0 API spec 5.9.3 (compiler/WorkGroupFunction.cpp): dimensions that
// reqd_work_group_size sets to 1 are constants in the work-group function,
// not loads of the local size: WorkGroupContext::LocalSize[1] and [2] are
// CTX_LocalSize + 8 and + 16 in the context (the work-group function's second
// argument; %ctx-vars has the offsets). Barrier regions (the loops and the state slots'
// addresses) and a barrier-free kernel alike.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s %ctx-vars

// CHECK-LABEL: define void @wg_ring_reqd(
// CHECK-NOT:   getelementptr inbounds i8, ptr %1, i64 [[#CTX_LocalSize+8]]{{$}}
// CHECK-NOT:   getelementptr inbounds i8, ptr %1, i64 [[#CTX_LocalSize+16]]{{$}}
// CHECK:       getelementptr inbounds i8, ptr %1, i64 [[#CTX_LocalSize]]{{$}}
// CHECK-NOT:   getelementptr inbounds i8, ptr %1, i64 [[#CTX_LocalSize+8]]{{$}}
// CHECK-NOT:   getelementptr inbounds i8, ptr %1, i64 [[#CTX_LocalSize+16]]{{$}}
// CHECK:       {{^}}}{{$}}
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void ring_reqd(global int *out, int iters) {
  local int s[64];
  int lid = get_local_id(0);
  int v = get_global_id(0);
  for (int k = 0; k < iters; ++k) {
    s[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = s[(lid + 1) % 64] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = v;
}

// Without the attribute: the y and z local sizes are loaded.
// CHECK-LABEL: define void @wg_ring_any(
// CHECK:       getelementptr inbounds i8, ptr %1, i64 [[#CTX_LocalSize+8]]{{$}}
kernel void ring_any(global int *out, int iters) {
  local int s[64];
  int lid = get_local_id(0);
  int v = get_global_id(0);
  for (int k = 0; k < iters; ++k) {
    s[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = s[(lid + 1) % 64] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = v;
}

// CHECK-LABEL: define void @wg_copy_reqd(
// CHECK-NOT:   getelementptr inbounds i8, ptr %1, i64 [[#CTX_LocalSize+8]]{{$}}
// CHECK-NOT:   getelementptr inbounds i8, ptr %1, i64 [[#CTX_LocalSize+16]]{{$}}
// CHECK:       getelementptr inbounds i8, ptr %1, i64 [[#CTX_LocalSize]]{{$}}
// CHECK-NOT:   getelementptr inbounds i8, ptr %1, i64 [[#CTX_LocalSize+8]]{{$}}
// CHECK-NOT:   getelementptr inbounds i8, ptr %1, i64 [[#CTX_LocalSize+16]]{{$}}
// CHECK:       {{^}}}{{$}}
kernel void copy_reqd(global int *out)
    __attribute__((reqd_work_group_size(8, 1, 1))) {
  out[get_global_id(0)] += 1;
}
