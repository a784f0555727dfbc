; clcpu-grid-stride-prefetch: in a vectorized grid-stride loop the counter
; lives in a per-work-item slot: the loop loads it (X = load P), gathers
; base[ext(X)] and stores X + splat(S) back to P. Before such a gather the
; pass prefetches lane 0's element 4 iterations ahead, base[X0 + 4 * S]
; (llvm.prefetch: read, high locality, data cache), because the hardware
; prefetchers do not follow the jump of a whole grid stride.
;
; - @slot_counter_sext: the shape of a barrier kernel's grid-stride region
;   (sext index, masked store of the counter, variable stride): prefetch of
;   base[sext(X0) + 4 * sext(S)] right before the gather.
; - @slot_counter_zext_store: a zext index and a plain store of X + splat(S),
;   a constant stride: the offset folds to 4 * S.
; - @other_slot: X + splat(S) is stored to another slot than X came from, so
;   X is not the loop's counter: no prefetch.
; - @step_not_splat: X + <0, 1, ...> is no uniform step: no prefetch.
; - @not_in_loop: a gather outside any loop: no prefetch.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-grid-stride-prefetch %s | FileCheck %s

; CHECK-LABEL: define void @slot_counter_sext(
; CHECK: loop:
; CHECK: %x = load <8 x i32>, ptr %slot
; CHECK: %idx = sext <8 x i32> %x to <8 x i64>
; CHECK: %addrs = getelementptr inbounds float, ptr %in, <8 x i64> %idx
; CHECK-DAG: [[X0:%.*]] = extractelement <8 x i32> %x, i64 0
; CHECK-DAG: [[X0W:%.*]] = sext i32 [[X0]] to i64
; CHECK-DAG: [[SW:%.*]] = sext i32 %stride to i64
; CHECK-DAG: [[AHEAD:%.*]] = mul i64 [[SW]], 4
; CHECK: [[IDX:%.*]] = add i64 [[X0W]], [[AHEAD]]
; CHECK: %prefetch.addr = getelementptr float, ptr %in, i64 [[IDX]]
; CHECK-NEXT: call void @llvm.prefetch.p0(ptr %prefetch.addr, i32 0, i32 3, i32 1)
; CHECK-NEXT: %v = call <8 x float> @llvm.masked.gather.v8f32.v8p0(
define void @slot_counter_sext(ptr %in, ptr %slot, ptr %acc, i32 %stride, <8 x i1> %live, i64 %n) {
entry:
  %s.ins = insertelement <8 x i32> poison, i32 %stride, i64 0
  %s.splat = shufflevector <8 x i32> %s.ins, <8 x i32> poison, <8 x i32> zeroinitializer
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %x = load <8 x i32>, ptr %slot, align 4
  %idx = sext <8 x i32> %x to <8 x i64>
  %addrs = getelementptr inbounds float, ptr %in, <8 x i64> %idx
  %v = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %addrs, i32 4, <8 x i1> %live, <8 x float> poison)
  store <8 x float> %v, ptr %acc, align 4
  %x.next = add <8 x i32> %x, %s.splat
  call void @llvm.masked.store.v8i32.p0(<8 x i32> %x.next, ptr %slot, i32 4, <8 x i1> %live)
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @slot_counter_zext_store(
; CHECK: [[X0:%.*]] = extractelement <8 x i32> %x, i64 0
; CHECK-NEXT: [[X0W:%.*]] = zext i32 [[X0]] to i64
; CHECK-NEXT: [[IDX:%.*]] = add i64 [[X0W]], 4096
; CHECK-NEXT: %prefetch.addr = getelementptr i32, ptr %in, i64 [[IDX]]
; CHECK-NEXT: call void @llvm.prefetch.p0(ptr %prefetch.addr, i32 0, i32 3, i32 1)
; CHECK-NEXT: %v = call <8 x i32> @llvm.masked.gather.v8i32.v8p0(
define void @slot_counter_zext_store(ptr %in, ptr %slot, ptr %acc, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %x = load <8 x i32>, ptr %slot, align 4
  %idx = zext <8 x i32> %x to <8 x i64>
  %addrs = getelementptr inbounds i32, ptr %in, <8 x i64> %idx
  %v = call <8 x i32> @llvm.masked.gather.v8i32.v8p0(<8 x ptr> %addrs, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x i32> poison)
  store <8 x i32> %v, ptr %acc, align 4
  %x.next = add <8 x i32> %x, <i32 1024, i32 1024, i32 1024, i32 1024, i32 1024, i32 1024, i32 1024, i32 1024>
  store <8 x i32> %x.next, ptr %slot, align 4
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @other_slot(
; CHECK-NOT: @llvm.prefetch
; CHECK: ret void
define void @other_slot(ptr %in, ptr %slot, ptr %other, ptr %acc, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %x = load <8 x i32>, ptr %slot, align 4
  %idx = sext <8 x i32> %x to <8 x i64>
  %addrs = getelementptr inbounds float, ptr %in, <8 x i64> %idx
  %v = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %addrs, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  store <8 x float> %v, ptr %acc, align 4
  %x.next = add <8 x i32> %x, <i32 1024, i32 1024, i32 1024, i32 1024, i32 1024, i32 1024, i32 1024, i32 1024>
  store <8 x i32> %x.next, ptr %other, align 4
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @step_not_splat(
; CHECK-NOT: @llvm.prefetch
; CHECK: ret void
define void @step_not_splat(ptr %in, ptr %slot, ptr %acc, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %x = load <8 x i32>, ptr %slot, align 4
  %idx = sext <8 x i32> %x to <8 x i64>
  %addrs = getelementptr inbounds float, ptr %in, <8 x i64> %idx
  %v = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %addrs, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  store <8 x float> %v, ptr %acc, align 4
  %x.next = add <8 x i32> %x, <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  store <8 x i32> %x.next, ptr %slot, align 4
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @not_in_loop(
; CHECK-NOT: @llvm.prefetch
; CHECK: ret void
define void @not_in_loop(ptr %in, ptr %slot, ptr %acc) {
entry:
  %x = load <8 x i32>, ptr %slot, align 4
  %idx = sext <8 x i32> %x to <8 x i64>
  %addrs = getelementptr inbounds float, ptr %in, <8 x i64> %idx
  %v = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %addrs, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  store <8 x float> %v, ptr %acc, align 4
  %x.next = add <8 x i32> %x, <i32 1024, i32 1024, i32 1024, i32 1024, i32 1024, i32 1024, i32 1024, i32 1024>
  store <8 x i32> %x.next, ptr %slot, align 4
  ret void
}

declare <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr>, i32, <8 x i1>, <8 x float>)
declare <8 x i32> @llvm.masked.gather.v8i32.v8p0(<8 x ptr>, i32, <8 x i1>, <8 x i32>)
declare void @llvm.masked.store.v8i32.p0(<8 x i32>, ptr, i32, <8 x i1>)
