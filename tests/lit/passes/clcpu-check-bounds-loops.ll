; clcpu-check-bounds on a loop whose access moves by a constant step
; (`in[base + j]` for j < k, j an int): the preheader computes the lowest
; and highest offset the access takes (4 * base and 4 * (base + k - 1),
; the recurrence assumed not to wrap in 32 bits, which it tests too) and
; enters the copy of the loop without checks (`.in.range`, which vectorizes
; as the unchecked kernel) when both lie in the argument's extent;
; otherwise the checked loop, whose load goes to the dummy object on a
; failure and records it.
; - @barrier.body: a loop with a barrier (convergent) is never split: its
;   access is checked in place, no copy.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu \
; RUN:   -passes=clcpu-check-bounds %s | FileCheck %s

; CHECK-LABEL: define internal void @sums.body(
; CHECK: %extent.arg1 = load i64
; CHECK: %[[FITS:.+]] = icmp uge i64 %extent.arg1, 4
; CHECK: %[[ROOM:.+]] = sub i64 %extent.arg1, 4
; CHECK: %[[LO:.+]] = call i64 @llvm.smin.i64(
; CHECK: %[[HI:.+]] = call i64 @llvm.smax.i64(
; CHECK: icmp ule i64 %[[HI]], %[[ROOM]]
; CHECK: icmp sge i64 %[[LO]], 0
; CHECK: icmp ule i64 %{{.+}}, 4294967295
; CHECK: and i1 %[[FITS]],
; The assumption that base + j does not wrap in 32 bits.
; CHECK: icmp slt i32 %{{.+}}, %base
; CHECK: %in.range = and i1
; CHECK-NEXT: br i1 %in.range, label %for.cond.checked.ph.in.range, label %for.cond.checked.ph
; The unchecked copy: no offset computed, no dummy object.
; CHECK: for.body.in.range:
; CHECK-NEXT: %idx.in.range = add nsw i32 %base, %j.in.range
; CHECK-NEXT: %wide.in.range = sext i32 %idx.in.range to i64
; CHECK-NEXT: %p.in.range = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %wide.in.range
; CHECK-NEXT: %v.in.range = load i32, ptr addrspace(1) %p.in.range, align 4
; The checked loop.
; CHECK: for.body:
; CHECK: %offset = sub i64
; CHECK: %in.bounds = call i1 @clcpu.check.in_bounds(i64 %offset, i64 %extent.arg1, i64 4)
; CHECK: select i1 %in.bounds, ptr addrspace(1) %p, ptr addrspace(1) addrspacecast (ptr @clcpu.check.sink
; Both copies leave through one exit, their sums merged.
; CHECK: exit:
; CHECK-NEXT: %s.lcssa = phi i32 [ %s, %for.cond ], [ %s.in.range, %for.cond.in.range ]

; CHECK-LABEL: define internal void @barrier.body(
; CHECK-NOT: in.range
; CHECK: %in.bounds = call i1 @clcpu.check.in_bounds(
; CHECK: call void @barrier(i32 1)
; CHECK-NOT: in.range
; CHECK: ret void

define internal void @sums.body(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %k, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  %lx32 = trunc i64 %lx to i32
  %base = mul nsw i32 %lx32, %k
  br label %for.cond

for.cond:
  %j = phi i32 [ 0, %entry ], [ %j.next, %for.body ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %for.body ]
  %more = icmp slt i32 %j, %k
  br i1 %more, label %for.body, label %exit

for.body:
  %idx = add nsw i32 %base, %j
  %wide = sext i32 %idx to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %wide
  %v = load i32, ptr addrspace(1) %p, align 4
  %s.next = add i32 %s, %v
  %j.next = add nsw i32 %j, 1
  br label %for.cond

exit:
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %lx
  store i32 %s, ptr addrspace(1) %q, align 4
  ret void
}

declare void @barrier(i32) convergent

define internal void @barrier.body(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %k, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  br label %for.cond

for.cond:
  %j = phi i32 [ 0, %entry ], [ %j.next, %for.body ]
  %more = icmp slt i32 %j, %k
  br i1 %more, label %for.body, label %exit

for.body:
  %wide = sext i32 %j to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %wide
  %v = load i32, ptr addrspace(1) %p, align 4
  call void @barrier(i32 1)
  %j.next = add nsw i32 %j, 1
  br label %for.cond

exit:
  ret void
}
