; clcpu-consecutive-gathers: the outer-loop vectorizer turns every access of
; a work-item loop into a gather or scatter, even `B[k * n + col]`, where
; lane i reads the element right after lane i - 1's. This pass computes the
; pointer vector's lane stride (through add, sub, mul and shifts by
; constants, exact right shifts, integer casts, GEPs and inductions) and
; turns a gather or scatter with every lane enabled whose stride is the
; element size into one vector load or store from lane 0's address, keeping
; its alias metadata.
;  * sgemm_b_and_c: sgemm's B load (column index `col = gx + <0..7>`, sign
;    extended in register by `shl 32; ashr exact 30` into a byte offset,
;    plus a uniform k * n) becomes a load, and the C store (`row * n + col`
;    added in i32, sign-extended) becomes a store.
;  * induction: a vector induction <0..7> stepping by 8 has stride 1
;    element in every iteration: its gather becomes a load.
;  * not_consecutive: a stride of two elements (`col * 2`) and a gather whose
;    mask is not all ones stay gathers.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-consecutive-gathers %s | FileCheck %s

; CHECK-LABEL: define void @sgemm_b_and_c(
; CHECK: %b.addr = getelementptr float, <8 x ptr> %b.col, <8 x i64> %k.splat
; CHECK-NEXT: [[BPTR:%.*]] = extractelement <8 x ptr> %b.addr, i64 0
; CHECK-NEXT: [[BV:%.*]] = load <8 x float>, ptr [[BPTR]], align 4, !tbaa [[TBAA:![0-9]+]]
; CHECK: %c.addr = getelementptr inbounds float, ptr %c, <8 x i64> %c.idx64
; CHECK-NEXT: [[CPTR:%.*]] = extractelement <8 x ptr> %c.addr, i64 0
; CHECK-NEXT: store <8 x float> [[BV]], ptr [[CPTR]], align 4, !tbaa [[TBAA]]
; CHECK-NEXT: ret void
define void @sgemm_b_and_c(ptr %b, ptr %c, i64 %gx, i64 %k.off, i32 %row.off) {
entry:
  %gx.ins = insertelement <8 x i64> poison, i64 %gx, i64 0
  %gx.splat = shufflevector <8 x i64> %gx.ins, <8 x i64> poison, <8 x i32> zeroinitializer
  %col = add <8 x i64> %gx.splat, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %col.shl = shl <8 x i64> %col, <i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32>
  %col.bytes = ashr exact <8 x i64> %col.shl, <i64 30, i64 30, i64 30, i64 30, i64 30, i64 30, i64 30, i64 30>
  %b.col = getelementptr i8, ptr %b, <8 x i64> %col.bytes
  %k.ins = insertelement <8 x i64> poison, i64 %k.off, i64 0
  %k.splat = shufflevector <8 x i64> %k.ins, <8 x i64> poison, <8 x i32> zeroinitializer
  %b.addr = getelementptr float, <8 x ptr> %b.col, <8 x i64> %k.splat
  %bv = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %b.addr, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison), !tbaa !0
  %col32 = trunc <8 x i64> %col to <8 x i32>
  %row.ins = insertelement <8 x i32> poison, i32 %row.off, i64 0
  %row.splat = shufflevector <8 x i32> %row.ins, <8 x i32> poison, <8 x i32> zeroinitializer
  %c.idx = add nsw <8 x i32> %row.splat, %col32
  %c.idx64 = sext <8 x i32> %c.idx to <8 x i64>
  %c.addr = getelementptr inbounds float, ptr %c, <8 x i64> %c.idx64
  call void @llvm.masked.scatter.v8f32.v8p0(<8 x float> %bv, <8 x ptr> %c.addr, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>), !tbaa !0
  ret void
}

; CHECK-LABEL: define float @induction(
; CHECK: %p = getelementptr float, ptr %a, <8 x i64> %ind
; CHECK-NEXT: [[PTR:%.*]] = extractelement <8 x ptr> %p, i64 0
; CHECK-NEXT: [[X:%.*]] = load <8 x float>, ptr [[PTR]], align 4
; CHECK-NEXT: %acc.next = fadd <8 x float> %acc, [[X]]
define float @induction(ptr %a, i64 %n) {
entry:
  br label %loop

loop:
  %ind = phi <8 x i64> [ <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>, %entry ], [ %ind.next, %loop ]
  %acc = phi <8 x float> [ zeroinitializer, %entry ], [ %acc.next, %loop ]
  %j = phi i64 [ 0, %entry ], [ %j.next, %loop ]
  %p = getelementptr float, ptr %a, <8 x i64> %ind
  %x = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %p, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %acc.next = fadd <8 x float> %acc, %x
  %ind.next = add <8 x i64> %ind, <i64 8, i64 8, i64 8, i64 8, i64 8, i64 8, i64 8, i64 8>
  %j.next = add i64 %j, 8
  %done = icmp eq i64 %j.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %sum = call float @llvm.vector.reduce.fadd.v8f32(float 0.0, <8 x float> %acc.next)
  ret float %sum
}

; CHECK-LABEL: define <8 x float> @not_consecutive(
; CHECK-NOT: load <8 x float>
; CHECK: %y = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %even.addr, i32 4, <8 x i1> <i1 true,
; CHECK: %z = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %col.addr, i32 4, <8 x i1> %mask, <8 x float> zeroinitializer)
; CHECK-NOT: load <8 x float>
; CHECK: ret <8 x float> %yz
define <8 x float> @not_consecutive(ptr %a, i64 %gx, <8 x i1> %mask) {
entry:
  %gx.ins = insertelement <8 x i64> poison, i64 %gx, i64 0
  %gx.splat = shufflevector <8 x i64> %gx.ins, <8 x i64> poison, <8 x i32> zeroinitializer
  %col = add <8 x i64> %gx.splat, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %even = mul <8 x i64> %col, <i64 2, i64 2, i64 2, i64 2, i64 2, i64 2, i64 2, i64 2>
  %even.addr = getelementptr float, ptr %a, <8 x i64> %even
  %y = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %even.addr, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %col.addr = getelementptr float, ptr %a, <8 x i64> %col
  %z = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %col.addr, i32 4, <8 x i1> %mask, <8 x float> zeroinitializer)
  %yz = fadd <8 x float> %y, %z
  ret <8 x float> %yz
}

declare <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr>, i32, <8 x i1>, <8 x float>)
declare void @llvm.masked.scatter.v8f32.v8p0(<8 x float>, <8 x ptr>, i32, <8 x i1>)
declare float @llvm.vector.reduce.fadd.v8f32(float, <8 x float>)

!0 = !{!1, !1, i64 0}
!1 = !{!"float", !2, i64 0}
!2 = !{!"clcpu tbaa root"}
