; clcpu-spirv-builtin-names: the SPIR-V translator names OpenCL C builtins
; as SPIR mangles them (address spaces as U3AS<n>, private pointers
; unqualified); the builtin library has the names Clang gives them for the
; host (U8CLglobal, U10CLconstant, U7CLlocal, U9CLgeneric, U9CLprivate).
; A vendor qualifier is replaced in place (substitutions such as S_ keep
; their meaning); a private qualifier is added only when no substitution
; follows. Kernels and unmangled names are left alone. printf's float and
; half variadic arguments are promoted to double, as C's calls do.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu \
; RUN:   -passes=clcpu-spirv-builtin-names %s | FileCheck %s

; CHECK-DAG: declare <4 x float> @_Z6vload4mPU9CLgenericKf(i64, ptr addrspace(4))
; CHECK-DAG: declare i32 @_Z25atomic_fetch_add_explicitPU9CLgenericVU7_Atomicii12memory_order12memory_scope(ptr addrspace(4), i32, i32, i32)
; CHECK-DAG: declare i32 @_Z10atomic_addPU8CLglobalVii(ptr addrspace(1), i32)
; CHECK-DAG: declare i32 @_Z10atomic_addPU7CLlocalVii(ptr addrspace(3), i32)
; CHECK-DAG: declare <4 x float> @_Z6vload4mPU10CLconstantKf(i64, ptr addrspace(2))
; CHECK-DAG: declare float @_Z5fractfPU9CLprivatef(float, ptr)
; CHECK-DAG: declare float @_Z3dotDv4_fS_(<4 x float>, <4 x float>)
; CHECK-DAG: declare void @_Z7vstore4Dv4_fmPU8CLglobalf(<4 x float>, i64, ptr addrspace(1))
; CHECK-DAG: declare <2 x float> @_Z6sincosDv2_fPS_(<2 x float>, ptr)
; CHECK-DAG: declare i64 @_Z13get_global_idj(i32)
declare i32 @printf(ptr, ...)
@fmt = constant [14 x i8] c"%f %d %f %v2f\00"
declare <4 x float> @_Z6vload4mPU3AS4Kf(i64, ptr addrspace(4))
declare i32 @_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order12memory_scope(ptr addrspace(4), i32, i32, i32)
declare i32 @_Z10atomic_addPU3AS1Vii(ptr addrspace(1), i32)
declare i32 @_Z10atomic_addPU3AS3Vii(ptr addrspace(3), i32)
declare <4 x float> @_Z6vload4mPU3AS2Kf(i64, ptr addrspace(2))
declare float @_Z5fractfPf(float, ptr)
declare float @_Z3dotDv4_fS_(<4 x float>, <4 x float>)
declare void @_Z7vstore4Dv4_fmPU3AS1f(<4 x float>, i64, ptr addrspace(1))
; A private pointer to a substituted type: left as it is.
declare <2 x float> @_Z6sincosDv2_fPS_(<2 x float>, ptr)
declare i64 @_Z13get_global_idj(i32)

; CHECK-LABEL: define spir_kernel void @k(
; CHECK-NEXT: %1 = fpext float %f to double
; CHECK-NEXT: %2 = fpext half %h to double
; CHECK-NEXT: call i32 (ptr, ...) @printf(ptr @fmt, double %1, i32 %i, double %2, <2 x float> %v)
define spir_kernel void @k(float %f, i32 %i, half %h, <2 x float> %v) {
  call i32 (ptr, ...) @printf(ptr @fmt, float %f, i32 %i, half %h, <2 x float> %v)
  ret void
}
