// OpenCL 3.0 API spec 5.10 (compiler/passes/RuntimeConsecutiveGathers.cpp):
// gathers whose lanes are adjacent, or of one address, only at run time
// check their lanes first: a vector load from lane 0's address (or one scalar
// load and a broadcast) serves the vectors whose lanes agree, the gather the
// others. A scatter becomes a vector store when its lanes are adjacent (only
// AVX-512 has scatter instructions: on AVX2 the vectorizer stores each lane
// on its own and there is no scatter to check).
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=x86-64-v3 -mattr=+avx2,+fma,+fast-gather %s \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX2

// The gather stays for lanes that wrap.
// CHECK-LABEL: define void @wg_neighbour(
// CHECK:       %lanes.adjacent = icmp eq i
// AVX512:      = load <16 x i32>, ptr %lane0.addr,
// AVX2:        = load <8 x i32>, ptr %lane0.addr,
// CHECK:       @llvm.masked.gather
kernel void neighbour(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  out[i] = in[(i + 1) % n];
}

// off[i / chunk]: one scalar load and a broadcast when all lanes agree.
// CHECK-LABEL: define void @wg_offsets(
// CHECK:       %lanes.same = icmp eq i
// CHECK:       = load i32, ptr %lane0.addr,
kernel void offsets(global int *out, global const int *off, int chunk) {
  int i = get_global_id(0);
  out[i] += off[i / chunk];
}

// CHECK-LABEL: define void @wg_scatter(
// AVX512:      store <16 x i32> %{{[^,]+}}, ptr %lane0.addr,
// AVX512:      @llvm.masked.scatter
kernel void scatter(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  out[(i + 1) % n] = in[i];
}

// A power-of-two modulus whose dividend steps through the vector loop: the
// loop counts down the vectors left before lane 0's index wraps and carries
// that index (in the address's type) from vector to vector; the count and
// index are computed from the dividend only before the loop and after a wrap
// (lane 0's remainder at most M - N, the dividend non-negative for srem, then
// (M - N - index) / N + 1 vectors: N = 16 lanes on AVX-512, 8 on AVX2). The
// vector that wraps is two masked loads, from lane 0's address and M elements
// below it (the gather stays for negative srem dividends), and the countdown
// loop runs 4 vectors per pass. The main loop has no generic check of
// adjacent lanes; LLVM may add a narrower epilogue loop after it, where the
// generic check stays.
// CHECK-LABEL: define void @wg_ring(
// CHECK-NOT:   %lanes.adjacent = icmp eq i
// CHECK:       %countdown.index = and i32 %{{[0-9]+}}, 255
// AVX512:      icmp ult i32 %countdown.index, 241
// AVX2:        icmp ult i32 %countdown.index, 249
// CHECK-NEXT:  icmp sgt i32 %{{[0-9]+}}, -1
// CHECK-NOT:   %lanes.adjacent = icmp eq i
// CHECK:       %countdown.left = phi i32
// CHECK:       %[[IDX:countdown\.index[0-9]*]] = phi i64
// CHECK-NOT:   %lanes.adjacent = icmp eq i
// CHECK:       %lane0.addr = getelementptr inbounds i32, ptr %{{[0-9]+}}, i64 %[[IDX]]
// CHECK:       icmp {{eq|ne}} i32 %countdown.left, 0
// CHECK-NOT:   %lanes.adjacent = icmp eq i
// CHECK:       getelementptr i8, ptr %lane0.addr, i64 -1024
// AVX512:      %wrap.lanes = call <16 x i32> @llvm.masked.load.v16i32
// AVX2:        %wrap.lanes = call <8 x i32> @llvm.masked.load.v8i32
// CHECK-NOT:   %lanes.adjacent = icmp eq i
// CHECK:       @llvm.masked.gather
// CHECK-NOT:   %lanes.adjacent = icmp eq i
// CHECK:       %lane0.addr.3 =
// CHECK-NOT:   %lanes.adjacent = icmp eq i
// AVX512:      {{^}}vec.epilog.ph:
// AVX2:        {{^}}}{{$}}
kernel void ring(global const int *in, global int *out) {
  int i = get_global_id(0);
  out[i] = in[(i + 1) % 256];
}
