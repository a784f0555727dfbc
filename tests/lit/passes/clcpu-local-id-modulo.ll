; A power-of-two remainder of the local id in a work-item loop (loop ID
; with !{!"clcpu.work_item_loop"}) that may wrap within a group is
; rewritten by clcpu-local-id-modulo as `x - (x & ~mask)`, the same value,
; which scalar evolution does not see through: the loop vectorizer then
; gathers through it instead of versioning the loop on the remainder not
; wrapping, a condition every group holding a whole period fails.
;
; @ring_and: `(lid + 1) & 255` over a loop of unknown trip count: rewritten.
; @ring_urem: `urem (lid + 1), 256`: rewritten.
; @ring_srem_nonneg: `srem (lid + 1), 256` with the loop bounded by
;   umin(n, 256), so lid + 1 is known not negative:
;   rewritten.
; @ring_srem_signed: the same with an unbounded i32 id that may be
;   negative: left alone (a signed remainder scalar evolution does not
;   model as a mask).
; @no_wrap_in_group: `(lid + 1) & 511` in a loop of at most 256 trips:
;   the values stay in one period, left alone.
; @global_id: `(gid + 1) & 255` with gid = base + lid (a start that is not
;   a constant: groups wrap one at a time): left alone.
; @not_work_item_loop: the same as @ring_and without the mark: left alone.
; @reqd_in_period: `lid & 255` in a loop whose ID records at most 256 trips
;   (reqd_work_group_size(256)): the values stay in one period, left alone
;   (clFFT's butterfly indices).
; @reqd_wraps: `(lid + 1) & 255` in the same loop: rewritten.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-local-id-modulo %s | FileCheck %s

; CHECK-LABEL: define void @ring_and(
; CHECK: %r.high = and i64 %a, -256
; CHECK: %r.low = sub i64 %a, %r.high
; CHECK: getelementptr inbounds i32, ptr %s, i64 %r.low
define void @ring_and(ptr %s, ptr %out, i64 %n) {
entry:
  br label %x

x:
  %i = phi i64 [ 0, %entry ], [ %i.next, %x ]
  %a = add nuw i64 %i, 1
  %r = and i64 %a, 255
  %p = getelementptr inbounds i32, ptr %s, i64 %r
  %v = load i32, ptr %p, align 4
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %v, ptr %q, align 4
  %i.next = add nuw i64 %i, 1
  %c = icmp eq i64 %i.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !0

exit:
  ret void
}

; CHECK-LABEL: define void @ring_urem(
; CHECK: %r.high = and i64 %a, -256
; CHECK: %r.low = sub i64 %a, %r.high
; CHECK-NOT: urem
define void @ring_urem(ptr %s, ptr %out, i64 %n) {
entry:
  br label %x

x:
  %i = phi i64 [ 0, %entry ], [ %i.next, %x ]
  %a = add nuw i64 %i, 1
  %r = urem i64 %a, 256
  %p = getelementptr inbounds i32, ptr %s, i64 %r
  %v = load i32, ptr %p, align 4
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %v, ptr %q, align 4
  %i.next = add nuw i64 %i, 1
  %c = icmp eq i64 %i.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !2

exit:
  ret void
}

; CHECK-LABEL: define void @ring_srem_nonneg(
; CHECK: %r.high = and i32 %a, -256
; CHECK: %r.low = sub i32 %a, %r.high
; CHECK-NOT: srem
define void @ring_srem_nonneg(ptr %s, ptr %out, i64 %n) {
entry:
  %m = call i64 @llvm.umin.i64(i64 %n, i64 256)
  br label %x

x:
  %i = phi i64 [ 0, %entry ], [ %i.next, %x ]
  %t = trunc i64 %i to i32
  %a = add nsw i32 %t, 1
  %r = srem i32 %a, 256
  %e = sext i32 %r to i64
  %p = getelementptr inbounds i32, ptr %s, i64 %e
  %v = load i32, ptr %p, align 4
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %v, ptr %q, align 4
  %i.next = add nuw i64 %i, 1
  %c = icmp uge i64 %i.next, %m
  br i1 %c, label %exit, label %x, !llvm.loop !3

exit:
  ret void
}

; CHECK-LABEL: define void @ring_srem_signed(
; CHECK: %r = srem i32 %a, 256
; CHECK-NOT: .low
define void @ring_srem_signed(ptr %s, ptr %out, i64 %n) {
entry:
  br label %x

x:
  %i = phi i64 [ 0, %entry ], [ %i.next, %x ]
  %t = trunc i64 %i to i32
  %a = add i32 %t, 1
  %r = srem i32 %a, 256
  %e = sext i32 %r to i64
  %p = getelementptr inbounds i32, ptr %s, i64 %e
  %v = load i32, ptr %p, align 4
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %v, ptr %q, align 4
  %i.next = add nuw i64 %i, 1
  %c = icmp eq i64 %i.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !4

exit:
  ret void
}

; CHECK-LABEL: define void @no_wrap_in_group(
; CHECK: %r = and i64 %a, 511
; CHECK-NOT: .low
define void @no_wrap_in_group(ptr %s, ptr %out, i64 %n) {
entry:
  %m = call i64 @llvm.umin.i64(i64 %n, i64 256)
  br label %x

x:
  %i = phi i64 [ 0, %entry ], [ %i.next, %x ]
  %a = add nuw i64 %i, 1
  %r = and i64 %a, 511
  %p = getelementptr inbounds i32, ptr %s, i64 %r
  %v = load i32, ptr %p, align 4
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %v, ptr %q, align 4
  %i.next = add nuw i64 %i, 1
  %c = icmp uge i64 %i.next, %m
  br i1 %c, label %exit, label %x, !llvm.loop !5

exit:
  ret void
}

; CHECK-LABEL: define void @global_id(
; CHECK: %r = and i64 %a, 255
; CHECK-NOT: .low
define void @global_id(ptr %s, ptr %out, i64 %base, i64 %n) {
entry:
  br label %x

x:
  %i = phi i64 [ 0, %entry ], [ %i.next, %x ]
  %g = add i64 %base, %i
  %a = add i64 %g, 1
  %r = and i64 %a, 255
  %p = getelementptr inbounds i32, ptr %s, i64 %r
  %v = load i32, ptr %p, align 4
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %v, ptr %q, align 4
  %i.next = add nuw i64 %i, 1
  %c = icmp eq i64 %i.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !6

exit:
  ret void
}

; CHECK-LABEL: define void @not_work_item_loop(
; CHECK: %r = and i64 %a, 255
; CHECK-NOT: .low
define void @not_work_item_loop(ptr %s, ptr %out, i64 %n) {
entry:
  br label %x

x:
  %i = phi i64 [ 0, %entry ], [ %i.next, %x ]
  %a = add nuw i64 %i, 1
  %r = and i64 %a, 255
  %p = getelementptr inbounds i32, ptr %s, i64 %r
  %v = load i32, ptr %p, align 4
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %v, ptr %q, align 4
  %i.next = add nuw i64 %i, 1
  %c = icmp eq i64 %i.next, %n
  br i1 %c, label %exit, label %x

exit:
  ret void
}

; CHECK-LABEL: define void @reqd_in_period(
; CHECK: %r = and i64 %i, 255
; CHECK-NOT: .low
define void @reqd_in_period(ptr %s, ptr %out, i64 %n) {
entry:
  br label %x

x:
  %i = phi i64 [ 0, %entry ], [ %i.next, %x ]
  %r = and i64 %i, 255
  %p = getelementptr inbounds i32, ptr %s, i64 %r
  %v = load i32, ptr %p, align 4
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %v, ptr %q, align 4
  %i.next = add nuw i64 %i, 1
  %c = icmp eq i64 %i.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !7

exit:
  ret void
}

; CHECK-LABEL: define void @reqd_wraps(
; CHECK: %r.high = and i64 %a, -256
; CHECK: %r.low = sub i64 %a, %r.high
define void @reqd_wraps(ptr %s, ptr %out, i64 %n) {
entry:
  br label %x

x:
  %i = phi i64 [ 0, %entry ], [ %i.next, %x ]
  %a = add nuw i64 %i, 1
  %r = and i64 %a, 255
  %p = getelementptr inbounds i32, ptr %s, i64 %r
  %v = load i32, ptr %p, align 4
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %v, ptr %q, align 4
  %i.next = add nuw i64 %i, 1
  %c = icmp eq i64 %i.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !9

exit:
  ret void
}

declare i64 @llvm.umin.i64(i64, i64)

!0 = distinct !{!0, !1}
!1 = !{!"clcpu.work_item_loop"}
!2 = distinct !{!2, !1}
!3 = distinct !{!3, !1}
!4 = distinct !{!4, !1}
!5 = distinct !{!5, !1}
!6 = distinct !{!6, !1}
!7 = distinct !{!7, !1, !8}
!8 = !{!"clcpu.work_item_loop.max_trips", i32 256}
!9 = distinct !{!9, !1, !8}
