; A work-item loop (!{!"clcpu.work_item_loop"}) that contains loops carries
; hints for the loop vectorizer's VPlan-native (outer-loop) path, which
; widens without the inner-loop path's checks. Right before the vectorizer,
; clcpu-work-item-loop-check withdraws the llvm.loop.vectorize.* hints
; where that path cannot widen the loop correctly or well; the mark and any
; other property stay. Where the hints stay, optimizer-only intrinsics
; (assume, lifetimes, ...) are erased from the loop, as the native path
; would try to widen them. Innermost work-item loops are not its business.
;
; @widenable: matrix-vector product (a[j] uniform, b[j * n + gid]
;   consecutive across work-items, llvm.fmuladd): hints kept, the assume
;   erased.
; Hints withdrawn, each for one reason:
; @opaque_call: a call that is not a vectorizable intrinsic.
; @varying_branch: `if (sum > 0)`, a branch that differs between
;   work-items and is no loop's back or exit edge.
; @live_out: a value of the loop used after it (the native path would not
;   carry it out).
; @private_array: a store to an alloca, which all lanes would share.
; @vector_value: a <2 x float> load.
; @own_elements: the inner loop walks in[gid * k + j], each work-item's own
;   consecutive elements (gathers of stride k across work-items).
; @innermost: a marked loop without inner loops is left alone, call
;   included.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-work-item-loop-check %s | FileCheck %s

; CHECK-LABEL: define void @widenable(
; CHECK-NOT: @llvm.assume
; CHECK: call float @llvm.fmuladd.f32(
; CHECK-NOT: @llvm.assume
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[KEPT:[0-9]+]]
define void @widenable(ptr %a, ptr %b, ptr %out, i64 %n, i64 %wg) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x.latch ]
  %nonneg = icmp sge i64 %lx, 0
  call void @llvm.assume(i1 %nonneg)
  %bcol = getelementptr inbounds float, ptr %b, i64 %lx
  br label %inner

inner:
  %j = phi i64 [ 0, %x ], [ %j.next, %inner ]
  %sum = phi float [ 0.0, %x ], [ %sum.next, %inner ]
  %pa = getelementptr inbounds float, ptr %a, i64 %j
  %va = load float, ptr %pa, align 4
  %jn = mul i64 %j, %n
  %pb = getelementptr inbounds float, ptr %bcol, i64 %jn
  %vb = load float, ptr %pb, align 4
  %sum.next = call float @llvm.fmuladd.f32(float %va, float %vb, float %sum)
  %j.next = add nuw i64 %j, 1
  %jc = icmp eq i64 %j.next, %n
  br i1 %jc, label %x.latch, label %inner

x.latch:
  %po = getelementptr inbounds float, ptr %out, i64 %lx
  store float %sum.next, ptr %po, align 4
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %wg
  br i1 %c, label %exit, label %x, !llvm.loop !0

exit:
  ret void
}

; CHECK-LABEL: define void @opaque_call(
; CHECK: call void @external(float %sum.next)
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[CALL:[0-9]+]]
define void @opaque_call(ptr %a, i64 %n, i64 %wg) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x.latch ]
  %arow = getelementptr inbounds float, ptr %a, i64 %lx
  br label %inner

inner:
  %j = phi i64 [ 0, %x ], [ %j.next, %inner ]
  %sum = phi float [ 0.0, %x ], [ %sum.next, %inner ]
  %jn = mul i64 %j, %n
  %pa = getelementptr inbounds float, ptr %arow, i64 %jn
  %va = load float, ptr %pa, align 4
  %sum.next = fadd float %sum, %va
  %j.next = add nuw i64 %j, 1
  %jc = icmp eq i64 %j.next, %n
  br i1 %jc, label %x.latch, label %inner

x.latch:
  call void @external(float %sum.next)
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %wg
  br i1 %c, label %exit, label %x, !llvm.loop !4

exit:
  ret void
}

; CHECK-LABEL: define void @varying_branch(
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[BRANCH:[0-9]+]]
define void @varying_branch(ptr %a, ptr %out, i64 %n, i64 %wg) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x.latch ]
  %arow = getelementptr inbounds float, ptr %a, i64 %lx
  br label %inner

inner:
  %j = phi i64 [ 0, %x ], [ %j.next, %inner ]
  %sum = phi float [ 0.0, %x ], [ %sum.next, %inner ]
  %jn = mul i64 %j, %n
  %pa = getelementptr inbounds float, ptr %arow, i64 %jn
  %va = load float, ptr %pa, align 4
  %sum.next = fadd float %sum, %va
  %j.next = add nuw i64 %j, 1
  %jc = icmp eq i64 %j.next, %n
  br i1 %jc, label %x.body, label %inner

x.body:
  %pos = fcmp ogt float %sum.next, 0.0
  br i1 %pos, label %then, label %x.latch

then:
  %po = getelementptr inbounds float, ptr %out, i64 %lx
  store float %sum.next, ptr %po, align 4
  br label %x.latch

x.latch:
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %wg
  br i1 %c, label %exit, label %x, !llvm.loop !5

exit:
  ret void
}

; CHECK-LABEL: define float @live_out(
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[LIVEOUT:[0-9]+]]
define float @live_out(ptr %a, i64 %n, i64 %wg) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x.latch ]
  %arow = getelementptr inbounds float, ptr %a, i64 %lx
  br label %inner

inner:
  %j = phi i64 [ 0, %x ], [ %j.next, %inner ]
  %sum = phi float [ 0.0, %x ], [ %sum.next, %inner ]
  %jn = mul i64 %j, %n
  %pa = getelementptr inbounds float, ptr %arow, i64 %jn
  %va = load float, ptr %pa, align 4
  %sum.next = fadd float %sum, %va
  %j.next = add nuw i64 %j, 1
  %jc = icmp eq i64 %j.next, %n
  br i1 %jc, label %x.latch, label %inner

x.latch:
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %wg
  br i1 %c, label %exit, label %x, !llvm.loop !6

exit:
  %last = phi float [ %sum.next, %x.latch ]
  ret float %last
}

; CHECK-LABEL: define void @private_array(
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[PRIVATE:[0-9]+]]
define void @private_array(ptr %a, ptr %out, i64 %n, i64 %wg) {
entry:
  %tmp = alloca float, align 4
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x.latch ]
  %arow = getelementptr inbounds float, ptr %a, i64 %lx
  store float 0.0, ptr %tmp, align 4
  br label %inner

inner:
  %j = phi i64 [ 0, %x ], [ %j.next, %inner ]
  %jn = mul i64 %j, %n
  %pa = getelementptr inbounds float, ptr %arow, i64 %jn
  %va = load float, ptr %pa, align 4
  %acc = load float, ptr %tmp, align 4
  %acc.next = fadd float %acc, %va
  store float %acc.next, ptr %tmp, align 4
  %j.next = add nuw i64 %j, 1
  %jc = icmp eq i64 %j.next, %n
  br i1 %jc, label %x.latch, label %inner

x.latch:
  %res = load float, ptr %tmp, align 4
  %po = getelementptr inbounds float, ptr %out, i64 %lx
  store float %res, ptr %po, align 4
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %wg
  br i1 %c, label %exit, label %x, !llvm.loop !7

exit:
  ret void
}

; CHECK-LABEL: define void @vector_value(
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[VECTOR:[0-9]+]]
define void @vector_value(ptr %a, ptr %out, i64 %n, i64 %wg) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x.latch ]
  %arow = getelementptr inbounds <2 x float>, ptr %a, i64 %lx
  br label %inner

inner:
  %j = phi i64 [ 0, %x ], [ %j.next, %inner ]
  %sum = phi float [ 0.0, %x ], [ %sum.next, %inner ]
  %jn = mul i64 %j, %n
  %pa = getelementptr inbounds <2 x float>, ptr %arow, i64 %jn
  %va = load <2 x float>, ptr %pa, align 8
  %va1 = extractelement <2 x float> %va, i64 1
  %sum.next = fadd float %sum, %va1
  %j.next = add nuw i64 %j, 1
  %jc = icmp eq i64 %j.next, %n
  br i1 %jc, label %x.latch, label %inner

x.latch:
  %po = getelementptr inbounds float, ptr %out, i64 %lx
  store float %sum.next, ptr %po, align 4
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %wg
  br i1 %c, label %exit, label %x, !llvm.loop !8

exit:
  ret void
}

; CHECK-LABEL: define void @own_elements(
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[OWN:[0-9]+]]
define void @own_elements(ptr %in, ptr %out, i64 %k, i64 %wg) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x.latch ]
  %base = mul i64 %lx, %k
  %block = getelementptr inbounds float, ptr %in, i64 %base
  br label %inner

inner:
  %j = phi i64 [ 0, %x ], [ %j.next, %inner ]
  %sum = phi float [ 0.0, %x ], [ %sum.next, %inner ]
  %pin = getelementptr inbounds float, ptr %block, i64 %j
  %v = load float, ptr %pin, align 4
  %sum.next = fadd float %sum, %v
  %j.next = add nuw i64 %j, 1
  %jc = icmp eq i64 %j.next, %k
  br i1 %jc, label %x.latch, label %inner

x.latch:
  %po = getelementptr inbounds float, ptr %out, i64 %lx
  store float %sum.next, ptr %po, align 4
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %wg
  br i1 %c, label %exit, label %x, !llvm.loop !9

exit:
  ret void
}

; CHECK-LABEL: define void @innermost(
; CHECK: call void @llvm.assume(i1 %nonneg)
; CHECK: call void @external(float %v)
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[INNERMOST:[0-9]+]]
define void @innermost(ptr %in, i64 %wg) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x ]
  %nonneg = icmp sge i64 %lx, 0
  call void @llvm.assume(i1 %nonneg)
  %pin = getelementptr inbounds float, ptr %in, i64 %lx
  %v = load float, ptr %pin, align 4
  call void @external(float %v)
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %wg
  br i1 %c, label %exit, label %x, !llvm.loop !10

exit:
  ret void
}

; Kept: the original ID. Withdrawn: a new ID with the mark and the
; interleave count, without enable and width.
; CHECK-DAG: ![[KEPT]] = distinct !{![[KEPT]], ![[MARK:[0-9]+]], ![[ENABLE:[0-9]+]], ![[WIDTH:[0-9]+]], ![[IC:[0-9]+]]}
; CHECK-DAG: ![[MARK]] = !{!"clcpu.work_item_loop"}
; CHECK-DAG: ![[ENABLE]] = !{!"llvm.loop.vectorize.enable", i1 true}
; CHECK-DAG: ![[WIDTH]] = !{!"llvm.loop.vectorize.width", i32 8}
; CHECK-DAG: ![[IC]] = !{!"llvm.loop.interleave.count", i32 1}
; CHECK-DAG: ![[CALL]] = distinct !{![[CALL]], ![[MARK]], ![[IC]]}
; CHECK-DAG: ![[BRANCH]] = distinct !{![[BRANCH]], ![[MARK]], ![[IC]]}
; CHECK-DAG: ![[LIVEOUT]] = distinct !{![[LIVEOUT]], ![[MARK]], ![[IC]]}
; CHECK-DAG: ![[PRIVATE]] = distinct !{![[PRIVATE]], ![[MARK]], ![[IC]]}
; CHECK-DAG: ![[VECTOR]] = distinct !{![[VECTOR]], ![[MARK]], ![[IC]]}
; CHECK-DAG: ![[OWN]] = distinct !{![[OWN]], ![[MARK]], ![[IC]]}
; CHECK-DAG: ![[INNERMOST]] = distinct !{![[INNERMOST]], ![[MARK]], ![[ENABLE]], ![[WIDTH]], ![[IC]]}

declare void @external(float)
declare void @llvm.assume(i1)
declare float @llvm.fmuladd.f32(float, float, float)

!0 = distinct !{!0, !1, !2, !3, !11}
!1 = !{!"clcpu.work_item_loop"}
!2 = !{!"llvm.loop.vectorize.enable", i1 true}
!3 = !{!"llvm.loop.vectorize.width", i32 8}
!11 = !{!"llvm.loop.interleave.count", i32 1}
!4 = distinct !{!4, !1, !2, !3, !11}
!5 = distinct !{!5, !1, !2, !3, !11}
!6 = distinct !{!6, !1, !2, !3, !11}
!7 = distinct !{!7, !1, !2, !3, !11}
!8 = distinct !{!8, !1, !2, !3, !11}
!9 = distinct !{!9, !1, !2, !3, !11}
!10 = distinct !{!10, !1, !2, !3, !11}
