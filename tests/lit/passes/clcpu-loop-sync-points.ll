; clcpu-loop-sync-points: in a kernel body, a grid-stride loop (its exit
; compares an induction that starts at a local-id-dependent value and
; advances by a uniform step with a uniform bound, clcpu-uniformity) gets a
; sync point at its header (after its PHIs): a fence-less barrier marked clcpu.loop_sync,
; so that the barrier regions run each iteration for the whole group as
; one vectorized region. A loop whose trip count is the same in every
; work-item (uniform start) and a loop with an atomic are left alone.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-loop-sync-points %s | FileCheck %s

; CHECK-LABEL: define internal void @grid_stride.body(
; CHECK: loop:
; CHECK-NEXT: %i = phi i64
; CHECK-NEXT: call void @_Z7barrierj(i32 0), !clcpu.loop_sync
define internal void @grid_stride.body(ptr %out, i64 %n, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  br label %loop

loop:
  %i = phi i64 [ %lx, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr %out, i64 %i
  store float 1.0, ptr %p
  %i.next = add i64 %i, 64
  %c = icmp ult i64 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

; CHECK-LABEL: define internal void @uniform_start.body(
; CHECK-NOT: call
; CHECK: ret void
define internal void @uniform_start.body(ptr %out, i64 %n, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr %out, i64 %i
  store float 1.0, ptr %p
  %i.next = add i64 %i, 64
  %c = icmp ult i64 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

; CHECK-LABEL: define internal void @atomic_in_loop.body(
; CHECK-NOT: call void @_Z7barrierj
; CHECK: ret void
define internal void @atomic_in_loop.body(ptr %out, i64 %n, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  br label %loop

loop:
  %i = phi i64 [ %lx, %entry ], [ %i.next, %loop ]
  %a = atomicrmw add ptr %out, i32 1 seq_cst
  %i.next = add i64 %i, 64
  %c = icmp ult i64 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  ret void
}
