; clcpu-non-temporal-stores: in a work-group function `wg_<K>(args, ctx)`,
; a full-register vector store into a kernel argument the function never
; reads through (`load (load (args + 8 * i))`) becomes
; `if (output large && address aligned) non-temporal store else the store`.
; "Large" is per launch: bit i of the context's StreamArgs, or the launch's
; work-item count (GlobalSize x * y * z) at least the last-level cache's size
; over the element size. That threshold comes from the host's cache (sysfs),
; so no CHECK line matches its value. A store whose address steps through
; its loop by a multiple of its size tests its alignment once before the
; loop, and the loop then runs in two versions. Non-temporal stores are
; weakly ordered: an sfence goes before each later release.
;
; - @wg_copy_loop: `out[i] = in[i]` by vectors of 8 floats in a loop: the
;   flags read from the context in the entry block, the alignment of the
;   address's start tested (frozen) before the loop, the loop versioned:
;   one copy with the store non-temporal (aligned to 32), one (.st) with the
;   store as it was.
; - @wg_store_then_release: a store outside any loop tests its flag at the
;   store (16-byte store, alignment 16); the release fence after it gets an
;   sfence in front.
; - @wg_image_row: a write_imageui of adjacent pixels: a masked store
;   (the image's bounds) at lane 0 of a vector of addresses into the pixels
;   of image argument 1 (`load (load (load (args + 8)))`, the descriptor's
;   first field), whose lanes were found adjacent (ptrtoint compares):
;   streams as a plain non-temporal store when, besides the flag and the
;   alignment, every lane of the mask is on; the masked store otherwise.
; - @wg_read_back: the output argument is also loaded from: left alone.
; - @wg_release_in_loop: a release in the loop of the store would drain the
;   write-combining buffers every iteration: the function keeps ordinary
;   stores.
; - @wg_region_loop: the barrier regions' dispatch loop: the store's loop
;   also calls the kernel's collective step (a function of the module, no
;   inlining), which calls the runtime's collective through a field of the
;   context it is passed: a call through the context runs on the group's
;   own thread and releases nothing, so the store still streams (it did not
;   when the step's own context parameter was not taken for the context).
; - @wg_region_loop_other: the same step called with another pointer where
;   the context goes: its indirect call may release, the function keeps
;   ordinary stores.
; - @wg_pipe_commit_loop: a step computing a work-group pipe commit (Op 739,
;   CollPipeCommitWrite * 16 + CollULong): the runtime's locked instructions
;   drain the write-combining buffers at each group, like a release in the
;   loop: ordinary stores.
; - @copy_not_wg: not a work-group function (name): left alone.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-non-temporal-stores %s | FileCheck %s

; CHECK-LABEL: define void @wg_copy_loop(
; CHECK: entry:
; CHECK: load i64, ptr %{{.*}}, align 8, !invariant.load
; CHECK: mul i64
; CHECK: [[ITEMS:%.*]] = mul i64
; CHECK: [[SA:%.*]] = load i64, ptr %{{.*}}, align 8, !invariant.load
; CHECK: [[MANY:%.*]] = icmp uge i64 [[ITEMS]], {{[0-9]+}}
; CHECK: [[SHIFT:%.*]] = lshr i64 [[SA]], 1
; CHECK-NEXT: [[BIT:%.*]] = and i64 [[SHIFT]], 1
; CHECK-NEXT: [[ISARG:%.*]] = icmp ne i64 [[BIT]], 0
; CHECK-NEXT: [[LARGE:%.*]] = or i1 [[MANY]], [[ISARG]]
; CHECK: [[START:%.*]] = ptrtoint ptr %out to i64
; CHECK-NEXT: [[FROZEN:%.*]] = freeze i64 [[START]]
; CHECK-NEXT: [[LOW:%.*]] = and i64 [[FROZEN]], 31
; CHECK-NEXT: [[ALIGNED:%.*]] = icmp eq i64 [[LOW]], 0
; CHECK-NEXT: [[STREAM:%.*]] = and i1 [[LARGE]], [[ALIGNED]]
; CHECK-NEXT: br i1 [[STREAM]], label %loop.nt.ph, label %loop.nt.ph.st
; CHECK: {{^}}loop.st:
; CHECK: store <8 x float> %v.st, ptr %q.st, align 4{{$}}
; CHECK: {{^}}loop:
; CHECK: store <8 x float> %v, ptr %q, align 32, !nontemporal [[NT:![0-9]+]]
define void @wg_copy_loop(ptr %args, ptr %ctx) {
entry:
  %in.slot = load ptr, ptr %args, align 8
  %in = load ptr, ptr %in.slot, align 8
  %out.at = getelementptr inbounds i8, ptr %args, i64 8
  %out.slot = load ptr, ptr %out.at, align 8
  %out = load ptr, ptr %out.slot, align 8
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr %in, i64 %i
  %v = load <8 x float>, ptr %p, align 4
  %q = getelementptr inbounds float, ptr %out, i64 %i
  store <8 x float> %v, ptr %q, align 4
  %i.next = add nuw i64 %i, 8
  %done = icmp eq i64 %i.next, 1024
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @wg_store_then_release(
; CHECK: [[ADDR:%.*]] = ptrtoint ptr %out to i64
; CHECK-NEXT: [[LOW:%.*]] = and i64 [[ADDR]], 15
; CHECK-NEXT: [[ALIGNED:%.*]] = icmp eq i64 [[LOW]], 0
; CHECK-NEXT: [[STREAM:%.*]] = and i1 %{{.*}}, [[ALIGNED]]
; CHECK-NEXT: br i1 [[STREAM]], label %[[NTB:[0-9A-Za-z._]+]], label %[[PLAINB:[0-9A-Za-z._]+]]
; CHECK: {{^}}[[NTB]]:
; CHECK-NEXT: store <4 x i32> <i32 1, i32 2, i32 3, i32 4>, ptr %out, align 16, !nontemporal [[NT]]
; CHECK: {{^}}[[PLAINB]]:
; CHECK-NEXT: store <4 x i32> <i32 1, i32 2, i32 3, i32 4>, ptr %out, align 4{{$}}
; CHECK: call void @llvm.x86.sse.sfence()
; CHECK-NEXT: fence release
define void @wg_store_then_release(ptr %args, ptr %ctx) {
entry:
  %out.slot = load ptr, ptr %args, align 8
  %out = load ptr, ptr %out.slot, align 8
  store <4 x i32> <i32 1, i32 2, i32 3, i32 4>, ptr %out, align 4
  fence release
  ret void
}

; CHECK-LABEL: define void @wg_image_row(
; CHECK: [[ADDR:%.*]] = ptrtoint ptr %lane0 to i64
; CHECK-NEXT: [[LOW:%.*]] = and i64 [[ADDR]], 31
; CHECK-NEXT: [[ALIGNED:%.*]] = icmp eq i64 [[LOW]], 0
; CHECK-NEXT: [[FLAG:%.*]] = and i1 %{{.*}}, [[ALIGNED]]
; CHECK-NEXT: [[BITS:%.*]] = bitcast <8 x i1> %inside to i8
; CHECK-NEXT: [[ALL:%.*]] = icmp eq i8 [[BITS]], -1
; CHECK-NEXT: [[STREAM:%.*]] = and i1 [[FLAG]], [[ALL]]
; CHECK-NEXT: br i1 [[STREAM]], label %[[NTB:[0-9A-Za-z._]+]], label %[[PLAINB:[0-9A-Za-z._]+]]
; CHECK: {{^}}[[NTB]]:
; CHECK-NEXT: store <8 x i32> %v, ptr %lane0, align 32, !nontemporal [[NT]]
; CHECK: {{^}}[[PLAINB]]:
; CHECK-NEXT: call void @llvm.masked.store.v8i32.p0(<8 x i32> %v, ptr %lane0, i32 1, <8 x i1> %inside)
define void @wg_image_row(ptr %args, ptr %ctx) {
entry:
  %in.slot = load ptr, ptr %args, align 8
  %in = load ptr, ptr %in.slot, align 8
  %v = load <8 x i32>, ptr %in, align 4
  %offsets = load <8 x i64>, ptr %ctx, align 8
  %inside = icmp ult <8 x i64> %offsets, <i64 400, i64 400, i64 400, i64 400, i64 400, i64 400, i64 400, i64 400>
  %img.slot = getelementptr inbounds i8, ptr %args, i64 8
  %desc.slot = load ptr, ptr %img.slot, align 8
  %desc = load ptr, ptr %desc.slot, align 8
  %pixels = load ptr, ptr %desc, align 8
  %addrs = getelementptr inbounds i8, ptr %pixels, <8 x i64> %offsets
  %ints = ptrtoint <8 x ptr> %addrs to <8 x i64>
  %first = extractelement <8 x i64> %ints, i64 0
  %adjacent = icmp eq i64 %first, 0
  br i1 %adjacent, label %wide, label %exit

wide:
  %lane0 = extractelement <8 x ptr> %addrs, i64 0
  call void @llvm.masked.store.v8i32.p0(<8 x i32> %v, ptr %lane0, i32 1, <8 x i1> %inside)
  br label %exit

exit:
  ret void
}

; CHECK-LABEL: define void @wg_read_back(
; CHECK-NOT: !nontemporal
; CHECK: ret void
define void @wg_read_back(ptr %args, ptr %ctx) {
entry:
  %out.slot = load ptr, ptr %args, align 8
  %out = load ptr, ptr %out.slot, align 8
  %old = load <8 x float>, ptr %out, align 4
  %new = fadd <8 x float> %old, %old
  store <8 x float> %new, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define void @wg_release_in_loop(
; CHECK-NOT: !nontemporal
; CHECK-NOT: sfence
; CHECK: ret void
define void @wg_release_in_loop(ptr %args, ptr %ctx) {
entry:
  %out.slot = load ptr, ptr %args, align 8
  %out = load ptr, ptr %out.slot, align 8
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %q = getelementptr inbounds float, ptr %out, i64 %i
  store <8 x float> zeroinitializer, ptr %q, align 4
  fence release
  %i.next = add nuw i64 %i, 8
  %done = icmp eq i64 %i.next, 1024
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @wg_region_loop(
; CHECK: store <8 x float> zeroinitializer, ptr %q, align 32, !nontemporal
; CHECK: call void @step(ptr %ctx)
define void @wg_region_loop(ptr %args, ptr %ctx) {
entry:
  %out.slot = load ptr, ptr %args, align 8
  %out = load ptr, ptr %out.slot, align 8
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %q = getelementptr inbounds float, ptr %out, i64 %i
  store <8 x float> zeroinitializer, ptr %q, align 4
  call void @step(ptr %ctx)
  %i.next = add nuw i64 %i, 8
  %done = icmp eq i64 %i.next, 1024
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @wg_region_loop_other(
; CHECK-NOT: !nontemporal
; CHECK: ret void
define void @wg_region_loop_other(ptr %args, ptr %ctx) {
entry:
  %out.slot = load ptr, ptr %args, align 8
  %out = load ptr, ptr %out.slot, align 8
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %q = getelementptr inbounds float, ptr %out, i64 %i
  store <8 x float> zeroinitializer, ptr %q, align 4
  call void @step(ptr %args)
  %i.next = add nuw i64 %i, 8
  %done = icmp eq i64 %i.next, 1024
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @wg_pipe_commit_loop(
; CHECK-NOT: !nontemporal
; CHECK: ret void
define void @wg_pipe_commit_loop(ptr %args, ptr %ctx) {
entry:
  %out.slot = load ptr, ptr %args, align 8
  %out = load ptr, ptr %out.slot, align 8
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %q = getelementptr inbounds float, ptr %out, i64 %i
  store <8 x float> zeroinitializer, ptr %q, align 4
  call void @pipe_step(ptr %ctx)
  %i.next = add nuw i64 %i, 8
  %done = icmp eq i64 %i.next, 1024
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define internal void @pipe_step(ptr %c) noinline {
entry:
  %field = getelementptr inbounds i8, ptr %c, i64 64
  %fn = load ptr, ptr %field, align 8
  call void %fn(ptr %c, i32 739)
  ret void
}

; A collective step: the runtime's collective from a field of its context.
define internal void @step(ptr %c) noinline {
entry:
  %field = getelementptr inbounds i8, ptr %c, i64 64
  %fn = load ptr, ptr %field, align 8
  call void %fn(ptr %c, i32 1)
  ret void
}

; CHECK-LABEL: define void @copy_not_wg(
; CHECK-NEXT: entry:
; CHECK-NEXT: %out.slot = load ptr, ptr %args, align 8
; CHECK-NEXT: %out = load ptr, ptr %out.slot, align 8
; CHECK-NEXT: store <8 x float> zeroinitializer, ptr %out, align 4
; CHECK-NEXT: ret void
define void @copy_not_wg(ptr %args, ptr %ctx) {
entry:
  %out.slot = load ptr, ptr %args, align 8
  %out = load ptr, ptr %out.slot, align 8
  store <8 x float> zeroinitializer, ptr %out, align 4
  ret void
}

; CHECK: [[NT]] = !{i32 1}
