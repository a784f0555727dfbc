; clcpu-vnni-dot-product: in a tree of adds over <N x i32>, the four
; products `byte k of U, zero-extended, * byte k of S, sign-extended`
; (k = 0..3) of one pair of words become vpdpbusd(the rest of the tree, U,
; S); a tree that is only such a sum, saturated onto an accumulator by
; llvm.sadd.sat, becomes vpdpbusds(acc, U, S). The pass reads the
; function's "target-features" (not -mcpu): AVX-512 VNNI gives 512-bit
; instructions (and 256/128-bit with VL), AVX-VNNI 256- and 128-bit ones.
;
; - @us_512: the byte shapes InstCombine leaves (and / lshr; shl + ashr),
;   unsigned times signed: one vpdpbusd.512 on a zero accumulator.
; - @su_acc: the signed bytes are the products' first operands and the
;   tree holds an accumulator: vpdpbusd.512(acc, unsigned word, signed one).
; - @us_sat: llvm.sadd.sat(acc, dot): vpdpbusds.512.
; - @us_1024: 32 lanes: two 512-bit instructions on the halves, rejoined.
; - @us_avxvnni: AVX-VNNI only: two 256-bit instructions.
; - @trunc_forms_splat: zext / sext of trunc-to-i8 bytes, the unsigned ones
;   of a scalar word broadcast to every lane (a value uniform across
;   work-items), the tree's leaves in another order with an accumulator.
; - @ss_left, @uu_left: both signed or both unsigned: no VNNI instruction
;   for them, left alone.
; - @three_bytes_left: only three of the four products: left alone.
; - @no_vnni_left: AVX-512 without VNNI: left alone.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu \
; RUN:   -passes=clcpu-vnni-dot-product %s | FileCheck %s

; CHECK-LABEL: define <16 x i32> @us_512(
; CHECK-NEXT: [[R:%.*]] = call <16 x i32> @llvm.x86.avx512.vpdpbusd.512(<16 x i32> zeroinitializer, <16 x i32> %u, <16 x i32> %s)
; CHECK-NEXT: ret <16 x i32> [[R]]
define <16 x i32> @us_512(<16 x i32> %u, <16 x i32> %s) #0 {
  %u.u0 = and <16 x i32> %u, splat (i32 255)
  %s.h0 = shl <16 x i32> %s, splat (i32 24)
  %s.s0 = ashr <16 x i32> %s.h0, splat (i32 24)
  %p0 = mul nsw <16 x i32> %u.u0, %s.s0
  %u.l1 = lshr <16 x i32> %u, splat (i32 8)
  %u.u1 = and <16 x i32> %u.l1, splat (i32 255)
  %s.h1 = shl <16 x i32> %s, splat (i32 16)
  %s.s1 = ashr <16 x i32> %s.h1, splat (i32 24)
  %p1 = mul nsw <16 x i32> %u.u1, %s.s1
  %u.l2 = lshr <16 x i32> %u, splat (i32 16)
  %u.u2 = and <16 x i32> %u.l2, splat (i32 255)
  %s.h2 = shl <16 x i32> %s, splat (i32 8)
  %s.s2 = ashr <16 x i32> %s.h2, splat (i32 24)
  %p2 = mul nsw <16 x i32> %u.u2, %s.s2
  %u.u3 = lshr <16 x i32> %u, splat (i32 24)
  %s.s3 = ashr <16 x i32> %s, splat (i32 24)
  %p3 = mul nsw <16 x i32> %u.u3, %s.s3
  %sum0 = add nsw <16 x i32> %p0, %p1
  %sum1 = add nsw <16 x i32> %sum0, %p2
  %sum2 = add nsw <16 x i32> %sum1, %p3
  ret <16 x i32> %sum2
}

; CHECK-LABEL: define <16 x i32> @su_acc(
; CHECK-NEXT: [[R:%.*]] = call <16 x i32> @llvm.x86.avx512.vpdpbusd.512(<16 x i32> %acc, <16 x i32> %u, <16 x i32> %s)
; CHECK-NEXT: ret <16 x i32> [[R]]
define <16 x i32> @su_acc(<16 x i32> %u, <16 x i32> %s, <16 x i32> %acc) #0 {
  %s.h0 = shl <16 x i32> %s, splat (i32 24)
  %s.s0 = ashr <16 x i32> %s.h0, splat (i32 24)
  %u.u0 = and <16 x i32> %u, splat (i32 255)
  %p0 = mul nsw <16 x i32> %u.u0, %s.s0
  %s.h1 = shl <16 x i32> %s, splat (i32 16)
  %s.s1 = ashr <16 x i32> %s.h1, splat (i32 24)
  %u.l1 = lshr <16 x i32> %u, splat (i32 8)
  %u.u1 = and <16 x i32> %u.l1, splat (i32 255)
  %p1 = mul nsw <16 x i32> %u.u1, %s.s1
  %s.h2 = shl <16 x i32> %s, splat (i32 8)
  %s.s2 = ashr <16 x i32> %s.h2, splat (i32 24)
  %u.l2 = lshr <16 x i32> %u, splat (i32 16)
  %u.u2 = and <16 x i32> %u.l2, splat (i32 255)
  %p2 = mul nsw <16 x i32> %u.u2, %s.s2
  %s.s3 = ashr <16 x i32> %s, splat (i32 24)
  %u.u3 = lshr <16 x i32> %u, splat (i32 24)
  %p3 = mul nsw <16 x i32> %u.u3, %s.s3
  %sum0 = add nsw <16 x i32> %p0, %p1
  %sum1 = add nsw <16 x i32> %sum0, %p2
  %sum2 = add nsw <16 x i32> %sum1, %p3
  %r = add <16 x i32> %acc, %sum2
  ret <16 x i32> %r
}

; CHECK-LABEL: define <16 x i32> @us_sat(
; CHECK-NEXT: [[R:%.*]] = call <16 x i32> @llvm.x86.avx512.vpdpbusds.512(<16 x i32> %acc, <16 x i32> %u, <16 x i32> %s)
; CHECK-NEXT: ret <16 x i32> [[R]]
define <16 x i32> @us_sat(<16 x i32> %u, <16 x i32> %s, <16 x i32> %acc) #0 {
  %u.u0 = and <16 x i32> %u, splat (i32 255)
  %s.h0 = shl <16 x i32> %s, splat (i32 24)
  %s.s0 = ashr <16 x i32> %s.h0, splat (i32 24)
  %p0 = mul nsw <16 x i32> %u.u0, %s.s0
  %u.l1 = lshr <16 x i32> %u, splat (i32 8)
  %u.u1 = and <16 x i32> %u.l1, splat (i32 255)
  %s.h1 = shl <16 x i32> %s, splat (i32 16)
  %s.s1 = ashr <16 x i32> %s.h1, splat (i32 24)
  %p1 = mul nsw <16 x i32> %u.u1, %s.s1
  %u.l2 = lshr <16 x i32> %u, splat (i32 16)
  %u.u2 = and <16 x i32> %u.l2, splat (i32 255)
  %s.h2 = shl <16 x i32> %s, splat (i32 8)
  %s.s2 = ashr <16 x i32> %s.h2, splat (i32 24)
  %p2 = mul nsw <16 x i32> %u.u2, %s.s2
  %u.u3 = lshr <16 x i32> %u, splat (i32 24)
  %s.s3 = ashr <16 x i32> %s, splat (i32 24)
  %p3 = mul nsw <16 x i32> %u.u3, %s.s3
  %sum0 = add nsw <16 x i32> %p0, %p1
  %sum1 = add nsw <16 x i32> %sum0, %p2
  %sum2 = add nsw <16 x i32> %sum1, %p3
  %r = call <16 x i32> @llvm.sadd.sat.v16i32(<16 x i32> %acc, <16 x i32> %sum2)
  ret <16 x i32> %r
}

; CHECK-LABEL: define <32 x i32> @us_1024(
; CHECK: [[U0:%.*]] = shufflevector <32 x i32> %u, <32 x i32> poison, <16 x i32> <i32 0,
; CHECK: [[S0:%.*]] = shufflevector <32 x i32> %s, <32 x i32> poison, <16 x i32> <i32 0,
; CHECK: [[D0:%.*]] = call <16 x i32> @llvm.x86.avx512.vpdpbusd.512(<16 x i32> zeroinitializer, <16 x i32> [[U0]], <16 x i32> [[S0]])
; CHECK: [[U1:%.*]] = shufflevector <32 x i32> %u, <32 x i32> poison, <16 x i32> <i32 16,
; CHECK: [[S1:%.*]] = shufflevector <32 x i32> %s, <32 x i32> poison, <16 x i32> <i32 16,
; CHECK: [[D1:%.*]] = call <16 x i32> @llvm.x86.avx512.vpdpbusd.512(<16 x i32> zeroinitializer, <16 x i32> [[U1]], <16 x i32> [[S1]])
; CHECK: [[R:%.*]] = shufflevector <16 x i32> [[D0]], <16 x i32> [[D1]], <32 x i32> <i32 0,
; CHECK-NEXT: ret <32 x i32> [[R]]
define <32 x i32> @us_1024(<32 x i32> %u, <32 x i32> %s) #0 {
  %u.u0 = and <32 x i32> %u, splat (i32 255)
  %s.h0 = shl <32 x i32> %s, splat (i32 24)
  %s.s0 = ashr <32 x i32> %s.h0, splat (i32 24)
  %p0 = mul nsw <32 x i32> %u.u0, %s.s0
  %u.l1 = lshr <32 x i32> %u, splat (i32 8)
  %u.u1 = and <32 x i32> %u.l1, splat (i32 255)
  %s.h1 = shl <32 x i32> %s, splat (i32 16)
  %s.s1 = ashr <32 x i32> %s.h1, splat (i32 24)
  %p1 = mul nsw <32 x i32> %u.u1, %s.s1
  %u.l2 = lshr <32 x i32> %u, splat (i32 16)
  %u.u2 = and <32 x i32> %u.l2, splat (i32 255)
  %s.h2 = shl <32 x i32> %s, splat (i32 8)
  %s.s2 = ashr <32 x i32> %s.h2, splat (i32 24)
  %p2 = mul nsw <32 x i32> %u.u2, %s.s2
  %u.u3 = lshr <32 x i32> %u, splat (i32 24)
  %s.s3 = ashr <32 x i32> %s, splat (i32 24)
  %p3 = mul nsw <32 x i32> %u.u3, %s.s3
  %sum0 = add nsw <32 x i32> %p0, %p1
  %sum1 = add nsw <32 x i32> %sum0, %p2
  %sum2 = add nsw <32 x i32> %sum1, %p3
  ret <32 x i32> %sum2
}

; CHECK-LABEL: define <16 x i32> @us_avxvnni(
; CHECK-COUNT-2: call <8 x i32> @llvm.x86.avx512.vpdpbusd.256(<8 x i32> zeroinitializer,
; CHECK-NOT: mul
; CHECK: ret <16 x i32>
define <16 x i32> @us_avxvnni(<16 x i32> %u, <16 x i32> %s) #1 {
  %u.u0 = and <16 x i32> %u, splat (i32 255)
  %s.h0 = shl <16 x i32> %s, splat (i32 24)
  %s.s0 = ashr <16 x i32> %s.h0, splat (i32 24)
  %p0 = mul nsw <16 x i32> %u.u0, %s.s0
  %u.l1 = lshr <16 x i32> %u, splat (i32 8)
  %u.u1 = and <16 x i32> %u.l1, splat (i32 255)
  %s.h1 = shl <16 x i32> %s, splat (i32 16)
  %s.s1 = ashr <16 x i32> %s.h1, splat (i32 24)
  %p1 = mul nsw <16 x i32> %u.u1, %s.s1
  %u.l2 = lshr <16 x i32> %u, splat (i32 16)
  %u.u2 = and <16 x i32> %u.l2, splat (i32 255)
  %s.h2 = shl <16 x i32> %s, splat (i32 8)
  %s.s2 = ashr <16 x i32> %s.h2, splat (i32 24)
  %p2 = mul nsw <16 x i32> %u.u2, %s.s2
  %u.u3 = lshr <16 x i32> %u, splat (i32 24)
  %s.s3 = ashr <16 x i32> %s, splat (i32 24)
  %p3 = mul nsw <16 x i32> %u.u3, %s.s3
  %sum0 = add nsw <16 x i32> %p0, %p1
  %sum1 = add nsw <16 x i32> %sum0, %p2
  %sum2 = add nsw <16 x i32> %sum1, %p3
  ret <16 x i32> %sum2
}

; CHECK-LABEL: define <8 x i32> @trunc_forms_splat(
; CHECK: [[W:%.*]] = insertelement <8 x i32> poison, i32 %w, i64 0
; CHECK-NEXT: [[WS:%.*]] = shufflevector <8 x i32> [[W]], <8 x i32> poison, <8 x i32> zeroinitializer
; CHECK-NEXT: [[R:%.*]] = call <8 x i32> @llvm.x86.avx512.vpdpbusd.256(<8 x i32> %acc, <8 x i32> [[WS]], <8 x i32> %s)
; CHECK-NEXT: ret <8 x i32> [[R]]
define <8 x i32> @trunc_forms_splat(i32 %w, <8 x i32> %s, <8 x i32> %acc) #1 {
  %w.l1 = lshr i32 %w, 8
  %w.l2 = lshr i32 %w, 16
  %w.l3 = lshr i32 %w, 24
  %w.t0 = trunc i32 %w to i8
  %w.t1 = trunc i32 %w.l1 to i8
  %w.t2 = trunc i32 %w.l2 to i8
  %w.t3 = trunc i32 %w.l3 to i8
  %w.u0 = zext i8 %w.t0 to i32
  %w.u1 = zext i8 %w.t1 to i32
  %w.u2 = zext i8 %w.t2 to i32
  %w.u3 = zext i8 %w.t3 to i32
  %i0 = insertelement <8 x i32> poison, i32 %w.u0, i64 0
  %b0 = shufflevector <8 x i32> %i0, <8 x i32> poison, <8 x i32> zeroinitializer
  %i1 = insertelement <8 x i32> poison, i32 %w.u1, i64 0
  %b1 = shufflevector <8 x i32> %i1, <8 x i32> poison, <8 x i32> zeroinitializer
  %i2 = insertelement <8 x i32> poison, i32 %w.u2, i64 0
  %b2 = shufflevector <8 x i32> %i2, <8 x i32> poison, <8 x i32> zeroinitializer
  %i3 = insertelement <8 x i32> poison, i32 %w.u3, i64 0
  %b3 = shufflevector <8 x i32> %i3, <8 x i32> poison, <8 x i32> zeroinitializer
  %s.l1 = lshr <8 x i32> %s, splat (i32 8)
  %s.l2 = lshr <8 x i32> %s, splat (i32 16)
  %s.l3 = lshr <8 x i32> %s, splat (i32 24)
  %s.t0 = trunc <8 x i32> %s to <8 x i8>
  %s.t1 = trunc <8 x i32> %s.l1 to <8 x i8>
  %s.t2 = trunc <8 x i32> %s.l2 to <8 x i8>
  %s.t3 = trunc <8 x i32> %s.l3 to <8 x i8>
  %s.s0 = sext <8 x i8> %s.t0 to <8 x i32>
  %s.s1 = sext <8 x i8> %s.t1 to <8 x i32>
  %s.s2 = sext <8 x i8> %s.t2 to <8 x i32>
  %s.s3 = sext <8 x i8> %s.t3 to <8 x i32>
  %p0 = mul nsw <8 x i32> %b0, %s.s0
  %p1 = mul nsw <8 x i32> %b1, %s.s1
  %p2 = mul nsw <8 x i32> %b2, %s.s2
  %p3 = mul nsw <8 x i32> %b3, %s.s3
  %sum0 = add nsw <8 x i32> %p3, %p1
  %sum1 = add nsw <8 x i32> %acc, %p0
  %sum2 = add nsw <8 x i32> %sum0, %p2
  %r = add nsw <8 x i32> %sum1, %sum2
  ret <8 x i32> %r
}

; CHECK-LABEL: define <16 x i32> @ss_left(
; CHECK-NOT: vpdpbusd
; CHECK: ret <16 x i32> %sum2
define <16 x i32> @ss_left(<16 x i32> %u, <16 x i32> %s) #0 {
  %u.h0 = shl <16 x i32> %u, splat (i32 24)
  %u.s0 = ashr <16 x i32> %u.h0, splat (i32 24)
  %s.h0 = shl <16 x i32> %s, splat (i32 24)
  %s.s0 = ashr <16 x i32> %s.h0, splat (i32 24)
  %p0 = mul nsw <16 x i32> %u.s0, %s.s0
  %u.h1 = shl <16 x i32> %u, splat (i32 16)
  %u.s1 = ashr <16 x i32> %u.h1, splat (i32 24)
  %s.h1 = shl <16 x i32> %s, splat (i32 16)
  %s.s1 = ashr <16 x i32> %s.h1, splat (i32 24)
  %p1 = mul nsw <16 x i32> %u.s1, %s.s1
  %u.h2 = shl <16 x i32> %u, splat (i32 8)
  %u.s2 = ashr <16 x i32> %u.h2, splat (i32 24)
  %s.h2 = shl <16 x i32> %s, splat (i32 8)
  %s.s2 = ashr <16 x i32> %s.h2, splat (i32 24)
  %p2 = mul nsw <16 x i32> %u.s2, %s.s2
  %u.s3 = ashr <16 x i32> %u, splat (i32 24)
  %s.s3 = ashr <16 x i32> %s, splat (i32 24)
  %p3 = mul nsw <16 x i32> %u.s3, %s.s3
  %sum0 = add nsw <16 x i32> %p0, %p1
  %sum1 = add nsw <16 x i32> %sum0, %p2
  %sum2 = add nsw <16 x i32> %sum1, %p3
  ret <16 x i32> %sum2
}

; CHECK-LABEL: define <16 x i32> @uu_left(
; CHECK-NOT: vpdpbusd
; CHECK: ret <16 x i32> %sum2
define <16 x i32> @uu_left(<16 x i32> %u, <16 x i32> %s) #0 {
  %u.u0 = and <16 x i32> %u, splat (i32 255)
  %s.u0 = and <16 x i32> %s, splat (i32 255)
  %p0 = mul nsw <16 x i32> %u.u0, %s.u0
  %u.l1 = lshr <16 x i32> %u, splat (i32 8)
  %u.u1 = and <16 x i32> %u.l1, splat (i32 255)
  %s.l1 = lshr <16 x i32> %s, splat (i32 8)
  %s.u1 = and <16 x i32> %s.l1, splat (i32 255)
  %p1 = mul nsw <16 x i32> %u.u1, %s.u1
  %u.l2 = lshr <16 x i32> %u, splat (i32 16)
  %u.u2 = and <16 x i32> %u.l2, splat (i32 255)
  %s.l2 = lshr <16 x i32> %s, splat (i32 16)
  %s.u2 = and <16 x i32> %s.l2, splat (i32 255)
  %p2 = mul nsw <16 x i32> %u.u2, %s.u2
  %u.u3 = lshr <16 x i32> %u, splat (i32 24)
  %s.u3 = lshr <16 x i32> %s, splat (i32 24)
  %p3 = mul nsw <16 x i32> %u.u3, %s.u3
  %sum0 = add nsw <16 x i32> %p0, %p1
  %sum1 = add nsw <16 x i32> %sum0, %p2
  %sum2 = add nsw <16 x i32> %sum1, %p3
  ret <16 x i32> %sum2
}

; CHECK-LABEL: define <16 x i32> @three_bytes_left(
; CHECK-NOT: vpdpbusd
; CHECK: ret <16 x i32> %sum1
define <16 x i32> @three_bytes_left(<16 x i32> %u, <16 x i32> %s) #0 {
  %u.u0 = and <16 x i32> %u, splat (i32 255)
  %s.h0 = shl <16 x i32> %s, splat (i32 24)
  %s.s0 = ashr <16 x i32> %s.h0, splat (i32 24)
  %p0 = mul nsw <16 x i32> %u.u0, %s.s0
  %u.l1 = lshr <16 x i32> %u, splat (i32 8)
  %u.u1 = and <16 x i32> %u.l1, splat (i32 255)
  %s.h1 = shl <16 x i32> %s, splat (i32 16)
  %s.s1 = ashr <16 x i32> %s.h1, splat (i32 24)
  %p1 = mul nsw <16 x i32> %u.u1, %s.s1
  %u.l2 = lshr <16 x i32> %u, splat (i32 16)
  %u.u2 = and <16 x i32> %u.l2, splat (i32 255)
  %s.h2 = shl <16 x i32> %s, splat (i32 8)
  %s.s2 = ashr <16 x i32> %s.h2, splat (i32 24)
  %p2 = mul nsw <16 x i32> %u.u2, %s.s2
  %sum0 = add nsw <16 x i32> %p0, %p1
  %sum1 = add nsw <16 x i32> %sum0, %p2
  ret <16 x i32> %sum1
}

; CHECK-LABEL: define <16 x i32> @no_vnni_left(
; CHECK-NOT: vpdpbusd
; CHECK: ret <16 x i32> %sum2
define <16 x i32> @no_vnni_left(<16 x i32> %u, <16 x i32> %s) #2 {
  %u.u0 = and <16 x i32> %u, splat (i32 255)
  %s.h0 = shl <16 x i32> %s, splat (i32 24)
  %s.s0 = ashr <16 x i32> %s.h0, splat (i32 24)
  %p0 = mul nsw <16 x i32> %u.u0, %s.s0
  %u.l1 = lshr <16 x i32> %u, splat (i32 8)
  %u.u1 = and <16 x i32> %u.l1, splat (i32 255)
  %s.h1 = shl <16 x i32> %s, splat (i32 16)
  %s.s1 = ashr <16 x i32> %s.h1, splat (i32 24)
  %p1 = mul nsw <16 x i32> %u.u1, %s.s1
  %u.l2 = lshr <16 x i32> %u, splat (i32 16)
  %u.u2 = and <16 x i32> %u.l2, splat (i32 255)
  %s.h2 = shl <16 x i32> %s, splat (i32 8)
  %s.s2 = ashr <16 x i32> %s.h2, splat (i32 24)
  %p2 = mul nsw <16 x i32> %u.u2, %s.s2
  %u.u3 = lshr <16 x i32> %u, splat (i32 24)
  %s.s3 = ashr <16 x i32> %s, splat (i32 24)
  %p3 = mul nsw <16 x i32> %u.u3, %s.s3
  %sum0 = add nsw <16 x i32> %p0, %p1
  %sum1 = add nsw <16 x i32> %sum0, %p2
  %sum2 = add nsw <16 x i32> %sum1, %p3
  ret <16 x i32> %sum2
}

declare <16 x i32> @llvm.sadd.sat.v16i32(<16 x i32>, <16 x i32>)

attributes #0 = { "target-features"="+avx512f,+avx512vnni,+avx512vl" }
attributes #1 = { "target-features"="+avx2,+avxvnni" }
attributes #2 = { "target-features"="+avx512f,+avx512bw,+avx512vl" }
