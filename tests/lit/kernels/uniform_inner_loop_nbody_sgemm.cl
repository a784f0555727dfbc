// OpenCL 3.0 API spec 5.10: kernels whose work-items each run a loop of the
// same trip count (nbody, a naive sgemm) are vectorized across work-items:
// the inner loop runs on vectors of work-items. What every work-item reads
// alike in it (nbody's pos[j]) is a scalar load and a broadcast, not a gather
// of one address; what adjacent work-items read adjacently (sgemm's
// B[k * n + col]) is one vector load.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// Gathers of p = pos[i] before the loop only.
// CHECK-LABEL: define void @wg_nbody(
// CHECK:       {{^}}[[LOOP:for\.body[.a-z0-9]*]]:
// CHECK-NOT:   @llvm.masked.gather
// CHECK:       load float, ptr
// CHECK-NOT:   @llvm.masked.gather
// CHECK:       call <16 x float> @llvm.fmuladd.v16f32(
// CHECK-NOT:   @llvm.masked.gather
// CHECK:       br i1 %{{[^,]+}}, label %{{[^,]+}}, label %[[LOOP]]{{$}}
kernel void nbody(global const float4 *pos, global float4 *acc, int n) {
  float4 p = pos[get_global_id(0)], a = (float4)(0.0f);
  for (int j = 0; j < n; ++j) {
    float4 d = pos[j] - p;
    float inv = rsqrt(d.x * d.x + d.y * d.y + d.z * d.z + 0.01f);
    a += pos[j].w * inv * inv * inv * d;
  }
  acc[get_global_id(0)] = a;
}

// CHECK-LABEL: define void @wg_sgemm(
// CHECK-NOT:   @llvm.masked.gather
// CHECK:       load <16 x float>
// CHECK-NOT:   @llvm.masked.gather
// CHECK:       call <16 x float> @llvm.fmuladd.v16f32(
// CHECK-NOT:   @llvm.masked.gather
// CHECK:       {{^}}}{{$}}
kernel void sgemm(global const float *A, global const float *B,
                  global float *C, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  float s = 0.0f;
  for (int k = 0; k < n; ++k)
    s += A[row * n + k] * B[k * n + col];
  C[row * n + col] = s;
}
