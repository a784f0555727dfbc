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

!0 = distinct !{!0, !1}
!1 = !{!"clcpu.work_item_loop"}
!2 = distinct !{!2, !3}
!3 = !{!"llvm.loop.vectorize.enable", i1 true}
