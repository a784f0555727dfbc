// OpenCL C 3.0 spec 6.13.8 (barrier fast path, compiler/regions/): a value
// live across two barriers unchanged is stored once, before the first; the
// region between them, which an atomic keeps scalar (unrolled, not
// vectorized), only reloads it: from its first atomic to its last, the only
// stores are the state's, of a constant. (The first `store i32 %` after the
// first atomic comes after the last one.)
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// CHECK-LABEL: define void @wg_keep(
// CHECK:       store i32 %
// CHECK:       atomicrmw volatile add
// CHECK-NEXT:  store i32 {{[0-9]+}}, ptr
// CHECK:       atomicrmw volatile add
// CHECK:       store i32 %
// CHECK-NOT:   atomicrmw
// CHECK:       {{^}}}{{$}}
kernel void keep(global int *out, volatile global int *c) {
  size_t g = get_global_id(0);
  int v = out[g];
  barrier(CLK_GLOBAL_MEM_FENCE);
  atomic_add(c, 1);
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[g] = v + 1;
}
