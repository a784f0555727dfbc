// cl_khr_integer_dot_product: the work-item loop widens the builtins'
// scalar bodies across work-items, and clcpu-vnni-dot-product makes each
// vector of unsigned-by-signed dot products one VNNI instruction:
// dot_acc_sat a vpdpbusds on the accumulators, dot a vpdpbusd on zero,
// 16 lanes with AVX-512 VNNI and 8 with AVX-VNNI (the 8-lane remainder loop
// after the 16-lane one takes the 256-bit form too). In @wg_gemm the x-loop
// holds the loop over k (outer-loop vectorization): A's word is the same
// for every work-item, broadcast into the instruction, and the accumulator
// stays in a register across k. Signed-by-signed products (@wg_ss) have no
// such instruction: widened multiplies, and without VNNI every form is.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma,+avx512vnni,+avx512vl %s \
// RUN:   | FileCheck %s --check-prefix=VNNI512
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=x86-64-v3 -mattr=+avx2,+fma,+fast-gather,+avxvnni %s \
// RUN:   | FileCheck %s --check-prefix=AVXVNNI
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=x86-64-v3 -mattr=+avx2,+fma,+fast-gather %s \
// RUN:   | FileCheck %s --check-prefix=AVX2 --implicit-check-not=vpdpbusd

// VNNI512-LABEL: define void @wg_acc_sat(
// VNNI512:       call <16 x i32> @llvm.x86.avx512.vpdpbusds.512(
// VNNI512:       call <8 x i32> @llvm.x86.avx512.vpdpbusds.256(
// AVXVNNI-LABEL: define void @wg_acc_sat(
// AVXVNNI:       call <8 x i32> @llvm.x86.avx512.vpdpbusds.256(
// AVX2-LABEL:    define void @wg_acc_sat(
// AVX2:          mul nsw <8 x i32>
// AVX2:          call <8 x i32> @llvm.sadd.sat.v8i32(
kernel void acc_sat(global const uint *a, global const uint *b,
                    global const int *acc, global int *o) {
  size_t i = get_global_id(0);
  o[i] = dot_acc_sat_4x8packed_us_int(a[i], b[i], acc[i]);
}

// VNNI512-LABEL: define void @wg_vectors(
// VNNI512:       call <16 x i32> @llvm.x86.avx512.vpdpbusd.512(<16 x i32> zeroinitializer,
// AVXVNNI-LABEL: define void @wg_vectors(
// AVXVNNI:       call <8 x i32> @llvm.x86.avx512.vpdpbusd.256(<8 x i32> zeroinitializer,
// AVX2-LABEL:    define void @wg_vectors(
// AVX2:          mul nsw <8 x i32>
kernel void vectors(global const char4 *a, global const uchar4 *b,
                    global int *o) {
  size_t i = get_global_id(0);
  o[i] = dot(a[i], b[i]);
}

// VNNI512-LABEL: define void @wg_ss(
// VNNI512-NOT:   vpdpbusd
// VNNI512:       mul nsw <16 x i32>
// VNNI512-NOT:   vpdpbusd
// VNNI512-LABEL: define void @wg_gemm(
kernel void ss(global const uint *a, global const uint *b, global int *o) {
  size_t i = get_global_id(0);
  o[i] = dot_4x8packed_ss_int(a[i], b[i]);
}

// VNNI512:       [[PHI:%.*]] = phi <16 x i32> [ zeroinitializer, %{{.*}} ], [ [[ACC:%.*]], %{{.*}} ]
// VNNI512:       [[AS:%.*]] = shufflevector <16 x i32> %{{.*}}, <16 x i32> poison, <16 x i32> zeroinitializer
// VNNI512-NEXT:  [[ACC]] = call <16 x i32> @llvm.x86.avx512.vpdpbusds.512(<16 x i32> [[PHI]], <16 x i32> [[AS]], <16 x i32> %{{.*}})
// AVXVNNI-LABEL: define void @wg_gemm(
// AVXVNNI:       call <8 x i32> @llvm.x86.avx512.vpdpbusds.256(
kernel void gemm(int K, global const uint *restrict A,
                 global const uint *restrict B, global int *restrict C) {
  int col = get_global_id(0), row = get_global_id(1), n = get_global_size(0);
  int acc = 0;
  for (int k = 0; k < K; ++k)
    acc = dot_acc_sat_4x8packed_us_int(A[row * K + k], B[k * n + col], acc);
  C[row * n + col] = acc;
}
