; clcpu-defer-float-adds: in a work-item-loop work-group function (the
; metadata !clcpu.global_args lists its __global arguments), a relaxed
; float or double atomicrmw fadd/fsub whose result is unused, into a
; __global argument (`load (load (args + 8 * i))`), that nothing else of
; its work-item reads or writes (!clcpu.deferrable, which alias analysis on
; the work-item function put there: tests/lit/kernels/defer_float_adds.cl),
; becomes a call that queues it (clcpu_deferred_fadd_f32/f64); fsub adds
; the negated value. The function is left alone if any one add does not
; qualify, or if it has another atomic, a fence, or a convergent call.
;
; - @wg_hist: `bins[h] += x[i]` in the work-item loop, the add volatile as
;   every OpenCL C atomic is: deferred.
; - @wg_sub_double: a double fsub: deferred as an add of the negation.
; - @wg_result_used, @wg_seq_cst, @wg_local_arg, @wg_not_marked,
;   @wg_other_atomic, @wg_no_metadata: left alone (result used, a
;   sequentially consistent add, a __local argument, an add without the
;   mark, another atomic, no metadata).
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu \
; RUN:   -passes=clcpu-defer-float-adds %s | FileCheck %s

; CHECK-LABEL: define void @wg_hist(
; CHECK: [[V:%.*]] = load float, ptr %xi
; CHECK: [[B:%.*]] = getelementptr inbounds float, ptr %bins
; CHECK-NEXT: call void @clcpu_deferred_fadd_f32(ptr [[B]], float [[V]])
; CHECK-NOT: atomicrmw
; CHECK: ret void
define void @wg_hist(ptr noalias %args, ptr noalias %ctx) !clcpu.global_args !0 {
entry:
  %x.slot = load ptr, ptr %args, align 8, !invariant.load !6
  %x = load ptr, ptr %x.slot, align 8
  %bins.at = getelementptr inbounds i8, ptr %args, i64 8
  %bins.slot = load ptr, ptr %bins.at, align 8, !invariant.load !6
  %bins = load ptr, ptr %bins.slot, align 8
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %xi = getelementptr inbounds float, ptr %x, i64 %i
  %v = load float, ptr %xi, align 4, !alias.scope !2
  %h = and i64 %i, 255
  %b = getelementptr inbounds float, ptr %bins, i64 %h
  %old = atomicrmw volatile fadd ptr %b, float %v monotonic, align 4, !noalias !2, !clcpu.deferrable !6
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, 256
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @wg_sub_double(
; CHECK: call void @clcpu_deferred_fadd_f64(ptr %d, double -7.500000e-01)
; CHECK-NOT: atomicrmw
define void @wg_sub_double(ptr noalias %args, ptr noalias %ctx) !clcpu.global_args !1 {
entry:
  %d.slot = load ptr, ptr %args, align 8, !invariant.load !6
  %d = load ptr, ptr %d.slot, align 8
  %old = atomicrmw fsub ptr %d, double 7.500000e-01 monotonic, align 8, !clcpu.deferrable !6
  ret void
}

; CHECK-LABEL: define void @wg_result_used(
; CHECK: atomicrmw fadd
; CHECK-NOT: call void @clcpu_deferred
define void @wg_result_used(ptr noalias %args, ptr noalias %ctx) !clcpu.global_args !0 {
entry:
  %d.slot = load ptr, ptr %args, align 8, !invariant.load !6
  %d = load ptr, ptr %d.slot, align 8
  %o.at = getelementptr inbounds i8, ptr %args, i64 8
  %o.slot = load ptr, ptr %o.at, align 8, !invariant.load !6
  %o = load ptr, ptr %o.slot, align 8
  %old = atomicrmw fadd ptr %d, float 1.000000e+00 monotonic, align 4, !clcpu.deferrable !6
  store float %old, ptr %o, align 4
  ret void
}

; CHECK-LABEL: define void @wg_seq_cst(
; CHECK: atomicrmw fadd ptr %d, float 1.000000e+00 seq_cst
define void @wg_seq_cst(ptr noalias %args, ptr noalias %ctx) !clcpu.global_args !1 {
entry:
  %d.slot = load ptr, ptr %args, align 8, !invariant.load !6
  %d = load ptr, ptr %d.slot, align 8
  %old = atomicrmw fadd ptr %d, float 1.000000e+00 seq_cst, align 4, !clcpu.deferrable !6
  ret void
}

; CHECK-LABEL: define void @wg_local_arg(
; CHECK: atomicrmw fadd ptr %l, float 1.000000e+00 monotonic
define void @wg_local_arg(ptr noalias %args, ptr noalias %ctx) !clcpu.global_args !3 {
entry:
  %l.slot = load ptr, ptr %args, align 8, !invariant.load !6
  %l = load ptr, ptr %l.slot, align 8
  %old = atomicrmw fadd ptr %l, float 1.000000e+00 monotonic, align 4, !clcpu.deferrable !6
  ret void
}

; CHECK-LABEL: define void @wg_not_marked(
; CHECK: atomicrmw fadd ptr %d, float 1.000000e+00 monotonic
define void @wg_not_marked(ptr noalias %args, ptr noalias %ctx) !clcpu.global_args !0 {
entry:
  %d.slot = load ptr, ptr %args, align 8, !invariant.load !6
  %d = load ptr, ptr %d.slot, align 8
  %o.at = getelementptr inbounds i8, ptr %args, i64 8
  %o.slot = load ptr, ptr %o.at, align 8, !invariant.load !6
  %o = load ptr, ptr %o.slot, align 8
  %old = atomicrmw fadd ptr %d, float 1.000000e+00 monotonic, align 4
  %now = load float, ptr %d, align 4
  store float %now, ptr %o, align 4
  ret void
}

; CHECK-LABEL: define void @wg_other_atomic(
; CHECK: atomicrmw fadd ptr %d, float 1.000000e+00 monotonic
; CHECK: atomicrmw add ptr %c, i32 1 monotonic
define void @wg_other_atomic(ptr noalias %args, ptr noalias %ctx) !clcpu.global_args !0 {
entry:
  %d.slot = load ptr, ptr %args, align 8, !invariant.load !6
  %d = load ptr, ptr %d.slot, align 8
  %c.at = getelementptr inbounds i8, ptr %args, i64 8
  %c.slot = load ptr, ptr %c.at, align 8, !invariant.load !6
  %c = load ptr, ptr %c.slot, align 8
  %old = atomicrmw fadd ptr %d, float 1.000000e+00 monotonic, align 4, !clcpu.deferrable !6
  %n = atomicrmw add ptr %c, i32 1 monotonic, align 4
  ret void
}

; CHECK-LABEL: define void @wg_no_metadata(
; CHECK: atomicrmw fadd ptr %d, float 1.000000e+00 monotonic
define void @wg_no_metadata(ptr noalias %args, ptr noalias %ctx) {
entry:
  %d.slot = load ptr, ptr %args, align 8, !invariant.load !6
  %d = load ptr, ptr %d.slot, align 8
  %old = atomicrmw fadd ptr %d, float 1.000000e+00 monotonic, align 4, !clcpu.deferrable !6
  ret void
}

!0 = !{i32 0, i32 1}
!1 = !{i32 0}
!2 = !{!4}
!3 = !{i32 1}
!4 = distinct !{!4, !5, !"x"}
!5 = distinct !{!5, !"kernel"}
!6 = !{}
