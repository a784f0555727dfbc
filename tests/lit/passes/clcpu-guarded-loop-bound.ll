; clcpu-guarded-loop-bound: a loop whose body sits behind a header guard
; `base + j < n` (true for a prefix of the iterations, then false for good)
; stops at the first false guard instead of running the empty iterations
; out. The preheader checks the first guard, a new counter runs from 0 to
; min(backedge-taken count, n - base - 1), and the guard disappears, so the
; body runs unbranched.
;  * guarded_scan: the CPU-style scan (signed guard, sign-extended i32
;    bounds, so n - base - 1 is computed in i64). Its running sum leaves the
;    loop through a latch phi that passes the header phi through when the
;    guard fails: the exit phi takes the start value when no iteration runs.
;  * guard_unsigned_inverted: an unsigned guard whose "then" is the false
;    successor (`idx >= n` skips); n - base may wrap in i64, so the last
;    iteration is computed in i128 and truncated.
;  * guard_rises: `idx > n` is false, then true: not a prefix, left alone.
;  * store_in_header: the header stores on every iteration, so the dropped
;    iterations are not empty: left alone.
;  * hands_out_counter: the loop hands out its counter, which the dropped
;    iterations still advance: left alone.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-guarded-loop-bound %s | FileCheck %s

; CHECK-LABEL: define i32 @guarded_scan(
; CHECK: preheader:
; CHECK-DAG: %guarded.enter = icmp slt i64 %base, %n
; CHECK-DAG: [[NM1:%.*]] = add i64 %n, -1
; CHECK-DAG: [[HOLDS:%.*]] = sub i64 [[NM1]], %base
; CHECK-DAG: [[BTC:%.*]] = add i64 %k, -1
; CHECK-DAG: [[LAST:%.*]] = call i64 @llvm.umin.i64(i64 [[HOLDS]], i64 [[BTC]])
; CHECK: br i1 %guarded.enter, label %loop, label %loop.exit
; CHECK: loop:
; CHECK: %guarded.iter = phi i64 [ 0, %preheader ], [ %guarded.next, %latch ]
; CHECK-NOT: icmp slt i64 %idx
; CHECK: br label %then
; CHECK: latch:
; CHECK: %guarded.next = add nuw i64 %guarded.iter, 1
; CHECK: %guarded.done = icmp eq i64 %guarded.iter, [[LAST]]
; CHECK: br i1 %guarded.done, label %loop.exit, label %loop
; CHECK: loop.exit:
; CHECK-NEXT: %total = phi i32 [ %sum, %latch ], [ 7, %preheader ]
define i32 @guarded_scan(ptr %in, ptr %out, i32 %base32, i32 %n32, i64 %k) {
entry:
  %base = sext i32 %base32 to i64
  %n = sext i32 %n32 to i64
  %any = icmp sgt i64 %k, 0
  br i1 %any, label %preheader, label %exit

preheader:
  br label %loop

loop:
  %j = phi i64 [ 0, %preheader ], [ %j.next, %latch ]
  %pre = phi i32 [ 7, %preheader ], [ %pre.next, %latch ]
  %idx = add nsw i64 %base, %j
  %inbounds = icmp slt i64 %idx, %n
  br i1 %inbounds, label %then, label %latch

then:
  %in.addr = getelementptr inbounds i32, ptr %in, i64 %idx
  %v = load i32, ptr %in.addr, align 4
  %out.addr = getelementptr inbounds i32, ptr %out, i64 %idx
  store i32 %pre, ptr %out.addr, align 4
  %sum = add nsw i32 %v, %pre
  br label %latch

latch:
  %pre.next = phi i32 [ %sum, %then ], [ %pre, %loop ]
  %j.next = add nuw nsw i64 %j, 1
  %done = icmp eq i64 %j.next, %k
  br i1 %done, label %loop.exit, label %loop

loop.exit:
  %total = phi i32 [ %pre.next, %latch ]
  br label %exit

exit:
  %r = phi i32 [ 7, %entry ], [ %total, %loop.exit ]
  ret i32 %r
}

; CHECK-LABEL: define void @guard_unsigned_inverted(
; CHECK-DAG: %guarded.enter = icmp ult i64 %base, %n
; CHECK-DAG: [[LAST128:%.*]] = call i128 @llvm.umin.i128(
; CHECK-DAG: %guarded.last = trunc i128 [[LAST128]] to i64
; CHECK: br i1 %guarded.enter, label %loop, label %exit
; CHECK: loop:
; CHECK-NOT: icmp uge
; CHECK: br label %then
; CHECK: %guarded.more = icmp ne i64 %guarded.iter, %guarded.last
; CHECK: br i1 %guarded.more, label %loop, label %exit
define void @guard_unsigned_inverted(ptr %out, i64 %base, i64 %n, i64 %k) {
entry:
  br label %loop

loop:
  %j = phi i64 [ 0, %entry ], [ %j.next, %latch ]
  %idx = add nuw i64 %base, %j
  %outside = icmp uge i64 %idx, %n
  br i1 %outside, label %latch, label %then

then:
  %out.addr = getelementptr inbounds i64, ptr %out, i64 %idx
  store i64 %j, ptr %out.addr, align 8
  br label %latch

latch:
  %j.next = add nuw i64 %j, 1
  %more = icmp ult i64 %j.next, %k
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; CHECK-LABEL: define void @guard_rises(
; CHECK-NOT: guarded
; CHECK: %past = icmp sgt i64 %idx, %n
; CHECK-NEXT: br i1 %past, label %then, label %latch
; CHECK-NOT: guarded
; CHECK: ret void
define void @guard_rises(ptr %out, i64 %base, i64 %n, i64 %k) {
entry:
  br label %loop

loop:
  %j = phi i64 [ 0, %entry ], [ %j.next, %latch ]
  %idx = add nsw i64 %base, %j
  %past = icmp sgt i64 %idx, %n
  br i1 %past, label %then, label %latch

then:
  %out.addr = getelementptr inbounds i64, ptr %out, i64 %idx
  store i64 %j, ptr %out.addr, align 8
  br label %latch

latch:
  %j.next = add nuw nsw i64 %j, 1
  %more = icmp slt i64 %j.next, %k
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; CHECK-LABEL: define void @store_in_header(
; CHECK-NOT: guarded
; CHECK: %inbounds = icmp slt i64 %idx, %n
; CHECK-NEXT: br i1 %inbounds, label %then, label %latch
; CHECK-NOT: guarded
; CHECK: ret void
define void @store_in_header(ptr %out, ptr %count, i64 %base, i64 %n, i64 %k) {
entry:
  br label %loop

loop:
  %j = phi i64 [ 0, %entry ], [ %j.next, %latch ]
  store i64 %j, ptr %count, align 8
  %idx = add nsw i64 %base, %j
  %inbounds = icmp slt i64 %idx, %n
  br i1 %inbounds, label %then, label %latch

then:
  %out.addr = getelementptr inbounds i64, ptr %out, i64 %idx
  store i64 %j, ptr %out.addr, align 8
  br label %latch

latch:
  %j.next = add nuw nsw i64 %j, 1
  %more = icmp slt i64 %j.next, %k
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; CHECK-LABEL: define i64 @hands_out_counter(
; CHECK-NOT: guarded
; CHECK: %inbounds = icmp slt i64 %idx, %n
; CHECK-NEXT: br i1 %inbounds, label %then, label %latch
; CHECK-NOT: guarded
; CHECK: ret i64 %last
define i64 @hands_out_counter(ptr %out, i64 %base, i64 %n, i64 %k) {
entry:
  br label %loop

loop:
  %j = phi i64 [ 0, %entry ], [ %j.next, %latch ]
  %idx = add nsw i64 %base, %j
  %inbounds = icmp slt i64 %idx, %n
  br i1 %inbounds, label %then, label %latch

then:
  %out.addr = getelementptr inbounds i64, ptr %out, i64 %idx
  store i64 %j, ptr %out.addr, align 8
  br label %latch

latch:
  %j.next = add nuw nsw i64 %j, 1
  %more = icmp slt i64 %j.next, %k
  br i1 %more, label %loop, label %exit

exit:
  %last = phi i64 [ %j, %latch ]
  ret i64 %last
}
