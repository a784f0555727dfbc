// End-to-end: the non-uniform, clustered and rotate sub-group extensions
// (cl_khr_subgroup_non_uniform_vote, cl_khr_subgroup_non_uniform_arithmetic,
// cl_khr_subgroup_ballot, cl_khr_subgroup_clustered_reduce,
// cl_khr_subgroup_rotate; OpenCL C 3.0 6.15.19.3-8). A non-uniform function
// runs over the sub-group's active work-items: those that reach the call
// together. The host references compute each result over exactly those, in
// increasing sub-group local id, on full and partial sub-groups (a local size
// that is not a multiple of the sub-group width, and a smaller last
// work-group).

#include "CollectiveReference.h"
#include "SchedulerCommon.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

using sched::Env;

namespace {

/// One work-item of a 1D launch: its global id, sub-group local id and
/// the first global id and size of its sub-group.
struct Lane {
  size_t Global, Id, First, Size;
};
std::vector<Lane> lanesOf(size_t G, size_t L, size_t S) {
  std::vector<Lane> Out(G);
  for (size_t I = 0; I < G; ++I) {
    size_t Group = I / L * L, Size = std::min(L, G - Group), Lo = I - Group;
    size_t Sg = Lo / S * S;
    Out[I] = {I, Lo - Sg, Group + Sg, std::min(S, Size - Sg)};
  }
  return Out;
}

/// Wrapping integer arithmetic (the device's), plain for floating point.
template <typename T> T add(T A, T B) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(uint64_t(A) + uint64_t(B));
  else
    return A + B;
}
template <typename T> T mul(T A, T B) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(uint64_t(A) * uint64_t(B));
  else
    return A * B;
}

/// The operations of the arithmetic kernels, in the order they write them:
/// add, mul, min, max, then (integers) and, or, xor, then (int) the
/// logical and, or, xor.
template <typename T> struct Operation {
  T (*Fn)(T, T);
  T Identity;
};
template <typename T> std::vector<Operation<T>> operationsFor(bool Logical) {
  std::vector<Operation<T>> Ops = {
      {add<T>, T(0)},
      {mul<T>, T(1)},
      {[](T A, T B) { return B < A ? B : A; }, collective::highestOf<T>()},
      {[](T A, T B) { return A < B ? B : A; }, collective::lowestOf<T>()},
  };
  if constexpr (std::is_integral_v<T>) {
    Ops.push_back({[](T A, T B) { return T(A & B); }, T(~T(0))});
    Ops.push_back({[](T A, T B) { return T(A | B); }, T(0)});
    Ops.push_back({[](T A, T B) { return T(A ^ B); }, T(0)});
    if (Logical) {
      Ops.push_back({[](T A, T B) { return T(A && B); }, T(1)});
      Ops.push_back({[](T A, T B) { return T(A || B); }, T(0)});
      Ops.push_back({[](T A, T B) { return T(!A != !B); }, T(0)});
    }
  }
  return Ops;
}

/// The kernel source's calls for \p Prefix ("sub_group_non_uniform_" or
/// "sub_group_clustered_"): reduce, inclusive and exclusive scan of each
/// operation (clustered: reduce only, with cluster size CS), written to
/// o[0], o[1], ...
std::string callsFor(const std::string &Prefix, bool Clustered) {
  const char *Names[] = {"add",        "mul",        "min", "max",
                         "and",        "or",         "xor", "logical_and",
                         "logical_or", "logical_xor"};
  std::string Src;
  int Slot = 0;
  for (int Op = 0; Op < 10; ++Op) {
    if (Op == 4)
      Src += "#ifdef INTEGER\n";
    if (Op == 7)
      Src += "#ifdef LOGICAL\n";
    for (const char *Mode : {"reduce_", "scan_inclusive_", "scan_exclusive_"}) {
      if (Clustered && std::strcmp(Mode, "reduce_") != 0)
        continue;
      Src += "  o[" + std::to_string(Slot++) + "] = " + Prefix + Mode +
             Names[Op] + (Clustered ? "(v, CS);\n" : "(v);\n");
    }
    if (Op == 6 || Op == 9)
      Src += "#endif\n";
  }
  return Src;
}

const char *Preamble = R"(
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
)";

/// Non-uniform arithmetic and votes on type \p T ("int" ...), every
/// operation, for the work-items whose sub-group local id's bit is set in
/// the kernel's mask argument.
template <typename T> void checkNonUniform(const char *Type) {
  Env E;
  const size_t S = subGroupWidth(E.D);
  const bool Integer = std::is_integral_v<T>;
  const bool Logical = std::is_same_v<T, cl_int>;
  const std::vector<Operation<T>> Ops = operationsFor<T>(Logical);
  const size_t NOps = Ops.size() * 3;
  std::string Src = std::string(Preamble) +
                    "kernel void nu(global const T *in, global T *out, "
                    "global int *votes, uint mask) {\n"
                    "  size_t g = get_global_id(0);\n"
                    "  T v = in[g];\n"
                    "  if ((mask >> (get_sub_group_local_id() % 32)) & 1) {\n"
                    "  global T *o = out + g * NOPS;\n" +
                    callsFor("sub_group_non_uniform_", false) +
                    "  global int *w = votes + g * 4;\n"
                    "  w[0] = sub_group_elect();\n"
                    "  w[1] = sub_group_non_uniform_all(v > (T)2);\n"
                    "  w[2] = sub_group_non_uniform_any(v == (T)5);\n"
                    "  w[3] = sub_group_non_uniform_all_equal(v);\n"
                    "  }\n}\n";
  std::string Opt = std::string("-cl-std=CL3.0 -DT=") + Type +
                    " -DNOPS=" + std::to_string(NOps) +
                    (Integer ? " -DINTEGER" : "") +
                    (Logical ? " -DLOGICAL" : "");
  cl_kernel K = E.kernel(Src, "nu", Opt.c_str());
  // Local sizes with a partial sub-group, a lone work-item and a whole one;
  // the global size adds a smaller last group.
  for (size_t L : {S + 3, size_t(1), 2 * S}) {
    size_t G = 2 * L + (L > 1 ? L / 2 : 0);
    std::vector<T> In(G);
    for (size_t I = 0; I < G; ++I) // small values: products stay exact
      In[I] = static_cast<T>(I % 7 == 3 ? 5 : (I * 5 + 1) % 4 + 1);
    for (cl_uint Mask : {0xffffffffu, 0xaaaaaaaau, 0x0000000fu, 0x00000080u,
                         0x00000001u, 0u}) {
      INFO(Type << " local " << L << " mask " << std::hex << Mask);
      const T Poison = static_cast<T>(99);
      cl_mem A = E.buffer(In), O = E.buffer(std::vector<T>(G * NOps, Poison)),
             V = E.buffer(std::vector<cl_int>(G * 4, -7));
      E.arg(K, 0, A);
      E.arg(K, 1, O);
      E.arg(K, 2, V);
      E.arg(K, 3, Mask);
      REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
      std::vector<T> Out = E.read<T>(O, G * NOps);
      std::vector<cl_int> Votes = E.read<cl_int>(V, G * 4);
      std::vector<T> Want(G * NOps, Poison);
      std::vector<cl_int> WantVotes(G * 4, -7);
      auto Active = [&](const Lane &Ln) { return (Mask >> (Ln.Id % 32)) & 1; };
      std::vector<Lane> Lanes = lanesOf(G, L, S);
      for (const Lane &Ln : Lanes) {
        if (!Active(Ln))
          continue;
        // The active work-items of this one's sub-group, in order.
        std::vector<size_t> Act;
        for (size_t J = 0; J < Ln.Size; ++J)
          if (Active(Lanes[Ln.First + J]))
            Act.push_back(Ln.First + J);
        for (size_t Op = 0; Op < Ops.size(); ++Op) {
          T Red = Ops[Op].Identity, Incl = Ops[Op].Identity,
            Excl = Ops[Op].Identity;
          for (size_t J : Act) {
            Red = Ops[Op].Fn(Red, In[J]);
            if (J < Ln.Global)
              Excl = Ops[Op].Fn(Excl, In[J]);
            if (J <= Ln.Global)
              Incl = Ops[Op].Fn(Incl, In[J]);
          }
          Want[Ln.Global * NOps + Op * 3] = Red;
          Want[Ln.Global * NOps + Op * 3 + 1] = Incl;
          Want[Ln.Global * NOps + Op * 3 + 2] = Excl;
        }
        bool All = true, Any = false, Equal = true;
        for (size_t J : Act) {
          All &= In[J] > T(2);
          Any |= In[J] == T(5);
          Equal &= In[J] == In[Act[0]];
        }
        cl_int *W = &WantVotes[Ln.Global * 4];
        W[0] = Ln.Global == Act[0];
        W[1] = All;
        W[2] = Any;
        W[3] = Equal;
      }
      sched::expectEqual(Out, Want, "arithmetic");
      // Any non-zero value is true: compare truth values.
      for (cl_int &X : Votes)
        X = X == -7 ? -7 : X != 0;
      sched::expectEqual(Votes, WantVotes, "votes");
    }
  }
}

} // namespace

TEST_CASE("6.15.19.3-4 (cl_khr_subgroup_non_uniform_vote, "
          "cl_khr_subgroup_non_uniform_arithmetic): every operation over the "
          "active work-items",
          "[subgroup][nonuniform]") {
  checkNonUniform<cl_int>("int");
  checkNonUniform<cl_uint>("uint");
  checkNonUniform<cl_long>("long");
  checkNonUniform<cl_ulong>("ulong");
  checkNonUniform<cl_char>("char");
  checkNonUniform<cl_ushort>("ushort");
  checkNonUniform<cl_float>("float");
  checkNonUniform<cl_double>("double");
}

TEST_CASE("6.15.19.3-4: non-uniform functions in both branches of an if, "
          "after the branches reconverge, and in a loop of varying trip "
          "count",
          "[subgroup][nonuniform]") {
  Env E;
  const size_t S = subGroupWidth(E.D);
  const char *Src = R"(
kernel void div(global int *out) {
  size_t g = get_global_id(0);
  uint l = get_sub_group_local_id();
  int a = -1, b = -1, d = 0;
  if (l & 1)
    a = sub_group_non_uniform_reduce_add(1);
  else
    b = sub_group_non_uniform_scan_exclusive_add(1);
  int c = sub_group_non_uniform_reduce_add(1);
  for (uint i = 0; i <= l % 3; ++i)
    d += sub_group_non_uniform_reduce_add(1);
  int e = sub_group_elect();
  global int *o = out + g * 5;
  o[0] = a;
  o[1] = b;
  o[2] = c;
  o[3] = d;
  o[4] = e;
}
)";
  for (const char *Opt :
       {"-cl-std=CL3.0", "-cl-std=CL3.0 -clcpu-force-fibers"}) {
    cl_kernel K = E.kernel(Src, "div", Opt);
    for (size_t L : {S + 3, size_t(1), 2 * S + 1}) {
      INFO(Opt << " local " << L);
      size_t G = 3 * L;
      cl_mem O = E.buffer(std::vector<cl_int>(G * 5, 77));
      E.arg(K, 0, O);
      REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
      std::vector<cl_int> Out = E.read<cl_int>(O, G * 5);
      std::vector<cl_int> Want(G * 5);
      for (const Lane &Ln : lanesOf(G, L, S)) {
        cl_int *W = &Want[Ln.Global * 5];
        cl_int Odd = 0, EvenBefore = 0, D = 0;
        for (size_t J = 0; J < Ln.Size; ++J) {
          Odd += J & 1;
          EvenBefore += !(J & 1) && J < Ln.Id;
        }
        // Round i of the loop: the work-items with more than i rounds.
        for (size_t I = 0; I <= Ln.Id % 3; ++I)
          for (size_t J = 0; J < Ln.Size; ++J)
            D += J % 3 >= I;
        W[0] = (Ln.Id & 1) ? Odd : -1;
        W[1] = (Ln.Id & 1) ? -1 : EvenBefore;
        W[2] = static_cast<cl_int>(Ln.Size);
        W[3] = D;
        W[4] = Ln.Id == 0;
      }
      sched::expectEqual(Out, Want, "divergent");
    }
  }
}

TEST_CASE("6.15.19.3-5: active sets per round: both sides of an if in a "
          "loop, continue, nested loops, barriers between and around, an "
          "early return",
          "[subgroup][nonuniform]") {
  // The active set of a non-uniform call is the work-items of the sub-group
  // that reach it in the same round of every loop around it: the set a SIMD
  // machine has, which joins the two sides of a branch where they meet
  // (compiler/passes/Reconvergence.cpp).
  Env E;
  const size_t S = subGroupWidth(E.D);
  const char *Src = R"(
kernel void rounds(global int *out, local int *tmp) {
  size_t g = get_global_id(0);
  uint lid = get_local_id(0);
  uint l = get_sub_group_local_id();
  int r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = -5;
  tmp[lid] = (int)lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l & 1) {
    if (l & 2)
      r0 = sub_group_non_uniform_reduce_add(tmp[lid]);
    else
      r0 = sub_group_non_uniform_reduce_max(tmp[lid]);
  } else {
    r0 = sub_group_non_uniform_scan_inclusive_add(1);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < 3; ++k) {
    if ((l + k) % 3 == 0) {
      r1 += sub_group_non_uniform_reduce_add(k + 1);
    } else {
      uint4 b = sub_group_ballot(l & 1);
      r2 += popcount(b.x) + popcount(b.y);
    }
  }
  for (int k = 0; k < 4; ++k) {
    if ((l ^ k) & 1)
      continue;
    r3 += sub_group_non_uniform_reduce_add(1);
  }
  for (int o = 0; o < 2; ++o) {
    r4 += sub_group_non_uniform_reduce_add(o + 1) * 100;
    for (uint i = 0; i < (l + o) % 3; ++i)
      r4 += sub_group_non_uniform_reduce_add(1);
  }
  int r6 = 0;
  for (int k = 0; k < 3; ++k) {
    tmp[lid] = k + (int)lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l & 1)
      r6 += sub_group_non_uniform_reduce_add(tmp[lid]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  global int *p = out + g * 7;
  p[6] = r6;
  p[0] = r0;
  p[1] = r1;
  p[2] = r2;
  p[3] = r3;
  p[4] = r4;
  p[5] = r5;
  if (l == 2)
    return;
  p[5] = sub_group_non_uniform_reduce_add(1);
}
)";
  for (const char *Opt :
       {"-cl-std=CL3.0", "-cl-std=CL3.0 -clcpu-force-fibers"}) {
    cl_kernel K = E.kernel(Src, "rounds", Opt);
    for (size_t L : {S + 3, size_t(1), 2 * S + 1, 3 * S}) {
      INFO(Opt << " local " << L);
      size_t G = 3 * L + L / 2; // the last work-group is smaller
      cl_mem O = E.buffer(std::vector<cl_int>(G * 7, 77));
      E.arg(K, 0, O);
      E.localArg(K, 1, L * sizeof(cl_int));
      REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
      std::vector<cl_int> Out = E.read<cl_int>(O, G * 7);
      std::vector<cl_int> Want(G * 7);
      for (const Lane &Ln : lanesOf(G, L, S)) {
        cl_int *W = &Want[Ln.Global * 7];
        // The sub-group's lanes J that satisfy P.
        auto Count = [&](auto P) {
          cl_int N = 0;
          for (size_t J = 0; J < Ln.Size; ++J)
            N += P(J) ? 1 : 0;
          return N;
        };
        size_t Id = Ln.Id, First = Ln.Global % L - Id; // its local id
        if (Id & 1) {
          cl_int R = 0;
          for (size_t J = 0; J < Ln.Size; ++J)
            if ((Id & 2) && (J & 3) == 3)
              R += static_cast<cl_int>(First + J);
            else if (!(Id & 2) && (J & 3) == 1)
              R = std::max(R, static_cast<cl_int>(First + J));
          W[0] = R;
        } else {
          W[0] = Count([&](size_t J) { return !(J & 1) && J <= Id; });
        }
        W[1] = W[2] = W[3] = W[4] = 0;
        for (size_t Round = 0; Round < 3; ++Round)
          if ((Id + Round) % 3 == 0)
            W[1] += static_cast<cl_int>(Round + 1) *
                    Count([&](size_t J) { return (J + Round) % 3 == 0; });
          else
            W[2] += Count(
                [&](size_t J) { return (J + Round) % 3 != 0 && (J & 1); });
        for (size_t Round = 0; Round < 4; ++Round)
          if (!((Id ^ Round) & 1))
            W[3] += Count([&](size_t J) { return !((J ^ Round) & 1); });
        for (size_t Outer = 0; Outer < 2; ++Outer) {
          W[4] += 100 * static_cast<cl_int>((Outer + 1) * Ln.Size);
          for (size_t I = 0; I < (Id + Outer) % 3; ++I)
            W[4] += Count([&](size_t J) { return (J + Outer) % 3 > I; });
        }
        W[5] = Id == 2 ? -5 : Count([](size_t J) { return J != 2; });
        // Rounds of a uniform loop with barriers: the odd lanes' values.
        W[6] = 0;
        if (Id & 1)
          for (size_t Round = 0; Round < 3; ++Round)
            for (size_t J = 1; J < Ln.Size; J += 2)
              W[6] += static_cast<cl_int>(Round + First + J);
      }
      sched::expectEqual(Out, Want, "rounds");
    }
  }
}

TEST_CASE("6.15.19.5 (cl_khr_subgroup_ballot): ballots, their bit "
          "operations, the masks and the non-uniform broadcasts",
          "[subgroup][nonuniform]") {
  Env E;
  const size_t S = subGroupWidth(E.D);
  const char *Src = R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void bal(global const uint *in, global uint4 *out, global uint *bc,
                global double2 *vbc, uint mask) {
  size_t g = get_global_id(0);
  uint l = get_sub_group_local_id();
  uint4 b = (uint4)(12345);
  if ((mask >> l) & 1)
    b = sub_group_ballot(in[g] & 1);
  global uint4 *o = out + g * 8;
  o[0] = b;
  // A value of its own per work-item, bits in every component.
  uint4 v = (uint4)(in[g], in[g] * 3u, in[g] << 7, ~in[g]);
  o[1] = (uint4)(sub_group_inverse_ballot(v) != 0,
                 sub_group_ballot_bit_extract(v, 2) != 0,
                 sub_group_ballot_bit_count(v),
                 sub_group_ballot_inclusive_scan(v));
  o[2] = (uint4)(sub_group_ballot_exclusive_scan(v),
                 sub_group_ballot_find_lsb(
                     v | (uint4)(1u << (get_max_sub_group_size() - 1), 0, 0, 0)),
                 sub_group_ballot_find_msb(v | (uint4)(1, 0, 0, 0)), 0);
  o[3] = get_sub_group_eq_mask();
  o[4] = get_sub_group_ge_mask();
  o[5] = get_sub_group_gt_mask();
  o[6] = get_sub_group_le_mask();
  o[7] = get_sub_group_lt_mask();
  uint n = get_sub_group_size();
  double2 w = (double2)(in[g], -(double)in[g]);
  if (l < n / 2) {
    bc[g * 2] = sub_group_non_uniform_broadcast(in[g], n / 2 - 1);
    bc[g * 2 + 1] = sub_group_broadcast_first(in[g] + 1);
    vbc[g] = sub_group_non_uniform_broadcast(w, 0);
  } else {
    bc[g * 2] = sub_group_non_uniform_broadcast(in[g], n - 1);
    bc[g * 2 + 1] = sub_group_broadcast_first(in[g] + 1);
    vbc[g] = sub_group_non_uniform_broadcast(w, n / 2);
  }
}
)";
  cl_kernel K = E.kernel(Src, "bal", "-cl-std=CL3.0");
  for (size_t L : {S + 3, size_t(1), 2 * S}) {
    size_t G = 2 * L + (L > 1 ? L / 2 : 0);
    std::vector<cl_uint> In(G);
    for (size_t I = 0; I < G; ++I)
      In[I] = static_cast<cl_uint>(I * 2654435761u) ^ 0x5a5a0f0fu;
    for (cl_uint Mask : {0xffffffffu, 0x55555555u, 0x000000f0u, 0u}) {
      INFO("local " << L << " mask " << std::hex << Mask);
      cl_mem A = E.buffer(In), O = E.buffer(std::vector<cl_uint>(G * 32)),
             B = E.buffer(std::vector<cl_uint>(G * 2)),
             VB = E.buffer(std::vector<cl_double>(G * 2));
      E.arg(K, 0, A);
      E.arg(K, 1, O);
      E.arg(K, 2, B);
      E.arg(K, 3, VB);
      E.arg(K, 4, Mask);
      REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
      std::vector<cl_uint> Out = E.read<cl_uint>(O, G * 32);
      std::vector<cl_uint> Bc = E.read<cl_uint>(B, G * 2);
      std::vector<cl_double> Vbc = E.read<cl_double>(VB, G * 2);
      std::vector<cl_uint> Want(G * 32), WantBc(G * 2);
      std::vector<cl_double> WantVbc(G * 2);
      // Bits [Lo, Hi) of a 128-bit mask.
      auto Range = [](size_t Lo, size_t Hi, cl_uint *M) {
        for (size_t I = Lo; I < Hi; ++I)
          M[I / 32] |= 1u << (I % 32);
      };
      auto Count = [](const cl_uint *M, size_t Hi) {
        cl_uint N = 0;
        for (size_t I = 0; I < Hi; ++I)
          N += (M[I / 32] >> (I % 32)) & 1;
        return N;
      };
      std::vector<Lane> Lanes = lanesOf(G, L, S);
      for (const Lane &Ln : Lanes) {
        cl_uint *W = &Want[Ln.Global * 32];
        bool Active = (Mask >> Ln.Id) & 1;
        if (Active) {
          cl_uint Ballot = 0;
          for (size_t J = 0; J < Ln.Size; ++J)
            if (((Mask >> J) & 1) && (In[Ln.First + J] & 1))
              Ballot |= 1u << J;
          W[0] = Ballot, W[1] = W[2] = W[3] = 0;
        } else {
          W[0] = W[1] = W[2] = W[3] = 12345;
        }
        cl_uint X = In[Ln.Global];
        cl_uint V[4] = {X, X * 3u, X << 7, ~X};
        auto Bit = [&](size_t I) { return (V[I / 32] >> (I % 32)) & 1; };
        W[4] = Bit(Ln.Id);
        W[5] = Bit(2);
        // Counts and searches look at the bits below the maximum sub-group
        // size (get_max_sub_group_size(): the width, or a smaller local
        // size) only.
        const size_t MaxS = std::min(S, L);
        W[6] = Count(V, MaxS);
        W[7] = Count(V, Ln.Id + 1);
        W[8] = Count(V, Ln.Id);
        // (With no member bit set the result is undefined: one is set.)
        cl_uint Lsb[4] = {V[0] | 1u << (MaxS - 1), V[1], V[2], V[3]};
        cl_uint Msb[4] = {V[0] | 1u, V[1], V[2], V[3]};
        size_t First = 0, Last = 0;
        while (!((Lsb[First / 32] >> (First % 32)) & 1))
          ++First;
        for (size_t I = 0; I < MaxS; ++I)
          if ((Msb[I / 32] >> (I % 32)) & 1)
            Last = I;
        W[9] = static_cast<cl_uint>(First);
        W[10] = static_cast<cl_uint>(Last);
        W[11] = 0;
        Range(Ln.Id, Ln.Id + 1, W + 12);
        Range(Ln.Id, MaxS, W + 16);
        Range(Ln.Id + 1, MaxS, W + 20);
        Range(0, Ln.Id + 1, W + 24);
        Range(0, Ln.Id, W + 28);
        // Each branch's work-items: the first half of the sub-group and the
        // rest; the broadcasts read within the caller's branch.
        size_t Half = Ln.Size / 2;
        bool Low = Ln.Id < Half;
        size_t From = Low ? Half - 1 : Ln.Size - 1;
        size_t Begin = Low ? 0 : Half;
        WantBc[Ln.Global * 2] = In[Ln.First + From];
        WantBc[Ln.Global * 2 + 1] = In[Ln.First + Begin] + 1;
        size_t VFrom = Ln.First + (Low ? 0 : Half);
        WantVbc[Ln.Global * 2] = In[VFrom];
        WantVbc[Ln.Global * 2 + 1] = -double(In[VFrom]);
      }
      sched::expectEqual(Out, Want, "ballot");
      sched::expectEqual(Bc, WantBc, "broadcasts");
      sched::expectEqual(Vbc, WantVbc, "vector broadcast");
    }
  }
}

namespace {

/// Clustered reductions of every operation on type \p T, for cluster
/// sizes 1, 2, 4 and the sub-group width, on both kernel paths.
template <typename T> void checkClustered(const char *Type) {
  Env E;
  const size_t S = subGroupWidth(E.D);
  const bool Integer = std::is_integral_v<T>;
  const bool Logical = std::is_same_v<T, cl_int>;
  const std::vector<Operation<T>> Ops = operationsFor<T>(Logical);
  const size_t NOps = Ops.size();
  std::string Src = std::string(Preamble) +
                    "kernel void cr(global const T *in, global T *out) {\n"
                    "  size_t g = get_global_id(0);\n"
                    "  T v = in[g];\n"
                    "  global T *o = out + g * NOPS;\n" +
                    callsFor("sub_group_clustered_", true) + "}\n";
  for (size_t Cluster : {size_t(1), size_t(2), size_t(4), S})
    for (const char *Path : {"", " -clcpu-force-fibers"}) {
      std::string Opt = std::string("-cl-std=CL3.0 -DT=") + Type +
                        " -DNOPS=" + std::to_string(NOps) +
                        " -DCS=" + std::to_string(Cluster) +
                        (Integer ? " -DINTEGER" : "") +
                        (Logical ? " -DLOGICAL" : "") + Path;
      cl_kernel K = E.kernel(Src, "cr", Opt.c_str());
      for (size_t L : {2 * S + 3, S}) {
        INFO(Type << " cluster " << Cluster << Path << " local " << L);
        size_t G = 2 * L + L / 2;
        std::vector<T> In(G);
        for (size_t I = 0; I < G; ++I)
          In[I] = static_cast<T>((I * 3 + 1) % 5 + (I % 9 == 4 ? 0 : 1));
        cl_mem A = E.buffer(In), O = E.buffer(std::vector<T>(G * NOps));
        E.arg(K, 0, A);
        E.arg(K, 1, O);
        REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
        std::vector<T> Out = E.read<T>(O, G * NOps);
        std::vector<T> Want(G * NOps);
        for (const Lane &Ln : lanesOf(G, L, S)) {
          size_t Begin = Ln.Id / Cluster * Cluster;
          size_t End = std::min(Begin + Cluster, Ln.Size);
          for (size_t Op = 0; Op < NOps; ++Op) {
            T R = Ops[Op].Identity;
            for (size_t J = Begin; J < End; ++J)
              R = Ops[Op].Fn(R, In[Ln.First + J]);
            Want[Ln.Global * NOps + Op] = R;
          }
        }
        sched::expectEqual(Out, Want, "clustered");
      }
    }
}

} // namespace

TEST_CASE("6.15.19.6 (cl_khr_subgroup_clustered_reduce): every operation, "
          "cluster sizes 1 to the sub-group width, both kernel paths",
          "[subgroup][clustered]") {
  checkClustered<cl_int>("int");
  checkClustered<cl_uint>("uint");
  checkClustered<cl_long>("long");
  checkClustered<cl_char>("char");
  checkClustered<cl_short>("short");
  checkClustered<cl_float>("float");
  checkClustered<cl_double>("double");
}

TEST_CASE("4.2: the device reports the non-uniform and clustered sub-group "
          "extensions and the compiler defines their macros",
          "[subgroup]") {
  Env E;
  std::string Ext = deviceString(E.D, CL_DEVICE_EXTENSIONS);
  const char *Names[] = {
      "cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_ballot",
      "cl_khr_subgroup_non_uniform_arithmetic",
      "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate"};
  std::string Src = "kernel void m(global int *out) {\n";
  int I = 0;
  for (const char *N : Names) {
    INFO(N);
    CHECK(Ext.find(N) != std::string::npos);
    Src += std::string("#ifdef ") + N + "\n  out[" + std::to_string(I) +
           "] = 1;\n#endif\n";
    ++I;
  }
  Src += "}\n";
  for (const char *Std : {"-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"}) {
    INFO(Std);
    cl_kernel K = E.kernel(Src, "m", Std);
    cl_mem O = E.buffer(std::vector<cl_int>(5, 0));
    E.arg(K, 0, O);
    size_t G = 1;
    REQUIRE(E.run(K, 1, &G, &G) == CL_SUCCESS);
    CHECK(E.read<cl_int>(O, 5) == std::vector<cl_int>(5, 1));
  }
}

TEST_CASE("6.15.19.7 (cl_khr_subgroup_rotate): sub_group_rotate and "
          "sub_group_clustered_rotate, positive and negative deltas, partial "
          "sub-groups, both kernel paths",
          "[subgroup][rotate]") {
  Env E;
  const size_t S = subGroupWidth(E.D);
  const char *Src = R"(
kernel void rot(global const long *in, global long *out, int delta) {
  size_t g = get_global_id(0);
  long v = in[g];
  global long *o = out + g * 4;
  o[0] = sub_group_rotate(v, delta);
  o[1] = sub_group_clustered_rotate(v, delta, 1);
  o[2] = sub_group_clustered_rotate(v, delta, 2);
  o[3] = sub_group_clustered_rotate(v, delta, CS);
}
)";
  for (const char *Path : {"", " -clcpu-force-fibers"}) {
    std::string Opt = "-cl-std=CL3.0 -DCS=" + std::to_string(S / 2) + Path;
    cl_kernel K = E.kernel(Src, "rot", Opt.c_str());
    for (size_t L : {S + 3, size_t(3), 2 * S})
      for (cl_int Delta : {1, -1, 3, -13, 0, 100}) {
        INFO(Path << " local " << L << " delta " << Delta);
        size_t G = 2 * L + (L > 1 ? L / 2 : 0);
        std::vector<cl_long> In(G);
        for (size_t I = 0; I < G; ++I)
          In[I] = static_cast<cl_long>(I * 1000003 + 17);
        cl_mem A = E.buffer(In), O = E.buffer(std::vector<cl_long>(G * 4));
        E.arg(K, 0, A);
        E.arg(K, 1, O);
        E.arg(K, 2, Delta);
        REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
        std::vector<cl_long> Out = E.read<cl_long>(O, G * 4);
        // The maximum sub-group size: the width, or a smaller local size.
        const int64_t MaxS = static_cast<int64_t>(std::min(S, L));
        const int64_t Clusters[4] = {MaxS, 1, 2, static_cast<int64_t>(S / 2)};
        size_t Bad = 0, Checked = 0;
        for (const Lane &Ln : lanesOf(G, L, S))
          for (int F = 0; F < 4; ++F) {
            int64_t C = Clusters[F], Id = static_cast<int64_t>(Ln.Id);
            int64_t First = Id / C * C;
            int64_t R = ((Id - First + Delta) % C + C) % C;
            size_t Src = static_cast<size_t>(First + R);
            if (Src >= Ln.Size) // a work-item the sub-group lacks: undefined
              continue;
            ++Checked;
            if (Out[Ln.Global * 4 + F] != In[Ln.First + Src]) {
              if (Bad < 4)
                UNSCOPED_INFO("item " << Ln.Global << " form " << F << " got "
                                      << Out[Ln.Global * 4 + F] << " want "
                                      << In[Ln.First + Src]);
              ++Bad;
            }
          }
        CHECK(Checked > G);
        CHECK(Bad == 0);
      }
  }
}

TEST_CASE("6.15.19.8 (cl_khr_subgroup_shuffle): shuffles in both branches of "
          "a divergent if read within their own branch",
          "[subgroup][nonuniform]") {
  Env E;
  const size_t S = subGroupWidth(E.D);
  const char *Src = R"(
kernel void sh(global const int *in, global int *out) {
  size_t g = get_global_id(0);
  uint l = get_sub_group_local_id();
  int v = in[g];
  if (l % 2 == 0)
    out[g] = sub_group_shuffle_xor(v, 2);   // even lanes: l ^ 2 is even
  else
    out[g] = sub_group_shuffle(v * 10, 1);  // odd lanes: lane 1
}
)";
  // Regions: the two sync points each compute over the work-items there;
  // fibers: per call site.
  for (const char *Opt :
       {"-cl-std=CL3.0", "-cl-std=CL3.0 -clcpu-force-fibers"}) {
    INFO(Opt);
    cl_kernel K = E.kernel(Src, "sh", Opt);
    size_t L = 2 * S, G = 3 * L;
    std::vector<cl_int> In(G);
    for (size_t I = 0; I < G; ++I)
      In[I] = static_cast<cl_int>(I * 7 + 1);
    cl_mem A = E.buffer(In), O = E.buffer(std::vector<cl_int>(G, -1));
    E.arg(K, 0, A);
    E.arg(K, 1, O);
    REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
    std::vector<cl_int> Out = E.read<cl_int>(O, G), Want(G);
    for (const Lane &Ln : lanesOf(G, L, S))
      Want[Ln.Global] =
          Ln.Id % 2 == 0 ? In[Ln.First + (Ln.Id ^ 2)] : In[Ln.First + 1] * 10;
    sched::expectEqual(Out, Want, "divergent shuffles");
  }
}

TEST_CASE("6.15.19.7: sub_group_clustered_rotate with a cluster size that is "
          "not an integer constant expression (undefined) fails the build "
          "with a reason",
          "[subgroup][rotate]") {
  Env E;
  std::string Log;
  cl_program P = E.tryBuild(R"(
kernel void k(global int *o, uint cs) {
  size_t g = get_global_id(0);
  o[g] = sub_group_clustered_rotate(o[g], 1, cs);
}
)",
                            "-cl-std=CL3.0", Log);
  CHECK(P == nullptr);
  INFO(Log);
  CHECK(Log.find("sub_group_clustered_rotate") != std::string::npos);
}

TEST_CASE("4.2 (CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS): a "
          "non-uniform call does not wait for a work-item of its sub-group "
          "that spins on a flag the call's work-items set",
          "[subgroup][nonuniform]") {
  Env E;
  const char *Src = R"(
kernel void ifp(volatile global int *flags, global int *out) {
  size_t g = get_global_id(0);
  uint l = get_sub_group_local_id();
  volatile global int *flag = flags + get_group_id(0) * 64 + get_sub_group_id();
  if (l == 0) {
    while (atomic_add(flag, 0) == 0)
      ;
    out[g] = -atomic_add(flag, 0);
  } else {
    int n = sub_group_non_uniform_reduce_add(1);
    if (sub_group_elect())
      atomic_xchg(flag, n);
    out[g] = n;
  }
}
)";
  cl_kernel K = E.kernel(Src, "ifp", "-cl-std=CL3.0");
  const size_t S = subGroupWidth(E.D);
  for (size_t L : {S, 2 * S + 3}) {
    INFO("local " << L);
    size_t G = 2 * L;
    cl_mem F = E.buffer(std::vector<cl_int>(2 * 64, 0)),
           O = E.buffer(std::vector<cl_int>(G, 99));
    E.arg(K, 0, F);
    E.arg(K, 1, O);
    REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
    std::vector<cl_int> Out = E.read<cl_int>(O, G), Want(G);
    for (const Lane &Ln : lanesOf(G, L, S)) {
      cl_int Others = static_cast<cl_int>(Ln.Size) - 1;
      Want[Ln.Global] = Ln.Id == 0 ? -Others : Others;
    }
    sched::expectEqual(Out, Want, "spinning lane");
  }
}

TEST_CASE("6.15.19.3-5: non-uniform functions and ballots in 2D and 3D "
          "work-groups with partial sub-groups and smaller last groups",
          "[subgroup][nonuniform]") {
  Env E;
  const size_t S = subGroupWidth(E.D);
  const char *Src = R"(
kernel void nd(global uint *out) {
  size_t g = get_global_linear_id();
  uint l = get_sub_group_local_id();
  uint lin = get_local_linear_id();
  global uint *o = out + g * 4;
  o[0] = o[1] = 77;
  if (lin % 3 != 1) {
    o[0] = sub_group_non_uniform_reduce_add(lin);
    o[1] = sub_group_elect();
  }
  o[2] = sub_group_ballot(lin % 2 == 0).x;
  o[3] = get_sub_group_lt_mask().x;
}
)";
  cl_kernel K = E.kernel(Src, "nd", "-cl-std=CL3.0");
  const std::vector<std::vector<size_t>> Shapes = {
      {5, 3}, {4, 4}, {S + 1, 2}, {3, 2, 2}, {2, 3, 5}};
  for (const std::vector<size_t> &Shape : Shapes) {
    size_t L[3] = {1, 1, 1}, G[3] = {1, 1, 1};
    cl_uint Dims = static_cast<cl_uint>(Shape.size());
    for (cl_uint D = 0; D < Dims; ++D) {
      L[D] = Shape[D];
      G[D] = 2 * L[D] + (L[D] > 1 ? L[D] / 2 : 0); // a smaller last group
    }
    INFO("local " << L[0] << "x" << L[1] << "x" << L[2]);
    size_t Total = G[0] * G[1] * G[2];
    cl_mem O = E.buffer(std::vector<cl_uint>(Total * 4, 0));
    E.arg(K, 0, O);
    REQUIRE(E.run(K, Dims, G, L) == CL_SUCCESS);
    std::vector<cl_uint> Out = E.read<cl_uint>(O, Total * 4);
    // Each group's work-items by local linear id (with their global linear
    // ids); then the expected values per sub-group of each group.
    std::vector<cl_uint> Want(Total * 4);
    std::map<size_t, std::vector<std::pair<size_t, size_t>>> Groups;
    for (size_t Z = 0; Z < G[2]; ++Z)
      for (size_t Y = 0; Y < G[1]; ++Y)
        for (size_t X = 0; X < G[0]; ++X) {
          size_t Id[3] = {X, Y, Z}, Gr[3], Lo[3], Sz[3];
          for (int D = 0; D < 3; ++D) {
            Gr[D] = Id[D] / L[D];
            Lo[D] = Id[D] % L[D];
            Sz[D] = std::min(L[D], G[D] - Gr[D] * L[D]);
          }
          size_t Group = (Gr[2] * 3 + Gr[1]) * 3 + Gr[0];
          size_t Lin = (Lo[2] * Sz[1] + Lo[1]) * Sz[0] + Lo[0];
          Groups[Group].push_back({Lin, (Z * G[1] + Y) * G[0] + X});
        }
    for (auto &[Group, Items] : Groups) {
      std::sort(Items.begin(), Items.end());
      for (size_t I = 0; I < Items.size(); I += S) {
        size_t End = std::min(I + S, Items.size());
        cl_uint Sum = 0, Ballot = 0;
        size_t First = End;
        for (size_t J = I; J < End; ++J) {
          if (Items[J].first % 3 != 1) {
            Sum += static_cast<cl_uint>(Items[J].first);
            First = std::min(First, J);
          }
          if (Items[J].first % 2 == 0)
            Ballot |= 1u << (J - I);
        }
        for (size_t J = I; J < End; ++J) {
          cl_uint *W = &Want[Items[J].second * 4];
          bool Active = Items[J].first % 3 != 1;
          W[0] = Active ? Sum : 77;
          W[1] = Active ? (J == First) : 77;
          W[2] = Ballot;
          W[3] = (1u << (J - I)) - 1;
        }
      }
    }
    sched::expectEqual(Out, Want, "2D/3D");
  }
}
