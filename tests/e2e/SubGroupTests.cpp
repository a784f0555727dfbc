// End-to-end: sub-groups (cl_khr_subgroups; OpenCL C 3.0 feature
// __opencl_c_subgroups; API 5.9.4 clGetKernelSubGroupInfo). A sub-group is
// a run of consecutive linear local ids of the device's SIMD width; the
// expected values are computed on the host from that width (read from
// CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, and checked against
// clGetKernelSubGroupInfo), on partial sub-groups, 1D/2D/3D and non-uniform
// work-groups.

#include "CollectiveReference.h"
#include "SchedulerCommon.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <string>

using sched::Env;
using sched::expectEqual;

namespace {

size_t kernelWorkGroupSize(Env &E, cl_kernel K) {
  size_t N = 0;
  REQUIRE(clGetKernelWorkGroupInfo(K, E.D, CL_KERNEL_WORK_GROUP_SIZE, sizeof N,
                                   &N, nullptr) == CL_SUCCESS);
  return N;
}

size_t subGroupInfo(cl_kernel K, cl_device_id D, cl_kernel_sub_group_info P,
                    const std::vector<size_t> &In) {
  size_t V = 0, Ret = 0;
  REQUIRE(clGetKernelSubGroupInfo(K, D, P, In.size() * sizeof(size_t),
                                  In.empty() ? nullptr : In.data(), sizeof V,
                                  &V, &Ret) == CL_SUCCESS);
  CHECK(Ret == sizeof V);
  return V;
}

/// A global size with two full groups and a partial one in each dimension
/// (non-uniform work-groups, OpenCL C 2.0+), or exactly two groups.
void globalFor(unsigned Dims, const size_t *L, bool NonUniform, size_t *G) {
  for (unsigned D = 0; D < 3; ++D)
    G[D] = 1;
  for (unsigned D = 0; D < Dims; ++D)
    G[D] = 2 * L[D] + (NonUniform && L[D] > 1 ? L[D] / 2 : 0);
}

/// The group and local linear ids of every work-item of an NDRange, and the
/// actual local size of its group: the host reference's view of it.
struct Item {
  size_t Global; // global linear id
  size_t Group;  // group linear id
  size_t Local;  // local linear id
  size_t Size;   // work-items in its group
};
std::vector<Item> itemsOf(const size_t *G, const size_t *L) {
  std::vector<Item> Out(G[0] * G[1] * G[2]);
  size_t NG[3];
  for (int D = 0; D < 3; ++D)
    NG[D] = (G[D] + L[D] - 1) / L[D];
  for (size_t Z = 0; Z < G[2]; ++Z)
    for (size_t Y = 0; Y < G[1]; ++Y)
      for (size_t X = 0; X < G[0]; ++X) {
        size_t Id[3] = {X, Y, Z}, Gr[3], Lo[3], Sz[3];
        for (int D = 0; D < 3; ++D) {
          Gr[D] = Id[D] / L[D];
          Lo[D] = Id[D] % L[D];
          Sz[D] = std::min(L[D], G[D] - Gr[D] * L[D]);
        }
        Item &I = Out[(Z * G[1] + Y) * G[0] + X];
        I.Global = (Z * G[1] + Y) * G[0] + X;
        I.Group = (Gr[2] * NG[1] + Gr[1]) * NG[0] + Gr[0];
        I.Local = (Lo[2] * Sz[1] + Lo[1]) * Sz[0] + Lo[0];
        I.Size = Sz[0] * Sz[1] * Sz[2];
      }
  return Out;
}

const char *QuerySource = R"(
#if __OPENCL_C_VERSION__ < 300
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif
kernel void q(global uint *out) {
  size_t g = get_global_linear_id();
#ifdef WITH_BARRIER
  barrier(CLK_GLOBAL_MEM_FENCE);
#endif
  global uint *o = out + g * 6;
  o[0] = get_sub_group_size();
  o[1] = get_max_sub_group_size();
  o[2] = get_num_sub_groups();
  o[3] = get_enqueued_num_sub_groups();
  o[4] = get_sub_group_id();
  o[5] = get_sub_group_local_id();
}
)";

void checkQueries(Env &E, const char *Options, unsigned Dims,
                  std::vector<size_t> L, bool NonUniform) {
  const size_t S = subGroupWidth(E.D);
  cl_kernel K = E.kernel(QuerySource, "q", Options);
  if (L[0] == 0) // the kernel's largest work-group
    L[0] = kernelWorkGroupSize(E, K);
  L.resize(3, 1);
  size_t G[3];
  globalFor(Dims, L.data(), NonUniform, G);
  std::vector<Item> Items = itemsOf(G, L.data());
  cl_mem O = E.buffer(std::vector<cl_uint>(Items.size() * 6, 0xdeadbeef));
  E.arg(K, 0, O);
  REQUIRE(E.run(K, Dims, G, L.data()) == CL_SUCCESS);
  std::vector<cl_uint> Out = E.read<cl_uint>(O, Items.size() * 6);
  size_t Enq = L[0] * L[1] * L[2];
  // clGetKernelSubGroupInfo agrees with the kernel's own queries.
  CHECK(subGroupInfo(K, E.D, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                     {L.begin(), L.begin() + Dims}) == std::min(S, Enq));
  CHECK(subGroupInfo(K, E.D, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                     {L.begin(), L.begin() + Dims}) == (Enq + S - 1) / S);
  size_t Bad = 0;
  for (const Item &I : Items) {
    size_t Sg = I.Local / S;
    cl_uint Want[6] = {
        static_cast<cl_uint>(std::min(S, I.Size - Sg * S)),
        static_cast<cl_uint>(std::min(S, Enq)),
        static_cast<cl_uint>((I.Size + S - 1) / S),
        static_cast<cl_uint>((Enq + S - 1) / S),
        static_cast<cl_uint>(Sg),
        static_cast<cl_uint>(I.Local % S),
    };
    for (int F = 0; F < 6; ++F)
      if (Out[I.Global * 6 + F] != Want[F]) {
        if (Bad < 5)
          UNSCOPED_INFO("item " << I.Global << " query " << F << " got "
                                << Out[I.Global * 6 + F] << " want "
                                << Want[F]);
        ++Bad;
      }
  }
  CHECK(Bad == 0);
}

const std::vector<std::vector<size_t>> QueryShapes[3] = {
    {{1}, {3}, {16}, {17}, {200}, {0}},
    {{1, 1}, {3, 5}, {4, 4}, {17, 3}, {16, 16}},
    {{1, 1, 1}, {2, 3, 5}, {4, 4, 4}, {5, 5, 4}, {3, 1, 7}}};

} // namespace

TEST_CASE("4.2: the device reports sub-groups (cl_khr_subgroups, "
          "__opencl_c_subgroups) with their size and forward progress",
          "[subgroup]") {
  Env E;
  const size_t S = subGroupWidth(E.D);
  // The SIMD width for 32-bit lanes: 4 (SSE), 8 (AVX), 16 (AVX-512).
  CHECK((S == 4 || S == 8 || S == 16));
  std::string Ext = deviceString(E.D, CL_DEVICE_EXTENSIONS);
  REQUIRE_FALSE(Ext.empty());
  for (const char *X :
       {"cl_khr_subgroups", "cl_khr_subgroup_shuffle",
        "cl_khr_subgroup_shuffle_relative", "cl_khr_subgroup_extended_types"}) {
    INFO(X);
    CHECK((" " + Ext + " ").find(" " + std::string(X) + " ") !=
          std::string::npos);
  }
  size_t N = 0;
  REQUIRE(clGetDeviceInfo(E.D, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr,
                          &N) == CL_SUCCESS);
  std::vector<cl_name_version> V(N / sizeof(cl_name_version));
  REQUIRE(clGetDeviceInfo(E.D, CL_DEVICE_EXTENSIONS_WITH_VERSION, N, V.data(),
                          nullptr) == CL_SUCCESS);
  CHECK(std::count_if(V.begin(), V.end(), [](const cl_name_version &X) {
          return std::string(X.name) == "cl_khr_subgroups";
        }) == 1);
  REQUIRE(clGetDeviceInfo(E.D, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &N) ==
          CL_SUCCESS);
  std::vector<cl_name_version> F(N / sizeof(cl_name_version));
  REQUIRE(clGetDeviceInfo(E.D, CL_DEVICE_OPENCL_C_FEATURES, N, F.data(),
                          nullptr) == CL_SUCCESS);
  CHECK(std::count_if(F.begin(), F.end(), [](const cl_name_version &X) {
          return std::string(X.name) == "__opencl_c_subgroups";
        }) == 1);
  size_t MaxWG = deviceInfo<size_t>(E.D, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  CHECK(deviceInfo<cl_uint>(E.D, CL_DEVICE_MAX_NUM_SUB_GROUPS) ==
        (MaxWG + S - 1) / S);
  // cl_khr_subgroups requires independent forward progress (tested below).
  CHECK(deviceInfo<cl_bool>(
            E.D, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS) == CL_TRUE);
}

TEST_CASE("6.15.2: sub-group queries with partial sub-groups (1D/2D/3D, "
          "uniform and non-uniform, with and without barriers)",
          "[subgroup]") {
  Env E;
  // OpenCL C 2.0 with cl_khr_subgroups (Clang knows the extension from 2.0
  // on) and 3.0 with __opencl_c_subgroups.
  for (const char *Opt :
       {"-cl-std=CL3.0", "-cl-std=CL3.0 -DWITH_BARRIER", "-cl-std=CL2.0",
        "-cl-std=CL2.0 -DWITH_BARRIER -cl-uniform-work-group-size"}) {
    bool CL3 = std::strstr(Opt, "uniform") == nullptr;
    for (unsigned Dims = 1; Dims <= 3; ++Dims)
      for (const auto &L : QueryShapes[Dims - 1])
        for (bool NonUniform : {false, true}) {
          if (NonUniform && !CL3)
            continue; // -cl-uniform-work-group-size
          INFO("options '" << Opt << "' " << Dims << "D local " << L[0]
                           << (L.size() > 1 ? "x" + std::to_string(L[1]) : "")
                           << (L.size() > 2 ? "x" + std::to_string(L[2]) : "")
                           << (NonUniform ? " non-uniform" : ""));
          checkQueries(E, Opt, Dims, L, NonUniform);
        }
  }
}

namespace {

using collective::Ops;

const char *FunctionSource = R"(
#if __OPENCL_C_VERSION__ < 300
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
kernel void f(global const T *in, global T *out, uint b) {
  size_t g = get_global_linear_id();
  T v = in[g];
  global T *o = out + g * 12;
  o[0] = sub_group_reduce_add(v);
  o[1] = sub_group_reduce_min(v);
  o[2] = sub_group_reduce_max(v);
  o[3] = sub_group_scan_inclusive_add(v);
  o[4] = sub_group_scan_inclusive_min(v);
  o[5] = sub_group_scan_inclusive_max(v);
  o[6] = sub_group_scan_exclusive_add(v);
  o[7] = sub_group_scan_exclusive_min(v);
  o[8] = sub_group_scan_exclusive_max(v);
  o[9] = sub_group_broadcast(v, b % get_sub_group_size());
  o[10] = sub_group_all(v > (T)-40);
  o[11] = sub_group_any(v == (T)7);
}
)";

template <typename T>
void checkFunctions(Env &E, const char *Type, const char *Std, unsigned Dims,
                    const std::vector<size_t> &Shape, bool NonUniform) {
  const size_t S = subGroupWidth(E.D);
  std::string Opt = std::string(Std) + " -DT=" + Type;
  cl_kernel K = E.kernel(FunctionSource, "f", Opt.c_str());
  size_t L[3] = {1, 1, 1}, G[3];
  for (unsigned D = 0; D < Dims; ++D)
    L[D] = Shape[D];
  globalFor(Dims, L, NonUniform, G);
  std::vector<Item> Items = itemsOf(G, L);
  std::mt19937 R(static_cast<unsigned>(Items.size() * 7 + Dims));
  std::vector<T> In(Items.size());
  for (T &X : In) {
    if constexpr (std::is_unsigned_v<T>)
      X = static_cast<T>(R() % 100);
    else
      X = static_cast<T>(static_cast<int>(R() % 101) - 50);
  }
  // Some sub-groups are all > -40 and some have a 7; not all.
  if (In.size() > 3) {
    In[0] = static_cast<T>(7);
    In[1] = static_cast<T>(std::is_unsigned_v<T> ? 0 : -45);
  }
  const cl_uint B = 5;
  cl_mem A = E.buffer(In), O = E.buffer(std::vector<T>(In.size() * Ops));
  E.arg(K, 0, A);
  E.arg(K, 1, O);
  E.arg(K, 2, B);
  REQUIRE(E.run(K, Dims, G, L) == CL_SUCCESS);
  std::vector<T> Out = E.read<T>(O, In.size() * Ops);

  // Each sub-group's members, in sub-group local id order.
  std::map<std::pair<size_t, size_t>, std::vector<size_t>> SubGroups;
  for (const Item &I : Items)
    SubGroups[{I.Group, I.Local / S}].push_back(I.Local);
  std::map<std::pair<size_t, size_t>, size_t> GlobalOf;
  for (const Item &I : Items)
    GlobalOf[{I.Group, I.Local}] = I.Global;
  size_t Bad = 0;
  for (auto &[Key, Locals] : SubGroups) {
    std::sort(Locals.begin(), Locals.end());
    std::vector<size_t> Ids;
    for (size_t Lo : Locals)
      Ids.push_back(GlobalOf[{Key.first, Lo}]);
    auto Ref = collective::reference(In, Ids, B % Ids.size());
    for (size_t J = 0; J < Ids.size(); ++J) {
      size_t I = Ids[J];
      const auto &W = Ref[J];
      for (int Op = 0; Op < Ops; ++Op) {
        T Got = Out[I * Ops + Op];
        // all/any return a non-zero int for true.
        bool Ok = Op >= 10 ? (Got != 0) == (W[Op] != 0) : Got == W[Op];
        if (!Ok) {
          if (Bad < 5)
            UNSCOPED_INFO("item " << I << " op " << Op << " got " << Got
                                  << " want " << W[Op]);
          ++Bad;
        }
      }
    }
  }
  CHECK(Bad == 0);
}

const std::vector<std::vector<size_t>> FunctionShapes[3] = {
    {{1}, {3}, {16}, {17}, {200}}, {{3, 5}, {16, 3}}, {{2, 3, 5}, {4, 4, 4}}};

template <typename T> void checkAllFunctions(const char *Type) {
  Env E;
  for (const char *Std : {"-cl-std=CL3.0", "-cl-std=CL2.0"})
    for (unsigned Dims = 1; Dims <= 3; ++Dims)
      for (const auto &L : FunctionShapes[Dims - 1])
        for (bool NonUniform : {false, true}) {
          INFO(Type << " '" << Std << "' " << Dims << "D local " << L[0]
                    << (L.size() > 1 ? "x" + std::to_string(L[1]) : "")
                    << (L.size() > 2 ? "x" + std::to_string(L[2]) : "")
                    << (NonUniform ? " non-uniform" : ""));
          checkFunctions<T>(E, Type, Std, Dims, L, NonUniform);
        }
}

} // namespace

TEST_CASE("6.15.19: sub-group functions on int", "[subgroup]") {
  checkAllFunctions<cl_int>("int");
}
TEST_CASE("6.15.19: sub-group functions on uint", "[subgroup]") {
  checkAllFunctions<cl_uint>("uint");
}
TEST_CASE("6.15.19: sub-group functions on long", "[subgroup]") {
  checkAllFunctions<cl_long>("long");
}
TEST_CASE("6.15.19: sub-group functions on ulong", "[subgroup]") {
  checkAllFunctions<cl_ulong>("ulong");
}
TEST_CASE("6.15.19: sub-group functions on float", "[subgroup]") {
  checkAllFunctions<cl_float>("float");
}
TEST_CASE("6.15.19: sub-group functions on double", "[subgroup]") {
  checkAllFunctions<cl_double>("double");
}

TEST_CASE("6.15.19: sub_group_barrier synchronizes only the sub-group: "
          "taken by some sub-groups only, and a different number of times "
          "per sub-group, between work-group barriers",
          "[subgroup]") {
  Env E;
  const size_t S = subGroupWidth(E.D);
  const char *Src = R"(
#if __OPENCL_C_VERSION__ < 300
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif
kernel void sgb(global const int *in, global int *out, global int *rounds,
                local int *tmp) {
  size_t g = get_global_id(0), l = get_local_id(0);
  uint sg = get_sub_group_id(), sl = get_sub_group_local_id(),
       n = get_sub_group_size();
  local int *mine = tmp + sg * get_max_sub_group_size();
  int v = in[g];
  if (sg % 2 == 0) {
    mine[sl] = v;
    SUB_GROUP_BARRIER;
    v = mine[n - 1 - sl]; // reversed within the sub-group
  } else {
    v = -v;
  }
  // Sub-group sg goes round sg times: each round rotates by one.
  int r = 0;
  for (uint i = 0; i < sg; ++i) {
    SUB_GROUP_BARRIER;
    mine[sl] = v;
    SUB_GROUP_BARRIER;
    v = mine[(sl + 1) % n];
    ++r;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  tmp[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tmp[get_local_size(0) - 1 - l]; // reversed within the group
  rounds[g] = r;
}
)";
  for (const char *Opt :
       {"-cl-std=CL2.0 "
        "-DSUB_GROUP_BARRIER=sub_group_barrier(CLK_LOCAL_MEM_FENCE)",
        "-cl-std=CL3.0 "
        "-DSUB_GROUP_BARRIER=sub_group_barrier(CLK_LOCAL_MEM_FENCE,"
        "memory_scope_sub_group)"}) {
    cl_kernel K = E.kernel(Src, "sgb", Opt);
    for (size_t L : {size_t(1), size_t(3), S, S + 1, size_t(200)}) {
      INFO(Opt << " local " << L);
      size_t G = 3 * L;
      std::vector<cl_int> In(G);
      for (size_t I = 0; I < G; ++I)
        In[I] = static_cast<cl_int>(I * 3 + 1);
      cl_mem A = E.buffer(In), O = E.buffer(std::vector<cl_int>(G)),
             Rd = E.buffer(std::vector<cl_int>(G, -1));
      E.arg(K, 0, A);
      E.arg(K, 1, O);
      E.arg(K, 2, Rd);
      E.localArg(K, 3, L * sizeof(cl_int));
      REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
      std::vector<cl_int> Out = E.read<cl_int>(O, G),
                          Rounds = E.read<cl_int>(Rd, G);
      std::vector<cl_int> Want(G), WantRounds(G);
      for (size_t Grp = 0; Grp < 3; ++Grp) {
        std::vector<cl_int> V(L);
        for (size_t Sg = 0; Sg * S < L; ++Sg) {
          size_t Begin = Sg * S, N = std::min(S, L - Begin);
          std::vector<cl_int> X(N);
          for (size_t J = 0; J < N; ++J)
            X[J] = Sg % 2 == 0 ? In[Grp * L + Begin + N - 1 - J]
                               : -In[Grp * L + Begin + J];
          for (size_t R = 0; R < Sg; ++R) {
            std::vector<cl_int> Y(N);
            for (size_t J = 0; J < N; ++J)
              Y[J] = X[(J + 1) % N];
            X = Y;
          }
          for (size_t J = 0; J < N; ++J) {
            V[Begin + J] = X[J];
            WantRounds[Grp * L + Begin + J] = static_cast<cl_int>(Sg);
          }
        }
        for (size_t J = 0; J < L; ++J)
          Want[Grp * L + J] = V[L - 1 - J];
      }
      CHECK(Out == Want);
      CHECK(Rounds == WantRounds);
    }
  }
}

TEST_CASE("6.15.19: sub-group collectives in sub-groups that diverge at the "
          "sub-group level",
          "[subgroup]") {
  Env E;
  const size_t S = subGroupWidth(E.D);
  // Odd sub-groups do two scans, even ones one reduction: each sub-group's
  // collectives only wait for its own work-items.
  const char *Src = R"(
kernel void div(global const int *in, global int *out) {
  size_t g = get_global_id(0);
  int v = in[g];
  if (get_sub_group_id() % 2) {
    v = sub_group_scan_inclusive_add(v);
    v = sub_group_scan_exclusive_max(v);
  } else {
    v = sub_group_reduce_min(v);
  }
  out[g] = v;
}
)";
  cl_kernel K = E.kernel(Src, "div", "-cl-std=CL3.0");
  size_t L = 5 * S + 3, G = 2 * L;
  std::vector<cl_int> In(G);
  for (size_t I = 0; I < G; ++I)
    In[I] = static_cast<cl_int>((I * 37) % 23) - 11;
  cl_mem A = E.buffer(In), O = E.buffer(std::vector<cl_int>(G));
  E.arg(K, 0, A);
  E.arg(K, 1, O);
  REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
  std::vector<cl_int> Out = E.read<cl_int>(O, G), Want(G);
  for (size_t Grp = 0; Grp < 2; ++Grp)
    for (size_t Sg = 0; Sg * S < L; ++Sg) {
      size_t Begin = Grp * L + Sg * S, N = std::min(S, L - Sg * S);
      if (Sg % 2) {
        cl_int Acc = 0, Mx = std::numeric_limits<cl_int>::min();
        for (size_t J = 0; J < N; ++J) {
          Acc += In[Begin + J];
          Want[Begin + J] = Mx;
          Mx = std::max(Mx, Acc);
        }
      } else {
        cl_int Mn = std::numeric_limits<cl_int>::max();
        for (size_t J = 0; J < N; ++J)
          Mn = std::min(Mn, In[Begin + J]);
        for (size_t J = 0; J < N; ++J)
          Want[Begin + J] = Mn;
      }
    }
  CHECK(Out == Want);
}

TEST_CASE("6.15.19 (compiler/InlineCollectives.cpp): float sub-group sums "
          "and scans add in increasing sub-group local id, bit for bit, in "
          "full sub-groups (computed in the kernel) and a partial last one "
          "(the runtime)",
          "[subgroup]") {
  Env E;
  const size_t S = subGroupWidth(E.D);
  const char *Src = R"(
kernel void fs(global const float *in, global float *out) {
  size_t g = get_global_id(0);
  float v = in[g];
  out[4 * g] = sub_group_reduce_add(v);
  out[4 * g + 1] = sub_group_scan_inclusive_add(v);
  out[4 * g + 2] = sub_group_scan_exclusive_add(v);
  out[4 * g + 3] = sub_group_scan_inclusive_min(v);
}
)";
  cl_kernel K = E.kernel(Src, "fs", "-cl-std=CL3.0");
  // Values of very different magnitudes: any other order of the additions
  // rounds differently.
  size_t L = 4 * S + 3, G = 3 * L;
  std::vector<cl_float> In(G);
  std::mt19937 R(11);
  for (cl_float &X : In)
    X = std::ldexp(static_cast<float>(R() % 2001) / 1000.0f - 1.0f,
                   static_cast<int>(R() % 40) - 20);
  cl_mem A = E.buffer(In), O = E.buffer(std::vector<cl_float>(4 * G));
  E.arg(K, 0, A);
  E.arg(K, 1, O);
  REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
  std::vector<cl_float> Out = E.read<cl_float>(O, 4 * G), Want(4 * G);
  for (size_t Grp = 0; Grp < G / L; ++Grp)
    for (size_t Sg = 0; Sg * S < L; ++Sg) {
      size_t Begin = Grp * L + Sg * S, N = std::min(S, L - Sg * S);
      float Sum = 0.0f, Min = INFINITY;
      for (size_t J = 0; J < N; ++J) {
        Want[4 * (Begin + J) + 2] = Sum;
        Sum += In[Begin + J];
        Min = In[Begin + J] < Min ? In[Begin + J] : Min;
        Want[4 * (Begin + J) + 1] = Sum;
        Want[4 * (Begin + J) + 3] = Min;
      }
      for (size_t J = 0; J < N; ++J)
        Want[4 * (Begin + J)] = Sum;
    }
  size_t Bad = 0;
  for (size_t I = 0; I < Out.size(); ++I)
    if (std::memcmp(&Out[I], &Want[I], sizeof(float)) != 0 && Bad++ < 5)
      UNSCOPED_INFO("out[" << I << "] = " << Out[I] << ", want " << Want[I]);
  CHECK(Bad == 0);
}

TEST_CASE("6.15.19, #8 (sub-group stretches, compiler/regions/RegionDriver.cpp "
          "emitSubGroupStretch): sub-group scans and broadcasts in a uniform "
          "loop with a sub-group barrier and a value carried across rounds, "
          "then a work-group barrier, run sub-group by sub-group when the x "
          "size is a multiple of the sub-group size, whole-group otherwise, "
          "and on fibers",
          "[subgroup]") {
  Env E;
  const size_t S = subGroupWidth(E.D);
  const char *Src = R"(
kernel void sgloop(global const int *in, global int *out, int rounds,
                   local int *l) {
  size_t g = get_global_linear_id();
  size_t lid = get_local_linear_id();
  size_t n = get_local_size(0) * get_local_size(1);
  int v = in[g];
  int acc = 0;
  for (int r = 0; r < rounds; ++r) {
    int s = sub_group_scan_inclusive_add(v + r);
    acc += sub_group_broadcast(s, (uint)r % get_sub_group_size());
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    v = s - acc;
  }
  l[lid] = v + acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = l[(lid + 1) % n] * 3 + sub_group_reduce_max(v);
}
)";
  const int Rounds = 5;
  // {x, y} local sizes: x a multiple of S (a stretch), and not.
  const std::vector<std::array<size_t, 2>> Shapes = {
      {8 * S, 1}, {6 * S, 1}, {2 * S, 4}, {S, 3}, {S + 4, 2}, {100, 1}, {1, 1}};
  for (const char *Opt : {"-cl-std=CL3.0", "-cl-std=CL3.0 -clcpu-force-fibers"})
    for (auto [Lx, Ly] : Shapes) {
      INFO(Opt << " local " << Lx << "x" << Ly);
      cl_kernel K = E.kernel(Src, "sgloop", Opt);
      size_t L[2] = {Lx, Ly}, G[2] = {Lx * 3, Ly * 2};
      size_t N = G[0] * G[1], Ln = Lx * Ly;
      std::vector<cl_int> In(N);
      std::mt19937 R(static_cast<unsigned>(Lx * 31 + Ly));
      for (cl_int &X : In)
        X = static_cast<cl_int>(R() % 201) - 100;
      cl_mem A = E.buffer(In), O = E.buffer(std::vector<cl_int>(N));
      E.arg(K, 0, A);
      E.arg(K, 1, O);
      E.arg(K, 2, static_cast<cl_int>(Rounds));
      E.localArg(K, 3, Ln * sizeof(cl_int));
      REQUIRE(E.run(K, 2, G, L) == CL_SUCCESS);
      std::vector<cl_int> Out = E.read<cl_int>(O, N), Want(N);
      // Per group: work-items in linear local id order, their global ids.
      for (size_t Gy = 0; Gy < G[1] / Ly; ++Gy)
        for (size_t Gx = 0; Gx < G[0] / Lx; ++Gx) {
          std::vector<size_t> Id(Ln);
          for (size_t Y = 0; Y < Ly; ++Y)
            for (size_t X = 0; X < Lx; ++X)
              Id[Y * Lx + X] = (Gy * Ly + Y) * G[0] + Gx * Lx + X;
          std::vector<int64_t> V(Ln), Acc(Ln), Max(Ln);
          for (size_t I = 0; I < Ln; ++I)
            V[I] = In[Id[I]];
          for (size_t First = 0; First < Ln; First += S) {
            size_t Cnt = std::min(S, Ln - First);
            int64_t A = 0;
            for (int Rd = 0; Rd < Rounds; ++Rd) {
              std::vector<int64_t> Scan(Cnt);
              int64_t Run = 0;
              for (size_t J = 0; J < Cnt; ++J)
                Scan[J] = Run += V[First + J] + Rd;
              A += Scan[static_cast<size_t>(Rd) % Cnt];
              for (size_t J = 0; J < Cnt; ++J)
                V[First + J] = Scan[J] - A;
            }
            int64_t M = V[First];
            for (size_t J = 0; J < Cnt; ++J) {
              Acc[First + J] = A;
              M = std::max(M, V[First + J]);
            }
            for (size_t J = 0; J < Cnt; ++J)
              Max[First + J] = M;
          }
          for (size_t I = 0; I < Ln; ++I) {
            size_t Next = (I + 1) % Ln;
            Want[Id[I]] = static_cast<cl_int>(
                static_cast<int32_t>(V[Next] + Acc[Next]) * 3 + Max[I]);
          }
        }
      expectEqual(Out, Want, "out");
    }
}

TEST_CASE("6.15.19, #8 (sub-group stretches): a uniform loop around a single "
          "sub-group scan (the region after it loops back to it: the round "
          "counter's group-wide slot is copied at each step), sub-group by "
          "sub-group and whole-group",
          "[subgroup]") {
  Env E;
  const size_t S = subGroupWidth(E.D);
  const char *Src = R"(
kernel void sgself(global int *io, int rounds) {
  size_t g = get_global_id(0);
  int v = io[g];
  for (int r = 0; r < rounds; ++r)
    v = sub_group_scan_inclusive_add(v) - r * (int)get_sub_group_local_id();
  io[g] = v;
}
)";
  const int Rounds = 4;
  for (const char *Opt : {"-cl-std=CL3.0", "-cl-std=CL3.0 -clcpu-force-fibers"})
    for (size_t L : {4 * S, S, S + 3, size_t(37)}) {
      INFO(Opt << " local " << L);
      cl_kernel K = E.kernel(Src, "sgself", Opt);
      size_t G = 5 * L;
      std::vector<cl_int> In(G);
      std::mt19937 R(static_cast<unsigned>(L));
      for (cl_int &X : In)
        X = static_cast<cl_int>(R() % 21) - 10;
      cl_mem A = E.buffer(In);
      E.arg(K, 0, A);
      E.arg(K, 1, static_cast<cl_int>(Rounds));
      REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
      std::vector<cl_int> Out = E.read<cl_int>(A, G), Want(In);
      for (size_t Grp = 0; Grp < G / L; ++Grp)
        for (size_t First = 0; First < L; First += S) {
          size_t Cnt = std::min(S, L - First);
          cl_int *V = Want.data() + Grp * L + First;
          for (int Rd = 0; Rd < Rounds; ++Rd) {
            uint32_t Run = 0;
            for (size_t J = 0; J < Cnt; ++J) {
              Run += static_cast<uint32_t>(V[J]);
              V[J] = static_cast<cl_int>(Run - static_cast<uint32_t>(Rd * J));
            }
          }
        }
      expectEqual(Out, Want, "io");
    }
}

TEST_CASE("4.2 (CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS): a "
          "sub-group waiting for a later one makes progress",
          "[subgroup]") {
  Env E;
  const size_t S = subGroupWidth(E.D);
  // The first work-item waits for a flag the last sub-group sets: with
  // work-items run in order and no yield, it would spin forever. With
  // barriers (fibers already) and without (the compiler must notice the
  // waiting loop); with OpenCL C 2.0 atomics and with OpenCL 1.2 ones.
  const char *Src = R"(
#if defined(C11_IMPLICIT)
#define LOAD(p) atomic_load(p)
#define STORE(p, v) atomic_store(p, v)
#define FLAG global atomic_int
#elif defined(C11)
#define LOAD(p) atomic_load_explicit(p, memory_order_acquire, memory_scope_work_group)
#define STORE(p, v) atomic_store_explicit(p, v, memory_order_release, memory_scope_work_group)
#define FLAG global atomic_int
#else
#define LOAD(p) atomic_add(p, 0)
#define STORE(p, v) atomic_xchg(p, v)
#define FLAG volatile global int
#endif
kernel void wait(FLAG *flags, global int *out) {
  size_t l = get_local_id(0), grp = get_group_id(0);
  FLAG *flag = flags + grp;
#ifdef WITH_BARRIER
  barrier(CLK_GLOBAL_MEM_FENCE);
#endif
  int spins = 0;
  if (l == 0) {
    while (LOAD(flag) == 0)
      ++spins;
  }
  if (get_sub_group_id() == get_num_sub_groups() - 1 &&
      get_sub_group_local_id() == 0)
    STORE(flag, 1);
  out[get_global_id(0)] = l == 0 ? (spins >= 0) : 2;
}
)";
  for (const char *Opt :
       {"-cl-std=CL3.0 -DC11", "-cl-std=CL3.0 -DC11 -DWITH_BARRIER",
        "-cl-std=CL3.0 -DC11_IMPLICIT", "-cl-std=CL3.0",
        "-cl-std=CL3.0 -DWITH_BARRIER"}) {
    cl_kernel K = E.kernel(Src, "wait", Opt);
    for (size_t L : {2 * S, 3 * S + 1, size_t(200)}) {
      INFO(Opt << " local " << L);
      size_t G = 4 * L;
      cl_mem Flags = E.buffer(std::vector<cl_int>(4, 0));
      cl_mem O = E.buffer(std::vector<cl_int>(G, -1));
      E.arg(K, 0, Flags);
      E.arg(K, 1, O);
      REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
      std::vector<cl_int> Out = E.read<cl_int>(O, G), Want(G, 2);
      for (size_t Grp = 0; Grp < 4; ++Grp)
        Want[Grp * L] = 1;
      CHECK(Out == Want);
      CHECK(E.read<cl_int>(Flags, 4) == std::vector<cl_int>(4, 1));
    }
  }
  // -cl-no-subgroup-ifp is accepted (the program promises not to need it).
  std::string Log;
  CHECK(E.tryBuild(Src, "-cl-std=CL3.0 -cl-no-subgroup-ifp", Log) != nullptr);
}

TEST_CASE("5.9.4: clGetKernelSubGroupInfo answers every query", "[subgroup]") {
  Env E;
  const size_t S = subGroupWidth(E.D);
  cl_kernel K = E.kernel("kernel void k(global int *p) { p[0] = 1; }", "k");
  const size_t MaxWG = kernelWorkGroupSize(E, K);
  for (const std::vector<size_t> &L :
       std::vector<std::vector<size_t>>{{1},
                                        {3},
                                        {S},
                                        {S + 1},
                                        {200},
                                        {MaxWG},
                                        {3, 5},
                                        {17, 3},
                                        {2, 3, 5},
                                        {5, 5, 4}}) {
    size_t N = 1;
    for (size_t X : L)
      N *= X;
    INFO("local size of " << N << " work-items in " << L.size() << "D");
    CHECK(subGroupInfo(K, E.D, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, L) ==
          std::min(N, S));
    CHECK(subGroupInfo(K, E.D, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, L) ==
          (N + S - 1) / S);
  }
  const size_t MaxNum = subGroupInfo(K, E.D, CL_KERNEL_MAX_NUM_SUB_GROUPS, {});
  CHECK(MaxNum == (MaxWG + S - 1) / S);
  CHECK(subGroupInfo(K, E.D, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, {}) == 0);
  // CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: one dimension of Count * S,
  // the others 1; 0 everywhere when no work-group has that many.
  for (size_t Count : {size_t(0), size_t(1), size_t(2), MaxNum / 2, MaxWG / S,
                       MaxWG / S + 1, MaxNum + 1}) {
    for (size_t Dims = 1; Dims <= 3; ++Dims) {
      INFO("count " << Count << " dims " << Dims);
      size_t Out[3] = {7, 7, 7}, Ret = 0;
      REQUIRE(clGetKernelSubGroupInfo(
                  K, E.D, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                  sizeof Count, &Count, Dims * sizeof(size_t), Out,
                  &Ret) == CL_SUCCESS);
      CHECK(Ret == Dims * sizeof(size_t));
      bool Fits = Count > 0 && Count * S <= MaxWG;
      CHECK(Out[0] == (Fits ? Count * S : 0));
      for (size_t D = 1; D < Dims; ++D)
        CHECK(Out[D] == (Fits ? 1 : 0));
      for (size_t D = Dims; D < 3; ++D)
        CHECK(Out[D] == 7);
    }
  }
  // The extension's entry point answers the same.
  auto KHR = extensionFunction<clGetKernelSubGroupInfoKHR_fn>(
      "clGetKernelSubGroupInfoKHR");
  REQUIRE(KHR);
  size_t L = 200, V = 0;
  CHECK(KHR(K, E.D, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof L, &L,
            sizeof V, &V, nullptr) == CL_SUCCESS);
  CHECK(V == (200 + S - 1) / S);
  // One device in the kernel's program: NULL names it.
  CHECK(clGetKernelSubGroupInfo(K, nullptr,
                                CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof L,
                                &L, sizeof V, &V, nullptr) == CL_SUCCESS);
}

TEST_CASE("5.9.4: clGetKernelSubGroupInfo error codes", "[subgroup]") {
  Env E;
  cl_kernel K = E.kernel("kernel void k(global int *p) { p[0] = 1; }", "k");
  size_t L[4] = {16, 1, 1, 1}, V = 0;
  // CL_INVALID_KERNEL if kernel is a not a valid kernel object.
  CHECK(clGetKernelSubGroupInfo(nullptr, E.D, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0,
                                nullptr, sizeof V, &V,
                                nullptr) == CL_INVALID_KERNEL);
  CHECK(clGetKernelSubGroupInfo(reinterpret_cast<cl_kernel>(E.C), E.D,
                                CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr,
                                sizeof V, &V, nullptr) == CL_INVALID_KERNEL);
  // CL_INVALID_DEVICE if device is not in the list of devices associated
  // with kernel.
  CHECK(clGetKernelSubGroupInfo(K, reinterpret_cast<cl_device_id>(E.C),
                                CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr,
                                sizeof V, &V, nullptr) == CL_INVALID_DEVICE);
  // CL_INVALID_VALUE if param_name is not valid.
  CHECK(clGetKernelSubGroupInfo(K, E.D, CL_KERNEL_WORK_GROUP_SIZE, sizeof L, L,
                                sizeof V, &V, nullptr) == CL_INVALID_VALUE);
  // ... or if size in bytes specified by param_value_size is < size of
  // return type and param_value is not NULL.
  for (cl_kernel_sub_group_info P :
       {CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
        CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, CL_KERNEL_MAX_NUM_SUB_GROUPS,
        CL_KERNEL_COMPILE_NUM_SUB_GROUPS}) {
    INFO("param " << P);
    CHECK(clGetKernelSubGroupInfo(K, E.D, P, sizeof(size_t), L, sizeof V - 1,
                                  &V, nullptr) == CL_INVALID_VALUE);
    size_t Ret = 0;
    CHECK(clGetKernelSubGroupInfo(K, E.D, P, sizeof(size_t), L, 0, nullptr,
                                  &Ret) == CL_SUCCESS);
    CHECK(Ret == sizeof(size_t));
  }
  size_t One = 1;
  CHECK(clGetKernelSubGroupInfo(
            K, E.D, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof One, &One,
            sizeof(size_t) - 1, L, nullptr) == CL_INVALID_VALUE);
  // CL_INVALID_VALUE if param_name is CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
  // CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE or
  // CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT and the size in bytes specified
  // by input_value_size is not valid or if input_value is NULL.
  for (cl_kernel_sub_group_info P : {CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                     CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE}) {
    INFO("param " << P);
    CHECK(clGetKernelSubGroupInfo(K, E.D, P, sizeof(size_t), nullptr, sizeof V,
                                  &V, nullptr) == CL_INVALID_VALUE);
    for (size_t Bad : {size_t(0), sizeof(size_t) - 1, sizeof(size_t) + 1,
                       4 * sizeof(size_t)})
      CHECK(clGetKernelSubGroupInfo(K, E.D, P, Bad, L, sizeof V, &V, nullptr) ==
            CL_INVALID_VALUE);
  }
  CHECK(clGetKernelSubGroupInfo(
            K, E.D, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof One,
            nullptr, sizeof L, L, nullptr) == CL_INVALID_VALUE);
  for (size_t Bad : {size_t(0), sizeof(size_t) - 1, 2 * sizeof(size_t)})
    CHECK(clGetKernelSubGroupInfo(K, E.D,
                                  CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, Bad,
                                  L, sizeof L, L, nullptr) == CL_INVALID_VALUE);
}

namespace {

const char *ShuffleSource = R"(
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
kernel void sh(global const T *in, global T *out, global const uint *idx) {
  size_t g = get_global_id(0);
  T v = in[g];
  uint i = idx[g];
  global T *o = out + g * 4;
  o[0] = sub_group_shuffle(v, i % get_sub_group_size());
  o[1] = sub_group_shuffle_xor(v, i % 4);
  o[2] = sub_group_shuffle_up(v, i % 3);
  o[3] = sub_group_shuffle_down(v, i % 3);
}
)";

template <typename T> void checkShuffle(const char *Type) {
  Env E;
  const size_t S = subGroupWidth(E.D);
  std::string Opt = std::string("-cl-std=CL3.0 -DT=") + Type;
  cl_kernel K = E.kernel(ShuffleSource, "sh", Opt.c_str());
  for (size_t L : {size_t(1), size_t(3), S, S + 1, size_t(200)}) {
    INFO(Type << " local " << L);
    size_t G = 3 * L;
    std::vector<T> In(G);
    std::vector<cl_uint> Idx(G);
    for (size_t I = 0; I < G; ++I) {
      In[I] = static_cast<T>(I % 100 + 1);
      Idx[I] = static_cast<cl_uint>((I * 7 + 3) % 31);
    }
    cl_mem A = E.buffer(In), O = E.buffer(std::vector<T>(G * 4)),
           X = E.buffer(Idx);
    E.arg(K, 0, A);
    E.arg(K, 1, O);
    E.arg(K, 2, X);
    REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
    std::vector<T> Out = E.read<T>(O, G * 4);
    size_t Bad = 0;
    for (size_t I = 0; I < G; ++I) {
      size_t Grp = I / L, Lo = I % L, First = Grp * L + Lo / S * S;
      size_t N = std::min(S, L - Lo / S * S), J = Lo % S;
      // Results with a source outside the sub-group are undefined.
      size_t Src[4] = {Idx[I] % N, J ^ (Idx[I] % 4), J - Idx[I] % 3,
                       J + Idx[I] % 3};
      for (int Op = 0; Op < 4; ++Op) {
        if (Src[Op] >= N)
          continue;
        if (Out[I * 4 + Op] != In[First + Src[Op]]) {
          if (Bad < 5)
            UNSCOPED_INFO("item " << I << " op " << Op << " got "
                                  << +Out[I * 4 + Op] << " want "
                                  << +In[First + Src[Op]]);
          ++Bad;
        }
      }
    }
    CHECK(Bad == 0);
  }
}

} // namespace

TEST_CASE("cl_khr_subgroup_shuffle, cl_khr_subgroup_shuffle_relative: "
          "shuffles on every scalar type",
          "[subgroup]") {
  checkShuffle<cl_char>("char");
  checkShuffle<cl_uchar>("uchar");
  checkShuffle<cl_short>("short");
  checkShuffle<cl_ushort>("ushort");
  checkShuffle<cl_int>("int");
  checkShuffle<cl_uint>("uint");
  checkShuffle<cl_long>("long");
  checkShuffle<cl_ulong>("ulong");
  checkShuffle<cl_float>("float");
  checkShuffle<cl_double>("double");
}

TEST_CASE("6.15.19: sub-group functions on char and short (the scalar types "
          "of cl_khr_subgroup_extended_types)",
          "[subgroup]") {
  Env E;
  // Small values: no overflow in the sums.
  for (const char *Type : {"char", "uchar", "short", "ushort"}) {
    std::string Opt = std::string("-cl-std=CL3.0 -DT=") + Type;
    const char *Src = R"(
kernel void e(global const T *in, global T *out) {
  size_t g = get_global_id(0);
  T v = in[g];
  out[g * 4] = sub_group_reduce_add(v);
  out[g * 4 + 1] = sub_group_scan_inclusive_max(v);
  out[g * 4 + 2] = sub_group_scan_exclusive_min(v);
  out[g * 4 + 3] = sub_group_broadcast(v, 1);
}
)";
    cl_kernel K = E.kernel(Src, "e", Opt.c_str());
    const size_t S = subGroupWidth(E.D);
    size_t L = 2 * S + 5, G = 2 * L;
    std::vector<cl_char> In8(G);
    std::vector<cl_short> In16(G);
    for (size_t I = 0; I < G; ++I)
      In16[I] = In8[I] = static_cast<cl_char>((I * 5) % 7);
    bool Is8 = std::strstr(Type, "char") != nullptr;
    cl_mem A = Is8 ? E.buffer(In8) : E.buffer(In16);
    cl_mem O = E.buffer(std::vector<cl_short>(G * 4));
    E.arg(K, 0, A);
    E.arg(K, 1, O);
    REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
    std::vector<int> Got(G * 4);
    bool Signed = Type[0] != 'u';
    auto Copy = [&](const auto &R) {
      std::copy(R.begin(), R.end(), Got.begin());
    };
    if (Is8 && Signed)
      Copy(E.read<cl_char>(O, G * 4));
    else if (Is8)
      Copy(E.read<cl_uchar>(O, G * 4));
    else if (Signed)
      Copy(E.read<cl_short>(O, G * 4));
    else
      Copy(E.read<cl_ushort>(O, G * 4));
    int Highest = Is8 ? (Signed ? 127 : 255) : (Signed ? 32767 : 65535);
    std::vector<int> Want(G * 4);
    for (size_t Grp = 0; Grp < 2; ++Grp)
      for (size_t Sg = 0; Sg * S < L; ++Sg) {
        size_t B = Grp * L + Sg * S, N = std::min(S, L - Sg * S);
        int Sum = 0, Mx = Signed ? (Is8 ? -128 : -32768) : 0, Mn = Highest;
        for (size_t J = 0; J < N; ++J)
          Sum += In16[B + J];
        for (size_t J = 0; J < N; ++J) {
          Want[(B + J) * 4] = Sum;
          Mx = std::max<int>(Mx, In16[B + J]);
          Want[(B + J) * 4 + 1] = Mx;
          Want[(B + J) * 4 + 2] = Mn;
          Mn = std::min<int>(Mn, In16[B + J]);
          Want[(B + J) * 4 + 3] = In16[B + (N > 1 ? 1 : 0)];
        }
      }
    INFO(Type);
    CHECK(Got == Want);
  }
}

TEST_CASE("6.15.19: sub_group_broadcast of vectors (cl_khr_subgroup_"
          "extended_types), one scalar broadcast per component on both paths",
          "[subgroup]") {
  Env E;
  const size_t S = subGroupWidth(E.D);
  const char *Src = R"(
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
kernel void vb(global const T *in, global T *out) {
  size_t g = get_global_id(0);
  out[g] = sub_group_broadcast(in[g], 1);
}
)";
  // Component bytes in memory: a 3-component vector takes 4 slots.
  const std::pair<const char *, size_t> Types[] = {
      {"char2", 2},   {"uchar3", 4},   {"short4", 8},    {"ushort8", 16},
      {"int3", 16},   {"uint16", 64},  {"long2", 16},    {"ulong4", 32},
      {"float8", 32}, {"double3", 32}, {"double16", 128}};
  for (const char *Path : {"", " -clcpu-force-fibers"})
    for (auto [Type, Bytes] : Types) {
      INFO(Type << Path);
      std::string Opt = std::string("-cl-std=CL3.0 -DT=") + Type + Path;
      cl_kernel K = E.kernel(Src, "vb", Opt.c_str());
      size_t L = S + 3, G = 2 * L;
      std::vector<unsigned char> In(G * Bytes);
      for (size_t I = 0; I < In.size(); ++I)
        In[I] = static_cast<unsigned char>(I * 13 + 1);
      cl_mem A = E.buffer(In),
             O = E.buffer(std::vector<unsigned char>(G * Bytes));
      E.arg(K, 0, A);
      E.arg(K, 1, O);
      REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
      std::vector<unsigned char> Out = E.read<unsigned char>(O, G * Bytes);
      size_t Bad = 0;
      bool Three = std::strchr(Type, '3') != nullptr;
      size_t Used = Three ? Bytes / 4 * 3 : Bytes; // padding is undefined
      for (size_t I = 0; I < G; ++I) {
        size_t First = I / L * L + I % L / S * S;
        for (size_t B = 0; B < Used; ++B)
          Bad += Out[I * Bytes + B] != In[(First + 1) * Bytes + B];
      }
      CHECK(Bad == 0);
    }
}
