// OpenCL C 3.0 spec 6.13.8 (barrier fast path, compiler/regions/): uniform
// values of a loop with a single barrier stay uniform, saved in a second
// group-wide slot the collective step copies. A Hillis-Steele scan: the
// local pointers (swapped after the barrier) and the offset are saved at the
// barrier the region after it also starts from. With one slot, later
// work-items would read what earlier ones saved for the next iteration;
// per-work-item slots would make the pointers vectors and the accesses
// gathers. Here: whole-vector loads and stores of the local arrays, no
// gathers; the step copies the three saved values (a memcpy, lowered to a
// load and a store each). (tests/unit/CompilerTests.cpp checks the path's
// count of uniform values.)
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// CHECK-LABEL:   define internal fastcc void @hs.collective(
// CHECK-COUNT-3: store i64 %
// CHECK-LABEL:   define void @wg_hs(
// CHECK-NOT:     gather
// CHECK:         load <16 x i32>
// CHECK-NOT:     gather
// CHECK:         store <16 x i32>
// CHECK-NOT:     gather
// CHECK:         {{^}}}{{$}}
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void hs(global const int *in, global int *out) {
  local int a[64], b[64];
  size_t l = get_local_id(0);
  local int *src = a, *dst = b;
  src[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t o = 1; o < 64; o <<= 1) {
    int v = src[l];
    if (l >= o)
      v += src[l - o];
    dst[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    local int *t = src;
    src = dst;
    dst = t;
  }
  out[get_global_id(0)] = src[l];
}
