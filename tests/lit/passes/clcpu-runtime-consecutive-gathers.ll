; clcpu-runtime-consecutive-gathers: a gather or scatter in a loop whose
; lanes are adjacent only at run time gets a check: all lanes adjacent, a
; (masked) vector load or store from lane 0's address; else, for a gather,
; all lanes on one address, a scalar load and a broadcast; else the original
; gather or scatter. A modular index (`s[(lid + 1) % M]`, M a constant) is
; tested on lane 0 in scalar code; when M is a power of two and lane 0's
; dividend steps by a constant through the loop, the test becomes a
; countdown of the adjacent iterations left, and the wrapping vector is two
; masked loads instead of the gather.
;
; - @indexed_gather: `in[idx[i]]`, a sext of 32-bit indices, all lanes on:
;   the 32-bit lanes compared against lane 0 + <0..7> (with lane 0 at most
;   INT_MAX - 7), a plain vector load, the one-address test with a scalar
;   load and a broadcast, and the gather kept last.
; - @masked_scatter: addresses of no recognized form are compared as
;   integers, 4 bytes apart; a masked store under the scatter's own mask.
; - @modular: `s[(y + 1) % 100]`: lane 0's remainder (as urem) at most
;   100 - 8, lane 0's dividend at most UINT_MAX - 7, the vector load the
;   likely side.
; - @modular_pow2: `s[(y + 1) % 256]`, y stepping by 8: the count computed
;   before the loop, carried by header PHIs, tested per iteration; the
;   wrapping vector is two masked loads (lanes before the wrap from lane 0's
;   address, the rest from 256 elements below), no gather left; the loop
;   asks for unrolling by 4.
; - @masked_one_address: a masked gather takes the one-address load only
;   when some lane is on: with every lane off, the lanes' one address is
;   not the gather's to read (a pipe built-in's slot of an invalid
;   reservation, OpenCL C 3.0 6.15.16.2).
; - @outside_loop: a gather that runs once is not worth the branch.
; - @two_lanes: fewer than 4 lanes are not worth the check.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-runtime-consecutive-gathers %s | FileCheck %s

; CHECK-LABEL: define void @indexed_gather(
; CHECK: [[J0:%.*]] = extractelement <8 x i64> %j.ext, i64 0
; CHECK-NEXT: %lane0.addr = getelementptr inbounds float, ptr %in, i64 [[J0]]
; CHECK-DAG: [[N0:%.*]] = extractelement <8 x i32> %j, i64 0
; CHECK-DAG: [[NOWRAP:%.*]] = icmp sle i32 [[N0]], 2147483640
; CHECK: [[WANT:%.*]] = add <8 x i32> %{{.*}}, <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
; CHECK-NEXT: [[EQ:%.*]] = icmp eq <8 x i32> %j, [[WANT]]
; CHECK-NEXT: [[BITS:%.*]] = bitcast <8 x i1> [[EQ]] to i8
; CHECK-NEXT: %lanes.adjacent = icmp eq i8 [[BITS]], -1
; CHECK-NEXT: %lanes.adjacent.nowrap = and i1 %lanes.adjacent, [[NOWRAP]]
; CHECK-NEXT: br i1 %lanes.adjacent.nowrap, label %[[VEC:[0-9A-Za-z._]+]], label %[[OTHER:[0-9A-Za-z._]+]]
; CHECK: {{^}}[[VEC]]:
; CHECK-NEXT: [[VLOAD:%.*]] = load <8 x float>, ptr %lane0.addr, align 4
; CHECK: {{^}}[[OTHER]]:
; CHECK: %lanes.same = icmp eq i8
; CHECK: [[ONE:%.*]] = load float, ptr %lane0.addr, align 4
; CHECK: shufflevector <8 x float>
; CHECK: %v = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %addrs,
; CHECK: phi <8 x float> [ [[VLOAD]], %[[VEC]] ]
; CHECK: store <8 x float>
define void @indexed_gather(ptr %in, ptr %idx, ptr %out, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %ip = getelementptr inbounds <8 x i32>, ptr %idx, i64 %i
  %j = load <8 x i32>, ptr %ip, align 4
  %j.ext = sext <8 x i32> %j to <8 x i64>
  %addrs = getelementptr inbounds float, ptr %in, <8 x i64> %j.ext
  %v = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %addrs, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %op = getelementptr inbounds <8 x float>, ptr %out, i64 %i
  store <8 x float> %v, ptr %op, align 4
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @masked_scatter(
; CHECK: %lane0.addr = extractelement <8 x ptr> %addrs, i64 0
; CHECK: [[INTS:%.*]] = ptrtoint <8 x ptr> %addrs to <8 x i64>
; CHECK: [[WANT:%.*]] = add <8 x i64> %{{.*}}, <i64 0, i64 4, i64 8, i64 12, i64 16, i64 20, i64 24, i64 28>
; CHECK-NEXT: icmp eq <8 x i64> [[INTS]], [[WANT]]
; CHECK: br i1 %lanes.adjacent, label %[[VEC:[0-9A-Za-z._]+]], label %[[SCATTER:[0-9A-Za-z._]+]]
; CHECK: {{^}}[[VEC]]:
; CHECK-NEXT: call void @llvm.masked.store.v8i32.p0(<8 x i32> %v, ptr %lane0.addr, i32 4, <8 x i1> %m)
; CHECK: {{^}}[[SCATTER]]:
; CHECK-NEXT: call void @llvm.masked.scatter.v8i32.v8p0(<8 x i32> %v, <8 x ptr> %addrs, i32 4, <8 x i1> %m)
define void @masked_scatter(<8 x ptr> %addrs, ptr %vals, <8 x i1> %m, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %vp = getelementptr inbounds <8 x i32>, ptr %vals, i64 %i
  %v = load <8 x i32>, ptr %vp, align 4
  call void @llvm.masked.scatter.v8i32.v8p0(<8 x i32> %v, <8 x ptr> %addrs, i32 4, <8 x i1> %m)
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @modular(
; CHECK: %y.lane0 = add i32 %lid.lane0, 1
; CHECK-DAG: %lane0.index = urem i32 %y.lane0, 100
; CHECK-DAG: %no.wrap = icmp ule i32 %lane0.index, 92
; CHECK-DAG: [[FITS:%.*]] = icmp ule i32 %y.lane0, -8
; CHECK-DAG: %lanes.adjacent.mod = and i1 [[FITS]], %no.wrap
; CHECK-DAG: [[IDX0:%.*]] = zext i32 %lane0.index to i64
; CHECK-DAG: %lane0.addr = getelementptr inbounds i32, ptr %s, i64 [[IDX0]]
; CHECK: br i1 %lanes.adjacent.mod, label %[[VEC:[0-9A-Za-z._]+]], label %{{.*}}, !prof [[LIKELY:![0-9]+]]
; CHECK: {{^}}[[VEC]]:
; CHECK-NEXT: load <8 x i32>, ptr %lane0.addr, align 4
; CHECK: call <8 x i32> @llvm.masked.gather.v8i32.v8p0(
define void @modular(ptr %s, ptr %out, i32 %start, i64 %n) {
entry:
  %st.ins = insertelement <8 x i32> poison, i32 %start, i64 0
  %st.splat = shufflevector <8 x i32> %st.ins, <8 x i32> poison, <8 x i32> zeroinitializer
  %lanes0 = add <8 x i32> %st.splat, <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %lid = phi <8 x i32> [ %lanes0, %entry ], [ %lid.next, %loop ]
  %y = add <8 x i32> %lid, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %r = urem <8 x i32> %y, <i32 100, i32 100, i32 100, i32 100, i32 100, i32 100, i32 100, i32 100>
  %r.ext = zext <8 x i32> %r to <8 x i64>
  %addrs = getelementptr inbounds i32, ptr %s, <8 x i64> %r.ext
  %v = call <8 x i32> @llvm.masked.gather.v8i32.v8p0(<8 x ptr> %addrs, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x i32> poison)
  %op = getelementptr inbounds <8 x i32>, ptr %out, i64 %i
  store <8 x i32> %v, ptr %op, align 4
  %lid.next = add <8 x i32> %lid, <i32 8, i32 8, i32 8, i32 8, i32 8, i32 8, i32 8, i32 8>
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @modular_pow2(
; CHECK: entry:
; CHECK: %countdown.index = and i32 %{{.*}}, 255
; CHECK: %countdown.count = select i1 %{{.*}}, i32 %{{.*}}, i32 0
; CHECK: loop:
; CHECK-DAG: %countdown.left = phi i32 [ %countdown.count, %entry ], [ %countdown.left.next, %[[TAIL:[0-9A-Za-z._]+]] ]
; CHECK-DAG: %[[REM:countdown.index[0-9]*]] = phi i64 [ %{{.*}}, %entry ], [ %countdown.index.next, %[[TAIL]] ]
; CHECK: %lane0.addr = getelementptr inbounds i32, ptr %s, i64 %[[REM]]
; CHECK-NEXT: %countdown.adjacent = icmp ne i32 %countdown.left, 0
; CHECK-NEXT: br i1 %countdown.adjacent, label %[[VEC:[0-9A-Za-z._]+]], label %[[WRAP:[0-9A-Za-z._]+]], !prof
; CHECK: {{^}}[[VEC]]:
; CHECK-DAG: sub i32 %countdown.left, 1
; CHECK-DAG: add i64 %[[REM]], 8
; CHECK-DAG: load <8 x i32>, ptr %lane0.addr, align 4
; CHECK: {{^}}[[WRAP]]:
; CHECK: [[LOW:%.*]] = getelementptr i8, ptr %lane0.addr, i64 -1024
; CHECK: [[FIRST:%.*]] = call <8 x i32> @llvm.masked.load.v8i32.p0(ptr %lane0.addr, i32 4,
; CHECK: %wrap.lanes = call <8 x i32> @llvm.masked.load.v8i32.p0(ptr [[LOW]], i32 4, <8 x i1> %{{.*}}, <8 x i32> [[FIRST]])
; CHECK-NOT: @llvm.masked.gather
; CHECK: {{^}}[[TAIL]]:
; CHECK: br i1 %done, label %exit, label %loop, !llvm.loop [[LOOP:![0-9]+]]
define void @modular_pow2(ptr %s, ptr %out, i32 %start, i64 %n) {
entry:
  %st.ins = insertelement <8 x i32> poison, i32 %start, i64 0
  %st.splat = shufflevector <8 x i32> %st.ins, <8 x i32> poison, <8 x i32> zeroinitializer
  %lanes0 = add <8 x i32> %st.splat, <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %lid = phi <8 x i32> [ %lanes0, %entry ], [ %lid.next, %loop ]
  %y = add <8 x i32> %lid, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %r = urem <8 x i32> %y, <i32 256, i32 256, i32 256, i32 256, i32 256, i32 256, i32 256, i32 256>
  %r.ext = zext <8 x i32> %r to <8 x i64>
  %addrs = getelementptr inbounds i32, ptr %s, <8 x i64> %r.ext
  %v = call <8 x i32> @llvm.masked.gather.v8i32.v8p0(<8 x ptr> %addrs, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x i32> poison)
  %op = getelementptr inbounds <8 x i32>, ptr %out, i64 %i
  store <8 x i32> %v, ptr %op, align 4
  %lid.next = add <8 x i32> %lid, <i32 8, i32 8, i32 8, i32 8, i32 8, i32 8, i32 8, i32 8>
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; A step of 16 lanes, more than the 8 of a vector: when the count of
; adjacent iterations runs out, lane 0's carried index may have passed 256
; with no lane wrapping (3 + 16 * 16 = 259 for a start of 3); it stays
; reduced mod 256, or the wrapping side's loads would start past the array.
; CHECK-LABEL: define void @modular_pow2_step16(
; CHECK: [[NEXT16:%.*]] = add i64 %{{countdown.index[0-9]*}}, 16
; CHECK-NEXT: %countdown.next = and i64 [[NEXT16]], 255
define void @modular_pow2_step16(ptr %s, ptr %out, i32 %start, i64 %n) {
entry:
  %st.ins = insertelement <8 x i32> poison, i32 %start, i64 0
  %st.splat = shufflevector <8 x i32> %st.ins, <8 x i32> poison, <8 x i32> zeroinitializer
  %lanes0 = add <8 x i32> %st.splat, <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %lid = phi <8 x i32> [ %lanes0, %entry ], [ %lid.next, %loop ]
  %y = add <8 x i32> %lid, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %r = urem <8 x i32> %y, <i32 256, i32 256, i32 256, i32 256, i32 256, i32 256, i32 256, i32 256>
  %r.ext = zext <8 x i32> %r to <8 x i64>
  %addrs = getelementptr inbounds i32, ptr %s, <8 x i64> %r.ext
  %v = call <8 x i32> @llvm.masked.gather.v8i32.v8p0(<8 x ptr> %addrs, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x i32> poison)
  %op = getelementptr inbounds <8 x i32>, ptr %out, i64 %i
  store <8 x i32> %v, ptr %op, align 4
  %lid.next = add <8 x i32> %lid, <i32 16, i32 16, i32 16, i32 16, i32 16, i32 16, i32 16, i32 16>
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @masked_one_address(
; CHECK: %lanes.same = icmp eq i8
; CHECK-NEXT: [[ON:%.*]] = bitcast <8 x i1> %m to i8
; CHECK-NEXT: [[ANY:%.*]] = icmp ne i8 [[ON]], 0
; CHECK-NEXT: %lanes.same.on = and i1 %lanes.same, [[ANY]]
; CHECK-NEXT: br i1 %lanes.same.on,
; CHECK: load i32, ptr %lane0.addr, align 4
define void @masked_one_address(ptr %in, ptr %idx, ptr %mask, ptr %out, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %ip = getelementptr inbounds <8 x i32>, ptr %idx, i64 %i
  %j = load <8 x i32>, ptr %ip, align 4
  %mp = getelementptr inbounds <8 x i32>, ptr %mask, i64 %i
  %mv = load <8 x i32>, ptr %mp, align 4
  %m = icmp ne <8 x i32> %mv, zeroinitializer
  %j.ext = sext <8 x i32> %j to <8 x i64>
  %addrs = getelementptr inbounds i32, ptr %in, <8 x i64> %j.ext
  %v = call <8 x i32> @llvm.masked.gather.v8i32.v8p0(<8 x ptr> %addrs, i32 4, <8 x i1> %m, <8 x i32> zeroinitializer)
  %op = getelementptr inbounds <8 x i32>, ptr %out, i64 %i
  store <8 x i32> %v, ptr %op, align 4
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @outside_loop(
; CHECK-NEXT: entry:
; CHECK-NEXT: %v = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %addrs, i32 4, <8 x i1> %m, <8 x float> poison)
; CHECK-NEXT: store <8 x float> %v, ptr %out, align 4
; CHECK-NEXT: ret void
define void @outside_loop(<8 x ptr> %addrs, <8 x i1> %m, ptr %out) {
entry:
  %v = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %addrs, i32 4, <8 x i1> %m, <8 x float> poison)
  store <8 x float> %v, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define void @two_lanes(
; CHECK-NOT: lanes.adjacent
; CHECK: %v = call <2 x float> @llvm.masked.gather.v2f32.v2p0(<2 x ptr> %addrs, i32 4, <2 x i1> %m, <2 x float> poison)
; CHECK-NEXT: store <2 x float> %v, ptr %out, align 4
; CHECK-NEXT: %i.next = add i64 %i, 1
define void @two_lanes(<2 x ptr> %addrs, <2 x i1> %m, ptr %out, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %v = call <2 x float> @llvm.masked.gather.v2f32.v2p0(<2 x ptr> %addrs, i32 4, <2 x i1> %m, <2 x float> poison)
  store <2 x float> %v, ptr %out, align 4
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-DAG: [[LIKELY]] = !{!"branch_weights", i32 {{[0-9]+}}, i32 1}
; CHECK-DAG: [[LOOP]] = distinct !{[[LOOP]], [[COUNT:![0-9]+]]}
; CHECK-DAG: [[COUNT]] = !{!"llvm.loop.unroll.count", i32 4}

declare <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr>, i32, <8 x i1>, <8 x float>)
declare <8 x i32> @llvm.masked.gather.v8i32.v8p0(<8 x ptr>, i32, <8 x i1>, <8 x i32>)
declare <2 x float> @llvm.masked.gather.v2f32.v2p0(<2 x ptr>, i32, <2 x i1>, <2 x float>)
declare void @llvm.masked.scatter.v8i32.v8p0(<8 x i32>, <8 x ptr>, i32, <8 x i1>)

