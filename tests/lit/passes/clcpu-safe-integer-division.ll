; OpenCL C 6.3: "A divide by zero with integer types does not cause an
; exception but will result in an unspecified value." x86's division traps on
; 0 and on INT_MIN / -1; clcpu-safe-integer-division replaces such a divisor
; by 1 and leaves divisions by constants that cannot trap alone.
; RUN: %clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mcpu=x86-64 \
; RUN:   -passes=clcpu-safe-integer-division %s | FileCheck %s

; CHECK-LABEL: define i32 @sdiv_variable(
; CHECK-DAG: %[[ZERO:.*]] = icmp eq i32 %d, 0
; CHECK-DAG: %[[MIN:.*]] = icmp eq i32 %n, -2147483648
; CHECK-DAG: %[[M1:.*]] = icmp eq i32 %d, -1
; CHECK: %[[OVF:.*]] = and i1 %[[MIN]], %[[M1]]
; CHECK: %[[BAD:.*]] = or i1 %[[ZERO]], %[[OVF]]
; CHECK: %[[SAFE:.*]] = select i1 %[[BAD]], i32 1, i32 %d
; CHECK: sdiv i32 %n, %[[SAFE]]
define i32 @sdiv_variable(i32 %n, i32 %d) {
  %q = sdiv i32 %n, %d
  ret i32 %q
}

; Unsigned: only zero traps.
; CHECK-LABEL: define i32 @urem_variable(
; CHECK: %[[Z:.*]] = icmp eq i32 %d, 0
; CHECK-NOT: -1
; CHECK: %[[S:.*]] = select i1 %[[Z]], i32 1, i32 %d
; CHECK: urem i32 %n, %[[S]]
define i32 @urem_variable(i32 %n, i32 %d) {
  %r = urem i32 %n, %d
  ret i32 %r
}

; A constant divisor that is neither 0 nor -1 cannot trap: left alone.
; CHECK-LABEL: define i32 @sdiv_constant(
; CHECK-NEXT: %q = sdiv i32 %n, 7
; CHECK-NEXT: ret i32 %q
define i32 @sdiv_constant(i32 %n) {
  %q = sdiv i32 %n, 7
  ret i32 %q
}

; Every lane of a constant vector divisor is checked: its 0 lane becomes 1
; (the guard folds to a constant).
; CHECK-LABEL: define <2 x i32> @udiv_vector_constant(
; CHECK-NEXT: %q = udiv <2 x i32> %n, <i32 3, i32 1>
define <2 x i32> @udiv_vector_constant(<2 x i32> %n) {
  %q = udiv <2 x i32> %n, <i32 3, i32 0>
  ret <2 x i32> %q
}
