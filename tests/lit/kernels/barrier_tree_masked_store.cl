// OpenCL C 3.0 spec 6.13.8 (barrier fast path,
// compiler/passes/MaskedStoreFastPath.cpp): without AVX-512, masked stores in
// loops test for an all-on or all-off mask first: all on, a plain vector
// store; mixed, the masked store; none, nothing. With AVX-512 a masked store
// is one instruction under a mask register: nothing to gain, left alone.
// The tree step stores under lid < o: all lanes on or all off in every
// vector but one.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s \
// RUN:   | FileCheck %s --check-prefix=AVX512
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=x86-64-v3 -mattr=+avx2,+fma,+fast-gather %s \
// RUN:   | FileCheck %s --check-prefix=AVX2

// AVX512-LABEL: define void @wg_tree(
// AVX512-NOT:   %mask.all
// AVX512:       call void @llvm.masked.store.v16f32
// AVX512-NOT:   %mask.all
// AVX512:       {{^}}}{{$}}
// AVX2-LABEL:   define void @wg_tree(
// AVX2:         %mask.all = icmp eq i8 %mask.bits, -1
// AVX2-NEXT:    br i1 %mask.all,
// AVX2:         store <8 x float>
// AVX2:         %mask.any = icmp ne i8 %mask.bits, 0
// AVX2-NEXT:    br i1 %mask.any,
// AVX2:         call void @llvm.masked.store.v8f32
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void tree(global const float *in, global float *out) {
  local float s[64];
  int lid = get_local_id(0);
  s[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int o = 32; o > 0; o >>= 1) {
    if (lid < o)
      s[lid] += s[lid + o];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = s[0];
}
