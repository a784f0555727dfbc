; The loop vectorizer widens scalars only, so a kernel's float4 arithmetic
; in a work-item loop would keep that loop scalar. In a function with a
; work-item loop (loop ID with !{!"clcpu.work_item_loop"}),
; clcpu-scalarize-work-item-loops runs LLVM's Scalarizer with loads and
; stores included: every vector operation becomes one scalar per lane,
; which the vectorizer then widens across work-items. A function without a
; work-item loop (per-work-item fiber code) keeps its vector operations.
;
; @work_item_loop: a float4 load, multiply-add and store per work-item
;   become four scalar loads, fmuls, fadds and stores.
; @no_work_item_loop: the same loop, with a vectorize hint but without the
;   work-item mark: left alone.
; Splitting pays only where a vectorizer widens the scalars again:
; @outer_widenable: an x-loop with an inner loop, <4 x float> arithmetic,
;   nothing the outer-loop path rejects: split.
; @outer_atomic (hashcat's shape): an x-loop around a loop of <16 x i32>
;   rounds with a lane-dependent branch to an atomic: the outer-loop path
;   cannot widen it and its inner loop has the atomic: kept as vectors.
; @innermost_atomic: an innermost x-loop with <16 x i32> arithmetic and an
;   atomic, which the inner-loop vectorizer rejects: kept as vectors.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-scalarize-work-item-loops %s | FileCheck %s

; CHECK-LABEL: define void @work_item_loop(
; CHECK: x:
; CHECK-NOT: {{(load|fmul|fadd|store) <4 x float>}}
; CHECK-DAG: %[[V0:.*]] = load float, ptr %src, align 16
; CHECK-DAG: %[[S3:.*]] = getelementptr float, ptr %src, i32 3
; CHECK-DAG: %[[V3:.*]] = load float, ptr %[[S3]], align 4
; CHECK-DAG: %[[M0:.*]] = fmul float %[[V0]], %k
; CHECK-DAG: %[[M3:.*]] = fmul float %[[V3]], %k
; CHECK-DAG: %[[A0:.*]] = fadd float %[[M0]], 1.000000e+00
; CHECK-DAG: %[[A3:.*]] = fadd float %[[M3]], 4.000000e+00
; CHECK-DAG: store float %[[A0]], ptr %dst, align 16
; CHECK-DAG: %[[D3:.*]] = getelementptr float, ptr %dst, i32 3
; CHECK-DAG: store float %[[A3]], ptr %[[D3]], align 4
; CHECK-NOT: {{(load|fmul|fadd|store) <4 x float>}}
; CHECK: ret void
define void @work_item_loop(ptr %in, ptr %out, float %k, i64 %n) {
entry:
  %k.ins = insertelement <4 x float> poison, float %k, i64 0
  %k.splat = shufflevector <4 x float> %k.ins, <4 x float> poison, <4 x i32> zeroinitializer
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x ]
  %src = getelementptr inbounds <4 x float>, ptr %in, i64 %lx
  %v = load <4 x float>, ptr %src, align 16
  %m = fmul <4 x float> %v, %k.splat
  %a = fadd <4 x float> %m, <float 1.0, float 2.0, float 3.0, float 4.0>
  %dst = getelementptr inbounds <4 x float>, ptr %out, i64 %lx
  store <4 x float> %a, ptr %dst, align 16
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !0

exit:
  ret void
}

; CHECK-LABEL: define void @no_work_item_loop(
; CHECK: %v = load <4 x float>, ptr %src, align 16
; CHECK-NEXT: %m = fmul <4 x float> %v, %k.splat
; CHECK-NEXT: %a = fadd <4 x float> %m, <float 1.000000e+00, float 2.000000e+00, float 3.000000e+00, float 4.000000e+00>
; CHECK-NEXT: %dst = getelementptr inbounds <4 x float>, ptr %out, i64 %lx
; CHECK-NEXT: store <4 x float> %a, ptr %dst, align 16
define void @no_work_item_loop(ptr %in, ptr %out, float %k, i64 %n) {
entry:
  %k.ins = insertelement <4 x float> poison, float %k, i64 0
  %k.splat = shufflevector <4 x float> %k.ins, <4 x float> poison, <4 x i32> zeroinitializer
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x ]
  %src = getelementptr inbounds <4 x float>, ptr %in, i64 %lx
  %v = load <4 x float>, ptr %src, align 16
  %m = fmul <4 x float> %v, %k.splat
  %a = fadd <4 x float> %m, <float 1.0, float 2.0, float 3.0, float 4.0>
  %dst = getelementptr inbounds <4 x float>, ptr %out, i64 %lx
  store <4 x float> %a, ptr %dst, align 16
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !2

exit:
  ret void
}

; CHECK-LABEL: define void @outer_widenable(
; CHECK-NOT: {{(load|fadd|store) <4 x float>}}
; CHECK: %acc.next.i3 = fadd float
; CHECK-NOT: {{(load|fadd|store) <4 x float>}}
; CHECK: ret void
define void @outer_widenable(ptr %in, ptr %out, i64 %n, i64 %wg) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x.latch ]
  br label %inner

inner:
  %j = phi i64 [ 0, %x ], [ %j.next, %inner ]
  %acc = phi <4 x float> [ zeroinitializer, %x ], [ %acc.next, %inner ]
  %p = getelementptr inbounds <4 x float>, ptr %in, i64 %j
  %v = load <4 x float>, ptr %p, align 16
  %acc.next = fadd <4 x float> %acc, %v
  %j.next = add nuw i64 %j, 1
  %jc = icmp eq i64 %j.next, %n
  br i1 %jc, label %x.latch, label %inner

x.latch:
  %po = getelementptr inbounds <4 x float>, ptr %out, i64 %lx
  store <4 x float> %acc.next, ptr %po, align 16
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %wg
  br i1 %c, label %exit, label %x, !llvm.loop !4

exit:
  ret void
}

; CHECK-LABEL: define void @outer_atomic(
; CHECK: %r = call <16 x i32> @llvm.fshl.v16i32(<16 x i32> %s, <16 x i32> %s, <16 x i32> <i32 7,
; CHECK: %a.next = add <16 x i32> %r, %b
; CHECK: store <16 x i32> %a.next, ptr %po, align 64
; CHECK-NOT: call i32 @llvm.fshl.i32
; CHECK: ret void
define void @outer_atomic(ptr %words, ptr %out, ptr %count, i32 %target,
                          i64 %n, i64 %wg) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x.latch ]
  br label %inner

inner:
  %j = phi i64 [ 0, %x ], [ %j.next, %inner.latch ]
  %a = phi <16 x i32> [ zeroinitializer, %x ], [ %a.next, %inner.latch ]
  %pw = getelementptr inbounds <16 x i32>, ptr %words, i64 %j
  %w = load <16 x i32>, ptr %pw, align 64
  %b = xor <16 x i32> %w, <i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15, i32 16>
  %s = add <16 x i32> %a, %w
  %r = call <16 x i32> @llvm.fshl.v16i32(<16 x i32> %s, <16 x i32> %s, <16 x i32> <i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7>)
  %a.next = add <16 x i32> %r, %b
  %lane0 = extractelement <16 x i32> %a.next, i64 0
  %hit = icmp eq i32 %lane0, %target
  br i1 %hit, label %found, label %inner.latch

found:
  %old = atomicrmw add ptr %count, i32 1 monotonic, align 4
  br label %inner.latch

inner.latch:
  %j.next = add nuw i64 %j, 1
  %jc = icmp eq i64 %j.next, %n
  br i1 %jc, label %x.latch, label %inner

x.latch:
  %po = getelementptr inbounds <16 x i32>, ptr %out, i64 %lx
  store <16 x i32> %a.next, ptr %po, align 64
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %wg
  br i1 %c, label %exit, label %x, !llvm.loop !6

exit:
  ret void
}

; CHECK-LABEL: define void @innermost_atomic(
; CHECK: %m = mul <16 x i32> %v, %v
; CHECK: store <16 x i32> %m, ptr %dst, align 64
; CHECK: ret void
define void @innermost_atomic(ptr %in, ptr %out, ptr %count, i64 %n) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x ]
  %src = getelementptr inbounds <16 x i32>, ptr %in, i64 %lx
  %v = load <16 x i32>, ptr %src, align 64
  %m = mul <16 x i32> %v, %v
  %dst = getelementptr inbounds <16 x i32>, ptr %out, i64 %lx
  store <16 x i32> %m, ptr %dst, align 64
  %old = atomicrmw add ptr %count, i32 1 monotonic, align 4
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !8

exit:
  ret void
}

declare <16 x i32> @llvm.fshl.v16i32(<16 x i32>, <16 x i32>, <16 x i32>)

!0 = distinct !{!0, !1}
!1 = !{!"clcpu.work_item_loop"}
!2 = distinct !{!2, !3}
!3 = !{!"llvm.loop.vectorize.enable", i1 true}
!4 = distinct !{!4, !1, !3, !5}
!5 = !{!"llvm.loop.vectorize.width", i32 8}
!6 = distinct !{!6, !1, !3, !5}
!8 = distinct !{!8, !1}
