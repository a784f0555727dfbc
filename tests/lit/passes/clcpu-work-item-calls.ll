; clcpu-work-item-calls (OpenCL C 6.15.1, work-item functions): in a kernel
; body (its context and local id parameters marked "clcpu-context" and
; "clcpu-local-id"), get_global_id(d) becomes group id * enqueued local
; size + local id + global offset, loaded from the WorkGroupContext words
; of compiler/WorkGroupContext.def (%ctx-vars gives their indices);
; get_local_id(d) is the local id parameter; get_work_dim a 32-bit load; a
; dimension known only at run time selects among the three; the sub-group
; local id is a remainder by the constant sub-group size. Every load is
; invariant. A function that is not a body keeps its calls.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-work-item-calls %s | FileCheck %s %ctx-vars

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z14get_local_sizej(i32)
declare i32 @_Z12get_work_dimv()
declare i32 @_Z22get_sub_group_local_idv()

; The three loads of get_global_id(0) come in an order the compiler that
; built clcpu picks (C++ argument evaluation): CHECK-DAG.
; CHECK-LABEL: define internal void @ids.body(
; CHECK-DAG: %[[GP:.+]] = getelementptr inbounds i64, ptr %ctx, i64 [[#CTXW_GroupId]]
; CHECK-DAG: %[[G:.+]] = load i64, ptr %[[GP]], align 8, !invariant.load
; CHECK-DAG: %[[EP:.+]] = getelementptr inbounds i64, ptr %ctx, i64 [[#CTXW_EnqueuedLocalSize]]
; CHECK-DAG: %[[E:.+]] = load i64, ptr %[[EP]], align 8, !invariant.load
; CHECK-DAG: %[[OP:.+]] = getelementptr inbounds i64, ptr %ctx, i64 [[#CTXW_GlobalOffset]]
; CHECK-DAG: %[[O:.+]] = load i64, ptr %[[OP]], align 8, !invariant.load
; CHECK: %[[M:.+]] = mul i64 %[[G]], %[[E]]
; CHECK-NEXT: %[[A:.+]] = add i64 %[[M]], %lx
; CHECK-NEXT: %[[GID:.+]] = add i64 %[[A]], %[[O]]
; CHECK-NEXT: store i64 %[[GID]], ptr %out
; CHECK-NEXT: store i64 %ly, ptr %out
; CHECK-NEXT: %[[DP:.+]] = getelementptr inbounds i64, ptr %ctx, i64 [[#CTXW_WorkDim]]
; CHECK-NEXT: %[[D:.+]] = load i32, ptr %[[DP]], align 4, !invariant.load
; CHECK-NEXT: store i32 %[[D]], ptr %out
; CHECK: getelementptr inbounds i64, ptr %ctx, i64 [[#CTXW_LocalSize+2]]
; CHECK: select i1
; CHECK: store i64 %{{.+}}, ptr %out
; CHECK: urem i64
; CHECK-NOT: call
; CHECK: ret void
define internal void @ids.body(ptr %out, i32 %dim, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
  %g = call i64 @_Z13get_global_idj(i32 0)
  store i64 %g, ptr %out
  %l = call i64 @_Z12get_local_idj(i32 1)
  store i64 %l, ptr %out
  %d = call i32 @_Z12get_work_dimv()
  store i32 %d, ptr %out
  %s = call i64 @_Z14get_local_sizej(i32 %dim)
  store i64 %s, ptr %out
  %sg = call i32 @_Z22get_sub_group_local_idv()
  store i32 %sg, ptr %out
  ret void
}

; CHECK-LABEL: define void @not_a_body(
; CHECK: call i64 @_Z13get_global_idj(i32 0)
define void @not_a_body(ptr %out) {
  %g = call i64 @_Z13get_global_idj(i32 0)
  store i64 %g, ptr %out
  ret void
}
