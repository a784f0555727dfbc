; clcpu-check-range-versioning outside the bounds-check mode (no
; !clcpu.check_bounds): the image builtins (builtins/image.cl,
; coordInside) check an integer coordinate as @clcpu.check.in_bounds(
; sext(x), width, 1), and a read takes the coordinate itself where it is
; inside, clamped where not. A work-item x-loop whose coordinate moves with
; the work-item (x = gx0 + lx, a 32-bit int) tests once, in its preheader,
; that every x of the group is inside, and runs a copy in which the check
; is true (the clamp's select and the write's branch fold away); the other
; loop keeps the check as its compare.
; - @wg_row_copy: a pixel row read at (clamped) x and written at x when
;   inside.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu \
; RUN:   -passes=clcpu-check-range-versioning %s | FileCheck %s

; CHECK-LABEL: define void @wg_row_copy(
; CHECK: entry:
; CHECK: br i1 %{{.+}}, label %x.in.range.preheader, label %x.preheader
; Each version has a preheader of its own (the loop passes after this one
; hoist into it).
; CHECK: x.preheader:
; CHECK-NEXT: br label %x
; CHECK: x.in.range.preheader:
; CHECK-NEXT: br label %x.in.range
; The copy: the coordinate as it is, the write unconditional.
; CHECK: x.in.range:
; CHECK-NOT: clcpu.check.in_bounds
; CHECK-NOT: select
; CHECK: %src.px.in.range = getelementptr inbounds i8, ptr %src, i64
; CHECK-NEXT: %v.in.range = load i32, ptr %src.px.in.range
; CHECK-NOT: br i1 %in
; CHECK: store i32 %v.in.range, ptr %dst.px.in.range
; CHECK: br i1 %done.in.range, label %exit.loopexit, label %x.in.range
; The other loop: the check is its compare, the write under it.
; CHECK: x:
; CHECK: %in = and i1
; CHECK-NEXT: br i1 %in, label %st, label %x.latch
; CHECK-NOT: clcpu.check.in_bounds(

declare i1 @clcpu.check.in_bounds(i64, i64, i64) nounwind willreturn memory(none)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)

define void @wg_row_copy(ptr %src, ptr %dst, i64 %gx0, i64 %n, i32 %width) {
entry:
  %w64 = sext i32 %width to i64
  %wm1 = add i32 %width, -1
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x.latch ]
  %gx = add i64 %gx0, %lx
  %xi = trunc i64 %gx to i32
  %x64 = sext i32 %xi to i64
  %in = call i1 @clcpu.check.in_bounds(i64 %x64, i64 %w64, i64 1)
  %lo = call i32 @llvm.smax.i32(i32 %xi, i32 0)
  %hi = call i32 @llvm.smin.i32(i32 %lo, i32 %wm1)
  %clamped = select i1 %in, i32 %xi, i32 %hi
  %xs = sext i32 %clamped to i64
  %src.px = getelementptr inbounds i32, ptr %src, i64 %xs
  %v = load i32, ptr %src.px, align 4
  br i1 %in, label %st, label %x.latch

st:
  %dst.px = getelementptr inbounds i32, ptr %dst, i64 %x64
  store i32 %v, ptr %dst.px, align 4
  br label %x.latch

x.latch:
  %lx.next = add nuw i64 %lx, 1
  %done = icmp eq i64 %lx.next, %n
  br i1 %done, label %exit, label %x, !llvm.loop !0

exit:
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"clcpu.work_item_loop"}
