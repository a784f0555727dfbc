; The vectorizer's VPlan-native path widens a work-item x-loop with loops
; inside only if each inner loop counts from 0 by 1 and its latch compares
; the incremented count with a bound invariant in the x-loop; and LLVM 19
; emits such a latch's branch exit-first whatever its order. Right before
; the vectorizer, clcpu-counted-inner-loops gives each inner loop of an
; x-loop carrying the native path's hint a counter of its own, the trip
; count computed before the x-loop, leaving on true; an inner loop already
; counted gets its latch turned to leave on true.
;
; @step_two: CLBlast's `for (k = 0; k < 32; k += 2)`, latch on the old
;   induction and staying on true: a counter to 16, the exit first.
; @counted_stays_on_true: already counted, but `br %more, %inner, %exit`:
;   the predicate inverted, the successors swapped.
; @bound_per_work_item: the trip count depends on the work-item: left as
;   it is.
; @no_hint: an x-loop without the native path's hint: left as it is.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-counted-inner-loops %s | FileCheck %s

; CHECK-LABEL: define void @step_two(
; CHECK: inner:
; CHECK-DAG: %inner.count = phi i64 {{.*}}[ 0, %x ]
; CHECK-DAG: %inner.count.next = add nuw nsw i64 %inner.count, 1
; CHECK: %inner.done = icmp eq i64 %inner.count.next, 16
; CHECK: br i1 %inner.done, label %x.latch, label %inner
define void @step_two(ptr %a, ptr %out, i64 %wg) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x.latch ]
  br label %inner

inner:
  %k = phi i64 [ 0, %x ], [ %k.next, %inner ]
  %sum = phi float [ 0.0, %x ], [ %sum.next, %inner ]
  %row = mul i64 %k, 8
  %i = add i64 %row, %lx
  %pa = getelementptr inbounds float, ptr %a, i64 %i
  %va = load float, ptr %pa, align 4
  %sum.next = fadd float %sum, %va
  %k.next = add nuw nsw i64 %k, 2
  %more = icmp ult i64 %k, 30
  br i1 %more, label %inner, label %x.latch

x.latch:
  %po = getelementptr inbounds float, ptr %out, i64 %lx
  store float %sum.next, ptr %po, align 4
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %wg
  br i1 %c, label %exit, label %x, !llvm.loop !0

exit:
  ret void
}

; CHECK-LABEL: define void @counted_stays_on_true(
; CHECK-NOT: inner.count
; CHECK: %more = icmp eq i64 %j.next, %n
; CHECK: br i1 %more, label %x.latch, label %inner
define void @counted_stays_on_true(ptr %a, ptr %out, i64 %n, i64 %wg) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x.latch ]
  br label %inner

inner:
  %j = phi i64 [ 0, %x ], [ %j.next, %inner ]
  %sum = phi float [ 0.0, %x ], [ %sum.next, %inner ]
  %pa = getelementptr inbounds float, ptr %a, i64 %j
  %va = load float, ptr %pa, align 4
  %sum.next = fadd float %sum, %va
  %j.next = add nuw i64 %j, 1
  %more = icmp ne i64 %j.next, %n
  br i1 %more, label %inner, label %x.latch

x.latch:
  %po = getelementptr inbounds float, ptr %out, i64 %lx
  store float %sum.next, ptr %po, align 4
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %wg
  br i1 %c, label %exit, label %x, !llvm.loop !0

exit:
  ret void
}

; CHECK-LABEL: define void @bound_per_work_item(
; CHECK-NOT: inner.count
; CHECK: %more = icmp ult i64 %k.next, %lx
; CHECK: br i1 %more, label %inner, label %x.latch
define void @bound_per_work_item(ptr %a, ptr %out, i64 %wg) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x.latch ]
  br label %inner

inner:
  %k = phi i64 [ 0, %x ], [ %k.next, %inner ]
  %sum = phi float [ 0.0, %x ], [ %sum.next, %inner ]
  %pa = getelementptr inbounds float, ptr %a, i64 %k
  %va = load float, ptr %pa, align 4
  %sum.next = fadd float %sum, %va
  %k.next = add nuw nsw i64 %k, 2
  %more = icmp ult i64 %k.next, %lx
  br i1 %more, label %inner, label %x.latch

x.latch:
  %po = getelementptr inbounds float, ptr %out, i64 %lx
  store float %sum.next, ptr %po, align 4
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %wg
  br i1 %c, label %exit, label %x, !llvm.loop !0

exit:
  ret void
}

; CHECK-LABEL: define void @no_hint(
; CHECK-NOT: inner.count
; CHECK: %more = icmp ult i64 %k, 30
; CHECK: br i1 %more, label %inner, label %x.latch
define void @no_hint(ptr %a, ptr %out, i64 %wg) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x.latch ]
  br label %inner

inner:
  %k = phi i64 [ 0, %x ], [ %k.next, %inner ]
  %sum = phi float [ 0.0, %x ], [ %sum.next, %inner ]
  %pa = getelementptr inbounds float, ptr %a, i64 %k
  %va = load float, ptr %pa, align 4
  %sum.next = fadd float %sum, %va
  %k.next = add nuw nsw i64 %k, 2
  %more = icmp ult i64 %k, 30
  br i1 %more, label %inner, label %x.latch

x.latch:
  %po = getelementptr inbounds float, ptr %out, i64 %lx
  store float %sum.next, ptr %po, align 4
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %wg
  br i1 %c, label %exit, label %x, !llvm.loop !3

exit:
  ret void
}

!0 = distinct !{!0, !1, !2}
!1 = !{!"clcpu.work_item_loop"}
!2 = !{!"llvm.loop.vectorize.enable", i1 true}
!3 = distinct !{!3, !1}
