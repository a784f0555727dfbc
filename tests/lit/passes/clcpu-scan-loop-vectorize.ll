; clcpu-scan-loop-vectorize: a loop that writes out a running value (a scan,
; `out[j] = pre; pre += in[j]`) is a recurrence LLVM's loop vectorizer
; leaves scalar. This pass runs it VF iterations at a time: a vector loop
; loads VF elements, scans them across the lanes (shuffle-and-combine
; steps), combines them with the carried value and stores them; the last
; n mod VF iterations run in a masked tail of VF/2 lanes. With AVX2 (256-bit
; registers) and i32 elements, VF = 8 and the tail is 4 lanes wide.
;  * prefix_sum: an exclusive integer sum with noalias pointers: no run-time
;    checks, so the original loop disappears. The value before each lane is
;    the inclusive scan minus the lane's own element (`scan.excl`), the
;    carry travels as a splat vector, the total leaves from the last lane of
;    the vector loop or of the tail, and the adds lose nsw.
;  * running_max: an inclusive smax scan whose pointers may overlap: the
;    vector loops run behind a run-time overlap check and the original
;    loop stays as its fallback.
;  * reduction_only: the sum is not used inside the loop, so it is a
;    reduction (the loop vectorizer's business): left alone.
;  * float_scan_strict: an fadd scan without `reassoc` would round
;    differently when reordered: left alone.
; The SSE2 RUN line: without AVX there are no masked loads and stores for the
; tail, so even prefix_sum stays scalar.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-scan-loop-vectorize %s | FileCheck %s
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64 \
; RUN:   -passes=clcpu-scan-loop-vectorize %s | FileCheck %s --check-prefix=SSE2

; CHECK-LABEL: define i32 @prefix_sum(
; CHECK: entry:
; CHECK-NEXT: br label %scan.vec.ph
; CHECK-NOT: %pre.next
; CHECK: scan.vec.ph:
; CHECK-NEXT: %scan.full = and i64 %n, -8
; CHECK: scan.vec:
; CHECK: %scan.acc = phi <8 x i32> [ zeroinitializer, %scan.vec.ph ], [ [[NEXTACC:%.*]], %scan.vec ]
; CHECK: [[IN:%.*]] = load <8 x i32>, ptr {{%.*}}, align 4
; CHECK: [[INCL:%.*]] = add <8 x i32> %scan.acc, {{%.*}}
; CHECK: %scan.excl = sub <8 x i32> [[INCL]], [[IN]]
; CHECK: %scan.total = shufflevector <8 x i32> {{%.*}}, <8 x i32> poison, <8 x i32> <i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7>
; CHECK: [[NEXTACC]] = add <8 x i32> %scan.acc, %scan.total
; CHECK: store <8 x i32> %scan.excl, ptr {{%.*}}, align 4
; CHECK: %scan.next = add nuw i64 %scan.i, 8
; CHECK: scan.vec.out:
; CHECK-NEXT: [[VECTOTAL:%.*]] = extractelement <8 x i32> [[INCL]], i32 7
; CHECK: scan.tail:
; CHECK: %scan.mask = icmp ult <4 x i32> <i32 0, i32 1, i32 2, i32 3>,
; CHECK: call <4 x i32> @llvm.masked.load.v4i32.p0(ptr {{%.*}}, i32 4, <4 x i1> %scan.mask, <4 x i32> poison)
; CHECK: call void @llvm.masked.store.v4i32.p0(<4 x i32> %scan.excl{{[0-9]*}}, ptr {{%.*}}, i32 4, <4 x i1> %scan.mask)
; CHECK: %scan.tail.next = add nuw i64 %scan.tail.i, 4
; CHECK: scan.tail.out:
; CHECK: [[TAILTOTAL:%.*]] = extractelement <4 x i32>
; CHECK: exit:
; CHECK-NEXT: %total = phi i32 [ [[VECTOTAL]], %scan.vec.out ], [ [[TAILTOTAL]], %scan.tail.out ]
; CHECK-NEXT: ret i32 %total
; SSE2-LABEL: define i32 @prefix_sum(
; SSE2-NOT: scan.
; SSE2: %pre.next = add nsw i32 %pre, %v
; SSE2-NOT: scan.
; SSE2: ret i32 %total
define i32 @prefix_sum(ptr noalias %in, ptr noalias %out, i64 %n) {
entry:
  br label %loop

loop:
  %j = phi i64 [ 0, %entry ], [ %j.next, %loop ]
  %pre = phi i32 [ 0, %entry ], [ %pre.next, %loop ]
  %in.addr = getelementptr inbounds i32, ptr %in, i64 %j
  %v = load i32, ptr %in.addr, align 4
  %out.addr = getelementptr inbounds i32, ptr %out, i64 %j
  store i32 %pre, ptr %out.addr, align 4
  %pre.next = add nsw i32 %pre, %v
  %j.next = add nuw nsw i64 %j, 1
  %done = icmp eq i64 %j.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %total = phi i32 [ %pre.next, %loop ]
  ret i32 %total
}

; CHECK-LABEL: define void @running_max(
; CHECK: %found.conflict = and i1
; CHECK-NEXT: br i1 %found.conflict, label %loop, label %scan.vec.ph
; CHECK: loop:
; CHECK: %m.next = call i32 @llvm.smax.i32(i32 %m, i32 %v)
; CHECK: scan.vec:
; CHECK: %scan.acc = phi <8 x i32> [ <i32 -2147483648,
; CHECK: [[INCL:%.*]] = call <8 x i32> @llvm.smax.v8i32(<8 x i32> %scan.acc, <8 x i32> {{%.*}})
; CHECK: store <8 x i32> [[INCL]], ptr
; CHECK: scan.tail:
; CHECK: call void @llvm.masked.store.v4i32.p0(
define void @running_max(ptr %in, ptr %out, i64 %n) {
entry:
  br label %loop

loop:
  %j = phi i64 [ 0, %entry ], [ %j.next, %loop ]
  %m = phi i32 [ -2147483648, %entry ], [ %m.next, %loop ]
  %in.addr = getelementptr inbounds i32, ptr %in, i64 %j
  %v = load i32, ptr %in.addr, align 4
  %m.next = call i32 @llvm.smax.i32(i32 %m, i32 %v)
  %out.addr = getelementptr inbounds i32, ptr %out, i64 %j
  store i32 %m.next, ptr %out.addr, align 4
  %j.next = add nuw nsw i64 %j, 1
  %done = icmp eq i64 %j.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define i32 @reduction_only(
; CHECK-NOT: scan.
; CHECK: %sum.next = add i32 %sum, %v
; CHECK-NOT: scan.
; CHECK: ret i32 %total
define i32 @reduction_only(ptr noalias %in, ptr noalias %out, i64 %n) {
entry:
  br label %loop

loop:
  %j = phi i64 [ 0, %entry ], [ %j.next, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  %in.addr = getelementptr inbounds i32, ptr %in, i64 %j
  %v = load i32, ptr %in.addr, align 4
  %out.addr = getelementptr inbounds i32, ptr %out, i64 %j
  store i32 %v, ptr %out.addr, align 4
  %sum.next = add i32 %sum, %v
  %j.next = add nuw nsw i64 %j, 1
  %done = icmp eq i64 %j.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %total = phi i32 [ %sum.next, %loop ]
  ret i32 %total
}

; CHECK-LABEL: define void @float_scan_strict(
; CHECK-NOT: scan.
; CHECK: store float %pre, ptr %out.addr, align 4
; CHECK-NEXT: %pre.next = fadd float %pre, %v
; CHECK-NOT: scan.
; CHECK: ret void
define void @float_scan_strict(ptr noalias %in, ptr noalias %out, i64 %n) {
entry:
  br label %loop

loop:
  %j = phi i64 [ 0, %entry ], [ %j.next, %loop ]
  %pre = phi float [ 0.0, %entry ], [ %pre.next, %loop ]
  %in.addr = getelementptr inbounds float, ptr %in, i64 %j
  %v = load float, ptr %in.addr, align 4
  %out.addr = getelementptr inbounds float, ptr %out, i64 %j
  store float %pre, ptr %out.addr, align 4
  %pre.next = fadd float %pre, %v
  %j.next = add nuw nsw i64 %j, 1
  %done = icmp eq i64 %j.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

declare i32 @llvm.smax.i32(i32, i32)
