; A non-uniform sub-group function (and a shuffle or rotation) runs over the
; work-items that reach the call together. clcpu-reconvergence puts a
; reconvergence point, a convergent call of __clcpu_reconverge(0), at the
; first insertion point of the immediate post-dominator of every branch
; whose condition is not uniform (clcpu-uniformity: it depends on the
; local ids) and from which such a per-call-site call is reachable before
; that post-dominator. The functions follow the `<kernel>.body` convention
; (compiler/KernelBody.h): kernel arguments, then the context and the local
; ids x, y and z, marked "clcpu-context" and "clcpu-local-id".
;  * divergent_if: `if (lx < 3) r = sub_group_non_uniform_reduce_add(x)`:
;    the point goes into the join block, after its PHI.
;  * loop_if_else: the loop of the pass's comment, whose if/else on
;    (lx + k) % 3 calls the reduction on both sides: the point goes into the
;    latch where the sides meet; the loop exit (k < 3) is uniform and gets
;    none.
;  * divergent_trip_count: `for (k = 0; k < ly; ++k)` around the call: the
;    work-items that left the loop wait at its exit.
;  * uniform_if: the condition comes from a kernel argument: unchanged.
;  * call_after_join: the divergent branch's sides hold no such call (the
;    call follows the join): unchanged.
;  * no_per_call_site: a divergent branch, but the only sub-group call is
;    sub_group_reduce_add, which every work-item of the sub-group reaches:
;    unchanged.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-reconvergence %s | FileCheck %s

; CHECK-LABEL: define internal void @divergent_if.body(
; CHECK: join:
; CHECK-NEXT: %r = phi float [ %sum, %then ], [ 0.000000e+00, %entry ]
; CHECK-NEXT: call i32 @_Z18__clcpu_reconvergei(i32 0) #[[CONV:[0-9]+]]
; CHECK-NEXT: store float %r, ptr %out
define internal void @divergent_if.body(ptr %out, float %x, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  %c = icmp ult i64 %lx, 3
  br i1 %c, label %then, label %join

then:
  %sum = call float @_Z32sub_group_non_uniform_reduce_addf(float %x) #0
  br label %join

join:
  %r = phi float [ %sum, %then ], [ 0.0, %entry ]
  store float %r, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define internal void @loop_if_else.body(
; CHECK: latch:
; CHECK-NEXT: %s = phi i32
; CHECK-NEXT: call i32 @_Z18__clcpu_reconvergei(i32 0) #[[CONV]]
; CHECK-NEXT: %k.next = add
; CHECK: exit:
; CHECK-NOT: __clcpu_reconverge
; CHECK: ret void
define internal void @loop_if_else.body(ptr %out, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  br label %header

header:
  %k = phi i64 [ 0, %entry ], [ %k.next, %latch ]
  %lk = add i64 %lx, %k
  %m = urem i64 %lk, 3
  %c = icmp eq i64 %m, 0
  %k32 = trunc i64 %k to i32
  br i1 %c, label %then, label %else

then:
  %a = call i32 @_Z32sub_group_non_uniform_reduce_addi(i32 %k32) #0
  br label %latch

else:
  %b = call i32 @_Z32sub_group_non_uniform_reduce_addi(i32 %k32) #0
  br label %latch

latch:
  %s = phi i32 [ %a, %then ], [ %b, %else ]
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, 3
  br i1 %more, label %header, label %exit

exit:
  store i32 %s, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define internal void @divergent_trip_count.body(
; CHECK: exit:
; CHECK-NEXT: call i32 @_Z18__clcpu_reconvergei(i32 0) #[[CONV]]
; CHECK-NEXT: ret void
define internal void @divergent_trip_count.body(i32 %x, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  br label %header

header:
  %k = phi i64 [ 0, %entry ], [ %k.next, %body ]
  %c = icmp ult i64 %k, %ly
  br i1 %c, label %body, label %exit

body:
  %sh = call i32 @_Z17sub_group_shuffleij(i32 %x, i32 1) #0
  %k.next = add i64 %k, 1
  br label %header

exit:
  ret void
}

; CHECK-LABEL: define internal void @uniform_if.body(
; CHECK-NOT: __clcpu_reconverge
; CHECK: join:
; CHECK-NEXT: %r = phi float
; CHECK-NEXT: store float %r, ptr %out
define internal void @uniform_if.body(ptr %out, float %x, i32 %n, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  %half = ashr i32 %n, 1
  %c = icmp sgt i32 %half, 0
  br i1 %c, label %then, label %join

then:
  %sum = call float @_Z32sub_group_non_uniform_reduce_addf(float %x) #0
  br label %join

join:
  %r = phi float [ %sum, %then ], [ 0.0, %entry ]
  store float %r, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define internal void @call_after_join.body(
; CHECK-NOT: __clcpu_reconverge
; CHECK: join:
; CHECK-NEXT: %sum = call float @_Z32sub_group_non_uniform_reduce_addf(float %x)
define internal void @call_after_join.body(ptr %out, float %x, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  %c = icmp ult i64 %lx, 3
  br i1 %c, label %then, label %join

then:
  store float %x, ptr %out, align 4
  br label %join

join:
  %sum = call float @_Z32sub_group_non_uniform_reduce_addf(float %x) #0
  store float %sum, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define internal void @no_per_call_site.body(
; CHECK-NOT: __clcpu_reconverge
; CHECK: join:
; CHECK-NEXT: store float %sum, ptr %out
define internal void @no_per_call_site.body(ptr %out, float %x, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  %sum = call float @_Z22sub_group_reduce_addf(float %x) #0
  %c = icmp ult i64 %lx, 3
  br i1 %c, label %then, label %join

then:
  store float %x, ptr %out, align 4
  br label %join

join:
  store float %sum, ptr %out, align 4
  ret void
}

; CHECK-DAG: declare i32 @_Z18__clcpu_reconvergei(i32) #[[DECL:[0-9]+]]
; CHECK-DAG: attributes #[[CONV]] = { convergent }
; CHECK-DAG: attributes #[[DECL]] = { convergent nounwind }

declare float @_Z32sub_group_non_uniform_reduce_addf(float) #0
declare i32 @_Z32sub_group_non_uniform_reduce_addi(i32) #0
declare i32 @_Z17sub_group_shuffleij(i32, i32) #0
declare float @_Z22sub_group_reduce_addf(float) #0

attributes #0 = { convergent nounwind }
