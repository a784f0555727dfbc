// Kernels whose bodies have loops are vectorized across work-items on the
// loop vectorizer's outer-loop path (compiler/WorkItemLoops.cpp,
// UniformVectorPhis.cpp, ConsecutiveGathers.cpp), or stay scalar where that
// path cannot widen them. Either way (OpenCL 3.0 API 5.10, the execution of
// an NDRange) every work-item must compute what it computes alone: each
// kernel here runs over local sizes that do and do not fill a vector and is
// checked against the host.

#include "SchedulerCommon.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

namespace {

const char *Source = R"(
// nbody: uniform inner loop, float4 loads from one address per iteration.
kernel void nbody(global const float4 *pos, global float4 *acc, int n) {
  size_t i = get_global_id(0);
  float4 p = pos[i];
  float4 a = (float4)(0.0f);
  for (int j = 0; j < n; ++j) {
    float4 d = pos[j] - p;
    float r2 = d.x * d.x + d.y * d.y + d.z * d.z + 0.01f;
    float inv = rsqrt(r2);
    a += pos[j].w * inv * inv * inv * d;
  }
  acc[i] = a;
}
// Naive sgemm: a column of B per work-item (adjacent lanes, one load).
kernel void sgemm(global const float *A, global const float *B,
                  global float *C, int n, int k) {
  int col = get_global_id(0), row = get_global_id(1);
  int cols = get_global_size(0);
  float s = 0.0f;
  for (int x = 0; x < k; ++x)
    s += A[row * k + x] * B[x * cols + col];
  C[row * cols + col] = s;
}
// A branch that differs between work-items around and inside the loop.
kernel void divergent(global const int *in, global int *out, int n) {
  int g = get_global_id(0);
  int s = 0;
  if (g % 3 == 0) {
    for (int x = 0; x < n; ++x)
      s += in[x] * g;
  } else {
    for (int x = 0; x < n; ++x)
      if ((x + g) & 1)
        s -= in[x];
  }
  out[g] = s;
}
// The trip count depends on the work-item.
kernel void varying_trip(global const int *in, global int *out) {
  int g = get_global_id(0);
  int s = 0;
  for (int x = 0; x < g % 17; ++x)
    s += in[x] + x * g;
  out[g] = s;
}
// A private array indexed in loops: one per work-item.
kernel void private_array(global const float *in, global float *out) {
  int g = get_global_id(0);
  float t[8];
  for (int x = 0; x < 8; ++x)
    t[x] = in[g * 8 + x];
  float s = 0.0f;
  for (int x = 0; x < 8; ++x)
    s += t[7 - x] * (float)(x + 1);
  out[g] = s;
}
// Atomics in a uniform loop.
kernel void atomics_in_loop(global int *counters, int n) {
  for (int x = 0; x < n; ++x)
    atomic_add(&counters[x % 4], 1);
}
// Three nested uniform loops, long and double arithmetic.
kernel void nested(global const double *in, global double *out, int n) {
  long g = get_global_id(0);
  double s = 0.0;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 2; ++c)
        s += in[(a + b + c) % n] * (double)(g + a * b - c);
  out[g] = s;
}
// A data-dependent early exit.
kernel void early_exit(global const int *in, global int *out, int n) {
  int g = get_global_id(0);
  int x = 0;
  for (; x < n; ++x)
    if (in[x] == g)
      break;
  out[g] = x;
}
// A math library call in the loop.
kernel void math_call(global const float *in, global float *out, int n) {
  int g = get_global_id(0);
  float s = 0.0f;
  for (int x = 0; x < n; ++x)
    s += sin(in[x] + (float)g);
  out[g] = s;
}
// hashcat's shape (its -a 3 optimized kernels, run one work-item per
// group with uint16 lanes): each iteration hashes 16 candidates as one
// uint16 (bit selects, adds, rotates), then looks each lane's digest up in
// a sorted list of targets and records a hit with an atomic. The atomics
// and lane-dependent branches keep the x-loop off the outer-loop path, and
// only the per-lane lookups read the digests: the uint16 arithmetic must
// stay vectors, not 16 scalars each (and compute what the host does).
#define STEP(a, b, c, d, x, k, s)                                            \
  a = rotate(a + bitselect(d, c, b) + (x) + (uint16)(k), (uint16)(s)) + b
#define HIT(l)                                                               \
  if (find(targets, n_targets, a.s##l ^ b.s##l)) {                           \
    uint slot = atomic_inc(count);                                           \
    if (slot < max_hits)                                                     \
      hits[slot] = gid * n + i + 0x##l;                                      \
  }
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
                             global const uint *targets, uint n_targets,
                             uint max_hits) {
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
    // The single-hash kernels' early exit: any() loops over the lanes.
    if (any((a ^ b) == (uint16)(targets[0])))
      atomic_inc(count + 1);
  }
}
)";

struct Fixture : sched::Env {
  cl_program P = nullptr;
  Fixture() {
    std::string Log;
    P = tryBuild(Source, "", Log);
    if (!P)
      FAIL("build failed: " << Log);
  }
  cl_kernel get(const char *Name) {
    cl_int Err = -1;
    cl_kernel K = clCreateKernel(P, Name, &Err);
    REQUIRE(Err == CL_SUCCESS);
    Kernels.push_back(K);
    return K;
  }
};

/// Runs \p K over \p N work-items for each local size and compares \p Out.
template <typename T>
void forLocalSizes(Fixture &F, cl_kernel K, size_t N, cl_mem Out,
                   const std::vector<T> &Want, std::function<bool(T, T)> Same) {
  for (size_t L : {size_t(1), size_t(7), size_t(16), size_t(17), size_t(64)}) {
    if (N % L)
      continue;
    INFO("local size " << L);
    std::vector<T> Zero(Want.size(), T{});
    REQUIRE(clEnqueueWriteBuffer(F.Q, Out, CL_TRUE, 0, Zero.size() * sizeof(T),
                                 Zero.data(), 0, nullptr,
                                 nullptr) == CL_SUCCESS);
    REQUIRE(F.run(K, 1, &N, &L) == CL_SUCCESS);
    std::vector<T> Got = F.read<T>(Out, Want.size());
    size_t Bad = 0;
    for (size_t I = 0; I < Want.size(); ++I)
      if (!Same(Got[I], Want[I]) && Bad++ < 5)
        FAIL_CHECK("element " << I << ": got " << Got[I] << ", want "
                              << Want[I]);
    CHECK(Bad == 0);
  }
}

bool near(float A, float B) {
  return std::fabs(A - B) <= 1e-3f * std::max(1.0f, std::fabs(B));
}

} // namespace

TEST_CASE("5.10: nbody (uniform inner loop, float4, rsqrt) matches the host",
          "[vectorize]") {
  Fixture F;
  const int N = 7 * 16 * 17; // 1904: divisible by 1, 7, 16, 17
  std::vector<float> Pos(4 * N);
  for (int I = 0; I < 4 * N; ++I)
    Pos[I] = static_cast<float>((I * 7919) % 1000) / 500.0f - 1.0f +
             (I % 4 == 3 ? 2.0f : 0.0f);
  std::vector<float> Want(4 * N);
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < N; ++J) {
      double D[4], R2 = 0.01;
      for (int C = 0; C < 4; ++C)
        D[C] = Pos[4 * J + C] - Pos[4 * I + C];
      for (int C = 0; C < 3; ++C)
        R2 += D[C] * D[C];
      double Inv = 1.0 / std::sqrt(R2), S = Pos[4 * J + 3] * Inv * Inv * Inv;
      for (int C = 0; C < 4; ++C)
        Want[4 * I + C] += static_cast<float>(S * D[C]);
    }
  cl_kernel K = F.get("nbody");
  cl_mem In = F.buffer(Pos), Out = F.buffer(std::vector<float>(4 * N));
  F.arg(K, 0, In);
  F.arg(K, 1, Out);
  F.arg(K, 2, N);
  forLocalSizes<float>(F, K, N, Out, Want, [](float A, float B) {
    return std::fabs(A - B) <= 2e-3f * std::max(1.0f, std::fabs(B));
  });
}

TEST_CASE("5.10: naive sgemm (adjacent columns per vector) matches the host "
          "in 2D",
          "[vectorize]") {
  Fixture F;
  const int Rows = 5, Cols = 7 * 16 * 17, Depth = 23;
  std::vector<float> A(Rows * Depth), B(Depth * Cols), Want(Rows * Cols);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = static_cast<float>(I % 11) * 0.25f - 1.0f;
  for (size_t I = 0; I < B.size(); ++I)
    B[I] = static_cast<float>(I % 13) * 0.5f - 3.0f;
  for (int R = 0; R < Rows; ++R)
    for (int C = 0; C < Cols; ++C) {
      float S = 0;
      for (int X = 0; X < Depth; ++X)
        S += A[R * Depth + X] * B[X * Cols + C];
      Want[R * Cols + C] = S;
    }
  cl_kernel K = F.get("sgemm");
  cl_mem MA = F.buffer(A), MB = F.buffer(B),
         MC = F.buffer(std::vector<float>(Rows * Cols));
  F.arg(K, 0, MA);
  F.arg(K, 1, MB);
  F.arg(K, 2, MC);
  F.arg(K, 3, Rows);
  F.arg(K, 4, Depth);
  for (size_t L : {size_t(1), size_t(16), size_t(17), size_t(112)}) {
    INFO("local size " << L << " x 1");
    size_t G[2] = {static_cast<size_t>(Cols), static_cast<size_t>(Rows)};
    size_t Loc[2] = {L, 1};
    REQUIRE(F.run(K, 2, G, Loc) == CL_SUCCESS);
    std::vector<float> Got = F.read<float>(MC, Want.size());
    size_t Bad = 0;
    for (size_t I = 0; I < Want.size(); ++I)
      if (!near(Got[I], Want[I]) && Bad++ < 5)
        FAIL_CHECK("element " << I << ": got " << Got[I] << ", want "
                              << Want[I]);
    CHECK(Bad == 0);
  }
}

TEST_CASE("5.10: loops under divergent branches, varying trip counts and "
          "early exits match the host",
          "[vectorize]") {
  Fixture F;
  const int N = 7 * 16 * 17, Len = 37;
  std::vector<int> In(N);
  for (int I = 0; I < N; ++I)
    In[I] = (I * 37) % 101 - 50;
  cl_mem MIn = F.buffer(In), Out = F.buffer(std::vector<int>(N));
  auto Eq = [](int A, int B) { return A == B; };
  {
    std::vector<int> Want(N);
    for (int G = 0; G < N; ++G) {
      int S = 0;
      for (int X = 0; X < Len; ++X)
        S += G % 3 == 0 ? In[X] * G : (((X + G) & 1) ? -In[X] : 0);
      Want[G] = S;
    }
    cl_kernel K = F.get("divergent");
    F.arg(K, 0, MIn);
    F.arg(K, 1, Out);
    F.arg(K, 2, Len);
    forLocalSizes<int>(F, K, N, Out, Want, Eq);
  }
  {
    std::vector<int> Want(N);
    for (int G = 0; G < N; ++G)
      for (int X = 0; X < G % 17; ++X)
        Want[G] += In[X] + X * G;
    cl_kernel K = F.get("varying_trip");
    F.arg(K, 0, MIn);
    F.arg(K, 1, Out);
    forLocalSizes<int>(F, K, N, Out, Want, Eq);
  }
  {
    std::vector<int> Want(N);
    for (int G = 0; G < N; ++G) {
      int X = 0;
      while (X < N && In[X] != G)
        ++X;
      Want[G] = X;
    }
    cl_kernel K = F.get("early_exit");
    F.arg(K, 0, MIn);
    F.arg(K, 1, Out);
    F.arg(K, 2, N);
    forLocalSizes<int>(F, K, N, Out, Want, Eq);
  }
}

TEST_CASE("5.10: private arrays, atomics, nested loops and library calls in "
          "loops match the host",
          "[vectorize]") {
  Fixture F;
  const int N = 7 * 16 * 17;
  {
    std::vector<float> In(8 * N), Want(N);
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = static_cast<float>(I % 29) - 14.0f;
    for (int G = 0; G < N; ++G)
      for (int X = 0; X < 8; ++X)
        Want[G] += In[G * 8 + 7 - X] * static_cast<float>(X + 1);
    cl_kernel K = F.get("private_array");
    cl_mem MIn = F.buffer(In), Out = F.buffer(std::vector<float>(N));
    F.arg(K, 0, MIn);
    F.arg(K, 1, Out);
    forLocalSizes<float>(F, K, N, Out, Want, near);
  }
  {
    const int Len = 10;
    std::vector<int> Want(4);
    for (int X = 0; X < Len; ++X)
      Want[X % 4] += N;
    cl_kernel K = F.get("atomics_in_loop");
    cl_mem Counters = F.buffer(std::vector<int>(4));
    F.arg(K, 0, Counters);
    F.arg(K, 1, Len);
    forLocalSizes<int>(F, K, N, Counters, Want,
                       [](int A, int B) { return A == B; });
  }
  {
    const int Len = 9;
    std::vector<double> In(Len), Want(N);
    for (int I = 0; I < Len; ++I)
      In[I] = 0.5 * I - 2.0;
    for (long G = 0; G < N; ++G)
      for (int A = 0; A < Len; ++A)
        for (int B = 0; B < 3; ++B)
          for (int C = 0; C < 2; ++C)
            Want[G] +=
                In[(A + B + C) % Len] * static_cast<double>(G + A * B - C);
    cl_kernel K = F.get("nested");
    cl_mem MIn = F.buffer(In), Out = F.buffer(std::vector<double>(N));
    F.arg(K, 0, MIn);
    F.arg(K, 1, Out);
    F.arg(K, 2, Len);
    forLocalSizes<double>(F, K, N, Out, Want, [](double A, double B) {
      return std::fabs(A - B) <= 1e-12 * std::max(1.0, std::fabs(B));
    });
  }
  {
    const int Len = 13;
    std::vector<float> In(Len), Want(N);
    for (int I = 0; I < Len; ++I)
      In[I] = 0.3f * static_cast<float>(I);
    for (int G = 0; G < N; ++G)
      for (int X = 0; X < Len; ++X)
        Want[G] += static_cast<float>(
            std::sin(static_cast<double>(In[X] + static_cast<float>(G))));
    cl_kernel K = F.get("math_call");
    cl_mem MIn = F.buffer(In), Out = F.buffer(std::vector<float>(N));
    F.arg(K, 0, MIn);
    F.arg(K, 1, Out);
    F.arg(K, 2, Len);
    forLocalSizes<float>(F, K, N, Out, Want, near);
  }
}

TEST_CASE("5.10: hashcat's shape (uint16 rounds, per-lane lookups and "
          "atomics, one work-item per group) matches the host",
          "[vectorize]") {
  Fixture F;
  const uint32_t N = 7 * 16 * 17, Cands = 64, MaxHits = 256;
  std::vector<uint32_t> Left(N), Right(Cands);
  for (uint32_t I = 0; I < N; ++I)
    Left[I] = I * 0x9e3779b9u;
  for (uint32_t I = 0; I < Cands; ++I)
    Right[I] = (I * 0x85ebca6bu) & 0xffff0000u;
  auto Rot = [](uint32_t X, uint32_t S) { return (X << S) | (X >> (32 - S)); };
  auto Step = [&](uint32_t &A, uint32_t B, uint32_t C, uint32_t D, uint32_t X,
                  uint32_t K, uint32_t S) {
    A = Rot(A + ((D & ~B) | (C & B)) + X + K, S) + B;
  };
  // Every candidate's digest (a ^ b after the rounds).
  std::vector<uint32_t> Digest(N * Cands);
  for (uint32_t G = 0; G < N; ++G)
    for (uint32_t I = 0; I < Cands; ++I) {
      uint32_t W = Left[G] | Right[I];
      uint32_t a = 0x67452301u, b = 0xefcdab89u, c = 0x98badcfeu,
               d = 0x10325476u;
      Step(a, b, c, d, W, 0xd76aa478u, 7);
      Step(d, a, b, c, W >> 3, 0xe8c7b756u, 12);
      Step(c, d, a, b, W ^ d, 0x242070dbu, 17);
      Step(b, c, d, a, W + 1u, 0xc1bdceeeu, 22);
      Step(a, b, c, d, W * 3u, 0xf57c0fafu, 7);
      Step(d, a, b, c, W, 0x4787c62au, 12);
      Step(c, d, a, b, W << 2, 0xa8304613u, 17);
      Step(b, c, d, a, W, 0xfd469501u, 22);
      Digest[G * Cands + I] = a ^ b;
    }
  // The digests of candidates spread over work-items and lanes, sorted for
  // the kernel's binary search: the hits are exactly the candidates whose
  // digest is listed.
  std::vector<uint32_t> Targets;
  for (uint32_t C = 3; C < N * Cands; C += 1021)
    Targets.push_back(Digest[C]);
  std::sort(Targets.begin(), Targets.end());
  Targets.erase(std::unique(Targets.begin(), Targets.end()), Targets.end());
  std::vector<uint32_t> WantHits;
  for (uint32_t C = 0; C < N * Cands; ++C)
    if (std::binary_search(Targets.begin(), Targets.end(), Digest[C]))
      WantHits.push_back(C);
  // The iterations (16 candidates each) with a lane whose digest is the
  // first target.
  uint32_t WantFirst = 0;
  for (uint32_t It = 0; It < N * Cands / 16; ++It)
    WantFirst += std::any_of(&Digest[It * 16], &Digest[It * 16 + 16],
                             [&](uint32_t D) { return D == Targets[0]; });
  REQUIRE(WantHits.size() >= 100);
  REQUIRE(WantHits.size() <= MaxHits);
  cl_kernel K = F.get("candidate_hashes");
  cl_mem MLeft = F.buffer(Left), MRight = F.buffer(Right),
         Hits = F.buffer(std::vector<uint32_t>(MaxHits)),
         Count = F.buffer(std::vector<uint32_t>(2)),
         MTargets = F.buffer(Targets);
  F.arg(K, 0, MLeft);
  F.arg(K, 1, MRight);
  F.arg(K, 2, Hits);
  F.arg(K, 3, Count);
  F.arg(K, 4, Cands);
  F.arg(K, 5, MTargets);
  F.arg(K, 6, static_cast<uint32_t>(Targets.size()));
  F.arg(K, 7, MaxHits);
  for (size_t L : {size_t(1), size_t(7), size_t(16), size_t(17)}) {
    INFO("local size " << L);
    std::vector<uint32_t> Zero(2);
    REQUIRE(clEnqueueWriteBuffer(F.Q, Count, CL_TRUE, 0, 2 * sizeof(uint32_t),
                                 Zero.data(), 0, nullptr,
                                 nullptr) == CL_SUCCESS);
    size_t G = N;
    REQUIRE(F.run(K, 1, &G, &L) == CL_SUCCESS);
    std::vector<uint32_t> Counts = F.read<uint32_t>(Count, 2);
    CHECK(Counts[1] == WantFirst);
    uint32_t Found = Counts[0];
    REQUIRE(Found == WantHits.size());
    std::vector<uint32_t> GotHits = F.read<uint32_t>(Hits, Found);
    std::sort(GotHits.begin(), GotHits.end());
    CHECK(GotHits == WantHits);
  }
}
