// OpenCL 3.0 API spec 5.10 (compiler/passes/ScanLoopVectorize.cpp): a loop
// that writes out a running sum runs a vector of iterations at a time: full
// vectors, then masked half vectors; the lanes are scanned within each
// 128-bit block, then the blocks' totals across blocks; the running sum
// travels between vector iterations splat across the lanes. A reduction (the
// loop vectorizer's), a float sum without reassociation (another order rounds
// differently) and a division (1000 / v would divide by what lanes past the
// end load) are left alone; with reassociation allowed the float sum is
// vectorized too.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma \
// RUN:   -cl-options=-cl-fast-relaxed-math %s \
// RUN:   | FileCheck %s --check-prefix=FAST

// Guarded like the scan bench's loops: the guard keeps the work-item loop
// scalar (GuardedLoopBound then drops it from the inner loop).
#define BODY(T)                                                                \
  int base = get_global_id(0) * k;                                             \
  T pre = 0;                                                                   \
  for (int j = 0; j < k; ++j)                                                  \
    if (base + j < n) {                                                        \
      T v = in[base + j];                                                      \
      out[base + j] = pre;                                                     \
      pre += v;                                                                \
    }                                                                          \
  sums[get_global_id(0)] = pre;

// Lanes shifted in from the identity (zero) for the running sum; the lanes'
// totals within each 128-bit block broadcast within the block (lanes no later
// step reads may be poison); an integer sum's value before each lane is the
// value after it less the lane's own operand (no second cross-lane shift);
// the next running sum the incoming splat plus the broadcast last lane (one
// add on the loop-carried path, no extract and re-broadcast).
// CHECK-LABEL: define void @wg_scan_int(
// CHECK:       {{^}}scan.vec:
// CHECK:       %scan.acc = phi <16 x i32>
// CHECK:       shufflevector <16 x i32> %{{[0-9]+}}, <16 x i32> {{zeroinitializer|<i32 0}}
// CHECK:       %scan.blocks = shufflevector <16 x i32> %{{[0-9]+}}, <16 x i32> {{poison|undef}}, <16 x i32> <i32 3, i32 3, i32 3, i32 3, i32 7, i32 7, i32 7, i32 7,
// CHECK:       %scan.excl = sub <16 x i32>
// CHECK:       %scan.total = shufflevector <16 x i32> %{{[0-9]+}}, <16 x i32> {{poison|undef}}, <16 x i32> <i32 15, i32 15,
// CHECK:       add <16 x i32> %scan.acc, %scan.total
// CHECK:       store <16 x i32> %scan.excl,
// CHECK:       {{^}}scan.tail:
// CHECK:       call void @llvm.masked.store.v8i32.p0(<8 x i32> %scan.excl
kernel void scan_int(global const int *restrict in, global int *restrict out,
                     global int *restrict sums, int n, int k) { BODY(int) }

// CHECK-LABEL: define void @wg_scan_float(
// CHECK-NOT:   scan.
// CHECK:       {{^}}}{{$}}
// FAST-LABEL:  define void @wg_scan_float(
// FAST:        {{^}}scan.vec:
// FAST:        {{^}}scan.tail:
kernel void scan_float(global const float *restrict in,
                       global float *restrict out,
                       global float *restrict sums, int n, int k) {
  BODY(float)
}

// CHECK-LABEL: define void @wg_reduce(
// CHECK-NOT:   scan.
// CHECK:       @llvm.vector.reduce.add
// CHECK-NOT:   scan.
// CHECK:       {{^}}}{{$}}
kernel void reduce(global const int *restrict in, global int *restrict sums,
                   int n, int k) {
  int base = get_global_id(0) * k, s = 0;
  for (int j = 0; j < k; ++j)
    if (base + j < n)
      s += in[base + j];
  sums[get_global_id(0)] = s;
}

// CHECK-LABEL: define void @wg_scan_div(
// CHECK-NOT:   scan.
// CHECK:       {{^}}}{{$}}
kernel void scan_div(global const int *restrict in, global int *restrict out,
                     global int *restrict sums, int n, int k) {
  int base = get_global_id(0) * k, pre = 0;
  for (int j = 0; j < k; ++j)
    if (base + j < n) {
      int v = in[base + j];
      out[base + j] = pre;
      pre += 1000 / v;
    }
  sums[get_global_id(0)] = pre;
}
