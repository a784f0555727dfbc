; clcpu-flatten-address-spaces: a module translated from SPIR-V keeps its
; pointers in the SPIR address spaces (1 global, 2 constant, 3 local, 4
; generic); the host target's modules have one flat space. Every pointer
; type moves to address space 0: kernel parameters, variables (a local
; one gets clcpu.work_group_variable, so that each kernel using it gets its
; own copy), casts between spaces (instructions and constants) disappear,
; overloaded intrinsics get their flat declaration, and spir_func becomes
; the C calling convention at definitions and calls. Kernels keep
; spir_kernel and their metadata.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu \
; RUN:   -passes=clcpu-flatten-address-spaces %s | FileCheck %s

; CHECK-DAG: @table = constant [2 x i32] [i32 1, i32 2]
; CHECK-DAG: @scratch = internal global [4 x float] undef, align 16, !clcpu.work_group_variable
; CHECK-DAG: @ptrs = global { ptr, ptr } { ptr @table, ptr @scratch }
@table = addrspace(2) constant [2 x i32] [i32 1, i32 2]
@scratch = internal addrspace(3) global [4 x float] undef, align 16
@ptrs = addrspace(1) global { ptr addrspace(2), ptr addrspace(4) } { ptr addrspace(2) @table, ptr addrspace(4) addrspacecast (ptr addrspace(3) @scratch to ptr addrspace(4)) }

; CHECK-LABEL: define internal float @helper(ptr %p)
; CHECK-NEXT: %v = load float, ptr %p
define internal spir_func float @helper(ptr addrspace(4) %p) {
  %v = load float, ptr addrspace(4) %p
  ret float %v
}

; CHECK-LABEL: define spir_kernel void @k(ptr %out, ptr %src, i64 %n) {{.*}}!kernel_arg_addr_space
; CHECK-NEXT: %l = getelementptr [4 x float], ptr @scratch, i64 0, i64 1
; CHECK-NEXT: %v = call float @helper(ptr %l)
; CHECK-NEXT: %c = load i32, ptr @table
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %out, ptr %src, i64 %n, i1 false)
; CHECK-NEXT: %f = call float @_Z5fractfPU9CLgenericf(float %v, ptr %l)
; CHECK-NEXT: store float %f, ptr %out
define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %src, i64 %n) !kernel_arg_addr_space !0 {
  %l = getelementptr [4 x float], ptr addrspace(3) @scratch, i64 0, i64 1
  %g = addrspacecast ptr addrspace(3) %l to ptr addrspace(4)
  %v = call spir_func float @helper(ptr addrspace(4) %g)
  %c = load i32, ptr addrspace(2) @table
  call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) %out, ptr addrspace(1) %src, i64 %n, i1 false)
  %f = call spir_func float @_Z5fractfPU9CLgenericf(float %v, ptr addrspace(4) %g)
  store float %f, ptr addrspace(1) %out
  ret void
}

; CHECK: declare float @_Z5fractfPU9CLgenericf(float, ptr)
declare spir_func float @_Z5fractfPU9CLgenericf(float, ptr addrspace(4))
declare void @llvm.memcpy.p1.p1.i64(ptr addrspace(1), ptr addrspace(1), i64, i1)

!0 = !{i32 1, i32 1, i32 0}
