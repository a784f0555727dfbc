; clcpu-math-builtins (OpenCL C 6.15.2, math functions): a builtin
; library declaration whose parameters all have its result's type and that
; has an LLVM intrinsic of the same meaning (sin, pow, fma, mad as
; fmuladd ...) is replaced by that intrinsic, scalar or vector alike, so
; that the vectorizer widens it. Others (frexp, with a pointer parameter;
; a function LLVM has no intrinsic for) stay calls.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64-v3 \
; RUN:   -passes=clcpu-math-builtins %s | FileCheck %s

declare float @_Z3sinf(float)
declare <4 x float> @_Z3powDv4_fS_(<4 x float>, <4 x float>)
declare double @_Z3madddd(double, double, double)
declare float @_Z5frexpfPi(float, ptr)
declare float @_Z4tanhf(float)

; CHECK-LABEL: define void @math(
; CHECK-NEXT: call float @llvm.sin.f32(float %x)
; CHECK-NEXT: call <4 x float> @llvm.pow.v4f32(<4 x float> %v, <4 x float> %v)
; CHECK-NEXT: call double @llvm.fmuladd.f64(double %d, double %d, double %d)
; CHECK-NEXT: call float @_Z5frexpfPi(float %x, ptr %e)
; CHECK-NEXT: call float @_Z4tanhf(float %x)
define void @math(ptr %o, float %x, <4 x float> %v, double %d, ptr %e) {
  %a = call float @_Z3sinf(float %x)
  %b = call <4 x float> @_Z3powDv4_fS_(<4 x float> %v, <4 x float> %v)
  %c = call double @_Z3madddd(double %d, double %d, double %d)
  %f = call float @_Z5frexpfPi(float %x, ptr %e)
  %t = call float @_Z4tanhf(float %x)
  store float %a, ptr %o
  store <4 x float> %b, ptr %o
  store double %c, ptr %o
  store float %f, ptr %o
  store float %t, ptr %o
  ret void
}
