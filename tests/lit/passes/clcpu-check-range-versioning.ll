; clcpu-check-range-versioning (bounds-check mode, docs/DEBUGGING.md): a
; work-item x-loop whose checks (@clcpu.check.in_bounds(offset, extent,
; size)) have offsets affine in the work-item (4 * lx, then 4 * lx + 4)
; and invariant extents tests, in its preheader, that the lowest and
; highest offset of each lies in [0, extent - size], and then runs a copy
; of the loop (`.in.range`) without the checks: its branch is gone and it
; loads and stores unconditionally. The checked loop remains for other
; groups, its checks expanded to `extent >= size & offset <= extent - size`.
; - @not_x_loop: a loop without the work-item mark is not versioned; its
;   check is expanded in place.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu \
; RUN:   -passes=clcpu-check-range-versioning %s | FileCheck %s

; CHECK-LABEL: define void @wg_copy(
; CHECK: entry:
; The room of each object (extent - 4), the highest offsets against them.
; CHECK-DAG: %[[RIN:.+]] = add i64 %extin, -4
; CHECK-DAG: %[[ROUT:.+]] = add i64 %extout, -4
; CHECK-DAG: icmp ule i64 %{{.+}}, %[[RIN]]
; CHECK-DAG: icmp ule i64 %{{.+}}, %[[ROUT]]
; CHECK: br i1 %{{.+}}, label %x.in.range.preheader, label %x.preheader
; Each version has a preheader of its own (the loop passes after this one
; hoist into it).
; CHECK: x.preheader:
; CHECK-NEXT: br label %x
; CHECK: x.in.range.preheader:
; CHECK-NEXT: br label %x.in.range
; The copy: no check, no branch around the accesses.
; CHECK: x.in.range:
; CHECK-NOT: br i1 %ok
; CHECK: load float, ptr %p.in.range
; CHECK-NOT: br i1 %ok
; CHECK: store float %v.in.range
; CHECK-NEXT: %lx.next.in.range =
; CHECK: br i1 %done.in.range, label %exit.loopexit, label %x.in.range
; The checked loop, its checks expanded.
; CHECK: x:
; CHECK: %[[L1:.+]] = icmp ule i64 %off,
; CHECK: %ok = and i1 %{{.+}}, %[[L1]]
; CHECK: br i1 %ok, label %do, label %x.latch
; CHECK-NOT: clcpu.check.in_bounds(

; CHECK-LABEL: define void @not_x_loop(
; CHECK-NOT: in.range
; CHECK: %ok = and i1
; CHECK-NOT: clcpu.check.in_bounds
; CHECK: ret void

declare i1 @clcpu.check.in_bounds(i64, i64, i64) nounwind willreturn memory(none)

define void @wg_copy(ptr %in, ptr %out, i64 %n, i64 %extin, i64 %extout) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x.latch ]
  %off = shl nuw nsw i64 %lx, 2
  %ok = call i1 @clcpu.check.in_bounds(i64 %off, i64 %extin, i64 4)
  br i1 %ok, label %do, label %x.latch

do:
  %p = getelementptr inbounds i8, ptr %in, i64 %off
  %v = load float, ptr %p, align 4
  %off.out = add nuw nsw i64 %off, 4
  %ok.out = call i1 @clcpu.check.in_bounds(i64 %off.out, i64 %extout, i64 4)
  br i1 %ok.out, label %st, label %x.latch

st:
  %q = getelementptr inbounds i8, ptr %out, i64 %off.out
  store float %v, ptr %q, align 4
  br label %x.latch

x.latch:
  %lx.next = add nuw i64 %lx, 1
  %done = icmp eq i64 %lx.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !0

exit:
  ret void
}

define void @not_x_loop(ptr %in, i64 %n, i64 %extin) {
entry:
  br label %l

l:
  %i = phi i64 [ 0, %entry ], [ %i.next, %l ]
  %off = shl nuw nsw i64 %i, 2
  %ok = call i1 @clcpu.check.in_bounds(i64 %off, i64 %extin, i64 4)
  %i.next = add nuw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %l

exit:
  ret void
}

!clcpu.check_bounds = !{}
!0 = distinct !{!0, !1}
!1 = !{!"clcpu.work_item_loop"}
