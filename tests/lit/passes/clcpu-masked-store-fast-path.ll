; clcpu-masked-store-fast-path: without AVX-512, llvm.masked.store is
; VMASKMOVPS / VPMASKMOVD, microcoded on AMD Zen 1-3. A masked store in a
; loop whose mask is not a constant therefore tests its mask first: all lanes
; on, a plain store; none, no store; mixed, the masked store. The pass reads
; the function's "target-features" attribute (not -mcpu), so each function
; here carries one.
;
; - @avx2_in_loop: AVX2, a variable mask in a loop: the mask as an i8, the
;   all-on test, a plain store of the same value, address and alignment
;   (metadata kept), then the any-on test guarding the masked store.
; - @avx512_in_loop: the same loop with +avx512f: masked stores are cheap,
;   left alone.
; - @avx2_constant_mask: a constant mask needs no run-time test: left alone.
; - @avx2_outside_loop: a store that runs once is not worth the branch: left
;   alone.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-masked-store-fast-path %s | FileCheck %s

; CHECK-LABEL: define void @avx2_in_loop(
; CHECK: loop:
; CHECK: %mask.bits = bitcast <8 x i1> %m to i8
; CHECK-NEXT: %mask.all = icmp eq i8 %mask.bits, -1
; CHECK-NEXT: br i1 %mask.all, label %[[FULL:[0-9A-Za-z._]+]], label %[[REST:[0-9A-Za-z._]+]]
; CHECK: {{^}}[[FULL]]:
; CHECK-NEXT: store <8 x float> %v, ptr %p, align 4, !tbaa
; CHECK-NEXT: br label
; CHECK: {{^}}[[REST]]:
; CHECK-NEXT: %mask.any = icmp ne i8 %mask.bits, 0
; CHECK-NEXT: br i1 %mask.any, label %[[PARTIAL:[0-9A-Za-z._]+]], label
; CHECK: {{^}}[[PARTIAL]]:
; CHECK-NEXT: call void @llvm.masked.store.v8f32.p0(<8 x float> %v, ptr %p, i32 4, <8 x i1> %m), !tbaa
; CHECK-NEXT: br label
define void @avx2_in_loop(ptr %out, ptr %in, ptr %lim, i64 %n) #0 {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds <8 x float>, ptr %out, i64 %i
  %q = getelementptr inbounds <8 x i32>, ptr %lim, i64 %i
  %lanes = load <8 x i32>, ptr %q, align 4
  %m = icmp slt <8 x i32> %lanes, <i32 128, i32 128, i32 128, i32 128, i32 128, i32 128, i32 128, i32 128>
  %v = load <8 x float>, ptr %in, align 4
  call void @llvm.masked.store.v8f32.p0(<8 x float> %v, ptr %p, i32 4, <8 x i1> %m), !tbaa !0
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @avx512_in_loop(
; CHECK-NOT: mask.bits
; CHECK: %m = icmp slt <16 x i32>
; CHECK-NEXT: %v = load <16 x float>
; CHECK-NEXT: call void @llvm.masked.store.v16f32.p0(<16 x float> %v, ptr %p, i32 4, <16 x i1> %m)
; CHECK-NEXT: %i.next = add i64 %i, 1
define void @avx512_in_loop(ptr %out, ptr %in, ptr %lim, i64 %n) #1 {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds <16 x float>, ptr %out, i64 %i
  %q = getelementptr inbounds <16 x i32>, ptr %lim, i64 %i
  %lanes = load <16 x i32>, ptr %q, align 4
  %m = icmp slt <16 x i32> %lanes, <i32 128, i32 128, i32 128, i32 128, i32 128, i32 128, i32 128, i32 128, i32 128, i32 128, i32 128, i32 128, i32 128, i32 128, i32 128, i32 128>
  %v = load <16 x float>, ptr %in, align 4
  call void @llvm.masked.store.v16f32.p0(<16 x float> %v, ptr %p, i32 4, <16 x i1> %m)
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @avx2_constant_mask(
; CHECK-NOT: mask.bits
; CHECK: %v = load <8 x float>
; CHECK-NEXT: call void @llvm.masked.store.v8f32.p0(<8 x float> %v, ptr %p, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 false, i1 false>)
; CHECK-NEXT: %i.next = add i64 %i, 1
define void @avx2_constant_mask(ptr %out, ptr %in, i64 %n) #0 {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds <8 x float>, ptr %out, i64 %i
  %v = load <8 x float>, ptr %in, align 4
  call void @llvm.masked.store.v8f32.p0(<8 x float> %v, ptr %p, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 false, i1 false>)
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @avx2_outside_loop(
; CHECK-NEXT: entry:
; CHECK-NEXT: %v = load <8 x float>, ptr %in, align 4
; CHECK-NEXT: call void @llvm.masked.store.v8f32.p0(<8 x float> %v, ptr %out, i32 4, <8 x i1> %m)
; CHECK-NEXT: ret void
define void @avx2_outside_loop(ptr %out, ptr %in, <8 x i1> %m) #0 {
entry:
  %v = load <8 x float>, ptr %in, align 4
  call void @llvm.masked.store.v8f32.p0(<8 x float> %v, ptr %out, i32 4, <8 x i1> %m)
  ret void
}

declare void @llvm.masked.store.v8f32.p0(<8 x float>, ptr, i32, <8 x i1>)
declare void @llvm.masked.store.v16f32.p0(<16 x float>, ptr, i32, <16 x i1>)

attributes #0 = { "target-cpu"="x86-64-v3" "target-features"="+avx,+avx2,+fma" }
attributes #1 = { "target-cpu"="x86-64-v4" "target-features"="+avx,+avx2,+avx512f,+avx512vl,+fma" }

!0 = !{!1, !1, i64 0}
!1 = !{!"float", !2, i64 0}
!2 = !{!"clcpu tbaa"}
