// OpenCL 3.0 API spec 5.10, hashcat's -a 3 optimized kernels (run one
// work-item per group with uint16 lanes): a loop that hashes 16 candidates
// per iteration as uint16 rounds and checks each lane's digest against a
// sorted list of targets (a binary search), counting hits with an atomic.
// The atomic and the lane-dependent branches keep the work-item loop from
// being widened across work-items, and nothing but the per-lane checks
// reads the digests (no vector store from which the SLP vectorizer would
// rebuild the vectors), so its vector arithmetic must stay vectors:
// rotates of <16 x i32>, not one scalar rotate per lane.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=x86-64-v3 -mattr=+avx2,+fma,+fast-gather %s | FileCheck %s

// CHECK-LABEL: define void @wg_candidate_hashes(
// CHECK-NOT:   @llvm.fshl.i32(
// CHECK:       call <16 x i32> @llvm.fshl.v16i32(
// CHECK-NOT:   @llvm.fshl.i32(
// CHECK:       atomicrmw
// CHECK-NOT:   @llvm.fshl.i32(
// CHECK:       {{^}}}
#define STEP(a, b, c, d, x, k, s)                                              \
  a = rotate(a + bitselect(d, c, b) + (x) + (uint16)(k), (uint16)(s)) + b
#define HIT(l)                                                                 \
  if (find(targets, n_targets, a.s##l ^ b.s##l))                               \
    hits[atomic_inc(count) % 64] = gid * n + i + 0x##l;

int find(global const uint *t, uint nt, uint v) {
  for (uint lo = 0, r = nt; r; r >>= 1) {
    uint m = lo + (r >> 1);
    if (t[m] == v)
      return 1;
    if (t[m] < v) {
      lo = m + 1;
      r--;
    }
  }
  return 0;
}

kernel void candidate_hashes(global const uint *left,
                             global const uint16 *right, global uint *hits,
                             global uint *count, uint n,
                             global const uint *targets, uint n_targets) {
  uint gid = get_global_id(0);
  for (uint i = 0; i < n; i += 16) {
    uint16 w = (uint16)(left[gid]) | right[i / 16];
    uint16 a = (uint16)(0x67452301u), b = (uint16)(0xefcdab89u),
           c = (uint16)(0x98badcfeu), d = (uint16)(0x10325476u);
    STEP(a, b, c, d, w, 0xd76aa478u, 7);
    STEP(d, a, b, c, w >> 3, 0xe8c7b756u, 12);
    STEP(c, d, a, b, w ^ d, 0x242070dbu, 17);
    STEP(b, c, d, a, w + 1u, 0xc1bdceeeu, 22);
    STEP(a, b, c, d, w * 3u, 0xf57c0fafu, 7);
    STEP(d, a, b, c, w, 0x4787c62au, 12);
    STEP(c, d, a, b, w << 2, 0xa8304613u, 17);
    STEP(b, c, d, a, w, 0xfd469501u, 22);
    HIT(0) HIT(1) HIT(2) HIT(3) HIT(4) HIT(5) HIT(6) HIT(7)
    HIT(8) HIT(9) HIT(a) HIT(b) HIT(c) HIT(d) HIT(e) HIT(f)
  }
}

// hashcat's single-hash kernels first ask whether any lane matches; any()
// is a loop over the lanes, which reads the vector lane by lane but
// computes nothing the inner-loop vectorizer could widen: still vectors.
// CHECK-LABEL: define void @wg_any_lane_hits(
// CHECK-NOT:   @llvm.fshl.i32(
// CHECK:       call <16 x i32> @llvm.fshl.v16i32(
// CHECK-NOT:   @llvm.fshl.i32(
// CHECK:       atomicrmw
// CHECK-NOT:   @llvm.fshl.i32(
// CHECK:       {{^}}}
kernel void any_lane_hits(global const uint16 *right, global uint *count,
                          uint n, uint target) {
  uint gid = get_global_id(0);
  for (uint i = 0; i < n; i++) {
    uint16 w = right[i] ^ (uint16)(gid);
    uint16 a = (uint16)(0x67452301u), b = (uint16)(0xefcdab89u),
           c = (uint16)(0x98badcfeu), d = (uint16)(0x10325476u);
    STEP(a, b, c, d, w, 0xd76aa478u, 7);
    STEP(d, a, b, c, w >> 3, 0xe8c7b756u, 12);
    STEP(c, d, a, b, w ^ d, 0x242070dbu, 17);
    STEP(b, c, d, a, w + 1u, 0xc1bdceeeu, 22);
    if (any((a ^ b) == (uint16)(target)))
      atomic_inc(count);
  }
}
