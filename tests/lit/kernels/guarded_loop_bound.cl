// OpenCL 3.0 API spec 5.10 (compiler/passes/GuardedLoopBound.cpp): a loop
// guarded by a bound that only goes from true to false (base + j < n) runs
// min(k, n - base) iterations without the guard: entered only if the first
// guard holds, its count an umin, no load masked by the guard any more. A
// guard that turns true later (j >= skip) is not a prefix: left as it was.
//
// RUN: %clcpu-opt -passes=clcpu-kernels -mtriple=x86_64-unknown-linux-gnu \
// RUN:   -mcpu=znver4 -mattr=+avx512f,+avx2,+fma %s | FileCheck %s

// CHECK-LABEL: define void @wg_chunk_sum(
// CHECK-NOT:   masked.load
// CHECK:       call i{{32|64}} @llvm.umin.i{{32|64}}(
// CHECK-NOT:   masked.load
// CHECK:       %guarded.enter = icmp
// CHECK-NOT:   masked.load
// CHECK:       {{^}}}{{$}}
kernel void chunk_sum(global const int *in, global int *out, int n, int k) {
  int base = get_global_id(0) * k;
  int s = 0;
  for (int j = 0; j < k; ++j)
    if (base + j < n)
      s += in[base + j];
  if (get_local_id(0) == 0) // (keeps the work-item loop scalar)
    s = -s;
  out[get_global_id(0)] = s;
}

// The scan bench's look-back pass, shortened: the chunk from a counter,
// each work-item's sum, a local-memory scan of the sums, each work-item's
// prefixes. With a reqd_work_group_size of (N, 1, 1) the group's y and z
// loops fold away, and the sum loop reached the pass without dedicated
// exits. Both loops, the sum and the prefixes, are guarded.
// CHECK-LABEL: define void @wg_chunk_scan(
// CHECK-DAG:   %guarded.enter = icmp
// CHECK-DAG:   %guarded.enter{{[0-9]+}} = icmp
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void chunk_scan(global const int *in, global int *out,
                volatile global int *counter, int n, int k) {
  local int t[128];
  local int chunk;
  int lid = get_local_id(0);
  if (lid == 0)
    chunk = atomic_inc(counter);
  barrier(CLK_LOCAL_MEM_FENCE);
  int base = (chunk * 64 + lid) * k;
  int s = 0;
  for (int j = 0; j < k; ++j)
    if (base + j < n)
      s += in[base + j];
  local int *src = t, *dst = t + 64;
  src[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int o = 1; o < 64; o <<= 1) {
    int v = src[lid];
    if (lid >= o)
      v += src[lid - o];
    dst[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    local int *x = src;
    src = dst;
    dst = x;
  }
  int pre = src[lid] - s;
  for (int j = 0; j < k; ++j)
    if (base + j < n) {
      int v = in[base + j];
      out[base + j] = pre;
      pre += v;
    }
}

// CHECK-LABEL: define void @wg_suffix_sum(
// CHECK-NOT:   guarded
// CHECK:       {{^}}}{{$}}
kernel void suffix_sum(global const int *in, global int *out, int skip,
                       int k) {
  int base = get_global_id(0) * k;
  int s = 0;
  for (int j = 0; j < k; ++j)
    if (j >= skip)
      s += in[base + j];
  if (get_local_id(0) == 0)
    s = -s;
  out[get_global_id(0)] = s;
}
