// OpenCL C sources of the clcpu_bench kernels. Every kernel is plain OpenCL
// C 1.2 except the work-group collective scan, which needs OpenCL C 3.0 with
// __opencl_c_work_group_collective_functions (USE_COLLECTIVES).
#ifndef CLCPU_BENCH_KERNELS_H
#define CLCPU_BENCH_KERNELS_H

namespace kernels {

inline const char *const Empty = R"CLC(
kernel void empty(void) {}
)CLC";

// enqueue_tree: each work-item of the parent enqueues one child of 64
// work-items on the default device queue (OpenCL C 2.0 6.13.17); the
// children write their parent's block of out.
inline const char *const EnqueueTree = R"CLC(
kernel void tree(global int *out, global int *status) {
  int p = get_global_id(0);
  status[p] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT,
                             ndrange_1D(64, 64), ^{
                               int c = get_global_id(0);
                               out[p * 64 + c] = p + c;
                             });
}
)CLC";

// cmdbuf_replay: one small step of a chain of launches.
inline const char *const CmdbufStep = R"CLC(
kernel void increment(global uint *x) { x[get_global_id(0)] += 1; }
)CLC";

inline const char *const Stream = R"CLC(
kernel void copy(global const float *restrict a, global float *restrict b) {
  size_t i = get_global_id(0);
  b[i] = a[i];
}

kernel void vadd(global const float *restrict a, global const float *restrict b,
                 global float *restrict c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

kernel void saxpy(global float *restrict y, global const float *restrict x,
                  float a) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
)CLC";

// All-pairs gravity: one work-item per body, 20 flops per interaction
// (the usual GPU Gems 3 convention).
inline const char *const NBody = R"CLC(
kernel void nbody(global const float4 *restrict pos, global float4 *restrict acc,
                  int n, float eps2) {
  int i = get_global_id(0);
  float4 p = pos[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int j = 0; j < n; ++j) {
    float4 q = pos[j];
    float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
    float r2 = dx * dx + dy * dy + dz * dz + eps2;
    float inv = rsqrt(r2);
    float s = q.w * inv * inv * inv;
    ax += dx * s;
    ay += dy * s;
    az += dz * s;
  }
  acc[i] = (float4)(ax, ay, az, 0.0f);
}
)CLC";

inline const char *const Sgemm = R"CLC(
// C = A * B, n x n row-major; one work-item per element of C.
kernel void sgemm_naive(int n, global const float *restrict A,
                        global const float *restrict B,
                        global float *restrict C) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}

#define TS 16
// The same with TS x TS tiles of A and B staged in local memory.
kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void sgemm_tiled(int n, global const float *restrict A,
                 global const float *restrict B, global float *restrict C) {
  local float As[TS][TS], Bs[TS][TS];
  int lc = get_local_id(0), lr = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n; t += TS) {
    As[lr][lc] = A[row * n + t + lc];
    Bs[lr][lc] = B[(t + lr) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k)
      acc += As[lr][k] * Bs[k][lc];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
)CLC";

// int8 matrix product, as quantized inference runs it: C (n x n ints) = A
// (n rows of K packed unsigned bytes) x B (K rows of n packed signed
// bytes), one work-item per output, accumulated with signed saturation.
// USE_DOT_PRODUCT: cl_khr_integer_dot_product's packed unsigned-by-signed
// dot_acc_sat; otherwise the same with uchar4 / char4 widened to int4, a
// multiply, a sum and add_sat (OpenCL C 1.2).
inline const char *const DotInt8 = R"CLC(
kernel void dot_int8(int K, global const uint *restrict A,
                     global const uint *restrict B, global int *restrict C) {
  int col = get_global_id(0), row = get_global_id(1), n = get_global_size(0);
  int acc = 0;
  for (int k = 0; k < K; ++k) {
    uint a = A[row * K + k], b = B[k * n + col];
#ifdef USE_DOT_PRODUCT
    acc = dot_acc_sat_4x8packed_us_int(a, b, acc);
#else
    int4 p = convert_int4(as_uchar4(a)) * convert_int4(as_char4(b));
    acc = add_sat(acc, p.x + p.y + p.z + p.w);
#endif
  }
  C[row * n + col] = acc;
}
)CLC";

inline const char *const Reduce = R"CLC(
#define WG 256
// Each work-item sums a grid-strided slice, then a local-memory tree
// reduction (8 barriers) leaves one partial sum per work-group.
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduce(global const float *restrict in, global float *restrict partial,
            int n) {
  local float s[WG];
  int lid = get_local_id(0);
  float acc = 0.0f;
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    acc += in[i];
  s[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int o = WG / 2; o > 0; o >>= 1) {
    if (lid < o)
      s[lid] += s[lid + o];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = s[0];
}

// Barrier stress: 2 * iters barriers per work-group, each round passing a
// value to the neighbouring work-item through local memory.
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void barriers(global int *out, int iters) {
  local int s[WG];
  int lid = get_local_id(0);
  int v = get_global_id(0);
  for (int k = 0; k < iters; ++k) {
    s[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = s[(lid + 1) % WG] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = v;
}
)CLC";

// Scans of ints. A work-group of WG items handles a chunk of WG * k
// consecutive elements, k consecutive ones per work-item: each item sums its
// k elements, the group scans those sums (collective or local memory), then
// each item writes its k exclusive prefixes. Three three-pass schemes:
// scan-then-add (scan_blocks, scan the chunk totals, add_offsets);
// reduce-then-scan (reduce_blocks, scan the totals, scan_blocks_from), which
// reads the data twice and writes it once instead of twice each; and the
// same keeping each work-item's sum (reduce_blocks_keep, scan the totals,
// scan_blocks_kept), so that the last pass reads its k elements once
// instead of twice (the second time from cache) for one more int per item
// written and read; and that last scheme pipelined over blocks of chunks
// (scan_pipelined).
inline const char *const Scan = R"CLC(
#define WG 256
#ifdef USE_COLLECTIVES
int group_scan(int x, local int *tmp, int *total) {
  int e = work_group_scan_exclusive_add(x);
  *total = work_group_broadcast(e + x, WG - 1);
  return e;
}
int group_sum(int x, local int *tmp) { return work_group_reduce_add(x); }
#else
// Hillis-Steele scan in local memory (double-buffered, 8 steps).
int group_scan(int x, local int *tmp, int *total) {
  int lid = get_local_id(0);
  local int *src = tmp, *dst = tmp + WG;
  src[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int o = 1; o < WG; o <<= 1) {
    int v = src[lid];
    if (lid >= o)
      v += src[lid - o];
    dst[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    local int *t = src;
    src = dst;
    dst = t;
  }
  int incl = src[lid];
  *total = src[WG - 1];
  barrier(CLK_LOCAL_MEM_FENCE); // tmp may be reused right after
  return incl - x;
}
// Tree reduction in local memory (8 steps).
int group_sum(int x, local int *tmp) {
  int lid = get_local_id(0);
  tmp[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int o = WG / 2; o > 0; o >>= 1) {
    if (lid < o)
      tmp[lid] += tmp[lid + o];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  int total = tmp[0];
  barrier(CLK_LOCAL_MEM_FENCE); // tmp may be reused right after
  return total;
}
#endif

// The sum of the work-item's k elements from base.
int item_sum(global const int *restrict in, int base, int n, int k) {
  int s = 0;
  for (int j = 0; j < k; ++j)
    if (base + j < n)
      s += in[base + j];
  return s;
}

// The work-item's k exclusive prefixes, the first one pre.
void item_prefixes(global const int *restrict in, global int *restrict out,
                   int base, int n, int k, int pre) {
  for (int j = 0; j < k; ++j)
    if (base + j < n) {
      int v = in[base + j];
      out[base + j] = pre;
      pre += v;
    }
}

// Scan-then-add pass 1 (and either scheme's pass 2): exclusive scan of each
// chunk into out, chunk totals into sums[group].
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void scan_blocks(global const int *restrict in, global int *restrict out,
                 global int *restrict sums, int n, int k) {
  local int tmp[2 * WG];
  int base = (get_group_id(0) * WG + get_local_id(0)) * k;
  int total;
  int pre = group_scan(item_sum(in, base, n, k), tmp, &total);
  item_prefixes(in, out, base, n, k, pre);
  if (get_local_id(0) == 0)
    sums[get_group_id(0)] = total;
}

// Scan-then-add pass 3: add the scanned chunk totals.
kernel void add_offsets(global int *out, global const int *offsets, int chunk,
                        int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] += offsets[i / chunk];
}

// Reduce-then-scan pass 1: chunk totals into sums[group].
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduce_blocks(global const int *restrict in, global int *restrict sums,
                   int n, int k) {
  local int tmp[WG];
  int base = (get_group_id(0) * WG + get_local_id(0)) * k;
  int total = group_sum(item_sum(in, base, n, k), tmp);
  if (get_local_id(0) == 0)
    sums[get_group_id(0)] = total;
}

// Reduce-then-scan pass 3: exclusive scan of each chunk into out, starting
// from the chunk's scanned total.
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void scan_blocks_from(global const int *restrict in, global int *restrict out,
                      global const int *restrict offsets, int n, int k) {
  local int tmp[2 * WG];
  int base = (get_group_id(0) * WG + get_local_id(0)) * k;
  int total;
  int pre = group_scan(item_sum(in, base, n, k), tmp, &total);
  item_prefixes(in, out, base, n, k, pre + offsets[get_group_id(0)]);
}

// Reduce-then-scan (sums kept) pass 1: each work-item's sum into
// item_sums[global id], chunk totals into sums[group].
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduce_blocks_keep(global const int *restrict in,
                        global int *restrict item_sums,
                        global int *restrict sums, int n, int k) {
  local int tmp[WG];
  int base = (get_group_id(0) * WG + get_local_id(0)) * k;
  int s = item_sum(in, base, n, k);
  item_sums[get_global_id(0)] = s;
  int total = group_sum(s, tmp);
  if (get_local_id(0) == 0)
    sums[get_group_id(0)] = total;
}

// Reduce-then-scan (sums kept) pass 3: as scan_blocks_from, the group scan
// over the kept sums.
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void scan_blocks_kept(global const int *restrict in, global int *restrict out,
                      global const int *restrict item_sums,
                      global const int *restrict offsets, int n, int k) {
  local int tmp[2 * WG];
  int base = (get_group_id(0) * WG + get_local_id(0)) * k;
  int total;
  int pre = group_scan(item_sums[get_global_id(0)], tmp, &total);
  item_prefixes(in, out, base, n, k, pre + offsets[get_group_id(0)]);
}

// Reduce-then-scan (sums kept), pipelined over blocks of chunks: launch j
// runs pass 3 of block j - 1 (first3, count3 chunks) on the even groups and
// pass 1 of block j (first1, count1) on the odd ones; pass 2 for block j
// runs between launches j and j + 1. A core then alternates a chunk it reads
// and writes with one it only reads, and the memory system sees both kinds
// of traffic at once instead of a read-only pass followed by a copy.
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void scan_pipelined(global const int *restrict in, global int *restrict out,
                    global int *restrict item_sums, global int *restrict sums,
                    global const int *restrict offsets, int n, int k,
                    int first3, int count3, int first1, int count1) {
  local int tmp[2 * WG];
  int g = get_group_id(0) >> 1, lid = get_local_id(0);
  if ((get_group_id(0) & 1) == 0) {
    if (g >= count3)
      return;
    int c = first3 + g;
    int total;
    int pre = group_scan(item_sums[c * WG + lid], tmp, &total);
    item_prefixes(in, out, (c * WG + lid) * k, n, k, pre + offsets[c]);
  } else {
    if (g >= count1)
      return;
    int c = first1 + g;
    int s = item_sum(in, (c * WG + lid) * k, n, k);
    item_sums[c * WG + lid] = s;
    int total = group_sum(s, tmp);
    if (lid == 0)
      sums[c] = total;
  }
}

// Single-pass scan with decoupled look-back (OpenCL 1.2 atomics). Groups
// take their chunk index from an atomic counter, so a group only ever waits
// for chunks whose groups already started: no deadlock whatever order the
// implementation runs work-groups in. flags[c]: 0 nothing yet, 1 aggs[c]
// (chunk total) published, 2 incls[c] (inclusive prefix) published.
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void scan_lookback(global const int *restrict in, global int *restrict out,
                   int n, int k, volatile global int *counter,
                   volatile global int *flags, volatile global int *aggs,
                   volatile global int *incls) {
  local int tmp[2 * WG];
  local int chunk_l, prefix_l;
  int lid = get_local_id(0);
  if (lid == 0)
    chunk_l = atomic_inc(counter);
  barrier(CLK_LOCAL_MEM_FENCE);
  int c = chunk_l;
  int base = (c * WG + lid) * k;
  int total;
  int pre = group_scan(item_sum(in, base, n, k), tmp, &total);
  if (lid == 0) {
    int prefix = 0;
    if (c == 0) {
      incls[0] = total;
      write_mem_fence(CLK_GLOBAL_MEM_FENCE);
      atomic_xchg(&flags[0], 2);
    } else {
      aggs[c] = total;
      write_mem_fence(CLK_GLOBAL_MEM_FENCE);
      atomic_xchg(&flags[c], 1);
      int j = c - 1;
      for (;;) {
        int f = atomic_or(&flags[j], 0);
        if (f == 0)
          continue;
        read_mem_fence(CLK_GLOBAL_MEM_FENCE);
        if (f == 2) {
          prefix += incls[j];
          break;
        }
        prefix += aggs[j];
        --j;
      }
      incls[c] = prefix + total;
      write_mem_fence(CLK_GLOBAL_MEM_FENCE);
      atomic_xchg(&flags[c], 2);
    }
    prefix_l = prefix;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  item_prefixes(in, out, base, n, k, pre + prefix_l);
}
)CLC";

// Stream compaction with sub-group ballots (cl_khr_subgroup_ballot,
// OpenCL C 3.0 6.15.19.5): each sub-group counts its kept values, one
// elected work-item reserves their places with one atomic, and each kept
// value goes to its rank among them. Needs -cl-std=CL3.0.
inline const char *const Compact = R"CLC(
kernel void compact(global const int *in, global int *out,
                    volatile global int *count) {
  size_t g = get_global_id(0);
  int v = in[g];
  int keep = v & 1;
  uint4 b = sub_group_ballot(keep);
  uint rank = sub_group_ballot_exclusive_scan(b);
  int base = 0;
  if (sub_group_elect())
    base = atomic_add(count, (int)sub_group_ballot_bit_count(b));
  base = sub_group_broadcast(base, 0);
  if (keep)
    out[base + rank] = v;
}
)CLC";

inline const char *const Math = R"CLC(
kernel void math(global const float *restrict x, global float *restrict y) {
  size_t i = get_global_id(0);
  float v = x[i];
  y[i] = sin(v) + exp(v * 0.25f) + log(v) + pow(v, 1.5f);
}
)CLC";

// The math row in half precision (cl_khr_fp16): stored as half, computed
// by clcpu in float lanes.
inline const char *const MathHalf = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void math_half(global const half *restrict x, global half *restrict y) {
  size_t i = get_global_id(0);
  half v = x[i];
  y[i] = sin(v) + exp(v * 0.25h) + log(v) + pow(v, 1.5h);
}
)CLC";

// A float histogram: 256 bins, each work-item adds its value to the bin its
// index hashes to. HistFloatAtomics uses cl_ext_float_atomics (OpenCL C
// 3.0); HistCas is what a program without the extension writes, a
// compare-exchange loop on the value's bits with the OpenCL C 1.2 atomics.
inline const char *const HistFloatAtomics = R"CLC(
kernel void hist(global const float *restrict x,
                 volatile global atomic_float *bins) {
  uint i = (uint)get_global_id(0);
  atomic_fetch_add_explicit(&bins[(i * 2654435761u) >> 24], x[i],
                            memory_order_relaxed, memory_scope_device);
}
)CLC";

inline const char *const HistCas = R"CLC(
kernel void hist(global const float *restrict x, volatile global uint *bins) {
  uint i = (uint)get_global_id(0);
  volatile global uint *b = &bins[(i * 2654435761u) >> 24];
  float v = x[i];
  uint old = *b, seen;
  while ((seen = atomic_cmpxchg(b, old, as_uint(as_float(old) + v))) != old)
    old = seen;
}
)CLC";

// pipe_stream (OpenCL C 3.0 with __opencl_c_pipes): a producer copies ints
// into a pipe and a consumer copies them out, both running at once. Each
// work-group moves its packets with one reservation (the work-group
// reservation functions, 6.15.16.3); when the pipe is full (empty) the group
// tries again, so the pipe's capacity bounds how far the producer runs
// ahead.
inline const char *const PipeStream = R"CLC(
kernel void produce(global const int *restrict src, write_only pipe int p) {
  reserve_id_t r;
  do
    r = work_group_reserve_write_pipe(p, get_local_size(0));
  while (!is_valid_reserve_id(r));
  write_pipe(p, r, get_local_id(0), &src[get_global_id(0)]);
  work_group_commit_write_pipe(p, r);
}
kernel void consume(read_only pipe int p, global int *restrict dst) {
  reserve_id_t r;
  do
    r = work_group_reserve_read_pipe(p, get_local_size(0));
  while (!is_valid_reserve_id(r));
  read_pipe(p, r, get_local_id(0), &dst[get_global_id(0)]);
  work_group_commit_read_pipe(p, r);
}
)CLC";

// Images (OpenCL C 6.15.15), one work-item per output pixel.
// image_copy: read_imageui / write_imageui without a sampler.
// image_bilinear: a resize through a linear, normalized sampler, each pixel
// sampled at its centre.
// image_nearest: a resize through a nearest, unnormalized sampler with
// integer coordinates (read_imagef of an 8-bit normalized image).
inline const char *const Images = R"CLC(
kernel void image_copy(read_only image2d_t src, write_only image2d_t dst) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imageui(dst, p, read_imageui(src, p));
}

kernel void image_bilinear(read_only image2d_t src, sampler_t s,
                           write_only image2d_t dst, float2 inv_size) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float2 c = (convert_float2(p) + 0.5f) * inv_size;
  write_imagef(dst, p, read_imagef(src, s, c));
}

kernel void image_nearest(read_only image2d_t src, sampler_t s,
                          write_only image2d_t dst) {
  int x = get_global_id(0), y = get_global_id(1);
  int2 q = (int2)(x * get_image_width(src) / get_image_width(dst),
                  y * get_image_height(src) / get_image_height(dst));
  write_imagef(dst, (int2)(x, y), read_imagef(src, s, q));
}
)CLC";

} // namespace kernels

#endif // CLCPU_BENCH_KERNELS_H
