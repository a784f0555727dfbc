; x86 has no vector integer division, so a 32-bit sdiv/udiv/srem/urem in a
; loop keeps the loop vectorizer away. When the divisor does not change in
; the loop, clcpu-invariant-division computes a magic multiplier and shifts
; once in the preheader of the outermost loop the divisor is invariant in
; (0 replaced by 1) and replaces the division by multiply-high, adds and
; shifts (Granlund-Montgomery). It looks through clcpu-safe-integer-
; division's `select(guard, 1, d)`.
;
; @udiv_nested: unsigned; the magic numbers go to the preheader of the
;   OUTER loop (the divisor is invariant in both), computed once for the
;   two divisions by %d; no udiv is left in the loops.
; @srem_guarded: signed remainder behind SafeIntegerDivision's guard: the
;   magic numbers are computed from %d itself (the guard select is looked
;   through), the remainder is n - q * d.
; @varying_divisor: the divisor is loaded in the loop: left alone.
; @unrelated_select: `select(c, 1, d)` with a condition that is not the
;   guard and varies in the loop: the divisor varies, left alone.
; @constant_divisor, @i64_division, @not_in_loop: a constant divisor (the
;   backend's job), a 64-bit division and a division outside any loop are
;   left alone.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-invariant-division %s | FileCheck %s

; CHECK-LABEL: define void @udiv_nested(
; CHECK: entry:
; CHECK: %[[ISZERO:.*]] = icmp eq i32 %d, 0
; CHECK: %div.d = select i1 %[[ISZERO]], i32 1, i32 %d
; CHECK: %[[DM1:.*]] = sub i32 %div.d, 1
; CHECK: call i32 @llvm.ctlz.i32(i32 %[[DM1]], i1 false)
; CHECK: %div.m = add i64 %{{.*}}, 1
; CHECK-NOT: div.m
; CHECK: outer:
; CHECK-NOT: udiv
; CHECK: inner:
; CHECK-NOT: udiv
; CHECK: %[[N64:.*]] = zext i32 %i to i64
; CHECK: %[[P:.*]] = mul i64 %[[N64]], %div.m
; CHECK: lshr i64 %[[P]], 32
; CHECK: %q = lshr i32
; CHECK: %[[J64:.*]] = zext i32 %j to i64
; CHECK: mul i64 %[[J64]], %div.m
; CHECK: %q2 = lshr i32
; CHECK-NOT: udiv
; CHECK: exit:
define void @udiv_nested(ptr %out, i32 %d, i32 %n) {
entry:
  br label %outer

outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %outer.latch ]
  br label %inner

inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %inner ]
  %q = udiv i32 %i, %d
  %q2 = udiv i32 %j, %d
  %sum = add i32 %q, %q2
  %idx = zext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %out, i64 %idx
  store i32 %sum, ptr %p, align 4
  %i.next = add nuw i32 %i, 1
  %ic = icmp eq i32 %i.next, %n
  br i1 %ic, label %outer.latch, label %inner

outer.latch:
  %j.next = add nuw i32 %j, 1
  %jc = icmp eq i32 %j.next, %n
  br i1 %jc, label %exit, label %outer

exit:
  ret void
}

; CHECK-LABEL: define void @srem_guarded(
; CHECK: entry:
; CHECK: %[[Z:.*]] = icmp eq i32 %d, 0
; CHECK: %div.d = select i1 %[[Z]], i32 1, i32 %d
; CHECK: call i32 @llvm.abs.i32(i32 %div.d, i1 false)
; CHECK: %div.m = trunc i64 %{{.*}} to i32
; CHECK: %[[SIGN:.*]] = ashr i32 %div.d, 31
; CHECK: loop:
; CHECK-NOT: srem
; CHECK-DAG: %[[M64:.*]] = sext i32 %div.m to i64
; CHECK-DAG: %[[N64:.*]] = sext i32 %i to i64
; CHECK: mul i64 %[[N64]], %[[M64]]
; CHECK: xor i32 %{{.*}}, %[[SIGN]]
; CHECK: %[[Q:.*]] = sub i32 %{{.*}}, %[[SIGN]]
; CHECK: %[[QD:.*]] = mul i32 %[[Q]], %div.d
; CHECK: %r = sub i32 %i, %[[QD]]
; CHECK-NOT: srem
; CHECK: exit:
define void @srem_guarded(ptr %out, i32 %d, i32 %n) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %zero = icmp eq i32 %d, 0
  %min = icmp eq i32 %i, -2147483648
  %m1 = icmp eq i32 %d, -1
  %ovf = and i1 %min, %m1
  %bad = or i1 %zero, %ovf
  %safe = select i1 %bad, i32 1, i32 %d
  %r = srem i32 %i, %safe
  %idx = zext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %out, i64 %idx
  store i32 %r, ptr %p, align 4
  %i.next = add nuw i32 %i, 1
  %c = icmp eq i32 %i.next, %n
  br i1 %c, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @varying_divisor(
; CHECK-NOT: div.m
; CHECK: %q = sdiv i32 %i, %d
define void @varying_divisor(ptr %out, ptr %divs, i32 %n) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %idx = zext i32 %i to i64
  %dp = getelementptr inbounds i32, ptr %divs, i64 %idx
  %d = load i32, ptr %dp, align 4
  %q = sdiv i32 %i, %d
  %p = getelementptr inbounds i32, ptr %out, i64 %idx
  store i32 %q, ptr %p, align 4
  %i.next = add nuw i32 %i, 1
  %c = icmp eq i32 %i.next, %n
  br i1 %c, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @unrelated_select(
; CHECK-NOT: div.m
; CHECK: %s = select i1 %odd, i32 1, i32 %d
; CHECK-NEXT: %q = udiv i32 %i, %s
define void @unrelated_select(ptr %out, i32 %d, i32 %n) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %bit = and i32 %i, 1
  %odd = icmp eq i32 %bit, 1
  %s = select i1 %odd, i32 1, i32 %d
  %q = udiv i32 %i, %s
  %idx = zext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %out, i64 %idx
  store i32 %q, ptr %p, align 4
  %i.next = add nuw i32 %i, 1
  %c = icmp eq i32 %i.next, %n
  br i1 %c, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @constant_divisor(
; CHECK-NOT: div.m
; CHECK: %q = sdiv i32 %i, 7
; CHECK: %r = urem i64 %i64, %d64
; CHECK-NOT: div.m
; CHECK: ret void
define void @constant_divisor(ptr %out, i64 %d64, i32 %n) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %q = sdiv i32 %i, 7
  %i64 = zext i32 %i to i64
  %r = urem i64 %i64, %d64
  %r32 = trunc i64 %r to i32
  %sum = add i32 %q, %r32
  %p = getelementptr inbounds i32, ptr %out, i64 %i64
  store i32 %sum, ptr %p, align 4
  %i.next = add nuw i32 %i, 1
  %c = icmp eq i32 %i.next, %n
  br i1 %c, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define i32 @not_in_loop(
; CHECK-NEXT: %q = udiv i32 %n, %d
; CHECK-NEXT: ret i32 %q
define i32 @not_in_loop(i32 %n, i32 %d) {
  %q = udiv i32 %n, %d
  ret i32 %q
}
