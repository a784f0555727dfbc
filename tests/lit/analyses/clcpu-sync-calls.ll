; clcpu-sync-calls (compiler/analyses/SyncCalls.h): the calls of a function
; that synchronize work-items, in instruction order, with their kind and
; the WorkGroupContext Op of a collective (compiler/WorkGroupContext.h:
; Kind * 16 + Type, plus CollSubGroup 0x10000 and CollNonUniform 0x20000).
; barrier() and work_group_barrier() are barriers; sub_group_barrier() a
; sub-group barrier; work_group_reduce_add(int) the collective 48
; (CollReduceAdd * 16 + CollInt); sub_group_reduce_add(int) 65584; a
; non-uniform sub-group reduction is computed per call site.
; cl_khr_work_group_uniform_arithmetic's functions are work-group
; collectives of their own kinds: work_group_reduce_mul(int) 256
; (CollReduceMul * 16), work_group_reduce_and(ulong) 275 (CollReduceAnd *
; 16 + CollULong), work_group_scan_inclusive_mul(half) 378
; (CollScanInclusiveMul * 16 + CollHalf), work_group_scan_exclusive_mul
; (double) 485, work_group_scan_exclusive_logical_xor(int) 576; there is no
; sub_group_reduce_mul (only the non-uniform and clustered sub-group forms
; of those operations exist). Other calls, and a collective of a vector
; (returned through memory on the fiber path), are not scalar or not listed.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes='print<clcpu-sync-calls>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s

declare void @_Z7barrierj(i32)
declare void @_Z18work_group_barrierj(i32)
declare void @_Z17sub_group_barrierj(i32)
declare i32 @_Z21work_group_reduce_addi(i32)
declare i32 @_Z20sub_group_reduce_addi(i32)
declare i32 @_Z32sub_group_non_uniform_reduce_addi(i32)
declare i64 @_Z13get_global_idj(i32)
declare i32 @_Z21work_group_reduce_muli(i32)
declare i64 @_Z21work_group_reduce_andm(i64)
declare half @_Z29work_group_scan_inclusive_mulDh(half)
declare double @_Z29work_group_scan_exclusive_muld(double)
declare i32 @_Z37work_group_scan_exclusive_logical_xori(i32)
declare i32 @_Z20sub_group_reduce_muli(i32)

; CHECK-LABEL: clcpu-sync-calls of body:
; CHECK-NEXT: barrier op 0: call void @_Z7barrierj(i32 1)
; CHECK-NEXT: barrier op 0: call void @_Z18work_group_barrierj(i32 1)
; CHECK-NEXT: sub-group barrier op 0: call void @_Z17sub_group_barrierj(i32 1)
; CHECK-NEXT: collective op 48: %a = call i32 @_Z21work_group_reduce_addi(i32 %v)
; CHECK-NEXT: collective op 65584: %b = call i32 @_Z20sub_group_reduce_addi(i32 %v)
; CHECK-NEXT: collective op {{[0-9]+}} per-call-site: %c = call i32 @_Z32sub_group_non_uniform_reduce_addi(i32 %v)
; CHECK-NEXT: collective op 256: %m = call i32 @_Z21work_group_reduce_muli(i32 %v)
; CHECK-NEXT: collective op 275: %and = call i64 @_Z21work_group_reduce_andm(i64 %w)
; CHECK-NEXT: collective op 378: %h = call half @_Z29work_group_scan_inclusive_mulDh(half %x)
; CHECK-NEXT: collective op 485: %d = call double @_Z29work_group_scan_exclusive_muld(double %y)
; CHECK-NEXT: collective op 576: %l = call i32 @_Z37work_group_scan_exclusive_logical_xori(i32 %v)
; CHECK-NOT: get_global_id
; CHECK-NOT: sub_group_reduce_mul
; CHECK-LABEL: clcpu-sync-calls of none:
; CHECK-NOT: op
define void @body(ptr %out, i32 %v, i64 %w, half %x, double %y) {
  call void @_Z7barrierj(i32 1)
  call void @_Z18work_group_barrierj(i32 1)
  call void @_Z17sub_group_barrierj(i32 1)
  %a = call i32 @_Z21work_group_reduce_addi(i32 %v)
  %b = call i32 @_Z20sub_group_reduce_addi(i32 %v)
  %c = call i32 @_Z32sub_group_non_uniform_reduce_addi(i32 %v)
  %m = call i32 @_Z21work_group_reduce_muli(i32 %v)
  %and = call i64 @_Z21work_group_reduce_andm(i64 %w)
  %h = call half @_Z29work_group_scan_inclusive_mulDh(half %x)
  %d = call double @_Z29work_group_scan_exclusive_muld(double %y)
  %l = call i32 @_Z37work_group_scan_exclusive_logical_xori(i32 %v)
  %n = call i32 @_Z20sub_group_reduce_muli(i32 %v)
  %g = call i64 @_Z13get_global_idj(i32 0)
  store i32 %a, ptr %out
  store i32 %b, ptr %out
  store i32 %c, ptr %out
  store i32 %m, ptr %out
  store i64 %and, ptr %out
  store half %h, ptr %out
  store double %d, ptr %out
  store i32 %l, ptr %out
  store i32 %n, ptr %out
  store i64 %g, ptr %out
  ret void
}

define void @none(ptr %out) {
  %g = call i64 @_Z13get_global_idj(i32 0)
  store i64 %g, ptr %out
  ret void
}
