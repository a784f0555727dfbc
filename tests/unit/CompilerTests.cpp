// Unit tests of the kernel compiler (OpenCL 3.0 API spec, 5.8 "Program
// Objects": building; the work-group functions it generates).

#include "IrText.h"
#include "compiler/Binary.h"
#include "compiler/Cache.h"
#include "compiler/Compiler.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace clcpu;
using namespace clcpu::compiler;
using clcpu::test::functionText;
using clcpu::test::has;

namespace {
/// A grid-stride loop before a barrier (compiler/LoopSyncPoints.cpp): the
/// loop's region stops at its sync point or at the barrier depending on
/// each work-item's own index.
const char *GridStride = R"(
kernel void grid(global const float *in, global float *out, int n) {
  local float s[64];
  float acc = 0.0f;
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    acc += in[i];
  s[get_local_id(0)] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[0];
}
)";

/// Whether programs are compiled for AVX-512 here (scatters, cheap masked
/// stores).
bool hostHasAvx512() {
  const std::vector<std::string> &F = hostTargetFeatures();
  return std::find(F.begin(), F.end(), "+avx512f") != F.end();
}

const char *VAdd = R"(
kernel void vadd(global const float *a, global const float *b,
                 global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
)";

} // namespace

TEST_CASE("5.8.6: build options are parsed and checked", "[compiler]") {
  Options O;
  std::string Err;
  CHECK(parseOptions("", O, Err));
  CHECK(O.ClStd == "CL1.2");
  CHECK(parseOptions("-D N=4 -DM -I /tmp -Ifoo -w -Werror -cl-std=CL3.0 "
                     "-cl-mad-enable -cl-kernel-arg-info -cl-fast-relaxed-math",
                     O, Err));
  CHECK(O.ClStd == "CL3.0");
  CHECK(O.KernelArgInfo);
  CHECK(std::find(O.ClangArgs.begin(), O.ClangArgs.end(), "-DN=4") !=
        O.ClangArgs.end());
  CHECK(std::find(O.ClangArgs.begin(), O.ClangArgs.end(), "-I/tmp") !=
        O.ClangArgs.end());
  CHECK_FALSE(parseOptions("-cl-no-such-option", O, Err));
  CHECK(Err.find("-cl-no-such-option") != std::string::npos);
  CHECK_FALSE(parseOptions("-cl-std=CL9.9", O, Err));
  CHECK_FALSE(parseOptions("-D", O, Err));
  CHECK(parseOptions("-D \"X=1 + 2\"", O, Err));
  CHECK(O.ClangArgs.back() == "-DX=1 + 2");
}

TEST_CASE("5.10: vadd's work-group function is vectorized for the host",
          "[compiler]") {
  std::string Log;
  std::string IR = optimizedIR(VAdd, "", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  std::string WG = functionText(IR, "wg_vadd");
  REQUIRE_FALSE(WG.empty());
  INFO(WG);
  // The x-loop became vector loads, adds and stores of floats.
  std::regex Vec("fadd <(4|8|16) x float>");
  CHECK(std::regex_search(WG, Vec));
  // No work-item function is left as a call.
  CHECK(IR.find("get_global_id") == std::string::npos);
}

TEST_CASE("6.15.2: a work-item loop calling sin, exp and pow is vectorized "
          "into calls of SLEEF's SIMD functions",
          "[compiler]") {
  const char *Src = R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void f(global const float *x, global const float *y, global float *o) {
  size_t i = get_global_id(0);
  o[i] = sin(x[i]) + exp(y[i]) * pow(x[i], y[i]);
}
kernel void d(global const double *x, global double *o) {
  size_t i = get_global_id(0);
  o[i] = cos(x[i]) + log(x[i]);
}
)";
  std::string Log;
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  std::string F = functionText(IR, "wg_f"), D = functionText(IR, "wg_d");
  INFO(F);
  INFO(D);
  // Packed calls such as Sleef_sinf16_u10avx512f(<16 x float>) or
  // Sleef_sinf4_u10sse4(<4 x float>), whichever the host CPU runs.
  for (const char *Fn : {"sin", "exp", "pow"}) {
    std::regex Call(std::string("call <(4|8|16) x float> @Sleef_") + Fn +
                    "f(4|8|16)_u10[a-z0-9]+\\(<(4|8|16) x float>");
    CHECK(std::regex_search(F, Call));
  }
  for (const char *Fn : {"cos", "log"}) {
    std::regex Call(std::string("call <(2|4|8) x double> @Sleef_") + Fn +
                    "d(2|4|8)_u10[a-z0-9]+\\(<(2|4|8) x double>");
    CHECK(std::regex_search(D, Call));
  }
  // -cl-fast-relaxed-math (7.4, table 38): the 3.5-ulp float sin; exp and
  // pow, whose bounds stay tight, and double keep the 1-ulp functions.
  std::string Relaxed = optimizedIR(Src, "-cl-fast-relaxed-math", Log);
  std::string RF = functionText(Relaxed, "wg_f");
  INFO(RF);
  CHECK(std::regex_search(
      RF, std::regex("call <(4|8|16) x float> @Sleef_sinf(4|8|16)_u35")));
  CHECK(RF.find("Sleef_sinf16_u10") == std::string::npos);
  CHECK(std::regex_search(
      RF, std::regex("call <(4|8|16) x float> @Sleef_expf(4|8|16)_u10")));
  CHECK(std::regex_search(functionText(Relaxed, "wg_d"),
                          std::regex("@Sleef_cosd(2|4|8)_u10")));
}

TEST_CASE("5.10: kernels with loops are vectorized across work-items "
          "(nbody, naive sgemm)",
          "[compiler]") {
  const char *Src = R"(
kernel void nbody(global const float4 *pos, global float4 *acc, int n) {
  float4 p = pos[get_global_id(0)], a = (float4)(0.0f);
  for (int j = 0; j < n; ++j) {
    float4 d = pos[j] - p;
    float inv = rsqrt(d.x * d.x + d.y * d.y + d.z * d.z + 0.01f);
    a += pos[j].w * inv * inv * inv * d;
  }
  acc[get_global_id(0)] = a;
}
kernel void sgemm(global const float *A, global const float *B,
                  global float *C, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  float s = 0.0f;
  for (int k = 0; k < n; ++k)
    s += A[row * n + k] * B[k * n + col];
  C[row * n + col] = s;
}
)";
  std::string Log;
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  std::regex PackedMath(
      "(fmul|fmuladd\\.v[0-9]+f32\\()[^\\n]*<(4|8|16) x float>");
  std::string NBody = functionText(IR, "wg_nbody");
  INFO(NBody);
  // The interaction loop runs on vectors of work-items ...
  CHECK(std::regex_search(NBody, PackedMath));
  // ... and pos[j], the same for every work-item, is a scalar load, not a
  // gather of one address.
  std::regex GatherInLoop("@llvm\\.masked\\.gather");
  size_t Gathers = 0;
  for (auto It = std::sregex_iterator(NBody.begin(), NBody.end(), GatherInLoop);
       It != std::sregex_iterator(); ++It)
    ++Gathers;
  CHECK(Gathers <= 4); // only p = pos[i], outside the j loop
  std::string Sgemm = functionText(IR, "wg_sgemm");
  INFO(Sgemm);
  CHECK(std::regex_search(Sgemm, PackedMath));
  // B[k * n + col] of adjacent work-items: one vector load, no gather.
  CHECK(std::regex_search(Sgemm, std::regex("load <(4|8|16) x float>")));
  CHECK(Sgemm.find("masked.gather") == std::string::npos);
}

TEST_CASE(
    "5.10 (compiler/passes/GuardedLoopBound.cpp): a loop guarded by a bound "
    "that only goes from true to false runs min(k, n - base) "
    "iterations without the guard",
    "[compiler]") {
  const char *Src = R"(
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
// exits.
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
)";
  std::string Log;
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  std::string Chunk = functionText(IR, "wg_chunk_sum");
  INFO(Chunk);
  // Entered only if the first guard holds; the count is the smaller of k
  // and n - base; no load is masked by the guard any more.
  CHECK(has(Chunk, "%guarded.enter"));
  CHECK(std::regex_search(Chunk, std::regex("@llvm\\.umin\\.i(32|64)\\(")));
  CHECK_FALSE(has(Chunk, "masked.load"));
  // Both loops of chunk_scan: the sum and the prefixes.
  std::string Scan = functionText(IR, "wg_chunk_scan");
  INFO(Scan);
  CHECK(has(Scan, "%guarded.enter = "));
  CHECK(std::regex_search(Scan, std::regex("%guarded\\.enter[0-9]+ = ")));
  // A guard that turns true later is not a prefix: left as it was.
  std::string Suffix = functionText(IR, "wg_suffix_sum");
  INFO(Suffix);
  CHECK_FALSE(has(Suffix, "guarded"));
}

TEST_CASE(
    "5.10 (compiler/passes/ScanLoopVectorize.cpp): a loop that writes out a "
    "running sum runs a vector of iterations at a time; a reduction, "
    "a float sum without reassociation and a division are left alone",
    "[compiler]") {
  // Guarded like the scan bench's loops: the guard keeps the work-item
  // loop scalar (GuardedLoopBound then drops it from the inner loop).
  const char *Src = R"(
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
kernel void scan_int(global const int *restrict in, global int *restrict out,
                     global int *restrict sums, int n, int k) { BODY(int) }
kernel void scan_float(global const float *restrict in,
                       global float *restrict out,
                       global float *restrict sums, int n, int k) {
  BODY(float)
}
kernel void reduce(global const int *restrict in, global int *restrict sums,
                   int n, int k) {
  int base = get_global_id(0) * k, s = 0;
  for (int j = 0; j < k; ++j)
    if (base + j < n)
      s += in[base + j];
  sums[get_global_id(0)] = s;
}
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
)";
  std::string Log;
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  std::string Int = functionText(IR, "wg_scan_int");
  INFO(Int);
  // Full vectors, then masked half vectors; lanes shifted in from the
  // identity (zero) for the running sum.
  CHECK(has(Int, "scan.vec:"));
  CHECK(has(Int, "scan.tail:"));
  // (Two searches, not one regex across lines: libstdc++'s recursive
  // matcher overflows the stack on `(.*\n)*` over a whole function.)
  std::smatch Full;
  REQUIRE(std::regex_search(Int, Full, std::regex("store <(8|16) x i32>")));
  std::string AfterFull = Full.suffix();
  CHECK(std::regex_search(AfterFull, std::regex("masked\\.store\\.v(4|8)i32")));
  CHECK(std::regex_search(
      Int, std::regex("shufflevector <(8|16) x i32> %[^,]+, <(8|16) x i32> "
                      "(zeroinitializer|<i32 0)")));
  // The running sum travels between vector iterations splat across the
  // lanes, the next one the incoming splat plus the broadcast last lane of
  // this vector's scan: one add on the loop-carried path, no extract and
  // re-broadcast through a general register.
  CHECK(std::regex_search(Int, std::regex("scan.acc = phi <(8|16) x i32>")));
  // The lanes are scanned within each 128-bit block, then the blocks'
  // totals (each broadcast within its block; lanes no later step reads may
  // be poison) across blocks.
  CHECK(std::regex_search(
      Int, std::regex("scan.blocks[0-9]* = shufflevector <(8|16) x i32> "
                      "%[^,]+, <(8|16) x i32> (poison|undef), <(8|16) x i32> "
                      "<i32 3, i32 3, i32 3, i32 3")));
  // An integer sum's value before each lane: the value after it less the
  // lane's own operand, no second cross-lane shift.
  CHECK(std::regex_search(Int,
                          std::regex("scan.excl[0-9]* = sub <(8|16) x i32>")));
  CHECK(std::regex_search(
      Int, std::regex("scan.total = shufflevector <(8|16) x i32> %[^,]+, "
                      "<(8|16) x i32> (poison|undef), <(8|16) x i32> "
                      "<i32 (7|15), i32 (7|15)")));
  // Not a scan: the loop vectorizer's reduction, nothing of this pass.
  std::string Reduce = functionText(IR, "wg_reduce");
  INFO(Reduce);
  CHECK_FALSE(has(Reduce, "scan."));
  CHECK(has(Reduce, "llvm.vector.reduce.add"));
  // A float sum in another order rounds differently; 1000 / v would
  // divide by what lanes past the end load.
  CHECK_FALSE(has(functionText(IR, "wg_scan_float"), "scan."));
  CHECK_FALSE(has(functionText(IR, "wg_scan_div"), "scan."));
  // With reassociation allowed the float sum is vectorized too.
  std::string Fast = optimizedIR(Src, "-cl-fast-relaxed-math", Log);
  CHECK(has(functionText(Fast, "wg_scan_float"), "scan.vec:"));
}

TEST_CASE("5.10 (compiler/WorkItemLoops.cpp): a work-item loop "
          "whose inner loop walks each work-item's own consecutive elements "
          "stays scalar, its inner loops vectorized; one whose inner loop "
          "reads across work-items is vectorized across them",
          "[compiler]") {
  const char *Src = R"(
kernel void own_rows(global const int *restrict in, global int *restrict out,
                     global int *restrict sums, int k) {
  int base = get_global_id(0) * k;
  int s = 0;
  for (int j = 0; j < k; ++j)
    s += in[base + j];
  int pre = 0;
  for (int j = 0; j < k; ++j) {
    int v = in[base + j];
    out[base + j] = pre;
    pre += v;
  }
  sums[get_global_id(0)] = s + pre;
}
kernel void columns(global const int *restrict in, global int *restrict out,
                    int k, int w) {
  int pre = 0;
  for (int j = 0; j < k; ++j) {
    int v = in[j * w + get_global_id(0)];
    out[j * w + get_global_id(0)] = pre;
    pre += v;
  }
}
)";
  std::string Log;
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  std::string Own = functionText(IR, "wg_own_rows");
  INFO(Own);
  // Per work-item: the sum a vector reduction, the running sum in vector
  // lanes; no gather or scatter of stride k.
  CHECK_FALSE(has(Own, "masked.gather"));
  CHECK_FALSE(has(Own, "masked.scatter"));
  CHECK(has(Own, "llvm.vector.reduce.add"));
  CHECK(has(Own, "scan.vec:"));
  // Across work-items: adjacent work-items' elements are adjacent.
  std::string Cols = functionText(IR, "wg_columns");
  INFO(Cols);
  CHECK(std::regex_search(Cols, std::regex("load <(8|16) x i32>")));
  CHECK(std::regex_search(Cols, std::regex("store <(8|16) x i32>")));
  CHECK_FALSE(has(Cols, "scan."));
}

TEST_CASE(
    "5.10 (compiler/passes/BlockedStores.cpp): a work-item loop that stores "
    "each work-item's own S consecutive elements (S a constant, the "
    "inner loop unrolled) stays scalar; float4 stores do not count",
    "[compiler]") {
  const char *Src = R"(
#define S 4
kernel void blocks(global const int *restrict in, global int *restrict out) {
  int b = get_global_id(0) * S, pre = 0;
  for (int j = 0; j < S; ++j) {
    int v = in[b + j];
    out[b + j] = pre;
    pre += v;
  }
}
kernel void quads(global const float4 *restrict in,
                  global float4 *restrict out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * 2.0f + 1.0f;
}
)";
  std::string Log;
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  // Across work-items each of the four stores would be lanes 4 elements
  // apart (scatters or an interleaved group); scalar they are adjacent.
  std::string Blocks = functionText(IR, "wg_blocks");
  INFO(Blocks);
  CHECK_FALSE(has(Blocks, "masked.scatter"));
  CHECK_FALSE(std::regex_search(Blocks, std::regex("<(8|16|32|64) x i32>")));
  // float4 stores are split only after the check: still widened across
  // work-items.
  std::string Quads = functionText(IR, "wg_quads");
  INFO(Quads);
  CHECK(std::regex_search(Quads, std::regex("store <(32|64) x float>")));
}

TEST_CASE(
    "5.10 (compiler/passes/RuntimeConsecutiveGathers.cpp): gathers adjacent "
    "or of one address only at run time check their lanes first",
    "[compiler]") {
  const char *Src = R"(
kernel void neighbour(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  out[i] = in[(i + 1) % n];
}
kernel void offsets(global int *out, global const int *off, int chunk) {
  int i = get_global_id(0);
  out[i] += off[i / chunk];
}
kernel void scatter(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  out[(i + 1) % n] = in[i];
}
kernel void ring(global const int *in, global int *out) {
  int i = get_global_id(0);
  out[i] = in[(i + 1) % 256];
}
)";
  std::string Log;
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  // The gather stays for lanes that wrap; a vector load from lane 0's
  // address serves the vectors whose lanes are adjacent.
  std::string N = functionText(IR, "wg_neighbour");
  INFO(N);
  CHECK(has(N, "%lanes.adjacent = icmp eq i"));
  CHECK(has(N, "@llvm.masked.gather"));
  CHECK(std::regex_search(
      N, std::regex("= load <(4|8|16) x i32>, ptr %lane0\\.addr")));
  // A power-of-two modulus whose dividend steps through the vector loop:
  // the loop counts down the vectors left before lane 0's index wraps and
  // carries that index (in the address's type) from vector to vector; the
  // count and index are computed from the dividend only before the loop
  // and after a wrap (lane 0's remainder at most M - N, the dividend
  // non-negative for srem, then (M - N - index) / N + 1 vectors). The
  // vector of indices is built only on the gather's path.
  std::string Ring = functionText(IR, "wg_ring");
  INFO(Ring);
  CHECK(has(Ring, "%countdown.left = phi i32"));
  CHECK(std::regex_search(Ring,
                          std::regex("%countdown\\.index[0-9]* = phi i64")));
  CHECK(std::regex_search(Ring,
                          std::regex("icmp (eq|ne) i32 %countdown\\.left, 0")));
  CHECK(std::regex_search(
      Ring, std::regex("%lane0\\.addr = getelementptr inbounds i32, ptr "
                       "%[^,]+, i64 %countdown\\.index")));
  CHECK(std::regex_search(
      Ring, std::regex("%countdown\\.index[0-9]* = and i32 %[^,]+, 255")));
  // The vector loop runs as many work-items as a sub-group holds (512-bit
  // vectors on AVX-512: 241 = 256 - 16 + 1; 249 with 8 lanes on AVX2).
  std::string Bound =
      std::to_string(256 - clcpu::compiler::hostSubGroupSize() + 1);
  CHECK(std::regex_search(Ring,
                          std::regex("icmp ult i32 %countdown\\.index[0-9]*, " +
                                     Bound + "\n.*icmp sgt i32 %[^,]+, -1")));
  // LLVM may add a narrower epilogue loop after it, where the generic
  // check stays; the main loop has none.
  CHECK_FALSE(has(Ring.substr(0, Ring.find("vec.epilog.ph:")),
                  "%lanes.adjacent = icmp eq i"));
  CHECK(has(Ring, "@llvm.masked.gather"));
  // The vector that wraps is two masked loads, from lane 0's
  // address and M elements below it (the gather stays for negative srem
  // dividends), and the countdown loop runs 4 vectors per pass.
  CHECK(std::regex_search(Ring,
                          std::regex("%wrap\\.lanes = call <(4|8|16) x i32> "
                                     "@llvm\\.masked\\.load")));
  CHECK(std::regex_search(
      Ring, std::regex("getelementptr i8, ptr %lane0\\.addr, i64 -1024")));
  CHECK(has(Ring, "%lane0.addr.3 = "));
  // off[i / chunk]: one scalar load and a broadcast when all lanes agree.
  std::string O = functionText(IR, "wg_offsets");
  INFO(O);
  CHECK(has(O, "%lanes.same = icmp eq i"));
  CHECK(has(O, "= load i32, ptr %lane0.addr"));
  // A scatter becomes a vector store when its lanes are adjacent. Only
  // AVX-512 has scatter instructions: on AVX2 the vectorizer stores each
  // lane on its own and there is no scatter to check.
  if (!hostHasAvx512())
    return;
  std::string S = functionText(IR, "wg_scatter");
  INFO(S);
  CHECK(has(S, "@llvm.masked.scatter"));
  CHECK(std::regex_search(
      S, std::regex("store <(4|8|16) x i32> [^,]+, ptr %lane0\\.addr")));
}

TEST_CASE("6.13.8 (barrier fast path, compiler/regions/): a "
          "kernel with barriers becomes one vectorized work-item loop per "
          "region",
          "[compiler]") {
  const char *Src = R"(
kernel void rev(global const float *in, global float *out, local float *s) {
  size_t l = get_local_id(0), n = get_local_size(0);
  float v = in[get_global_id(0)] * 3.0f;
  s[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[n - 1 - l] + v;
}
kernel void scan(global const int *in, global int *out) {
  size_t g = get_global_id(0);
  out[g] = work_group_scan_inclusive_add(in[g]);
}
)";
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Src, "-cl-std=CL2.0", Log, P) == CL_SUCCESS);
  for (const KernelInfo &K : P->Kernels) {
    INFO(K.Name << ": " << K.Path);
    CHECK_FALSE(K.PerWorkItem);
    CHECK(K.RegionScratch >= 24);
    CHECK(K.Path.rfind("barrier regions: 2 regions", 0) == 0);
  }
  std::string IR = optimizedIR(Src, "-cl-std=CL2.0", Log);
  INFO(Log);
  std::string Rev = functionText(IR, "wg_rev");
  INFO(Rev);
  // Before the barrier: v = in[i] * 3 for a vector of work-items, stored to
  // the scratch; after it: reloaded and added, again vectors.
  CHECK(std::regex_search(Rev, std::regex("fmul <(4|8|16) x float>")));
  CHECK(std::regex_search(Rev, std::regex("fadd <(4|8|16) x float>")));
  CHECK(std::regex_search(Rev, std::regex("store <(4|8|16) x float>")));
  // No fiber: nothing is called through the work-group context.
  CHECK(Rev.find("call void %") == std::string::npos);
  std::string Scan = functionText(IR, "wg_scan");
  INFO(Scan);
  // The scan is one call between the regions, not one per work-item.
  CHECK(Scan.find("@scan.collective") != std::string::npos);
  CHECK(std::regex_search(Scan, std::regex("load <(4|8|16) x i32>")));
}

TEST_CASE("5.9.3 (compiler/WorkGroupFunction.cpp): dimensions that "
          "reqd_work_group_size sets to 1 are constants in the work-group "
          "function, not loads of the local size",
          "[compiler]") {
  const char *Body = R"(
  local int s[64];
  int lid = get_local_id(0);
  int v = get_global_id(0);
  for (int k = 0; k < iters; ++k) {
    s[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = s[(lid + 1) % 64] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = v;
}
)";
  std::string Src =
      std::string("kernel __attribute__((reqd_work_group_size(64, 1, 1)))\n"
                  "void ring_reqd(global int *out, int iters) {") +
      Body + "kernel void ring_any(global int *out, int iters) {" + Body +
      "kernel void copy_reqd(global int *out) "
      "__attribute__((reqd_work_group_size(8, 1, 1))) {\n"
      "  out[get_global_id(0)] += 1;\n}\n";
  std::string Log;
  std::string IR = optimizedIR(Src.c_str(), "", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  // WorkGroupContext::LocalSize[1] and [2]: bytes 32 and 40 of the context
  // (the work-group function's second argument).
  std::regex YZ("getelementptr inbounds i8, ptr %1, i64 (32|40)\n");
  std::string Any = functionText(IR, "wg_ring_any");
  INFO(Any);
  CHECK(std::regex_search(Any, YZ));
  // Barrier regions (the loops and the state slots' addresses) and a
  // barrier-free kernel alike.
  for (const char *Name : {"wg_ring_reqd", "wg_copy_reqd"}) {
    std::string F = functionText(IR, Name);
    INFO(F);
    CHECK_FALSE(std::regex_search(F, YZ));
    CHECK(has(F, "getelementptr inbounds i8, ptr %1, i64 24"));
  }
}

TEST_CASE("cl_khr_subgroups (compiler/WorkGroupFunction.cpp, "
          "subGroupQuery): the sub-group size is a constant, so the "
          "sub-group local id and id are a mask and a shift, not a division "
          "by WorkGroupContext::SubGroupSize",
          "[compiler]") {
  const char *Src = R"(
kernel void ids(global uint *out) {
  size_t g = get_global_id(0);
  out[2 * g] = get_sub_group_local_id();
  out[2 * g + 1] = get_sub_group_id();
}
)";
  std::string Log;
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  std::string WG = functionText(IR, "wg_ids");
  REQUIRE_FALSE(WG.empty());
  INFO(WG);
  unsigned S = clcpu::compiler::hostSubGroupSize();
  REQUIRE((S == 4 || S == 8 || S == 16));
  CHECK_FALSE(has(WG, "udiv"));
  CHECK_FALSE(has(WG, "urem"));
  // WorkGroupContext::SubGroupSize is word 26: byte 208 of the context.
  CHECK_FALSE(has(WG, "getelementptr inbounds i8, ptr %1, i64 208"));
}

TEST_CASE("cl_khr_subgroups, cl_khr_subgroup_ballot "
          "(compiler/InlineCollectives.cpp): with every work-item at a "
          "sub-group collective, the collective step computes it as one "
          "vector per sub-group, a shuffle as a gather within it; a partial "
          "sub-group stays with the runtime",
          "[compiler]") {
  const char *Src = R"(
kernel void sg(global int *out, global const int *in) {
  size_t g = get_global_id(0);
  int v = in[g];
  int r = sub_group_reduce_add(v);
  uint4 b = sub_group_ballot(v > 0);
  out[g] = r + (int)b.x + sub_group_shuffle(v, 1);
}
)";
  std::string Log;
  std::string IR = optimizedIR(Src, "-cl-std=CL3.0", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  std::string Step = functionText(IR, "sg.collective");
  REQUIRE_FALSE(Step.empty());
  INFO(Step);
  std::string Vec =
      "<" + std::to_string(clcpu::compiler::hostSubGroupSize()) + " x i64>";
  // The reduction's, the ballot's and the shuffle's sub-groups (and the
  // shuffle's indices): vector loads and stores.
  CHECK(clcpu::test::count(Step, "load " + Vec) >= 3);
  CHECK(clcpu::test::count(Step, "store " + Vec) >= 3);
  CHECK(has(Step, "llvm.masked.gather"));
  // WorkGroupContext::GroupCollective (word 33, byte 264): still called for
  // the partial last sub-group and diverged work-items.
  CHECK(has(Step, "getelementptr inbounds i8, ptr %0, i64 264"));
}

TEST_CASE("6.13.8, 6.15.1 (barrier fast path): get_global_id(0) is computed "
          "again after a barrier, not kept per work-item in the scratch, so "
          "the store after it is one vector store",
          "[compiler]") {
  const char *Src = R"(
kernel void gid(global int *o) {
  size_t g = get_global_id(0);
  o[g] = 1;
  barrier(CLK_GLOBAL_MEM_FENCE);
  o[g] += 2;
}
)";
  std::string Log;
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  std::string WG = functionText(IR, "wg_gid");
  REQUIRE_FALSE(WG.empty());
  INFO(WG);
  // Before: the three dimensions' global ids and the selects between them
  // were over the recompute budget, so g went to a slot of i64s and the
  // second region read it back and stored element by element.
  CHECK_FALSE(has(WG, " x i64>"));
  CHECK(has(WG, "store <"));
}

TEST_CASE("#8 (sub-group stretches, compiler/passes/SubGroupStepInline.cpp): "
          "regions joined by sub-group collectives run one sub-group at a "
          "time, each collective an operation across the lanes of one vector "
          "in the work-group function, its operand forwarded from the "
          "region's vector instead of reloaded from its slot",
          "[compiler]") {
  const char *Src = R"(
kernel void sgs(global int *out, global const int *in) {
  size_t g = get_global_id(0);
  int v = in[g];
  int s = sub_group_scan_inclusive_add(v);
  out[g] = s + sub_group_reduce_max(s);
}
)";
  std::string Log;
  std::string IR = optimizedIR(Src, "-cl-std=CL3.0", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  std::string WG = functionText(IR, "wg_sgs");
  REQUIRE_FALSE(WG.empty());
  INFO(WG);
  std::string S = std::to_string(clcpu::compiler::hostSubGroupSize());
  // The stretch: a loop over sub-groups, the step inlined into it (no
  // call to it is left).
  CHECK(has(WG, "\nstretch:"));
  CHECK_FALSE(has(IR, "call void @sgs.collective.sg"));
  // The reduction's max across the lanes of one <S x i32> vector.
  CHECK(has(WG, "@llvm.smax.v" + S + "i32"));
  // The scan's operand: the region's vector of `in`, not a reload of the
  // value slots it stored (GVN across the inlined step): only the whole-
  // group loops and the step of the reduction load <S x i64> slots.
  size_t SlotLoads = clcpu::test::count(WG, "= load <" + S + " x i64>");
  size_t SlotStores = clcpu::test::count(WG, "store <" + S + " x i64>");
  CHECK(SlotLoads < SlotStores);
}

TEST_CASE("6.13.8 (barrier fast path, compiler/regions/): a "
          "value live across two barriers unchanged is stored once; the "
          "region between them, which an atomic keeps scalar, only reloads "
          "it",
          "[compiler]") {
  const char *Src = R"(
kernel void keep(global int *out, volatile global int *c) {
  size_t g = get_global_id(0);
  int v = out[g];
  barrier(CLK_GLOBAL_MEM_FENCE);
  atomic_add(c, 1);
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[g] = v + 1;
}
)";
  std::string Log;
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  std::string WG = functionText(IR, "wg_keep");
  REQUIRE_FALSE(WG.empty());
  INFO(WG);
  // The atomic's region (unrolled, not vectorized): between its first and
  // last atomic only the state stores, of a constant; before, v's store.
  size_t First = WG.find("atomicrmw"), Last = WG.rfind("atomicrmw");
  REQUIRE(First != std::string::npos);
  REQUIRE(Last > First);
  std::string Between = WG.substr(First, Last - First);
  CHECK(clcpu::test::count(Between, "atomicrmw") >= 2);
  CHECK_FALSE(has(Between, "store i32 %"));
}

TEST_CASE("6.13.8 (barrier fast path, compiler/LoopSyncPoints.cpp): a "
          "grid-stride loop in a barrier kernel runs one vectorized region "
          "per iteration; other loops stay whole",
          "[compiler]") {
  const std::string Src = std::string(GridStride) + R"(
// The same count for every work-item: the outer-loop vectorizer's.
kernel void uniform(global const float *in, global float *out, int n) {
  local float s[64];
  float acc = 0.0f;
  for (int i = 0; i < n; ++i)
    acc += in[i];
  s[get_local_id(0)] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[0];
}
// An atomic in the loop: left alone.
kernel void atomic(global int *c, global float *out, int n) {
  local float s[64];
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_inc(c);
  s[get_local_id(0)] = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[0];
}
)";
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Src, "", Log, P) == CL_SUCCESS);
  REQUIRE(P->Kernels.size() == 3);
  for (const KernelInfo &K : P->Kernels) {
    INFO(K.Name << ": " << K.Path);
    CHECK_FALSE(K.PerWorkItem);
    bool Grid = K.Name == "grid";
    CHECK((K.Path.find("1 grid-stride loop") != std::string::npos) == Grid);
  }
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  std::string Grid = functionText(IR, "wg_grid");
  INFO(Grid);
  // One iteration of every work-item at a time: the loads of in[] are one
  // (masked) vector gather per vector of work-items.
  CHECK(std::regex_search(Grid, std::regex("masked.gather.v(4|8|16)f32")));
  CHECK(std::regex_search(Grid, std::regex("fadd <(4|8|16) x float>")));
}

TEST_CASE(
    "6.13.8 (barrier fast path, compiler/passes/GridStridePrefetch.cpp): a "
    "grid-stride loop's gathers prefetch a few strides ahead; other "
    "gathers do not",
    "[compiler]") {
  const std::string Src = std::string(GridStride) + R"(
// A neighbour's element: a gather, but no counter advanced by a stride.
kernel void neighbour(global const float *in, global float *out) {
  local float s[64];
  int lid = get_local_id(0);
  s[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[(lid + 1) % 64];
}
)";
  std::string Log;
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  std::string Grid = functionText(IR, "wg_grid"),
              Neighbour = functionText(IR, "wg_neighbour");
  REQUIRE_FALSE(Grid.empty());
  REQUIRE_FALSE(Neighbour.empty());
  INFO(Grid);
  // The counter i is a slot loaded each iteration and stored back plus the
  // uniform step: one prefetch of in[i0 + 4 * step], which InstCombine
  // writes as lane 0's index from a base 4 * step elements further on.
  CHECK(clcpu::test::count(
            Grid, std::string("call void @llvm.prefetch.p0(ptr "
                              "%prefetch.addr, i32 0, i32 3, i32 1)")) == 1);
  std::smatch M;
  REQUIRE(std::regex_search(
      Grid, M,
      std::regex("%prefetch.addr = getelementptr float, ptr (%[0-9]+), i64 ")));
  CHECK(std::regex_search(Grid, std::regex(M[1].str() +
                                           " = getelementptr (i8|float), ptr "
                                           "%[0-9]+, i64 %[0-9]+")));
  INFO(Neighbour);
  CHECK_FALSE(has(Neighbour, "@llvm.prefetch"));
}

TEST_CASE(
    "6.13.8 (barrier fast path, compiler/passes/MaskedStoreFastPath.cpp): "
    "without AVX-512, masked stores in loops test for an all-on or "
    "all-off mask first",
    "[compiler]") {
  // The tree step stores under lid < o: all lanes on or all off in every
  // vector but one.
  const char *Src = R"(
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
)";
  std::string Log;
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  std::string Tree = functionText(IR, "wg_tree");
  REQUIRE_FALSE(Tree.empty());
  INFO(Tree);
  REQUIRE(has(Tree, "@llvm.masked.store"));
  if (hostHasAvx512()) {
    // One masked store under a mask register: nothing to gain.
    CHECK_FALSE(has(Tree, "%mask.all"));
    return;
  }
  // All on: a plain vector store; mixed: the masked store; none: nothing.
  CHECK(std::regex_search(
      Tree, std::regex("%mask.all = icmp eq i(4|8|16) %mask.bits, -1")));
  CHECK(std::regex_search(
      Tree, std::regex("%mask.any = icmp ne i(4|8|16) %mask.bits, 0")));
  CHECK(std::regex_search(Tree, std::regex("store <(4|8|16) x float> ")));
}

TEST_CASE("6.13.8 (barrier fast path, compiler/regions/): a "
          "uniform loop counter lives in one group-wide slot, and regions "
          "whose exit is uniform skip the scan of the work-items' states",
          "[compiler]") {
  // bench's barrier_stress: k is the same for every work-item, and every
  // region stops where the uniform loop condition says.
  const std::string Src = R"(
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void stress(global int *out, int iters) {
  local int s[64];
  int lid = get_local_id(0);
  int v = get_global_id(0);
  for (int k = 0; k < iters; ++k) {
    s[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = s[(lid + 1) % 64] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = v;
}
)" + std::string(GridStride);
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Src, "", Log, P) == CL_SUCCESS);
  REQUIRE(P->Kernels.size() == 2);
  for (const KernelInfo &K : P->Kernels) {
    INFO(K.Name << ": " << K.Path);
    if (K.Name == "stress") {
      CHECK(K.Path.find("2 values (1 uniform)") != std::string::npos);
      CHECK(K.Path.find("3 regions with uniform exits") != std::string::npos);
    } else {
      CHECK(K.Path.find("3 regions with uniform exits") == std::string::npos);
    }
  }
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  std::string Stress = functionText(IR, "wg_stress");
  std::string Grid = functionText(IR, "wg_grid");
  INFO(Stress);
  // The regions still vectorize (the counter's slot does not alias the
  // per-work-item ones), and no loop reads every work-item's state.
  CHECK(std::regex_search(Stress, std::regex("store <(4|8|16) x i32>")));
  CHECK(Stress.find("states") == std::string::npos);
  CHECK(Grid.find("states") != std::string::npos);
}

TEST_CASE("6.13.8 (barrier fast path, compiler/regions/): "
          "uniform values of a loop with a single barrier stay uniform, "
          "saved in a second group-wide slot the collective step copies",
          "[compiler]") {
  // A Hillis-Steele scan: the local pointers (swapped after the barrier)
  // and the offset are saved at the barrier the region after it also
  // starts from. With one slot, later work-items would read what earlier
  // ones saved for the next iteration; per-work-item slots would make the
  // pointers vectors and the accesses gathers.
  const std::string Src = R"(
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
)";
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Src, "", Log, P) == CL_SUCCESS);
  REQUIRE(P->Kernels.size() == 1);
  INFO(P->Kernels[0].Path);
  CHECK(P->Kernels[0].Path.find("3 values (3 uniform)") != std::string::npos);
  std::string IR = optimizedIR(Src, "", Log);
  INFO(Log);
  std::string Wg = functionText(IR, "wg_hs");
  std::string Step = functionText(IR, "hs.collective");
  INFO(Wg);
  INFO(Step);
  // Whole-vector loads and stores of the local arrays, no gathers.
  CHECK(std::regex_search(Wg, std::regex("load <(4|8|16) x i32>")));
  CHECK(std::regex_search(Wg, std::regex("store <(4|8|16) x i32>")));
  CHECK(Wg.find("gather") == std::string::npos);
  // The step copies the three saved values (memcpy, lowered to a load and
  // a store each).
  size_t Stores = 0;
  for (size_t At = Step.find("store i64 "); At != std::string::npos;
       At = Step.find("store i64 ", At + 1))
    ++Stores;
  CHECK(Stores >= 3);
}

TEST_CASE("6.13.8 (barrier fast path, compiler/regions/): a "
          "value one work-item broadcasts through local memory is uniform "
          "after the barrier; a volatile one is not",
          "[compiler]") {
  // A plain load of one address for the whole group: another work-item's
  // store to it in the same region would be a data race (OpenCL C 2.0
  // 3.3.4), so every work-item reads the same value. The loop over `count`
  // then exits uniformly (without it, the region after the first barrier
  // would end with a scan of every work-item's state), and `off` gets a
  // group-wide slot; read through `volatile`, it gets one per work-item.
  const char *Src = R"(
#define KERNEL(NAME, QUAL)                                                    \
kernel __attribute__((reqd_work_group_size(64, 1, 1)))                        \
void NAME(global const int *in, global int *out) {                            \
  local int count;                                                            \
  local QUAL int off;                                                         \
  local int s[64];                                                            \
  int l = get_local_id(0);                                                    \
  if (l == 0) {                                                               \
    count = in[get_group_id(0)];                                              \
    off = in[get_group_id(0) + 1];                                            \
  }                                                                           \
  barrier(CLK_LOCAL_MEM_FENCE);                                               \
  int v = in[get_global_id(0)], o = off;                                      \
  for (int i = 0; i < count; ++i) {                                           \
    s[l] = v;                                                                 \
    barrier(CLK_LOCAL_MEM_FENCE);                                             \
    v = s[(l + o) % 64];                                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                             \
  }                                                                           \
  out[get_global_id(0)] = v * o;                                              \
}
KERNEL(plain, )
KERNEL(vol, volatile)
)";
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Src, "", Log, P) == CL_SUCCESS);
  REQUIRE(P->Kernels.size() == 2);
  for (const KernelInfo &K : P->Kernels) {
    INFO(K.Name << ": " << K.Path);
    CHECK(K.Path.find("4 regions with uniform exits") != std::string::npos);
    if (K.Name == "plain")
      CHECK(K.Path.find("3 values (2 uniform)") != std::string::npos);
    else
      CHECK(K.Path.find("3 values (1 uniform)") != std::string::npos);
  }
}

TEST_CASE("6.13.8 (barrier fast path): kernels the regions do not take run "
          "on fibers, with the reason",
          "[compiler]") {
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  // A work-item waiting for another one (a spin loop on an atomic) needs
  // independent forward progress.
  REQUIRE(build(R"(
kernel void wait(volatile global int *flag, global int *out) {
  if (get_local_id(0) == 0) { while (atomic_add(flag, 0) == 0) {} }
  else if (get_local_id(0) == 1) atomic_xchg(flag, 1);
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] = 1;
}
)",
                "", Log, P) == CL_SUCCESS);
  CHECK(P->Kernels.at(0).PerWorkItem);
  CHECK(P->Kernels.at(0).Path.find("independent forward progress") !=
        std::string::npos);
  // sub_group_broadcast of a vector (cl_khr_subgroup_extended_types): one
  // scalar broadcast per component (compiler/passes/VectorCollectives.cpp), on
  // the barrier regions.
  REQUIRE(build(R"(
kernel void bc(global float4 *p) {
  size_t g = get_global_id(0);
  p[g] = sub_group_broadcast(p[g], 0);
}
)",
                "-cl-std=CL3.0", Log, P) == CL_SUCCESS);
  CHECK_FALSE(P->Kernels.at(0).PerWorkItem);
  CHECK(P->Kernels.at(0).Path.rfind(
            "barrier regions: 5 regions (0 barriers, 4 collectives, 4 of "
            "them inline)",
            0) == 0);
  // A barrier-free kernel: the work-item loop.
  REQUIRE(build(VAdd, "", Log, P) == CL_SUCCESS);
  CHECK(P->Kernels.at(0).Path == "work-item loop");
}

/// The entries of the constant i64 array whose name ends in \p Suffix in
/// \p IR (empty if there is none).
static std::vector<uint64_t> i64Table(const std::string &IR,
                                      const std::string &Suffix) {
  std::smatch M;
  std::vector<uint64_t> Out;
  if (!std::regex_search(
          IR, M,
          std::regex(
              std::regex_replace(Suffix, std::regex("\\."), "\\.") +
              R"( = private (unnamed_addr )?constant \[\d+ x i64\] \[([^\]]*)\])")))
    return Out;
  std::string Body = M[2];
  std::regex Entry(R"(i64 (\d+))");
  for (auto It = std::sregex_iterator(Body.begin(), Body.end(), Entry);
       It != std::sregex_iterator(); ++It)
    Out.push_back(std::stoull((*It)[1]));
  return Out;
}

TEST_CASE("cl_khr_subgroup_non_uniform_arithmetic (compiler/Barriers.cpp): "
          "on fibers, non-uniform calls pass their site number and the table "
          "of which sites can follow which",
          "[compiler]") {
  // Sites in reverse post-order: the if's call (0), the reconvergence
  // point where the if's sides meet (1), the one at the loop's exit (2:
  // the loop's exit block comes before its body), elect (3), the loop's
  // call (4) (compiler/passes/Reconvergence.cpp).
  const char *Src = R"(
kernel void nu(global int *out) {
  uint l = get_sub_group_local_id();
  int a = 0;
  if (l & 1)
    a = sub_group_non_uniform_reduce_add(1);
  for (uint i = 0; i <= l % 3; ++i)
    a += sub_group_non_uniform_reduce_add(1);
  out[get_global_id(0)] = a + sub_group_elect();
}
)";
  std::string Log;
  const char *Fibers = "-cl-std=CL3.0 -clcpu-force-fibers";
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Src, Fibers, Log, P) == CL_SUCCESS);
  CHECK(P->Kernels.at(0).PerWorkItem);
  std::string IR = optimizedIR(Src, Fibers, Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  // Bit j of entry i: site j can follow site i in the same round of the
  // loops around j. The if's call reaches all others; its reconvergence
  // point all but the if's call; the loop's exit elect; elect none; the
  // loop's call the loop's exit and elect, but not itself (that is the
  // next round).
  CHECK(i64Table(IR, "nonuniform.reach") ==
        std::vector<uint64_t>{30, 28, 8, 0, 12});
}

TEST_CASE("cl_khr_subgroup_non_uniform_arithmetic (compiler/regions/ "
          "and emitRegionDriver): non-uniform calls take the barrier regions "
          "with the table of which sync points can reach which",
          "[compiler]") {
  const char *Src = R"(
kernel void nu(global int *out) {
  uint l = get_sub_group_local_id();
  int a = 0;
  if (l & 1)
    a = sub_group_non_uniform_reduce_add(1);
  for (uint i = 0; i <= l % 3; ++i)
    a += sub_group_non_uniform_reduce_add(1);
  out[get_global_id(0)] = a + sub_group_elect() + sub_group_ballot(l & 1).x;
}
)";
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Src, "-cl-std=CL3.0", Log, P) == CL_SUCCESS);
  const KernelInfo &K = P->Kernels.at(0);
  INFO(K.Path);
  CHECK_FALSE(K.PerWorkItem);
  CHECK(K.Path.rfind("barrier regions: 7 regions (0 barriers, 4 collectives, "
                     "4 of them inline, 2 reconvergence points)",
                     0) == 0);
  std::string IR = optimizedIR(Src, "-cl-std=CL3.0", Log);
  INFO(Log);
  REQUIRE_FALSE(IR.empty());
  // Entry s: the sync points (numbered from 1 in block order) that can
  // reach sync point s in the same round of the loops around s: the if's
  // call (1) none; the if's reconvergence point (2) the if's call; the
  // loop's exit (3) those and the loop's call (4); the loop's call the
  // first two; elect (5) the first four; the ballot (6) all five.
  CHECK(i64Table(IR, "sync.reach") ==
        std::vector<uint64_t>{0, 0, 2, 22, 6, 30, 62});
}

TEST_CASE("5.8: a kernel's arguments are described from its metadata",
          "[compiler]") {
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  const char *Src = R"(
typedef struct { int a; float b; double c; } S;
kernel void k(global float *g, constant int *c, local float *l, float4 v,
              S s, uint n) __attribute__((reqd_work_group_size(8, 2, 1))) {
  g[get_global_id(0)] = v.x + s.b + n + c[0];
}
)";
  // double needs cl_khr_fp64, which OpenCL C 1.2 makes optional: the
  // struct uses long instead.
  std::string Source =
      std::regex_replace(std::string(Src), std::regex("double"), "long");
  REQUIRE(build(Source, "-cl-kernel-arg-info", Log, P) == CL_SUCCESS);
  REQUIRE(P->Kernels.size() == 1);
  const KernelInfo &K = P->Kernels[0];
  CHECK(K.Name == "k");
  CHECK(K.Fn != nullptr);
  CHECK(K.ArgInfoAvailable);
  REQUIRE(K.Args.size() == 6);
  CHECK(K.Args[0].AddressSpace == ArgGlobal);
  CHECK(K.Args[0].Size == sizeof(void *));
  CHECK(K.Args[1].AddressSpace == ArgConstant);
  CHECK(K.Args[2].AddressSpace == ArgLocal);
  CHECK(K.Args[3].Size == 16);
  CHECK(K.Args[3].TypeName == "float4");
  CHECK(K.Args[4].Size == 16);
  CHECK(K.Args[5].Size == 4);
  CHECK(K.Args[5].Name == "n");
  CHECK(K.ReqdWorkGroupSize[0] == 8);
  CHECK(K.ReqdWorkGroupSize[1] == 2);
  CHECK(K.ReqdWorkGroupSize[2] == 1);
  CHECK(K.Attributes.find("reqd_work_group_size(8,2,1)") != std::string::npos);
}

TEST_CASE("5.8: build failures are reported with a reason", "[compiler]") {
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  SECTION("syntax error: file:line:col in the log") {
    CHECK(build("kernel void k(global int *p) {\n  p[0] = ;\n}\n", "", Log,
                P) == CL_BUILD_PROGRAM_FAILURE);
    CHECK(std::regex_search(Log, std::regex(":2:[0-9]+: error")));
  }
  SECTION("barrier() makes the kernel run as barrier regions, or per "
          "work-item on fibers with -clcpu-force-fibers") {
    const char *Src = "kernel void k(global int *p) { p[0] = 1;"
                      " barrier(CLK_LOCAL_MEM_FENCE); }";
    REQUIRE(build(Src, "", Log, P) == CL_SUCCESS);
    CHECK_FALSE(P->Kernels.at(0).PerWorkItem);
    CHECK(P->Kernels.at(0).RegionScratch > 0);
    REQUIRE(build(Src, "-clcpu-force-fibers", Log, P) == CL_SUCCESS);
    CHECK(P->Kernels.at(0).PerWorkItem);
    CHECK(P->Kernels.at(0).RegionScratch == 0);
    P.reset();
  }
  SECTION("a function without a definition is named in the log") {
    CHECK(build("float helper(float);\n"
                "kernel void k(global float *p) { p[0] = helper(p[1]); }",
                "", Log, P) == CL_BUILD_PROGRAM_FAILURE);
    CHECK(Log.find("'helper'") != std::string::npos);
  }
  SECTION("unknown option") {
    CHECK(build("kernel void k() {}", "-bogus", Log, P) ==
          CL_INVALID_BUILD_OPTIONS);
  }
  SECTION("-Werror turns a warning into a failure") {
    const char *Src = "kernel void k(global int *p) { p[0] = 1; p[1] == 2; }";
    CHECK(build(Src, "", Log, P) == CL_SUCCESS);
    CHECK(Log.find("warning") != std::string::npos);
    P.reset();
    CHECK(build(Src, "-w -Werror", Log, P) == CL_SUCCESS);
    P.reset();
    // -w: "Inhibit all warning messages."
    Log.clear();
    CHECK(build(Src, "-w", Log, P) == CL_SUCCESS);
    CHECK(Log.find("warning") == std::string::npos);
    P.reset();
    CHECK(build(Src, "-Werror", Log, P) == CL_BUILD_PROGRAM_FAILURE);
  }
  CHECK(P == nullptr);
}

TEST_CASE("5.10: work-item functions inside helper functions", "[compiler]") {
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  const char *Src = R"(
size_t lin(void) { return get_global_id(1) * get_global_size(0) + get_global_id(0); }
kernel void k(global uint *out) {
  out[lin()] = get_local_id(0) + 100 * get_group_id(1) + 10000 * get_work_dim();
}
)";
  REQUIRE(build(Src, "", Log, P) == CL_SUCCESS);
  REQUIRE(P->Kernels.size() == 1);
  std::vector<unsigned> Out(8 * 4, 0);
  void *Buf = Out.data();
  void *Args[] = {&Buf};
  WorkGroupContext C{};
  C.LocalSize[0] = 4;
  C.LocalSize[1] = 2;
  C.LocalSize[2] = 1;
  C.Launch.GlobalSize[0] = 8;
  C.Launch.GlobalSize[1] = 4;
  C.Launch.GlobalSize[2] = 1;
  C.Launch.NumGroups[0] = 2;
  C.Launch.NumGroups[1] = 2;
  C.Launch.NumGroups[2] = 1;
  C.Launch.WorkDim = 2;
  for (int D = 0; D < 3; ++D)
    C.Launch.EnqueuedLocalSize[D] = C.LocalSize[D];
  for (size_t GY = 0; GY < 2; ++GY)
    for (size_t GX = 0; GX < 2; ++GX) {
      C.GroupId[0] = GX;
      C.GroupId[1] = GY;
      P->Kernels[0].Fn(Args, &C);
    }
  for (unsigned Y = 0; Y < 4; ++Y)
    for (unsigned X = 0; X < 8; ++X)
      CHECK(Out[Y * 8 + X] == X % 4 + 100 * (Y / 2) + 20000);
}

TEST_CASE("5.10: a kernel's __local variables live in the work-group's block",
          "[compiler]") {
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  const char *Src = R"(
kernel void k(global int *out) {
  local int tmp[8];
  local int one;
  size_t l = get_local_id(0);
  tmp[l] = (int)get_global_id(0) * 3;
  one = 1;
  out[get_global_id(0)] = tmp[l] + one;
}
)";
  REQUIRE(build(Src, "", Log, P) == CL_SUCCESS);
  const KernelInfo &K = P->Kernels.at(0);
  CHECK(K.LocalMemSize >= 8 * sizeof(int) + sizeof(int));
  std::vector<int> Out(16, 0);
  alignas(64) unsigned char Block[256] = {};
  void *Buf = Out.data();
  void *Args[] = {&Buf};
  WorkGroupContext C{};
  C.LocalSize[0] = 8;
  C.LocalSize[1] = C.LocalSize[2] = 1;
  C.Launch.GlobalSize[0] = 16;
  C.Launch.GlobalSize[1] = C.Launch.GlobalSize[2] = 1;
  C.Launch.NumGroups[0] = 2;
  C.Launch.NumGroups[1] = C.Launch.NumGroups[2] = 1;
  C.Launch.WorkDim = 1;
  C.LocalMem = Block;
  for (int D = 0; D < 3; ++D)
    C.Launch.EnqueuedLocalSize[D] = C.LocalSize[D];
  for (size_t G = 0; G < 2; ++G) {
    C.GroupId[0] = G;
    K.Fn(Args, &C);
  }
  for (int I = 0; I < 16; ++I)
    CHECK(Out[I] == 3 * I + 1);
  // The last group's values are in the block given, not in a global.
  int Seen[8];
  bool Found = false;
  for (size_t Off = 0; Off + sizeof Seen <= sizeof Block; Off += 4) {
    std::memcpy(Seen, Block + Off, sizeof Seen);
    Found |= Seen[0] == 24 && Seen[7] == 45;
  }
  CHECK(Found);
}

namespace {
/// A fresh, empty directory under the system's temporary directory.
struct TempDir {
  std::string Path;
  TempDir() {
    std::string T =
        (std::filesystem::temp_directory_path() / "clcpu-cache-test-XXXXXX")
            .string();
    REQUIRE(mkdtemp(T.data()));
    Path = T;
  }
  ~TempDir() {
    std::error_code EC;
    std::filesystem::remove_all(Path, EC);
  }
  std::vector<std::string> entries() const {
    std::vector<std::string> Out;
    for (const auto &E : std::filesystem::directory_iterator(Path))
      Out.push_back(E.path().string());
    return Out;
  }
};

const char *Scale = R"(
kernel void scale(global float *p, float f) {
  p[get_global_id(0)] = p[get_global_id(0)] * f + SHIFT;
}
)";

std::vector<std::string> kernelNames(const CompiledProgram &P) {
  std::vector<std::string> N;
  for (const KernelInfo &K : P.Kernels)
    N.push_back(K.Name);
  return N;
}
} // namespace

TEST_CASE("5.8.6: -D, -cl-opt-disable and -cl-fast-relaxed-math change the "
          "generated IR",
          "[compiler]") {
  const char *Src = R"(
kernel void k(global float *p) {
  size_t i = get_global_id(0);
  p[i] = p[i] * p[i + 1] + VALUE;
}
)";
  std::string Log;
  std::string Base = optimizedIR(Src, "-DVALUE=1.5f", Log);
  INFO(Log);
  REQUIRE_FALSE(Base.empty());
  // -D: the macro's value reaches the code.
  std::string Other = optimizedIR(Src, "-DVALUE=2.5f", Log);
  CHECK(Base.find("1.5") != std::string::npos);
  CHECK(Other.find("2.5") != std::string::npos);
  CHECK(Other.find("1.5") == std::string::npos);
  // -cl-fast-relaxed-math: fast-math flags on the arithmetic.
  std::string Fast =
      optimizedIR(Src, "-DVALUE=1.5f -cl-fast-relaxed-math", Log);
  std::regex FastMul("fmul (fast|reassoc nnan ninf nsz arcp contract afn)");
  CHECK(std::regex_search(Fast, FastMul));
  CHECK_FALSE(std::regex_search(Base, FastMul));
  // -cl-opt-disable: no vectorized loop, the minimal pipeline keeps allocas.
  std::string NoOptLog;
  std::string NoOpt =
      optimizedIR(Src, "-DVALUE=1.5f -cl-opt-disable", NoOptLog);
  INFO(NoOptLog);
  REQUIRE_FALSE(NoOpt.empty());
  CHECK(NoOpt != Base);
  std::string WGBase = functionText(Base, "wg_k");
  std::string WGNoOpt = functionText(NoOpt, "wg_k");
  CHECK(std::regex_search(WGBase, std::regex("<(4|8|16) x float>")));
  CHECK_FALSE(std::regex_search(WGNoOpt, std::regex("<(4|8|16) x float>")));
  CHECK(WGNoOpt.find("alloca") != std::string::npos);
  // The other documented options are accepted.
  Options O;
  std::string Err;
  CHECK(parseOptions("-g -cl-denorms-are-zero -cl-single-precision-constant "
                     "-cl-fp32-correctly-rounded-divide-sqrt -cl-mad-enable "
                     "-cl-no-signed-zeros -cl-unsafe-math-optimizations "
                     "-cl-finite-math-only",
                     O, Err));
  std::string Ftz = optimizedIR(Src, "-DVALUE=1.5f -cl-denorms-are-zero", Log);
  CHECK(Ftz.find("preserve-sign") != std::string::npos);
  CHECK(Base.find("preserve-sign") == std::string::npos);
  std::string Dbg = optimizedIR(Src, "-DVALUE=1.5f -g", Log);
  CHECK(Dbg.find("!DICompileUnit") != std::string::npos);
}

TEST_CASE("5.8.6.2-3: the math options change the generated code as the "
          "spec allows",
          "[compiler]") {
  std::string Log;
  auto WG = [&](const char *Body, const char *Opts) {
    std::string Src =
        std::string("kernel void k(global float *in, global "
                    "float *out) { size_t i = get_global_id(0); ") +
        Body + " }";
    std::string IR = optimizedIR(Src, Opts, Log);
    INFO(Log);
    REQUIRE_FALSE(IR.empty());
    return functionText(IR, "wg_k");
  };
  std::regex FAdd("fadd ");
  std::regex AnyFpOp("f(add|sub|mul|cmp) ");
  SECTION("-cl-no-signed-zeros: x + 0.0f may become x") {
    const char *B = "out[i] = in[i] + 0.0f;";
    CHECK(std::regex_search(WG(B, ""), FAdd)); // -0.0f + 0.0f is +0.0f
    CHECK_FALSE(std::regex_search(WG(B, "-cl-no-signed-zeros"), FAdd));
  }
  SECTION("-cl-unsafe-math-optimizations: (a + b) - b may become a") {
    const char *B = "out[i] = (in[i] + out[i]) - out[i];";
    CHECK(std::regex_search(WG(B, ""), AnyFpOp));
    CHECK_FALSE(
        std::regex_search(WG(B, "-cl-unsafe-math-optimizations"), AnyFpOp));
  }
  SECTION("-cl-finite-math-only: x != x may be assumed false") {
    const char *B = "out[i] = in[i] != in[i] ? 1.0f : 2.0f;";
    CHECK(std::regex_search(WG(B, ""), std::regex("fcmp ")));
    CHECK_FALSE(
        std::regex_search(WG(B, "-cl-finite-math-only"), std::regex("fcmp ")));
  }
  SECTION("-cl-fast-relaxed-math implies the three above") {
    CHECK_FALSE(std::regex_search(
        WG("out[i] = (in[i] + out[i]) - out[i];", "-cl-fast-relaxed-math"),
        AnyFpOp));
  }
  SECTION("-cl-single-precision-constant: double constants are float") {
    const char *B = "out[i] = in[i] * 0.1;";
    CHECK(std::regex_search(WG(B, ""), std::regex("double")));
    CHECK_FALSE(std::regex_search(WG(B, "-cl-single-precision-constant"),
                                  std::regex("double")));
  }
}

TEST_CASE("5.8.1: program binaries are checked: magic, checksum, versions, "
          "CPU",
          "[compiler][binary]") {
  BinaryContents In;
  In.Type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
  In.Options = "-DX=1";
  In.Payload = std::string("BC\xc0\xde payload", 12);
  std::string Bin = writeBinary(In, "1.2.3");
  auto Bytes = [&](const std::string &B) {
    return reinterpret_cast<const unsigned char *>(B.data());
  };
  BinaryContents Out;
  std::string Why;
  REQUIRE(readBinary(Bytes(Bin), Bin.size(), "1.2.3", Out, Why));
  CHECK(Out.Type == In.Type);
  CHECK(Out.Options == In.Options);
  CHECK(Out.Payload == In.Payload);
  // Another driver version.
  CHECK_FALSE(readBinary(Bytes(Bin), Bin.size(), "1.2.4", Out, Why));
  CHECK(Why.find("1.2.3") != std::string::npos);
  // Every truncation and every single flipped byte is detected.
  for (size_t N = 0; N < Bin.size(); ++N)
    CHECK_FALSE(readBinary(Bytes(Bin), N, "1.2.3", Out, Why));
  for (size_t I = 0; I < Bin.size(); ++I) {
    std::string Bad = Bin;
    Bad[I] ^= 0x20;
    CHECK_FALSE(readBinary(Bytes(Bad), Bad.size(), "1.2.3", Out, Why));
  }
  CHECK_FALSE(readBinary(nullptr, 0, "1.2.3", Out, Why));
  std::string Foreign = "\x7f"
                        "ELF not ours at all, long enough to parse";
  CHECK_FALSE(readBinary(Bytes(Foreign), Foreign.size(), "1.2.3", Out, Why));
  CHECK(Why.find("not a clcpu") != std::string::npos);
}

TEST_CASE("5.8.1: an executable's payload is JIT'd again with the same "
          "kernels",
          "[compiler][binary]") {
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Scale, "-DSHIFT=1 -cl-kernel-arg-info", Log, P) == CL_SUCCESS);
  REQUIRE_FALSE(P->Payload.empty());
  std::unique_ptr<CompiledProgram> Q;
  REQUIRE(loadExecutable(P->Payload, "", Log, Q) == CL_SUCCESS);
  CHECK(kernelNames(*Q) == kernelNames(*P));
  REQUIRE(Q->Kernels.size() == 1);
  CHECK(Q->Kernels[0].Fn != nullptr);
  CHECK(Q->Kernels[0].Args.size() == 2);
  CHECK(Q->Kernels[0].Args[1].Name == "f");
  CHECK(Q->Kernels[0].Args[1].Size == 4);
  CHECK(Q->Kernels[0].ArgInfoAvailable);
  // A damaged payload fails cleanly.
  std::string Bad = P->Payload.substr(0, P->Payload.size() / 2);
  CHECK(loadExecutable(Bad, "", Log, Q) == CL_BUILD_PROGRAM_FAILURE);
}

TEST_CASE("5.8.3: the kernel cache: miss, hit, corrupt entry, off",
          "[compiler][cache]") {
  TempDir Dir;
  BuildSettings S;
  S.CacheDir = Dir.Path + "/sub/dir";
  S.DriverVersion = "test";
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  // Miss: built and stored (one entry, no temporary file left).
  REQUIRE(build(Scale, "-DSHIFT=2", Log, P, S) == CL_SUCCESS);
  CHECK_FALSE(P->FromCache);
  std::vector<std::string> Files;
  for (const auto &E : std::filesystem::directory_iterator(S.CacheDir))
    Files.push_back(E.path().string());
  REQUIRE(Files.size() == 1);
  CHECK(Files[0].find(".tmp") == std::string::npos);
  // Hit: same source and options.
  std::unique_ptr<CompiledProgram> Hit;
  REQUIRE(build(Scale, "-DSHIFT=2", Log, Hit, S) == CL_SUCCESS);
  CHECK(Hit->FromCache);
  CHECK(kernelNames(*Hit) == kernelNames(*P));
  CHECK(Hit->Kernels[0].Fn != nullptr);
  CHECK(Hit->Payload == P->Payload);
  // Other options, other source: misses.
  std::unique_ptr<CompiledProgram> Miss;
  REQUIRE(build(Scale, "-DSHIFT=3", Log, Miss, S) == CL_SUCCESS);
  CHECK_FALSE(Miss->FromCache);
  REQUIRE(build(std::string(Scale) + "\n", "-DSHIFT=2", Log, Miss, S) ==
          CL_SUCCESS);
  CHECK_FALSE(Miss->FromCache);
  CHECK(cache::key(Scale, "-DSHIFT=2", "test") !=
        cache::key(Scale, "-DSHIFT=2", "other"));

  // Corrupt the first entry: detected, noted in the log, rebuilt, rewritten.
  {
    std::fstream F(Files[0], std::ios::in | std::ios::out | std::ios::binary);
    F.seekp(100);
    F.put('\x55');
  }
  std::string CorruptLog;
  std::unique_ptr<CompiledProgram> Rebuilt;
  REQUIRE(build(Scale, "-DSHIFT=2", CorruptLog, Rebuilt, S) == CL_SUCCESS);
  CHECK_FALSE(Rebuilt->FromCache);
  CHECK(CorruptLog.find("corrupt") != std::string::npos);
  REQUIRE(build(Scale, "-DSHIFT=2", Log, Rebuilt, S) == CL_SUCCESS);
  CHECK(Rebuilt->FromCache);
  // Truncated entry.
  std::filesystem::resize_file(Files[0], 40);
  REQUIRE(build(Scale, "-DSHIFT=2", Log, Rebuilt, S) == CL_SUCCESS);
  CHECK_FALSE(Rebuilt->FromCache);

  // Cache off (empty directory): never a hit, nothing written.
  TempDir Off;
  BuildSettings NoCache;
  REQUIRE(build(Scale, "-DSHIFT=2", Log, Rebuilt, NoCache) == CL_SUCCESS);
  CHECK_FALSE(Rebuilt->FromCache);
  REQUIRE(build(Scale, "-DSHIFT=2", Log, Rebuilt, NoCache) == CL_SUCCESS);
  CHECK_FALSE(Rebuilt->FromCache);
  CHECK(Off.entries().empty());

  // Build failures and bad options are not cached.
  CHECK(build("kernel void k( {", "", Log, Rebuilt, S) ==
        CL_BUILD_PROGRAM_FAILURE);
  CHECK(build(Scale, "-bogus", Log, Rebuilt, S) == CL_INVALID_BUILD_OPTIONS);
}

TEST_CASE("5.8.3: concurrent builds of one source share the cache safely",
          "[compiler][cache]") {
  TempDir Dir;
  BuildSettings S;
  S.CacheDir = Dir.Path;
  const int N = 4;
  std::vector<std::thread> Ts;
  std::vector<int> Ok(N, 0);
  // Two other processes (this test binary, running the hidden test below)
  // build the same source into the same directory at the same time.
  std::vector<pid_t> Children;
  std::string EnvVar = "CLCPU_TEST_CACHE_CHILD_DIR=" + Dir.Path;
  for (int I = 0; I < 2; ++I) {
    char Exe[] = "/proc/self/exe", Tag[] = "[.cache-child]";
    char *Argv[] = {Exe, Tag, nullptr};
    char *Envp[] = {EnvVar.data(), nullptr};
    pid_t C = -1;
    REQUIRE(posix_spawn(&C, "/proc/self/exe", nullptr, nullptr, Argv, Envp) ==
            0);
    Children.push_back(C);
  }
  for (int I = 0; I < N; ++I)
    Ts.emplace_back([&, I] {
      std::string Log;
      std::unique_ptr<CompiledProgram> P;
      Ok[I] = build(Scale, "-DSHIFT=4", Log, P, S) == CL_SUCCESS && P &&
              P->Kernels.size() == 1 && P->Kernels[0].Fn;
    });
  for (auto &T : Ts)
    T.join();
  for (pid_t C : Children) {
    int Status = -1;
    REQUIRE(waitpid(C, &Status, 0) == C);
    CHECK(WIFEXITED(Status));
    CHECK(WEXITSTATUS(Status) == 0);
  }
  for (int I = 0; I < N; ++I)
    CHECK(Ok[I] == 1);
  // One complete entry, no temporary file left, and it hits.
  std::vector<std::string> Files = Dir.entries();
  REQUIRE(Files.size() == 1);
  CHECK(Files[0].find(".tmp") == std::string::npos);
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Scale, "-DSHIFT=4", Log, P, S) == CL_SUCCESS);
  CHECK(P->FromCache);
}

TEST_CASE("5.8.3: (child process of the concurrent cache test)",
          "[.cache-child]") {
  const char *Dir = std::getenv("CLCPU_TEST_CACHE_CHILD_DIR");
  REQUIRE(Dir);
  BuildSettings S;
  S.CacheDir = Dir;
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Scale, "-DSHIFT=4", Log, P, S) == CL_SUCCESS);
  CHECK(P->Kernels.size() == 1);
}

TEST_CASE("5.8.3: CLCPU_DUMP_IR_BEFORE/AFTER and CLCPU_DUMP_ASM write the "
          "build's IR and assembly",
          "[compiler]") {
  TempDir Dir;
  BuildSettings S;
  S.DumpIRBefore = S.DumpIRAfter = Dir.Path + "/ir";
  S.DumpAsm = Dir.Path + "/asm";
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Scale, "-DSHIFT=5", Log, P, S) == CL_SUCCESS);
  auto Read = [](const std::filesystem::path &F) {
    std::ifstream In(F);
    return std::string((std::istreambuf_iterator<char>(In)),
                       std::istreambuf_iterator<char>());
  };
  std::string Before, After, Asm;
  for (const auto &E : std::filesystem::directory_iterator(Dir.Path + "/ir")) {
    std::string Name = E.path().filename().string();
    if (Name.find("before") != std::string::npos)
      Before = Read(E.path());
    else if (Name.find("after") != std::string::npos)
      After = Read(E.path());
  }
  for (const auto &E : std::filesystem::directory_iterator(Dir.Path + "/asm"))
    Asm = Read(E.path());
  // Before the kernel passes: the kernel as Clang emitted it; after: the
  // work-group function; the assembly defines it.
  CHECK(Before.find("define") != std::string::npos);
  CHECK(Before.find("wg_scale") == std::string::npos);
  CHECK(After.find("define void @wg_scale") != std::string::npos);
  CHECK(Asm.find("wg_scale:") != std::string::npos);
}

TEST_CASE("5.8.3: CLCPU_PERF_MAP names each JIT-compiled work-group function "
          "in /tmp/perf-<pid>.map at its address",
          "[compiler]") {
  std::string Map = "/tmp/perf-" + std::to_string(getpid()) + ".map";
  std::filesystem::remove(Map);
  BuildSettings S;
  S.PerfMap = true;
  std::string Log;
  std::unique_ptr<CompiledProgram> P;
  REQUIRE(build(Scale, "-DSHIFT=6", Log, P, S) == CL_SUCCESS);
  REQUIRE(P->Kernels.size() == 1);
  // "<hex address> <hex size> <name>", the format perf reads.
  std::ifstream In(Map);
  std::string Line;
  bool Found = false;
  while (std::getline(In, Line)) {
    std::istringstream Fields(Line);
    std::string Addr, Size, Name;
    REQUIRE(static_cast<bool>(Fields >> Addr >> Size >> Name));
    if (Name != "wg_scale")
      continue;
    Found = true;
    CHECK(std::stoull(Addr, nullptr, 16) ==
          reinterpret_cast<uintptr_t>(P->Kernels[0].Fn));
    CHECK(std::stoull(Size, nullptr, 16) > 0);
    // Its linked code, byte for byte, in /tmp/perf-<pid>-<address>.bin.
    std::string Bin =
        "/tmp/perf-" + std::to_string(getpid()) + "-" + Addr + ".bin";
    std::ifstream Code(Bin, std::ios::binary);
    std::string Bytes((std::istreambuf_iterator<char>(Code)),
                      std::istreambuf_iterator<char>());
    CHECK(Bytes.size() == std::stoull(Size, nullptr, 16));
    CHECK(std::memcmp(Bytes.data(),
                      reinterpret_cast<const void *>(P->Kernels[0].Fn),
                      Bytes.size()) == 0);
    std::filesystem::remove(Bin);
  }
  CHECK(Found);
  std::filesystem::remove(Map);

  // Off by default: nothing written.
  BuildSettings Off;
  REQUIRE(build(Scale, "-DSHIFT=7", Log, P, Off) == CL_SUCCESS);
  CHECK_FALSE(std::filesystem::exists(Map));
}
