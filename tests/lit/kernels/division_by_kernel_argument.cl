// OpenCL 3.0 API spec 5.10 (compiler/passes/InvariantDivision.cpp): division
// by a kernel argument becomes a multiply-high in a vectorized loop: the
// magic numbers are computed once, in 64 bits, outside the loop; no 32-bit
// division is left, scalar or vector; the loop is vectorized (vector loads,
// vector multiplies of the widened dividends). A divisor that is not
// loop-invariant is left to the backend.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// Signed and unsigned quotients and remainders by kernel arguments.
// CHECK-LABEL: define void @wg_divide(
// CHECK-NOT:   {{(div|rem) i32|(div|rem) <}}
// CHECK:       udiv i64
// CHECK-NOT:   {{(div|rem) i32|(div|rem) <}}
// CHECK:       load <16 x i32>
// CHECK-NOT:   {{(div|rem) i32|(div|rem) <}}
// CHECK:       mul <16 x i64>
// CHECK-NOT:   {{(div|rem) i32|(div|rem) <}}
// CHECK:       {{^}}}{{$}}
kernel void divide(global const int *a, global int *q, global int *r,
                   global uint *uq, global uint *ur, int d, uint ud) {
  int i = get_global_id(0);
  q[i] = a[i] / d;
  r[i] = a[i] % d;
  uq[i] = (uint)a[i] / ud;
  ur[i] = (uint)a[i] % ud;
}

// The divisor changes per work-item: a real division stays.
// CHECK-LABEL: define void @wg_varying(
// CHECK:       {{sdiv|srem}}
kernel void varying(global const int *a, global int *q) {
  int i = get_global_id(0);
  q[i] = a[i] / (i < 5 ? 1 : a[i + 1]);
}
