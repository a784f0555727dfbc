; clcpu-uniform-vector-phis: the outer-loop vectorizer widens every value of
; a work-item loop, including an inner loop's values that are the same for
; every work-item (sgemm's `k` and `A[row * n + k]`): a vector PHI whose
; lanes are always equal, a gather of eight copies of one address. This pass
; finds such uniform vectors (splat constants and broadcasts; PHIs,
; arithmetic, compares, casts, selects and GEPs of uniform operands; gathers
; with every lane enabled from a uniform address), computes each once as a
; scalar and broadcasts it only where a non-uniform value uses it.
;  * uniform_k: the reduced sgemm inner loop. `k` becomes a scalar PHI, its
;    increment and exit compare scalar, the gather of A[k] one scalar load
;    (broadcast for the fmuladd), and `k * n` a scalar multiply broadcast
;    into B's per-lane GEP. The accumulator, fed by the fmuladd, and the
;    gather of B (per-lane base pointers) stay vectors.
;  * lane_values: a vector induction starting at <0, 1, ..., 7> differs per
;    lane and stays a vector PHI with its gather; a gather from one address
;    whose mask is not all ones stays a gather (only its uniform address
;    becomes a broadcast of a scalar GEP).
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-uniform-vector-phis %s | FileCheck %s

; CHECK-LABEL: define <8 x float> @uniform_k(
; CHECK: entry:
; CHECK-NEXT: %n.ins = insertelement <8 x i64> poison, i64 %n, i64 0
; CHECK-NEXT: br label %loop
; CHECK: loop:
; CHECK-NEXT: %acc = phi <8 x float> [ zeroinitializer, %entry ], [ %acc.next, %loop ]
; CHECK-NEXT: %k.uniform = phi i64 [ 0, %entry ], [ [[KNEXT:%.*]], %loop ]
; CHECK-NOT: phi
; CHECK-DAG: [[AADDR:%.*]] = getelementptr float, ptr %a.row, i64 %k.uniform
; CHECK-DAG: [[A:%.*]] = load float, ptr [[AADDR]], align 4
; CHECK-DAG: [[AINS:%.*]] = insertelement <8 x float> poison, float [[A]], i64 0
; CHECK-DAG: [[ASPLAT:%.*]] = shufflevector <8 x float> [[AINS]], <8 x float> poison, <8 x i32> zeroinitializer
; CHECK-DAG: [[BOFF:%.*]] = mul nuw nsw i64 %k.uniform, %n
; CHECK-DAG: [[BOFFINS:%.*]] = insertelement <8 x i64> poison, i64 [[BOFF]], i64 0
; CHECK-DAG: [[BOFFSPLAT:%.*]] = shufflevector <8 x i64> [[BOFFINS]], <8 x i64> poison, <8 x i32> zeroinitializer
; CHECK-DAG: %b.addr = getelementptr float, <8 x ptr> %b.cols, <8 x i64> [[BOFFSPLAT]]
; CHECK-DAG: %b = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %b.addr,
; CHECK-DAG: %acc.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> [[ASPLAT]], <8 x float> %b, <8 x float> %acc)
; CHECK-DAG: [[KNEXT]] = add nuw nsw i64 %k.uniform, 1
; CHECK-DAG: [[DONE:%.*]] = icmp eq i64 [[KNEXT]], %n
; CHECK-DAG: [[DONEINS:%.*]] = insertelement <8 x i1> poison, i1 [[DONE]], i64 0
; CHECK-DAG: [[DONESPLAT:%.*]] = shufflevector <8 x i1> [[DONEINS]], <8 x i1> poison, <8 x i32> zeroinitializer
; CHECK-DAG: %done = extractelement <8 x i1> [[DONESPLAT]], i64 0
; CHECK: br i1 %done, label %exit, label %loop
; CHECK: ret <8 x float> %acc.next
define <8 x float> @uniform_k(ptr %a.row, <8 x ptr> %b.cols, i64 %n) {
entry:
  %n.ins = insertelement <8 x i64> poison, i64 %n, i64 0
  %n.splat = shufflevector <8 x i64> %n.ins, <8 x i64> poison, <8 x i32> zeroinitializer
  br label %loop

loop:
  %k = phi <8 x i64> [ zeroinitializer, %entry ], [ %k.next, %loop ]
  %acc = phi <8 x float> [ zeroinitializer, %entry ], [ %acc.next, %loop ]
  %a.addr = getelementptr float, ptr %a.row, <8 x i64> %k
  %a = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %a.addr, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %b.off = mul nuw nsw <8 x i64> %k, %n.splat
  %b.addr = getelementptr float, <8 x ptr> %b.cols, <8 x i64> %b.off
  %b = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %b.addr, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %acc.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a, <8 x float> %b, <8 x float> %acc)
  %k.next = add nuw nsw <8 x i64> %k, <i64 1, i64 1, i64 1, i64 1, i64 1, i64 1, i64 1, i64 1>
  %done.v = icmp eq <8 x i64> %k.next, %n.splat
  %done = extractelement <8 x i1> %done.v, i64 0
  br i1 %done, label %exit, label %loop

exit:
  ret <8 x float> %acc.next
}

; CHECK-LABEL: define <8 x float> @lane_values(
; CHECK: loop:
; CHECK-NEXT: %i = phi <8 x i64> [ <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>, %entry ], [ %i.next, %loop ]
; CHECK-NEXT: %acc = phi <8 x float>
; CHECK-NEXT: %j = phi i64
; CHECK-NEXT: %lane.addr = getelementptr float, ptr %a, <8 x i64> %i
; CHECK-NEXT: %x = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %lane.addr,
; CHECK: [[ONE:%.*]] = getelementptr float, ptr %a, i64 0
; CHECK: [[ONEINS:%.*]] = insertelement <8 x ptr> poison, ptr [[ONE]], i64 0
; CHECK: [[ONESPLAT:%.*]] = shufflevector <8 x ptr> [[ONEINS]], <8 x ptr> poison, <8 x i32> zeroinitializer
; CHECK: %y = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> [[ONESPLAT]], i32 4, <8 x i1> %mask, <8 x float> zeroinitializer)
; CHECK: %i.next = add <8 x i64> %i, <i64 8,
; CHECK: ret <8 x float> %acc.next
define <8 x float> @lane_values(ptr %a, <8 x i1> %mask, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi <8 x i64> [ <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>, %entry ], [ %i.next, %loop ]
  %acc = phi <8 x float> [ zeroinitializer, %entry ], [ %acc.next, %loop ]
  %j = phi i64 [ 0, %entry ], [ %j.next, %loop ]
  %lane.addr = getelementptr float, ptr %a, <8 x i64> %i
  %x = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %lane.addr, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %one.addr = getelementptr float, ptr %a, <8 x i64> zeroinitializer
  %y = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %one.addr, i32 4, <8 x i1> %mask, <8 x float> zeroinitializer)
  %xy = fadd <8 x float> %x, %y
  %acc.next = fadd <8 x float> %acc, %xy
  %i.next = add <8 x i64> %i, <i64 8, i64 8, i64 8, i64 8, i64 8, i64 8, i64 8, i64 8>
  %j.next = add i64 %j, 1
  %done = icmp eq i64 %j.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret <8 x float> %acc.next
}

declare <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr>, i32, <8 x i1>, <8 x float>)
declare <8 x float> @llvm.fmuladd.v8f32(<8 x float>, <8 x float>, <8 x float>)

; A bitcast that regroups the lanes (<8 x i32> to <4 x i64>) maps no lane to
; one lane: it stays a vector bitcast even of a uniform value (its scalar
; clone `bitcast i32 to i64` would be invalid IR).
; CHECK-LABEL: define <4 x i64> @bitcast_lanes(
; CHECK: bitcast <8 x i32> %{{.*}} to <4 x i64>
define <4 x i64> @bitcast_lanes(i32 %x) {
  %ins = insertelement <8 x i32> poison, i32 %x, i64 0
  %splat = shufflevector <8 x i32> %ins, <8 x i32> poison, <8 x i32> zeroinitializer
  %wide = bitcast <8 x i32> %splat to <4 x i64>
  ret <4 x i64> %wide
}
