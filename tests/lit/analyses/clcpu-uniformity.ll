; clcpu-uniformity (compiler/analyses/WorkItemUniformity.h): which values of
; a kernel body are the same in every work-item of a group. Divergent: what
; depends on a local id (the "clcpu-local-id" parameters), a load from a
; divergent address, an alloca, a call other than a work-group reduction,
; broadcast, all or any (or an intrinsic without effects on divergent
; operands), and a PHI whose predecessors a divergent branch chose. Uniform: constants, kernel arguments, the context, arithmetic on
; uniform values, an intrinsic without memory or other effects on uniform
; operands (pyopencl's grid-stride bound `min(begin + size, n)`), a plain
; load of a uniform address, a work-group
; reduction of any operation (cl_khr_work_group_uniform_arithmetic's mul
; and logical or too; a scan is divergent), and a PHI after a uniform
; branch. A function without local id
; parameters is not a body: everything in it is uniform.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes='print<clcpu-uniformity>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s

declare i32 @_Z21work_group_reduce_addi(i32)
declare i32 @_Z20sub_group_reduce_addi(i32)
declare i32 @_Z21work_group_reduce_muli(i32)
declare i32 @_Z28work_group_reduce_logical_ori(i32)
declare i32 @_Z29work_group_scan_inclusive_xori(i32)
declare i32 @llvm.smin.i32(i32, i32)
declare i64 @llvm.readcyclecounter()

; CHECK-LABEL: clcpu-uniformity of body:
; CHECK-NEXT: uniform: %n2 = mul i32 %n, 2
; CHECK-NEXT: divergent: %lx32 = trunc i64 %lx to i32
; CHECK-NEXT: divergent: %v = add i32 %lx32, %n2
; CHECK-NEXT: uniform: %p.u = getelementptr inbounds i32, ptr %in, i32 %n2
; CHECK-NEXT: uniform: %u = load i32, ptr %p.u
; CHECK-NEXT: divergent: %p.d = getelementptr inbounds i32, ptr %in, i64 %lx
; CHECK-NEXT: divergent: %d = load i32, ptr %p.d
; CHECK-NEXT: uniform: %wg = call i32 @_Z21work_group_reduce_addi(i32 %d)
; CHECK-NEXT: divergent: %sg = call i32 @_Z20sub_group_reduce_addi(i32 %u)
; CHECK-NEXT: uniform: %wgm = call i32 @_Z21work_group_reduce_muli(i32 %d)
; CHECK-NEXT: uniform: %wgl = call i32 @_Z28work_group_reduce_logical_ori(i32 %d)
; CHECK-NEXT: divergent: %wgs = call i32 @_Z29work_group_scan_inclusive_xori(i32 %u)
; CHECK-NEXT: divergent: %priv = alloca i32
; CHECK-NEXT: uniform: %c.u = icmp sgt i32 %n, 0
; CHECK-NEXT: uniform: %after.u = phi i32 [ 1, %entry ], [ 2, %uthen ]
; CHECK-NEXT: divergent: %c.d = icmp sgt i32 %d, 0
; CHECK-NEXT: divergent: %after.d = phi i32 [ 1, %ujoin ], [ 2, %dthen ]
; CHECK-NEXT: divergent: %sum = add i32 %after.u, %after.d
; CHECK-NEXT: uniform: %end = call i32 @llvm.smin.i32(i32 %n2, i32 %u)
; CHECK-NEXT: divergent: %endd = call i32 @llvm.smin.i32(i32 %n2, i32 %d)
; CHECK-NEXT: divergent: %cyc = call i64 @llvm.readcyclecounter()
define internal void @body(ptr %in, ptr %out, i32 %n, ptr "clcpu-context" %ctx, i64 "clcpu-local-id"="0" %lx, i64 "clcpu-local-id"="1" %ly, i64 "clcpu-local-id"="2" %lz) {
entry:
  %n2 = mul i32 %n, 2
  %lx32 = trunc i64 %lx to i32
  %v = add i32 %lx32, %n2
  %p.u = getelementptr inbounds i32, ptr %in, i32 %n2
  %u = load i32, ptr %p.u
  %p.d = getelementptr inbounds i32, ptr %in, i64 %lx
  %d = load i32, ptr %p.d
  %wg = call i32 @_Z21work_group_reduce_addi(i32 %d)
  %sg = call i32 @_Z20sub_group_reduce_addi(i32 %u)
  %wgm = call i32 @_Z21work_group_reduce_muli(i32 %d)
  %wgl = call i32 @_Z28work_group_reduce_logical_ori(i32 %d)
  %wgs = call i32 @_Z29work_group_scan_inclusive_xori(i32 %u)
  %priv = alloca i32
  store i32 %v, ptr %priv
  %c.u = icmp sgt i32 %n, 0
  br i1 %c.u, label %uthen, label %ujoin

uthen:
  br label %ujoin

ujoin:
  %after.u = phi i32 [ 1, %entry ], [ 2, %uthen ]
  %c.d = icmp sgt i32 %d, 0
  br i1 %c.d, label %dthen, label %djoin

dthen:
  br label %djoin

djoin:
  %after.d = phi i32 [ 1, %ujoin ], [ 2, %dthen ]
  %sum = add i32 %after.u, %after.d
  %end = call i32 @llvm.smin.i32(i32 %n2, i32 %u)
  %endd = call i32 @llvm.smin.i32(i32 %n2, i32 %d)
  %cyc = call i64 @llvm.readcyclecounter()
  store i32 %sum, ptr %out
  store i32 %end, ptr %out
  store i32 %endd, ptr %out
  store i64 %cyc, ptr %out
  store i32 %wg, ptr %out
  store i32 %sg, ptr %out
  store i32 %wgm, ptr %out
  store i32 %wgl, ptr %out
  store i32 %wgs, ptr %out
  ret void
}

; CHECK-LABEL: clcpu-uniformity of not_a_body:
; CHECK-NEXT: uniform: %x = trunc i64 %lx to i32
define void @not_a_body(ptr %out, i64 %lx) {
  %x = trunc i64 %lx to i32
  store i32 %x, ptr %out
  ret void
}
