; clcpu-progress-yields (cl_khr_subgroups, independent forward progress):
; a loop of a kernel body whose exit depends on an atomic load (a
; work-item waiting for another) gets a call through
; WorkGroupContext::Yield, on a block of its own on the back edge, so a
; loop that exits at once costs nothing. The value is followed through a
; private variable (the IR is not optimized yet). A loop on a plain load
; is left alone: waiting on it would be a data race.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-progress-yields %s | FileCheck %s %ctx-vars

; CHECK-LABEL: define internal void @spin_on_atomic.body(
; CHECK: loop:
; CHECK: br i1 %c, label %[[EDGE:.+]], label %exit
; CHECK: [[EDGE]]:
; CHECK-NEXT: %[[YP:.+]] = getelementptr inbounds i64, ptr %ctx, i64 [[#CTXW_Yield]]
; CHECK-NEXT: %[[Y:.+]] = load ptr, ptr %[[YP]], align 8, !invariant.load
; CHECK-NEXT: call void %[[Y]](ptr %ctx) #[[#]]
; CHECK-NEXT: br label %loop
define internal void @spin_on_atomic.body(ptr %flag, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  %seen = alloca i32
  br label %loop

loop:
  %v = load atomic i32, ptr %flag seq_cst, align 4
  store i32 %v, ptr %seen
  %w = load i32, ptr %seen
  %c = icmp eq i32 %w, 0
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

; CHECK-LABEL: define internal void @plain_loop.body(
; CHECK-NOT: call
; CHECK: ret void
define internal void @plain_loop.body(ptr %flag, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  %a = atomicrmw add ptr %flag, i32 1 seq_cst
  br label %loop

loop:
  %v = load i32, ptr %flag, align 4
  %c = icmp eq i32 %v, 0
  br i1 %c, label %loop, label %exit

exit:
  ret void
}
