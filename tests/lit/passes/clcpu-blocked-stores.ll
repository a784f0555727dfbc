; A work-item that writes its own S consecutive elements (out[gid * S + j],
; j = 0 .. S-1, the inner loop unrolled) stores a scatter or an interleaved
; group when vectorized across work-items; scalar, the SLP vectorizer makes
; its S stores one vector store. clcpu-blocked-stores gives such an
; INNERMOST work-item loop (!{!"clcpu.work_item_loop"}) a vectorization
; width of 1, in place of any llvm.loop.vectorize.* hints, when its scalar
; stores include a complete group: S >= 2 stores of one size, S elements
; apart per work-item, at offsets 0 .. S-1.
;
; @own_block4: the front end's shape for `b = gid * 4` (int index, shl,
;   sext, `or disjoint`): the outer-loop path's hints (enable, width 16)
;   give way to width 1; the interleave count and the mark stay.
; @own_block2: S = 2 through InstCombine's sign extension of a scaled int
;   (`(x << 33) >>exact 30` bytes) and stores in reverse order: width 1.
; @incomplete_group: stride 4 elements but only offsets 0 and 2 stored:
;   not a complete block, left alone.
; @across_work_items: out[gid], consecutive across work-items: left alone.
; @vector_stores: one <2 x i32> store per work-item (OpenCL vector stores
;   do not count): left alone.
; @not_innermost: the block stores in a work-item loop that contains a
;   loop: left alone.
; @unmarked: the complete group in a loop without the work-item mark: left
;   alone.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-blocked-stores %s | FileCheck %s

; CHECK-LABEL: define void @own_block4(
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[B4:[0-9]+]]
define void @own_block4(ptr %out, i64 %base, i64 %n) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x ]
  %gid = add i64 %base, %lx
  %gid32 = trunc i64 %gid to i32
  %b32 = shl i32 %gid32, 2
  %b = sext i32 %b32 to i64
  %p0 = getelementptr inbounds i32, ptr %out, i64 %b
  store i32 0, ptr %p0, align 4
  %b1 = or disjoint i64 %b, 1
  %p1 = getelementptr inbounds i32, ptr %out, i64 %b1
  store i32 1, ptr %p1, align 4
  %b2 = or disjoint i64 %b, 2
  %p2 = getelementptr inbounds i32, ptr %out, i64 %b2
  store i32 2, ptr %p2, align 4
  %b3 = or disjoint i64 %b, 3
  %p3 = getelementptr inbounds i32, ptr %out, i64 %b3
  store i32 3, ptr %p3, align 4
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !0

exit:
  ret void
}

; CHECK-LABEL: define void @own_block2(
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[B2:[0-9]+]]
define void @own_block2(ptr %out, i64 %n) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x ]
  %sext = shl i64 %lx, 33
  %off = ashr exact i64 %sext, 30
  %p0 = getelementptr inbounds i8, ptr %out, i64 %off
  %p1 = getelementptr inbounds i8, ptr %p0, i64 4
  store float 1.0, ptr %p1, align 4
  store float 0.0, ptr %p0, align 4
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !5

exit:
  ret void
}

; CHECK-LABEL: define void @incomplete_group(
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[INC:[0-9]+]]
define void @incomplete_group(ptr %out, i64 %n) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x ]
  %b = shl i64 %lx, 2
  %p0 = getelementptr inbounds i32, ptr %out, i64 %b
  store i32 0, ptr %p0, align 4
  %p2 = getelementptr inbounds i32, ptr %p0, i64 2
  store i32 2, ptr %p2, align 4
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !6

exit:
  ret void
}

; CHECK-LABEL: define void @across_work_items(
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[ACROSS:[0-9]+]]
define void @across_work_items(ptr %out, i64 %n) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x ]
  %p = getelementptr inbounds i32, ptr %out, i64 %lx
  store i32 0, ptr %p, align 4
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !7

exit:
  ret void
}

; CHECK-LABEL: define void @vector_stores(
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[VEC:[0-9]+]]
define void @vector_stores(ptr %out, i64 %n) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x ]
  %p = getelementptr inbounds <2 x i32>, ptr %out, i64 %lx
  store <2 x i32> <i32 0, i32 1>, ptr %p, align 8
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !8

exit:
  ret void
}

; CHECK-LABEL: define void @not_innermost(
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[OUTER:[0-9]+]]
define void @not_innermost(ptr %out, i64 %n, i64 %k) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x.latch ]
  br label %inner

inner:
  %j = phi i64 [ 0, %x ], [ %j.next, %inner ]
  %j.next = add nuw i64 %j, 1
  %jc = icmp eq i64 %j.next, %k
  br i1 %jc, label %x.latch, label %inner

x.latch:
  %b = shl i64 %lx, 1
  %p0 = getelementptr inbounds i32, ptr %out, i64 %b
  store i32 0, ptr %p0, align 4
  %p1 = getelementptr inbounds i32, ptr %p0, i64 1
  store i32 1, ptr %p1, align 4
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !9

exit:
  ret void
}

; CHECK-LABEL: define void @unmarked(
; CHECK: br i1 %c, label %exit, label %x, !llvm.loop ![[UNMARKED:[0-9]+]]
define void @unmarked(ptr %out, i64 %n) {
entry:
  br label %x

x:
  %lx = phi i64 [ 0, %entry ], [ %lx.next, %x ]
  %b = shl i64 %lx, 1
  %p0 = getelementptr inbounds i32, ptr %out, i64 %b
  store i32 0, ptr %p0, align 4
  %p1 = getelementptr inbounds i32, ptr %p0, i64 1
  store i32 1, ptr %p1, align 4
  %lx.next = add nuw i64 %lx, 1
  %c = icmp eq i64 %lx.next, %n
  br i1 %c, label %exit, label %x, !llvm.loop !10

exit:
  ret void
}

; CHECK-DAG: ![[MARK:[0-9]+]] = !{!"clcpu.work_item_loop"}
; CHECK-DAG: ![[IC:[0-9]+]] = !{!"llvm.loop.interleave.count", i32 1}
; CHECK-DAG: ![[W1:[0-9]+]] = !{!"llvm.loop.vectorize.width", i32 1}
; CHECK-DAG: ![[W16:[0-9]+]] = !{!"llvm.loop.vectorize.width", i32 16}
; CHECK-DAG: ![[B4]] = distinct !{![[B4]], ![[MARK]], ![[IC]], ![[W1]]}
; CHECK-DAG: ![[B2]] = distinct !{![[B2]], ![[MARK]], ![[W1]]}
; CHECK-DAG: ![[INC]] = distinct !{![[INC]], ![[MARK]]}
; CHECK-DAG: ![[ACROSS]] = distinct !{![[ACROSS]], ![[MARK]]}
; CHECK-DAG: ![[VEC]] = distinct !{![[VEC]], ![[MARK]]}
; CHECK-DAG: ![[OUTER]] = distinct !{![[OUTER]], ![[MARK]], ![[ENABLE:[0-9]+]], ![[W16]]}
; CHECK-DAG: ![[ENABLE]] = !{!"llvm.loop.vectorize.enable", i1 true}
; CHECK-DAG: ![[UNMARKED]] = distinct !{![[UNMARKED]], ![[W16]]}

!0 = distinct !{!0, !1, !2, !3, !4}
!1 = !{!"clcpu.work_item_loop"}
!2 = !{!"llvm.loop.vectorize.enable", i1 true}
!3 = !{!"llvm.loop.vectorize.width", i32 16}
!4 = !{!"llvm.loop.interleave.count", i32 1}
!5 = distinct !{!5, !1}
!6 = distinct !{!6, !1}
!7 = distinct !{!7, !1}
!8 = distinct !{!8, !1}
!9 = distinct !{!9, !1, !2, !3}
!10 = distinct !{!10, !3}
