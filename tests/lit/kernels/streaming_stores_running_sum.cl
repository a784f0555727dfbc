// OpenCL 3.0 API spec 5.10 (compiler/passes/NonTemporalStores.cpp): an
// output written by full and masked vector stores (each work-item writes a
// running sum over its own k elements, compiler/passes/ScanLoopVectorize.cpp:
// full vector stores, then a masked tail store into the same output, which
// stays write-only) gets non-temporal full stores, and no sfence. The
// running-sum loop's stores advance one vector per iteration: their
// alignment is tested once before the loop, not on every store. (Bug: the
// test then sat in the loop, a branch around each store.) The loop runs in
// two versions picked before it: scan.vec stores non-temporally with no
// branch but its latch, the copy scan.vec.st has the ordinary stores.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// CHECK-LABEL: define void @wg_blocks(
// CHECK-NOT:   sfence
// CHECK:       ptrtoint
// CHECK-NOT:   sfence
// CHECK:       {{^}}scan.vec.st:
// CHECK-NOT:   !nontemporal
// CHECK:       store <16 x i32>
// CHECK-NOT:   !nontemporal
// CHECK:       br i1 %{{[^,]+}}, label %scan.vec.end, label %scan.vec.st,
// CHECK-EMPTY:
// CHECK:       {{^}}scan.vec:
// CHECK-NOT:   {{ptrtoint| br }}
// CHECK:       store <16 x i32> {{.*}}, !nontemporal
// CHECK-NOT:   {{ptrtoint| br }}
// CHECK:       br i1 %{{[^,]+}}, label %scan.vec.end, label %scan.vec,
// CHECK-EMPTY:
// CHECK-NEXT:  {{^}}scan.vec.end:
// CHECK-NOT:   sfence
// CHECK:       call void @llvm.masked.store
// CHECK-NOT:   sfence
// CHECK:       {{^}}}{{$}}
kernel void blocks(global const int *restrict in, global int *restrict out,
                   int n, int k) {
  int base = get_global_id(0) * k, pre = 0;
  for (int j = 0; j < k; ++j)
    if (base + j < n) {
      int v = in[base + j];
      out[base + j] = pre;
      pre += v;
    }
}
