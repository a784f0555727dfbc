// OpenCL 3.0 API spec 5.10: vadd's work-group function is vectorized across
// work-items: the loop over the group's work-items becomes vector loads, adds
// and stores of floats, one register wide, and no work-item function is left
// as a call.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s \
// RUN:   | FileCheck %s --check-prefix=AVX512 \
// RUN:     --implicit-check-not=get_global_id
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=x86-64-v3 -mattr=+avx2,+fma,+fast-gather %s \
// RUN:   | FileCheck %s --check-prefix=AVX2 \
// RUN:     --implicit-check-not=get_global_id

// AVX512-LABEL: define void @wg_vadd(
// AVX512:       fadd <16 x float>
// AVX2-LABEL:   define void @wg_vadd(
// AVX2:         fadd <8 x float>
kernel void vadd(global const float *a, global const float *b,
                 global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
