; clcpu-interleaved-accesses: the gathers (scatters) of one small struct's
; fields per lane, at offsets 0, E, ..., (K - 1) * E from one vector of
; struct addresses, become a wide load (store) and shuffles when the
; lanes' structs are adjacent at run time, and one small load (store) per
; lane's struct otherwise.
;
; - @rgba_scatters: four channel scatters of an RGBA float texel per lane
;   (a write_imagef), under one mask: the adjacency check on the struct
;   addresses (stride 16), the channels interleaved into one <32 x float>,
;   a masked store with each lane's bit repeated 4 times; on the other
;   path one <4 x float> store per lane in lane order, a disabled lane's
;   to the spare struct.
; - @float2_gathers: two all-lanes gathers of a float2 per lane: one
;   <16 x float> load, each field taken by a shuffle; on the other path one
;   <2 x float> load per lane, concatenated, the same shuffles; phis join
;   the two.
; - @masked_float4_gathers: four gathers of a float4 per lane under a mask:
;   on the per-lane path a disabled lane loads the spare struct, and each
;   field keeps its gather's pass-through value where the mask is clear.
; - @three_fields: three of four fields: not a whole struct per lane, left
;   alone (a wide access would touch the fourth).
; - @store_between: a store between two gathers: left alone.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v4 \
; RUN:   -passes=clcpu-interleaved-accesses %s | FileCheck %s

; CHECK-LABEL: define void @rgba_scatters(
; The channels interleaved once, before the check, for both paths.
; CHECK: %interleaved = shufflevector <16 x float> %{{.*}}, <16 x float> %{{.*}}, <32 x i32> <i32 0, i32 8, i32 16, i32 24, i32 1, i32 9,
; CHECK: %[[ADDR:[0-9]+]] = ptrtoint <8 x ptr> %p to <8 x i64>
; CHECK: add <8 x i64> %{{.*}}, <i64 0, i64 16, i64 32, i64 48, i64 64, i64 80, i64 96, i64 112>
; CHECK: %structs.adjacent = icmp eq i8
; CHECK-NEXT: br i1 %structs.adjacent, label %[[FAST:[0-9A-Za-z._]+]], label %[[SLOW:[0-9A-Za-z._]+]]
; CHECK: {{^}}[[FAST]]:
; CHECK: %struct0 = extractelement <8 x ptr> %p, i64 0
; CHECK: %mask.repeated = shufflevector <8 x i1> %m, <8 x i1> poison, <32 x i32> <i32 0, i32 0, i32 0, i32 0, i32 1, i32 1, i32 1, i32 1,
; CHECK: call void @llvm.masked.store.v32f32.p0(<32 x float> %interleaved, ptr %struct0, i32 4, <32 x i1> %mask.repeated)
; CHECK: {{^}}[[SLOW]]:
; CHECK-NEXT: %[[L0:[0-9]+]] = extractelement <8 x ptr> %p, i64 0
; CHECK-NEXT: %[[M0:[0-9]+]] = extractelement <8 x i1> %m, i64 0
; CHECK-NEXT: %[[A0:[0-9]+]] = select i1 %[[M0]], ptr %[[L0]], ptr %spare.struct
; CHECK-NEXT: %[[V0:[0-9]+]] = shufflevector <32 x float> %interleaved, <32 x float> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
; CHECK-NEXT: store <4 x float> %[[V0]], ptr %[[A0]], align 4
; CHECK: %[[L7:[0-9]+]] = extractelement <8 x ptr> %p, i64 7
; CHECK-NEXT: %[[M7:[0-9]+]] = extractelement <8 x i1> %m, i64 7
; CHECK-NEXT: %[[A7:[0-9]+]] = select i1 %[[M7]], ptr %[[L7]], ptr %spare.struct
; CHECK-NEXT: %[[V7:[0-9]+]] = shufflevector <32 x float> %interleaved, <32 x float> poison, <4 x i32> <i32 28, i32 29, i32 30, i32 31>
; CHECK-NEXT: store <4 x float> %[[V7]], ptr %[[A7]], align 4
; CHECK-NOT: masked.scatter
; CHECK: ret void
define void @rgba_scatters(<8 x ptr> %p, <8 x float> %r, <8 x float> %g, <8 x float> %b, <8 x float> %a, <8 x i1> %m) {
  %pg = getelementptr inbounds i8, <8 x ptr> %p, i64 4
  %pb = getelementptr inbounds i8, <8 x ptr> %p, i64 8
  %pa = getelementptr inbounds i8, <8 x ptr> %p, i64 12
  call void @llvm.masked.scatter.v8f32.v8p0(<8 x float> %r, <8 x ptr> %p, i32 4, <8 x i1> %m)
  call void @llvm.masked.scatter.v8f32.v8p0(<8 x float> %g, <8 x ptr> %pg, i32 4, <8 x i1> %m)
  call void @llvm.masked.scatter.v8f32.v8p0(<8 x float> %b, <8 x ptr> %pb, i32 4, <8 x i1> %m)
  call void @llvm.masked.scatter.v8f32.v8p0(<8 x float> %a, <8 x ptr> %pa, i32 4, <8 x i1> %m)
  ret void
}

; CHECK-LABEL: define <8 x float> @float2_gathers(
; CHECK: br i1 %structs.adjacent, label %[[FAST:[0-9A-Za-z._]+]], label %[[SLOW:[0-9A-Za-z._]+]]
; CHECK: {{^}}[[FAST]]:
; CHECK: %struct0 = extractelement <8 x ptr> %p, i64 0
; CHECK-NEXT: %interleaved = load <16 x float>, ptr %struct0, align 4
; CHECK-NEXT: %field = shufflevector <16 x float> %interleaved, <16 x float> poison, <8 x i32> <i32 0, i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14>
; CHECK-NEXT: %field1 = shufflevector <16 x float> %interleaved, <16 x float> poison, <8 x i32> <i32 1, i32 3, i32 5, i32 7, i32 9, i32 11, i32 13, i32 15>
; CHECK: {{^}}[[SLOW]]:
; CHECK-NEXT: %[[L0:[0-9]+]] = extractelement <8 x ptr> %p, i64 0
; CHECK-NEXT: %lane.struct = load <2 x float>, ptr %[[L0]], align 4
; CHECK: %[[L7:[0-9]+]] = extractelement <8 x ptr> %p, i64 7
; CHECK-NEXT: %lane.struct8 = load <2 x float>, ptr %[[L7]], align 4
; CHECK-NEXT: shufflevector <2 x float> %lane.struct, <2 x float> %lane.struct2, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
; CHECK: %[[ALL:[0-9]+]] = shufflevector <8 x float> %{{.*}}, <8 x float> %{{.*}}, <16 x i32> <i32 0, i32 1, i32 2,
; CHECK-NEXT: %x.slow = shufflevector <16 x float> %[[ALL]], <16 x float> poison, <8 x i32> <i32 0, i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14>
; CHECK-NEXT: %y.slow = shufflevector <16 x float> %[[ALL]], <16 x float> poison, <8 x i32> <i32 1, i32 3, i32 5, i32 7, i32 9, i32 11, i32 13, i32 15>
; CHECK-NOT: masked.gather
; CHECK: %x = phi <8 x float> [ %field, %[[FAST]] ], [ %x.slow, %[[SLOW]] ]
; CHECK-NEXT: %y = phi <8 x float> [ %field1, %[[FAST]] ], [ %y.slow, %[[SLOW]] ]
; CHECK-NEXT: %py = getelementptr
; CHECK-NEXT: %s = fadd <8 x float> %x, %y
define <8 x float> @float2_gathers(<8 x ptr> %p) {
  %x = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %p, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %py = getelementptr inbounds i8, <8 x ptr> %p, i64 4
  %y = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %py, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %s = fadd <8 x float> %x, %y
  ret <8 x float> %s
}

; CHECK-LABEL: define <8 x float> @masked_float4_gathers(
; CHECK: %spare.struct = alloca <4 x float>
; CHECK: br i1 %structs.adjacent, label %[[FAST:[0-9A-Za-z._]+]], label %[[SLOW:[0-9A-Za-z._]+]]
; CHECK: {{^}}[[FAST]]:
; CHECK: call <32 x float> @llvm.masked.load.v32f32.p0(
; CHECK: {{^}}[[SLOW]]:
; CHECK-NEXT: %[[L0:[0-9]+]] = extractelement <8 x ptr> %p, i64 0
; CHECK-NEXT: %[[M0:[0-9]+]] = extractelement <8 x i1> %m, i64 0
; CHECK-NEXT: %[[A0:[0-9]+]] = select i1 %[[M0]], ptr %[[L0]], ptr %spare.struct
; CHECK-NEXT: %lane.struct = load <4 x float>, ptr %[[A0]], align 4
; CHECK: %[[F0:[0-9]+]] = shufflevector <32 x float> %{{.*}}, <32 x float> poison, <8 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28>
; CHECK-NEXT: %x.slow = select <8 x i1> %m, <8 x float> %[[F0]], <8 x float> %pt
; CHECK-NOT: masked.gather
; CHECK: %x = phi <8 x float> [ %{{.*}}, %[[FAST]] ], [ %x.slow, %[[SLOW]] ]
define <8 x float> @masked_float4_gathers(<8 x ptr> %p, <8 x i1> %m, <8 x float> %pt) {
  %x = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %p, i32 4, <8 x i1> %m, <8 x float> %pt)
  %py = getelementptr inbounds i8, <8 x ptr> %p, i64 4
  %y = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %py, i32 4, <8 x i1> %m, <8 x float> %pt)
  %pz = getelementptr inbounds i8, <8 x ptr> %p, i64 8
  %z = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %pz, i32 4, <8 x i1> %m, <8 x float> %pt)
  %pw = getelementptr inbounds i8, <8 x ptr> %p, i64 12
  %w = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %pw, i32 4, <8 x i1> %m, <8 x float> %pt)
  %s1 = fadd <8 x float> %x, %y
  %s2 = fadd <8 x float> %z, %w
  %s = fadd <8 x float> %s1, %s2
  ret <8 x float> %s
}

; CHECK-LABEL: define void @three_fields(
; CHECK-NOT: structs.adjacent
; CHECK: ret void
define void @three_fields(<8 x ptr> %p, <8 x float> %r, <8 x float> %g, <8 x float> %b, <8 x i1> %m) {
  %pg = getelementptr inbounds i8, <8 x ptr> %p, i64 4
  %pb = getelementptr inbounds i8, <8 x ptr> %p, i64 8
  call void @llvm.masked.scatter.v8f32.v8p0(<8 x float> %r, <8 x ptr> %p, i32 4, <8 x i1> %m)
  call void @llvm.masked.scatter.v8f32.v8p0(<8 x float> %g, <8 x ptr> %pg, i32 4, <8 x i1> %m)
  call void @llvm.masked.scatter.v8f32.v8p0(<8 x float> %b, <8 x ptr> %pb, i32 4, <8 x i1> %m)
  ret void
}

; CHECK-LABEL: define <8 x float> @store_between(
; CHECK-NOT: structs.adjacent
; CHECK: ret <8 x float>
define <8 x float> @store_between(<8 x ptr> %p, ptr %q) {
  %x = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %p, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  store float 1.0, ptr %q
  %py = getelementptr inbounds i8, <8 x ptr> %p, i64 4
  %y = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %py, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %s = fadd <8 x float> %x, %y
  ret <8 x float> %s
}

declare void @llvm.masked.scatter.v8f32.v8p0(<8 x float>, <8 x ptr>, i32 immarg, <8 x i1>)
declare <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr>, i32 immarg, <8 x i1>, <8 x float>)
