; clcpu-lower-work-group-sync (the fiber path, OpenCL C 6.13.8 barrier and
; 6.13.15 work-group functions): in a kernel body, barrier() becomes a call
; through WorkGroupContext::Barrier and work_group_reduce_add a call
; through ::Collective with its Op (CollReduceAdd * 16 + CollInt = 48), the
; value zero-extended to 64 bits and the result truncated back. A function
; that is not a body keeps its calls.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-lower-work-group-sync %s | FileCheck %s %ctx-vars

declare void @_Z7barrierj(i32)
declare i32 @_Z21work_group_reduce_addi(i32)

; CHECK-LABEL: define internal void @sync.body(
; CHECK: %[[BP:.+]] = getelementptr inbounds i64, ptr %ctx, i64 [[#CTXW_Barrier]]
; CHECK-NEXT: %[[B:.+]] = load ptr, ptr %[[BP]]
; CHECK-NEXT: call void %[[B]](ptr %ctx)
; CHECK: %[[CP:.+]] = getelementptr inbounds i64, ptr %ctx, i64 [[#CTXW_Collective]]
; CHECK-NEXT: %[[C:.+]] = load ptr, ptr %[[CP]]
; CHECK-NEXT: %[[R:.+]] = call i64 %[[C]](ptr %ctx, i32 48, i64 %{{.+}}
; CHECK: trunc i64 %[[R]] to i32
; CHECK-NOT: @_Z7barrierj(
; CHECK-NOT: @_Z21work_group_reduce_addi(
; CHECK: ret void
define internal void @sync.body(ptr %out, i32 %v, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
  store i32 %v, ptr %out
  call void @_Z7barrierj(i32 1)
  %r = call i32 @_Z21work_group_reduce_addi(i32 %v)
  store i32 %r, ptr %out
  ret void
}

; CHECK-LABEL: define void @not_a_body(
; CHECK: call void @_Z7barrierj(i32 1)
define void @not_a_body(ptr %out) {
  call void @_Z7barrierj(i32 1)
  ret void
}
