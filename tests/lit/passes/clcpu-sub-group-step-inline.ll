; clcpu-sub-group-step-inline: a sub-group stretch's collective step
; (`<K>.collective.sg`) is emitted noinline and marked "clcpu-late-inline"
; so that the scalarizing passes before the vectorizer leave its vector code
; whole. At the optimizer's end this pass inlines every marked function into
; its callers and cleans up there (SimplifyCFG, InstCombine, GVN, DSE).
;  * region_driver: stores a sub-group's values to the scratch slot, calls
;    the step with the constant region 1, and reads the result back. After
;    the pass: no call, the step's switch folded to region 1's case, GVN
;    forwards the stored vector into the step's load and the step's result
;    into the caller's load, and DSE drops the store the step overwrote.
;    The inlined step, internal and now unused, is deleted.
;  * plain_caller: a noinline function without the mark is not inlined, and
;    its caller is not cleaned up (its store and load stay).
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v4 \
; RUN:   -passes=clcpu-sub-group-step-inline %s | FileCheck %s

; CHECK-LABEL: define <8 x i64> @region_driver(
; CHECK-NEXT: entry:
; CHECK-NEXT: [[SUM:%.*]] = call i64 @llvm.vector.reduce.add.v8i64(<8 x i64> %x)
; CHECK-NEXT: [[INS:%.*]] = insertelement <8 x i64> poison, i64 [[SUM]], i64 0
; CHECK-NEXT: [[SPLAT:%.*]] = shufflevector <8 x i64> [[INS]], <8 x i64> poison, <8 x i32> zeroinitializer
; CHECK-NEXT: store <8 x i64> [[SPLAT]], ptr %scratch, align 8
; CHECK-NEXT: ret <8 x i64> [[SPLAT]]
define <8 x i64> @region_driver(ptr %ctx, ptr %scratch, i64 %n, i64 %first, <8 x i64> %x) {
entry:
  store <8 x i64> %x, ptr %scratch, align 8
  call void @k.collective.sg(ptr %ctx, i32 1, ptr %scratch, i64 %n, i64 %first)
  %r = load <8 x i64>, ptr %scratch, align 8
  ret <8 x i64> %r
}

define internal void @k.collective.sg(ptr %ctx, i32 %region, ptr %scratch, i64 %n, i64 %first) #0 {
entry:
  switch i32 %region, label %done [
    i32 1, label %step.sum
    i32 2, label %step.max
  ]

step.sum:
  %v = load <8 x i64>, ptr %scratch, align 8
  %sum = call i64 @llvm.vector.reduce.add.v8i64(<8 x i64> %v)
  %sum.ins = insertelement <8 x i64> poison, i64 %sum, i64 0
  %sum.splat = shufflevector <8 x i64> %sum.ins, <8 x i64> poison, <8 x i32> zeroinitializer
  store <8 x i64> %sum.splat, ptr %scratch, align 8
  br label %done

step.max:
  %w = load <8 x i64>, ptr %scratch, align 8
  %max = call i64 @llvm.vector.reduce.smax.v8i64(<8 x i64> %w)
  %max.ins = insertelement <8 x i64> poison, i64 %max, i64 0
  %max.splat = shufflevector <8 x i64> %max.ins, <8 x i64> poison, <8 x i32> zeroinitializer
  store <8 x i64> %max.splat, ptr %scratch, align 8
  br label %done

done:
  ret void
}

; CHECK-LABEL: define <8 x i64> @plain_caller(
; CHECK-NEXT: entry:
; CHECK-NEXT: store <8 x i64> %x, ptr %scratch, align 8
; CHECK-NEXT: call void @helper(ptr %scratch)
; CHECK-NEXT: %r = load <8 x i64>, ptr %scratch, align 8
; CHECK-NEXT: ret <8 x i64> %r
; CHECK: define internal void @helper(ptr %scratch) #[[HELPER:[0-9]+]]
; CHECK-NOT: @k.collective.sg
; CHECK: attributes #[[HELPER]] = { noinline nounwind }
; CHECK-NOT: clcpu-late-inline
define <8 x i64> @plain_caller(ptr %scratch, <8 x i64> %x) {
entry:
  store <8 x i64> %x, ptr %scratch, align 8
  call void @helper(ptr %scratch)
  %r = load <8 x i64>, ptr %scratch, align 8
  ret <8 x i64> %r
}

define internal void @helper(ptr %scratch) #1 {
entry:
  %v = load <8 x i64>, ptr %scratch, align 8
  %d = add <8 x i64> %v, %v
  store <8 x i64> %d, ptr %scratch, align 8
  ret void
}

declare i64 @llvm.vector.reduce.add.v8i64(<8 x i64>)
declare i64 @llvm.vector.reduce.smax.v8i64(<8 x i64>)

attributes #0 = { noinline nounwind "clcpu-late-inline" }
attributes #1 = { noinline nounwind }
