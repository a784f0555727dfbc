; The optimizer of work-group functions: LLVM's O3 with clcpu's passes at
; the vectorizer's start and the optimizer's end (compiler/Pipeline.cpp),
; on two work-group functions in the shape compiler/WorkGroupFunction.cpp
; gives them (z, y and x loops over the group's work-items, the x-loop
; marked clcpu.work_item_loop; kernel arguments read as
; `load (load (args + 8 * i))`, sizes from the context), taken from
; `clcpu-opt -passes=clcpu-kernels -cl-options=-cl-opt-disable` and reduced.
;
; - @wg_colsum, `for (k < rows) acc += m[k * w + i]; out[i] = acc;`: the
;   body has a loop, so the x-loop carries the vectorizer's outer-loop hints
;   (width 8); the outer-loop path gathers m[k * w + i], which
;   clcpu-consecutive-gathers turns into one vector load (lanes are adjacent
;   work-items). out[i] is written only: clcpu-non-temporal-stores gives its
;   vector store a non-temporal twin.
; - @wg_rowof, `out[i] = i / w`: clcpu-invariant-division replaces the
;   division by w (invariant in the x-loop, with SafeIntegerDivision's guard)
;   by a multiply-high with magic numbers computed before the loops, which
;   the vectorizer widens: no division is left in the vector loop.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes='default<O3>' %s | FileCheck %s

; CHECK-LABEL: define void @wg_sgemm(
; CHECK-NOT: @llvm.masked.gather
; CHECK: [[B:%.*]] = load <8 x float>, ptr %{{.*}}, align 4
; CHECK-NEXT: [[ACC:%.*]] = tail call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %{{.*}}, <8 x float> [[B]], <8 x float> %{{.*}})
; CHECK-NOT: @llvm.masked.gather
; CHECK: store <8 x float> [[ACC]], ptr %{{.*}}, align 32, !tbaa !{{[0-9]+}}, !nontemporal
; CHECK-NOT: @llvm.masked.gather
; CHECK: ret void
define void @wg_sgemm(ptr noalias readonly %args, ptr noalias readonly align 8 dereferenceable(288) %ctx) #0 {
entry:
  %a.slot = load ptr, ptr %args, align 8, !invariant.load !0
  %a = load ptr, ptr %a.slot, align 8
  %b.at = getelementptr inbounds ptr, ptr %args, i64 1
  %b.slot = load ptr, ptr %b.at, align 8, !invariant.load !0
  %b = load ptr, ptr %b.slot, align 8
  %c.at = getelementptr inbounds ptr, ptr %args, i64 2
  %c.slot = load ptr, ptr %c.at, align 8, !invariant.load !0
  %c = load ptr, ptr %c.slot, align 8
  %n.at = getelementptr inbounds ptr, ptr %args, i64 3
  %n.slot = load ptr, ptr %n.at, align 8, !invariant.load !0
  %n = load i32, ptr %n.slot, align 4
  %size.x.at = getelementptr inbounds i64, ptr %ctx, i64 3
  %size.x = load i64, ptr %size.x.at, align 8, !invariant.load !0
  %size.y.at = getelementptr inbounds i64, ptr %ctx, i64 4
  %size.y = load i64, ptr %size.y.at, align 8, !invariant.load !0
  %size.z.at = getelementptr inbounds i64, ptr %ctx, i64 5
  %size.z = load i64, ptr %size.z.at, align 8, !invariant.load !0
  br label %z

z:
  %lz = phi i64 [ 0, %entry ], [ %lz.next, %z.latch ]
  br label %y

y:
  %ly = phi i64 [ 0, %z ], [ %ly.next, %y.latch ]
  br label %x

x:
  %lx = phi i64 [ 0, %y ], [ %lx.next, %body.exit ]
  %offset.x.at = getelementptr inbounds i64, ptr %ctx, i64 6
  %offset.x = load i64, ptr %offset.x.at, align 8, !invariant.load !0
  %enq.x.at = getelementptr inbounds i64, ptr %ctx, i64 17
  %enq.x = load i64, ptr %enq.x.at, align 8, !invariant.load !0
  %group.x = load i64, ptr %ctx, align 8, !invariant.load !0
  %first.x = mul i64 %group.x, %enq.x
  %gx.0 = add i64 %first.x, %lx
  %gx = add i64 %gx.0, %offset.x
  %col = trunc i64 %gx to i32
  %offset.y.at = getelementptr inbounds i64, ptr %ctx, i64 7
  %offset.y = load i64, ptr %offset.y.at, align 8, !invariant.load !0
  %enq.y.at = getelementptr inbounds i64, ptr %ctx, i64 18
  %enq.y = load i64, ptr %enq.y.at, align 8, !invariant.load !0
  %group.y.at = getelementptr inbounds i64, ptr %ctx, i64 1
  %group.y = load i64, ptr %group.y.at, align 8, !invariant.load !0
  %first.y = mul i64 %group.y, %enq.y
  %gy.0 = add i64 %first.y, %ly
  %gy = add i64 %gy.0, %offset.y
  %row = trunc i64 %gy to i32
  br label %for.cond

for.cond:
  %acc = phi float [ 0.000000e+00, %x ], [ %acc.next, %for.body ]
  %k = phi i32 [ 0, %x ], [ %k.next, %for.body ]
  %more = icmp slt i32 %k, %n
  br i1 %more, label %for.body, label %body.exit

for.body:
  %rn = mul nsw i32 %row, %n
  %ai = add nsw i32 %rn, %k
  %ai.ext = sext i32 %ai to i64
  %ap = getelementptr inbounds float, ptr %a, i64 %ai.ext
  %av = load float, ptr %ap, align 4, !tbaa !6
  %kn = mul nsw i32 %k, %n
  %bi = add nsw i32 %kn, %col
  %bi.ext = sext i32 %bi to i64
  %bp = getelementptr inbounds float, ptr %b, i64 %bi.ext
  %bv = load float, ptr %bp, align 4, !tbaa !6
  %acc.next = call float @llvm.fmuladd.f32(float %av, float %bv, float %acc)
  %k.next = add nsw i32 %k, 1
  br label %for.cond

body.exit:
  %rn.c = mul nsw i32 %row, %n
  %ci = add nsw i32 %rn.c, %col
  %ci.ext = sext i32 %ci to i64
  %cp = getelementptr inbounds float, ptr %c, i64 %ci.ext
  store float %acc, ptr %cp, align 4, !tbaa !6
  %lx.next = add nuw nsw i64 %lx, 1
  %more.x = icmp ult i64 %lx.next, %size.x
  br i1 %more.x, label %x, label %y.latch, !llvm.loop !1

y.latch:
  %ly.next = add nuw nsw i64 %ly, 1
  %more.y = icmp ult i64 %ly.next, %size.y
  br i1 %more.y, label %y, label %z.latch

z.latch:
  %lz.next = add nuw nsw i64 %lz, 1
  %more.z = icmp ult i64 %lz.next, %size.z
  br i1 %more.z, label %z, label %exit

exit:
  ret void
}

; CHECK-LABEL: define void @wg_rowof(
; CHECK: %div.m = {{.*}}
; CHECK-NOT: sdiv <8 x i32>
; CHECK: [[WIDE:%.*]] = mul nsw <8 x i64> %{{.*}}, %{{.*}}
; CHECK-NEXT: [[HIGH:%.*]] = lshr <8 x i64> [[WIDE]], <i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32, i64 32>
; CHECK-NEXT: trunc {{.*}}<8 x i64> [[HIGH]] to <8 x i32>
; CHECK-NOT: sdiv <8 x i32>
; CHECK: store <8 x i32> %{{.*}}, ptr %{{.*}}, align 32, !tbaa !{{[0-9]+}}, !nontemporal
; CHECK-NOT: sdiv <8 x i32>
; CHECK: ret void
define void @wg_rowof(ptr noalias readonly %args, ptr noalias readonly align 8 dereferenceable(288) %ctx) #0 {
entry:
  %out.slot = load ptr, ptr %args, align 8, !invariant.load !0
  %out = load ptr, ptr %out.slot, align 8
  %w.at = getelementptr inbounds ptr, ptr %args, i64 1
  %w.slot = load ptr, ptr %w.at, align 8, !invariant.load !0
  %w = load i32, ptr %w.slot, align 4
  %size.x.at = getelementptr inbounds i64, ptr %ctx, i64 3
  %size.x = load i64, ptr %size.x.at, align 8, !invariant.load !0
  %size.y.at = getelementptr inbounds i64, ptr %ctx, i64 4
  %size.y = load i64, ptr %size.y.at, align 8, !invariant.load !0
  %size.z.at = getelementptr inbounds i64, ptr %ctx, i64 5
  %size.z = load i64, ptr %size.z.at, align 8, !invariant.load !0
  br label %z

z:
  %lz = phi i64 [ 0, %entry ], [ %lz.next, %z.latch ]
  br label %y

y:
  %ly = phi i64 [ 0, %z ], [ %ly.next, %y.latch ]
  br label %x

x:
  %lx = phi i64 [ 0, %y ], [ %lx.next, %x ]
  %offset.at = getelementptr inbounds i64, ptr %ctx, i64 6
  %offset = load i64, ptr %offset.at, align 8, !invariant.load !0
  %enq.at = getelementptr inbounds i64, ptr %ctx, i64 17
  %enq = load i64, ptr %enq.at, align 8, !invariant.load !0
  %group = load i64, ptr %ctx, align 8, !invariant.load !0
  %first = mul i64 %group, %enq
  %gid.0 = add i64 %first, %lx
  %gid = add i64 %gid.0, %offset
  %i = trunc i64 %gid to i32
  %w.zero = icmp eq i32 %w, 0
  %w.m1 = icmp eq i32 %w, -1
  %i.min = icmp eq i32 %i, -2147483648
  %ovf = and i1 %i.min, %w.m1
  %bad = or i1 %w.zero, %ovf
  %safe.w = select i1 %bad, i32 1, i32 %w
  %row = sdiv i32 %i, %safe.w
  %i.ext = sext i32 %i to i64
  %q = getelementptr inbounds i32, ptr %out, i64 %i.ext
  store i32 %row, ptr %q, align 4, !tbaa !10
  %lx.next = add nuw nsw i64 %lx, 1
  %more.x = icmp ult i64 %lx.next, %size.x
  br i1 %more.x, label %x, label %y.latch, !llvm.loop !9

y.latch:
  %ly.next = add nuw nsw i64 %ly, 1
  %more.y = icmp ult i64 %ly.next, %size.y
  br i1 %more.y, label %y, label %z.latch

z.latch:
  %lz.next = add nuw nsw i64 %lz, 1
  %more.z = icmp ult i64 %lz.next, %size.z
  br i1 %more.z, label %z, label %exit

exit:
  ret void
}

declare float @llvm.fmuladd.f32(float, float, float)

attributes #0 = { nounwind "target-cpu"="x86-64-v3" "target-features"="+avx,+avx2,+bmi,+bmi2,+cx16,+f16c,+fma,+lzcnt,+movbe,+popcnt,+sse4.2,+xsave" }

!0 = !{}
!1 = distinct !{!1, !2, !3, !4, !5}
!2 = !{!"clcpu.work_item_loop"}
!3 = !{!"llvm.loop.vectorize.enable", i1 true}
!4 = !{!"llvm.loop.vectorize.width", i32 8}
!5 = !{!"llvm.loop.interleave.count", i32 1}
!6 = !{!7, !7, i64 0}
!7 = !{!"float", !8, i64 0}
!8 = !{!"clcpu tbaa"}
!9 = distinct !{!9, !2}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !8, i64 0}
