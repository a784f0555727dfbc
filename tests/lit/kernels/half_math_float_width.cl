// cl_khr_fp16 (compiler/WorkItemLoops.cpp, markWorkItemLoop): half math is
// float math on converted values (builtins/half.cl). The work-item loop of
// a kernel computing with half is vectorized at the float width, into the
// same SLEEF SIMD calls as float, with the conversions around them; left to
// the cost model, which prices the conversions high, it took half that.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=x86-64-v3 -mattr=+avx2,+fma,+f16c %s | FileCheck %s

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// CHECK-LABEL: define void @wg_h(
// CHECK-DAG:   fpext <8 x half> %{{.+}} to <8 x float>
// CHECK-DAG:   call <8 x float> @Sleef_sinf8_u10avx2(<8 x float>
// CHECK-DAG:   call <8 x float> @Sleef_expf8_u10avx2(<8 x float>
// CHECK-DAG:   call <8 x float> @Sleef_powf8_u10avx2(<8 x float>
// CHECK-DAG:   fptrunc <8 x float> %{{.+}} to <8 x half>
kernel void h(global const half *x, global half *y) {
  size_t i = get_global_id(0);
  half v = x[i];
  y[i] = sin(v) + exp(v * 0.25h) + pow(v, 1.5h);
}
