; clcpu-builtin-call-abi: the builtin library, lowered by Clang for the
; host ABI, takes a vector wider than the vector registers in memory
; (byval); a module translated from SPIR-V calls it with the value. Such a
; call stores the value in a stack slot of the caller (aligned as the
; parameter) and passes the slot, with the callee's attributes. Calls
; whose types already agree, and calls that differ otherwise (here the
; return type), are left alone.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu \
; RUN:   -passes=clcpu-builtin-call-abi %s | FileCheck %s

define <16 x double> @_Z3sinDv16_d(ptr byval(<16 x double>) align 128 %p) {
  %v = load <16 x double>, ptr %p
  ret <16 x double> %v
}

define <16 x double> @_Z4fmaxDv16_dd(ptr byval(<16 x double>) align 128 %p, double %b) {
  %v = load <16 x double>, ptr %p
  ret <16 x double> %v
}

define float @_Z3cosf(float %x) {
  ret float %x
}

; CHECK-LABEL: define void @k(
; CHECK-NEXT: [[S2:%.*]] = alloca <16 x double>, align 128
; CHECK-NEXT: [[S1:%.*]] = alloca <16 x double>, align 128
; CHECK-NEXT: store <16 x double> %x, ptr [[S1]], align 128
; CHECK-NEXT: %a = call <16 x double> @_Z3sinDv16_d(ptr byval(<16 x double>) align 128 [[S1]])
; CHECK-NEXT: store <16 x double> %a, ptr [[S2]], align 128
; CHECK-NEXT: %b = call <16 x double> @_Z4fmaxDv16_dd(ptr byval(<16 x double>) align 128 [[S2]], double %y)
; CHECK-NEXT: %c = call float @_Z3cosf(float %f)
; CHECK-NEXT: %d = call double @_Z3cosf(float %f)
define void @k(ptr %out, <16 x double> %x, double %y, float %f) {
  %a = call <16 x double> @_Z3sinDv16_d(<16 x double> %x)
  %b = call <16 x double> @_Z4fmaxDv16_dd(<16 x double> %a, double %y)
  %c = call float @_Z3cosf(float %f)
  %d = call double @_Z3cosf(float %f)
  store <16 x double> %b, ptr %out
  store float %c, ptr %out
  store double %d, ptr %out
  ret void
}
