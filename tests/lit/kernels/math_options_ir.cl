// OpenCL 3.0 API spec 5.8.6.2-3: the math options change the generated code
// as the spec allows:
// - -cl-no-signed-zeros: x + 0.0f may become x (without it, -0.0f + 0.0f is
//   +0.0f: the add stays);
// - -cl-unsafe-math-optimizations: (a + b) - b may become a;
// - -cl-finite-math-only: x != x may be assumed false;
// - -cl-fast-relaxed-math implies the three above;
// - -cl-single-precision-constant: double constants are float.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma \
// RUN:   -cl-options=-cl-no-signed-zeros %s | FileCheck %s --check-prefix=NSZ
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma \
// RUN:   -cl-options=-cl-unsafe-math-optimizations %s \
// RUN:   | FileCheck %s --check-prefix=UNSAFE
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma \
// RUN:   -cl-options=-cl-finite-math-only %s \
// RUN:   | FileCheck %s --check-prefix=FINITE
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma \
// RUN:   -cl-options=-cl-fast-relaxed-math %s \
// RUN:   | FileCheck %s --check-prefix=FAST
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma \
// RUN:   -cl-options=-cl-single-precision-constant %s \
// RUN:   | FileCheck %s --check-prefix=SINGLE

// CHECK-LABEL: define void @wg_add_zero(
// CHECK:       fadd
// NSZ-LABEL:   define void @wg_add_zero(
// NSZ-NOT:     fadd
// NSZ:         {{^}}}{{$}}
kernel void add_zero(global float *in, global float *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] + 0.0f;
}

// CHECK-LABEL: define void @wg_add_sub(
// CHECK:       {{f(add|sub|mul|cmp) }}
// UNSAFE-LABEL: define void @wg_add_sub(
// UNSAFE-NOT:  {{f(add|sub|mul|cmp) }}
// UNSAFE:      {{^}}}{{$}}
// FAST-LABEL:  define void @wg_add_sub(
// FAST-NOT:    {{f(add|sub|mul|cmp) }}
// FAST:        {{^}}}{{$}}
kernel void add_sub(global float *in, global float *out) {
  size_t i = get_global_id(0);
  out[i] = (in[i] + out[i]) - out[i];
}

// CHECK-LABEL: define void @wg_not_self(
// CHECK:       fcmp
// FINITE-LABEL: define void @wg_not_self(
// FINITE-NOT:  fcmp
// FINITE:      {{^}}}{{$}}
kernel void not_self(global float *in, global float *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] != in[i] ? 1.0f : 2.0f;
}

// CHECK-LABEL: define void @wg_double_constant(
// CHECK:       double
// SINGLE-LABEL: define void @wg_double_constant(
// SINGLE-NOT:  double
// SINGLE:      {{^}}}{{$}}
kernel void double_constant(global float *in, global float *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * 0.1;
}
