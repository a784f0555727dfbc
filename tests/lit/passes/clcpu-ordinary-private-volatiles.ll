; C99 6.7.3p6 leaves what an access to a volatile object is to the
; implementation; a private variable is its work-item's alone (OpenCL C 3.0
; 6.7.4), so clcpu-ordinary-private-volatiles makes the volatile accesses of
; allocas ordinary (CLBlast's `volatile int tid` kept Xgemm's work-item loops
; from being widened) and keeps those of global and local memory.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64 \
; RUN:   -passes=clcpu-ordinary-private-volatiles %s | FileCheck %s

; CHECK-LABEL: define i32 @private_variable(
; CHECK: store i32 %v, ptr %tid
; CHECK: load i32, ptr %tid
; CHECK-NOT: volatile
; CHECK: ret i32
define i32 @private_variable(i32 %v) {
  %tid = alloca i32, align 4
  store volatile i32 %v, ptr %tid, align 4
  %r = load volatile i32, ptr %tid, align 4
  ret i32 %r
}

; Through a GEP, an address space cast to generic and a select of two
; private arrays: still only private memory.
; CHECK-LABEL: define float @private_arrays(
; CHECK: store float %v, ptr addrspace(4) %e
; CHECK: load float, ptr addrspace(4) %e
; CHECK-NOT: volatile
; CHECK: ret float
define float @private_arrays(i1 %c, i64 %i, float %v) {
  %a = alloca [4 x float], align 4
  %b = alloca [4 x float], align 4
  %p = select i1 %c, ptr %a, ptr %b
  %q = getelementptr inbounds [4 x float], ptr %p, i64 0, i64 %i
  %e = addrspacecast ptr %q to ptr addrspace(4)
  store volatile float %v, ptr addrspace(4) %e, align 4
  %r = load volatile float, ptr addrspace(4) %e, align 4
  ret float %r
}

; Global and local memory, and a pointer that may be either private or
; global, keep their volatile accesses.
; CHECK-LABEL: define void @shared_memory(
; CHECK: store volatile i32 1, ptr addrspace(1) %g
; CHECK: load volatile i32, ptr addrspace(3) %l
; CHECK: store volatile i32 %x, ptr addrspace(4) %m
define void @shared_memory(ptr addrspace(1) %g, ptr addrspace(3) %l, i1 %c) {
  %a = alloca i32, align 4
  store volatile i32 1, ptr addrspace(1) %g, align 4
  %x = load volatile i32, ptr addrspace(3) %l, align 4
  %pa = addrspacecast ptr %a to ptr addrspace(4)
  %pg = addrspacecast ptr addrspace(1) %g to ptr addrspace(4)
  %m = select i1 %c, ptr addrspace(4) %pa, ptr addrspace(4) %pg
  store volatile i32 %x, ptr addrspace(4) %m, align 4
  ret void
}

; A volatile copy between two private arrays becomes ordinary; one from
; global memory into a private array stays volatile.
; CHECK-LABEL: define void @copies(
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%a, ptr {{.*}}%b, i64 16, i1 false)
; CHECK: call void @llvm.memcpy.p0.p1.i64(ptr {{.*}}%a, ptr addrspace(1) {{.*}}%g, i64 16, i1 true)
define void @copies(ptr addrspace(1) %g) {
  %a = alloca [4 x i32], align 4
  %b = alloca [4 x i32], align 4
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 16, i1 true)
  call void @llvm.memcpy.p0.p1.i64(ptr %a, ptr addrspace(1) %g, i64 16, i1 true)
  ret void
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memcpy.p0.p1.i64(ptr, ptr addrspace(1), i64, i1)
