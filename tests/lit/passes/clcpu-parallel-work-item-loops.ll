; Work-items of one barrier region do not depend on each other through
; ordinary memory (OpenCL C's data-race rule), so clcpu-parallel-work-item-
; loops puts every memory access of a work-item loop (loop ID with
; !{!"clcpu.work_item_loop"}) into one access group and lists it in the
; loop's llvm.loop.parallel_accesses, which lets the loop vectorizer widen
; it without alias checks. It does so only when EVERY access qualifies.
;
; @parallel: loads and stores through arguments, a memset and an assume:
;   all join one group; the loop ID keeps the work-item mark and its
;   vectorize hint and gains parallel_accesses.
; @not_work_item_loop: the same loop without the mark: left alone.
; @atomic_access: an atomicrmw is how work-items communicate: left alone.
; @opaque_call: a call that may touch memory: left alone.
; @private_array: a private variable (alloca) is one slot reused by every
;   work-item in turn: left alone.
; @escaped_private: once an alloca's address is stored, a pointer loaded
;   from memory may point to it: left alone (the same access qualifies in
;   @parallel, where no alloca escapes).
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-parallel-work-item-loops %s | FileCheck %s

; CHECK-LABEL: define void @parallel(
; CHECK: call void @llvm.assume(i1 %nonneg), !llvm.access.group ![[G:[0-9]+]]
; CHECK: %p = load ptr, ptr %pp, align 8, !llvm.access.group ![[G]]
; CHECK: %v = load i32, ptr %src, align 4, !llvm.access.group ![[G]]
; CHECK: %w = load i32, ptr %p, align 4, !llvm.access.group ![[G]]
; CHECK: store i32 %s, ptr %dst, align 4, !llvm.access.group ![[G]]
; CHECK: call void @llvm.memset.p0.i64(ptr %row, i8 0, i64 16, i1 false), !llvm.access.group ![[G]]
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[ID:[0-9]+]]
define void @parallel(ptr %in, ptr %out, ptr %pp, i64 %n) {
entry:
  br label %x

x:
  %i = phi i64 [ 0, %entry ], [ %i.next, %x ]
  %nonneg = icmp sge i64 %i, 0
  call void @llvm.assume(i1 %nonneg)
  %p = load ptr, ptr %pp, align 8
  %src = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load i32, ptr %src, align 4
  %w = load i32, ptr %p, align 4
  %s = add i32 %v, %w
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %s, ptr %dst, align 4
  %row = getelementptr inbounds [4 x i32], ptr %out, i64 %i
  call void @llvm.memset.p0.i64(ptr %row, i8 0, i64 16, i1 false)
  %i.next = add nuw i64 %i, 1
  %c = icmp eq i64 %i.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !0

exit:
  ret void
}

; CHECK-LABEL: define void @not_work_item_loop(
; CHECK-NOT: !llvm.access.group
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[PLAIN:[0-9]+]]
define void @not_work_item_loop(ptr %in, ptr %out, i64 %n) {
entry:
  br label %x

x:
  %i = phi i64 [ 0, %entry ], [ %i.next, %x ]
  %src = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load i32, ptr %src, align 4
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %v, ptr %dst, align 4
  %i.next = add nuw i64 %i, 1
  %c = icmp eq i64 %i.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !3

exit:
  ret void
}

; CHECK-LABEL: define void @atomic_access(
; CHECK-NOT: !llvm.access.group
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[ATOMIC:[0-9]+]]
define void @atomic_access(ptr %in, ptr %count, i64 %n) {
entry:
  br label %x

x:
  %i = phi i64 [ 0, %entry ], [ %i.next, %x ]
  %src = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load i32, ptr %src, align 4
  %old = atomicrmw add ptr %count, i32 %v seq_cst, align 4
  %i.next = add nuw i64 %i, 1
  %c = icmp eq i64 %i.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !5

exit:
  ret void
}

; CHECK-LABEL: define void @opaque_call(
; CHECK-NOT: !llvm.access.group
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[CALL:[0-9]+]]
define void @opaque_call(ptr %in, i64 %n) {
entry:
  br label %x

x:
  %i = phi i64 [ 0, %entry ], [ %i.next, %x ]
  %src = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load i32, ptr %src, align 4
  call void @external(i32 %v)
  %i.next = add nuw i64 %i, 1
  %c = icmp eq i64 %i.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !6

exit:
  ret void
}

; CHECK-LABEL: define void @private_array(
; CHECK-NOT: !llvm.access.group
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[PRIV:[0-9]+]]
define void @private_array(ptr %in, ptr %out, i64 %n) {
entry:
  %tmp = alloca [2 x i32], align 4
  br label %x

x:
  %i = phi i64 [ 0, %entry ], [ %i.next, %x ]
  %src = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load i32, ptr %src, align 4
  store i32 %v, ptr %tmp, align 4
  %t = load i32, ptr %tmp, align 4
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %t, ptr %dst, align 4
  %i.next = add nuw i64 %i, 1
  %c = icmp eq i64 %i.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !7

exit:
  ret void
}

; CHECK-LABEL: define void @escaped_private(
; CHECK-NOT: !llvm.access.group
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[ESC:[0-9]+]]
define void @escaped_private(ptr %out, ptr %pp, i64 %n) {
entry:
  %tmp = alloca i32, align 4
  store ptr %tmp, ptr %pp, align 8
  br label %x

x:
  %i = phi i64 [ 0, %entry ], [ %i.next, %x ]
  %p = load ptr, ptr %pp, align 8
  %w = load i32, ptr %p, align 4
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %w, ptr %dst, align 4
  %i.next = add nuw i64 %i, 1
  %c = icmp eq i64 %i.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !8

exit:
  ret void
}

; The loop ID of @parallel: the mark and the hint stay, the group is added.
; The others keep their original IDs.
; CHECK-DAG: ![[ID]] = distinct !{![[ID]], ![[MARK:[0-9]+]], ![[WIDTH:[0-9]+]], ![[PAR:[0-9]+]]}
; CHECK-DAG: ![[MARK]] = !{!"clcpu.work_item_loop"}
; CHECK-DAG: ![[WIDTH]] = !{!"llvm.loop.vectorize.width", i32 8}
; CHECK-DAG: ![[PAR]] = !{!"llvm.loop.parallel_accesses", ![[G]]}
; CHECK-DAG: ![[G]] = distinct !{}
; CHECK-DAG: ![[PLAIN]] = distinct !{![[PLAIN]], ![[WIDTH]]}
; CHECK-DAG: ![[ATOMIC]] = distinct !{![[ATOMIC]], ![[MARK]]}
; CHECK-DAG: ![[CALL]] = distinct !{![[CALL]], ![[MARK]]}
; CHECK-DAG: ![[PRIV]] = distinct !{![[PRIV]], ![[MARK]]}
; CHECK-DAG: ![[ESC]] = distinct !{![[ESC]], ![[MARK]]}

declare void @external(i32)
declare void @llvm.assume(i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

!0 = distinct !{!0, !1, !2}
!1 = !{!"clcpu.work_item_loop"}
!2 = !{!"llvm.loop.vectorize.width", i32 8}
!3 = distinct !{!3, !2}
!5 = distinct !{!5, !1}
!6 = distinct !{!6, !1}
!7 = distinct !{!7, !1}
!8 = distinct !{!8, !1}
