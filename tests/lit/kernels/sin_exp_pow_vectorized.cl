// OpenCL C 3.0 spec 6.15.2: a work-item loop calling sin, exp and pow (cos
// and log of double) is vectorized into calls of SLEEF's SIMD functions of
// the target's widest vectors. Under -cl-fast-relaxed-math (7.4, table 38)
// float sin becomes the 3.5-ulp function; exp and pow, whose bounds stay
// tight, and double keep the 1-ulp ones (no 1-ulp float sin is left).
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s \
// RUN:   | FileCheck %s --check-prefix=AVX512
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=x86-64-v3 -mattr=+avx2,+fma,+fast-gather %s \
// RUN:   | FileCheck %s --check-prefix=AVX2
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma \
// RUN:   -cl-options=-cl-fast-relaxed-math %s \
// RUN:   | FileCheck %s --check-prefix=RELAXED \
// RUN:     '--implicit-check-not=@Sleef_sinf{{[0-9]*}}_u10'

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// AVX512-LABEL: define void @wg_f(
// AVX512-DAG:   call <16 x float> @Sleef_sinf16_u10avx512f(<16 x float>
// AVX512-DAG:   call <16 x float> @Sleef_expf16_u10avx512f(<16 x float>
// AVX512-DAG:   call <16 x float> @Sleef_powf16_u10avx512f(<16 x float>
// AVX2-LABEL:   define void @wg_f(
// AVX2-DAG:     call <8 x float> @Sleef_sinf8_u10avx2(<8 x float>
// AVX2-DAG:     call <8 x float> @Sleef_expf8_u10avx2(<8 x float>
// AVX2-DAG:     call <8 x float> @Sleef_powf8_u10avx2(<8 x float>
// RELAXED-LABEL: define void @wg_f(
// RELAXED-DAG:  call <16 x float> @Sleef_sinf16_u35avx512f(<16 x float>
// RELAXED-DAG:  call <16 x float> @Sleef_expf16_u10avx512f(<16 x float>
kernel void f(global const float *x, global const float *y, global float *o) {
  size_t i = get_global_id(0);
  o[i] = sin(x[i]) + exp(y[i]) * pow(x[i], y[i]);
}

// AVX512-LABEL: define void @wg_d(
// AVX512-DAG:   call <8 x double> @Sleef_cosd8_u10avx512f(<8 x double>
// AVX512-DAG:   call <8 x double> @Sleef_logd8_u10avx512f(<8 x double>
// AVX2-LABEL:   define void @wg_d(
// AVX2-DAG:     call <4 x double> @Sleef_cosd4_u10avx2(<4 x double>
// AVX2-DAG:     call <4 x double> @Sleef_logd4_u10avx2(<4 x double>
// RELAXED-LABEL: define void @wg_d(
// RELAXED:      call <8 x double> @Sleef_cosd8_u10avx512f(<8 x double>
kernel void d(global const double *x, global double *o) {
  size_t i = get_global_id(0);
  o[i] = cos(x[i]) + log(x[i]);
}
