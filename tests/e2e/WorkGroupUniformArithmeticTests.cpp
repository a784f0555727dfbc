// End-to-end: cl_khr_work_group_uniform_arithmetic 1.0.0 (OpenCL C 3.0,
// 6.15.16 "Work-group Collective Functions", as the extension adds to it):
// work_group_reduce_<op>, work_group_scan_inclusive_<op> and
// work_group_scan_exclusive_<op> of mul (int, uint, long, ulong, float,
// double, half), of the bitwise and, or and xor (int, uint, long, ulong) and
// of the logical and, or and xor of an int predicate, against host
// references over each work-group in increasing linear local id: 1D, 2D and
// 3D groups, sizes that are not a multiple of the vector width, and a
// smaller last group in each dimension (non-uniform work-groups).
//
// Each kernel takes one of the ways a work-group collective runs: the
// barrier regions with the collectives as their only sync points, the
// regions behind a barrier (the operands exchanged through local memory),
// the regions of a loop with the collectives inside, and one fiber per
// work-item (-clcpu-force-fibers) for each of those.

#include "SchedulerCommon.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

using sched::Env;

namespace {

/// Results per work-item: reduce, inclusive and exclusive scan of mul, then
/// (integers) of and, or and xor.
constexpr int MulOps = 3, IntegerOps = 12;
/// Results per work-item of the logical and, or and xor, in the same order.
constexpr int LogicalOps = 9;
/// Trip count of the loop kernel.
constexpr unsigned Rounds = 3;

// Every function the extension adds, written once as OPS: m is the mul
// operand, b the bitwise one, p the predicate; o and lo the work-item's
// results.
const char *Source = R"(
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif
#ifndef cl_khr_work_group_uniform_arithmetic
#error "cl_khr_work_group_uniform_arithmetic is not defined"
#endif

#define MUL(m, o)                                                              \
  o[0] = work_group_reduce_mul(m);                                             \
  o[1] = work_group_scan_inclusive_mul(m);                                     \
  o[2] = work_group_scan_exclusive_mul(m);
#ifdef INTEGER
#define BITWISE(b, o)                                                          \
  o[3] = work_group_reduce_and(b);                                             \
  o[4] = work_group_scan_inclusive_and(b);                                     \
  o[5] = work_group_scan_exclusive_and(b);                                     \
  o[6] = work_group_reduce_or(b);                                              \
  o[7] = work_group_scan_inclusive_or(b);                                      \
  o[8] = work_group_scan_exclusive_or(b);                                      \
  o[9] = work_group_reduce_xor(b);                                             \
  o[10] = work_group_scan_inclusive_xor(b);                                    \
  o[11] = work_group_scan_exclusive_xor(b);
#else
#define BITWISE(b, o)
#endif
#define LOGICAL(p, lo)                                                         \
  lo[0] = work_group_reduce_logical_and(p);                                    \
  lo[1] = work_group_scan_inclusive_logical_and(p);                            \
  lo[2] = work_group_scan_exclusive_logical_and(p);                            \
  lo[3] = work_group_reduce_logical_or(p);                                     \
  lo[4] = work_group_scan_inclusive_logical_or(p);                             \
  lo[5] = work_group_scan_exclusive_logical_or(p);                             \
  lo[6] = work_group_reduce_logical_xor(p);                                    \
  lo[7] = work_group_scan_inclusive_logical_xor(p);                            \
  lo[8] = work_group_scan_exclusive_logical_xor(p);
#define OPS(m, b, p, i)                                                        \
  {                                                                            \
    global T *o = out + (i) * NOPS;                                            \
    global int *lo = lout + (i) * 9;                                           \
    MUL(m, o)                                                                  \
    BITWISE(b, o)                                                              \
    LOGICAL(p, lo)                                                             \
  }

// The collectives are the only sync points.
kernel void plain(global const T *in, global const T *bits,
                  global const int *pred, global T *out, global int *lout) {
  size_t g = get_global_linear_id();
  OPS(in[g], bits[g], pred[g], g)
}

// Behind a barrier: each work-item takes the operands of the work-item
// mirrored in its group (linear local id n - 1 - l).
kernel void mirrored(global const T *in, global const T *bits,
                     global const int *pred, global T *out, global int *lout,
                     local T *tm, local T *tb, local int *tp) {
  size_t g = get_global_linear_id(), l = get_local_linear_id();
  size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
  tm[l] = in[g];
  tb[l] = bits[g];
  tp[l] = pred[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  OPS(tm[n - 1 - l], tb[n - 1 - l], tp[n - 1 - l], g)
}

// Inside a loop of a uniform trip count: round r reads and writes the r-th
// block of n work-items.
kernel void looped(global const T *in, global const T *bits,
                   global const int *pred, global T *out, global int *lout,
                   uint rounds, uint n) {
  size_t g = get_global_linear_id();
  for (uint r = 0; r < rounds; ++r) {
    size_t i = r * n + g;
    OPS(in[i], bits[i], pred[i], i)
  }
}
)";

enum class Kernel { Plain, Mirrored, Looped };
const char *nameOf(Kernel K) {
  return K == Kernel::Plain      ? "plain"
         : K == Kernel::Mirrored ? "mirrored"
                                 : "looped";
}

template <typename T> constexpr bool IsInteger = std::is_integral_v<T>;

/// Wrapping integer products (the device's), plain floating-point ones
/// (exact for the operands below).
template <typename T> T mul(T A, T B) {
  if constexpr (IsInteger<T>)
    return static_cast<T>(uint64_t(A) * uint64_t(B));
  else
    return A * B;
}

/// One operation: its combine function and identity (the exclusive scan's
/// first result).
template <typename T> struct Operation {
  T (*Fn)(T, T);
  T Identity;
};

/// mul, then (integers) and, or, xor.
template <typename T> std::vector<Operation<T>> operations() {
  std::vector<Operation<T>> Ops = {{mul<T>, T(1)}};
  if constexpr (IsInteger<T>) {
    Ops.push_back({[](T A, T B) { return T(A & B); }, T(~T(0))});
    Ops.push_back({[](T A, T B) { return T(A | B); }, T(0)});
    Ops.push_back({[](T A, T B) { return T(A ^ B); }, T(0)});
  }
  return Ops;
}

/// The logical and, or, xor on truth values 0 and 1; identities true,
/// false, false.
const std::vector<Operation<int>> LogicalOperations = {
    {[](int A, int B) { return int(A && B); }, 1},
    {[](int A, int B) { return int(A || B); }, 0},
    {[](int A, int B) { return int(A != B); }, 0}};

/// The reduction, inclusive and exclusive scan of \p V under \p Op, one
/// triple per element: what work-item J of a group whose operands in
/// linear local id order are \p V must get.
template <typename T>
std::vector<std::array<T, 3>> referenceOf(const std::vector<T> &V,
                                          const Operation<T> &Op) {
  T Red = Op.Identity;
  for (T X : V)
    Red = Op.Fn(Red, X);
  std::vector<std::array<T, 3>> Out(V.size());
  T Acc = Op.Identity;
  for (size_t J = 0; J < V.size(); ++J) {
    Out[J][2] = Acc;
    Acc = Op.Fn(Acc, V[J]);
    Out[J][1] = Acc;
    Out[J][0] = Red;
  }
  return Out;
}

/// A value Catch can print.
template <typename T> auto printable(T X) {
  if constexpr (IsInteger<T>)
    return +X;
  else
    return static_cast<double>(X);
}

/// The global linear ids of each work-group's work-items in linear local id
/// order, for global size \p G in groups of \p L (the last group of a
/// dimension smaller where L does not divide G).
std::vector<std::vector<size_t>> groupsOf(const size_t *G, const size_t *L) {
  size_t NG[3];
  for (int D = 0; D < 3; ++D)
    NG[D] = (G[D] + L[D] - 1) / L[D];
  std::vector<std::vector<size_t>> Groups;
  for (size_t Gz = 0; Gz < NG[2]; ++Gz)
    for (size_t Gy = 0; Gy < NG[1]; ++Gy)
      for (size_t Gx = 0; Gx < NG[0]; ++Gx) {
        std::vector<size_t> Ids;
        for (size_t Z = Gz * L[2]; Z < std::min(G[2], (Gz + 1) * L[2]); ++Z)
          for (size_t Y = Gy * L[1]; Y < std::min(G[1], (Gy + 1) * L[1]); ++Y)
            for (size_t X = Gx * L[0]; X < std::min(G[0], (Gx + 1) * L[0]); ++X)
              Ids.push_back((Z * G[1] + Y) * G[0] + X);
        Groups.push_back(std::move(Ids));
      }
  return Groups;
}

/// The operands of one launch (Rounds blocks of N for the loop kernel),
/// chosen per group and linear local id J so that every result is exact
/// and none is trivial.
template <typename T> struct Inputs {
  std::vector<T> Mul, Bits;
  std::vector<cl_int> Pred;

  Inputs(const std::vector<std::vector<size_t>> &Groups, size_t N,
         unsigned Blocks, std::mt19937_64 &R)
      : Mul(N * Blocks), Bits(N * Blocks), Pred(N * Blocks) {
    const cl_int NonZero[] = {1, -1, 2, 0x100, 0x10000, INT32_MIN, 7};
    for (unsigned B = 0; B < Blocks; ++B)
      for (size_t Gi = 0; Gi < Groups.size(); ++Gi) {
        const std::vector<size_t> &Ids = Groups[Gi];
        for (size_t J = 0; J < Ids.size(); ++J) {
          size_t I = B * N + Ids[J];
          Mul[I] = mulOperand(J, R);
          Bits[I] = bitsOperand(Gi + B, R);
          // All true, all false but the middle one, or a random mix; true
          // is any non-zero value, 0x100 and INT_MIN too.
          bool True = (Gi + B) % 3 == 0   ? true
                      : (Gi + B) % 3 == 1 ? J == Ids.size() / 2
                                          : R() % 2 == 0;
          Pred[I] = True ? NonZero[R() % std::size(NonZero)] : 0;
        }
      }
  }

  /// Floating point: +-1, with a 2 at local ids 5 mod 32 and a 0.5 at 21
  /// mod 32, so every running product is +-0.5, 1 or 2, exact in any
  /// order (half too). Signed integers: +-1, 2 at 5 mod 32, 3 at 9 mod
  /// 64, whose products stay within int for 256 work-items (signed
  /// overflow would be undefined). Unsigned: random odd values, whose
  /// products wrap around as the type's arithmetic does.
  static T mulOperand(size_t J, std::mt19937_64 &R) {
    if constexpr (IsInteger<T> && std::is_unsigned_v<T>)
      return static_cast<T>(R() | 1);
    T Magnitude = J % 32 == 5 ? T(2) : T(1);
    if constexpr (!IsInteger<T>)
      Magnitude = J % 32 == 21 ? T(0.5) : Magnitude;
    else
      Magnitude = J % 64 == 9 ? T(3) : Magnitude;
    return R() % 3 == 0 ? T(-Magnitude) : Magnitude;
  }

  /// Groups alternate between dense values (all bits but one or two set)
  /// and sparse ones (one or two bits set), so that neither the and nor the
  /// or reduction is the same for every group.
  static T bitsOperand(size_t Group, std::mt19937_64 &R) {
    if constexpr (IsInteger<T>) {
      const unsigned W = sizeof(T) * 8;
      uint64_t Some = (uint64_t(1) << (R() % W)) | (uint64_t(1) << (R() % W));
      return static_cast<T>(Group % 2 ? Some : ~Some);
    } else {
      return T(0);
    }
  }
};

template <typename T>
void check(Env &E, cl_program P, Kernel Which, unsigned Dims, const size_t *L,
           std::mt19937_64 &Rng) {
  const bool Integer = IsInteger<T>;
  const int NOps = Integer ? IntegerOps : MulOps;
  // Two whole groups and a smaller one in each dimension of the launch.
  size_t G[3] = {1, 1, 1}, Lf[3] = {1, 1, 1};
  for (unsigned D = 0; D < Dims; ++D) {
    Lf[D] = L[D];
    G[D] = 2 * L[D] + (L[D] > 1 ? L[D] / 2 : 0);
  }
  size_t N = G[0] * G[1] * G[2];
  std::vector<std::vector<size_t>> Groups = groupsOf(G, Lf);
  const unsigned Blocks = Which == Kernel::Looped ? Rounds : 1;
  Inputs<T> In(Groups, N, Blocks, Rng);

  cl_int Err = CL_SUCCESS;
  cl_kernel K = clCreateKernel(P, nameOf(Which), &Err);
  REQUIRE(Err == CL_SUCCESS);
  E.Kernels.push_back(K);
  cl_mem M = E.buffer(In.Mul), B = E.buffer(In.Bits), Pr = E.buffer(In.Pred);
  cl_mem O = E.buffer(std::vector<T>(N * Blocks * NOps));
  cl_mem LO = E.buffer(std::vector<cl_int>(N * Blocks * LogicalOps, -1));
  E.arg(K, 0, M);
  E.arg(K, 1, B);
  E.arg(K, 2, Pr);
  E.arg(K, 3, O);
  E.arg(K, 4, LO);
  size_t Items = Lf[0] * Lf[1] * Lf[2];
  if (Which == Kernel::Mirrored) {
    E.localArg(K, 5, Items * sizeof(T));
    E.localArg(K, 6, Items * sizeof(T));
    E.localArg(K, 7, Items * sizeof(cl_int));
  } else if (Which == Kernel::Looped) {
    E.arg(K, 5, cl_uint(Rounds));
    E.arg(K, 6, static_cast<cl_uint>(N));
  }
  REQUIRE(E.run(K, Dims, G, Lf) == CL_SUCCESS);
  std::vector<T> Out = E.read<T>(O, N * Blocks * NOps);
  std::vector<cl_int> LOut = E.read<cl_int>(LO, N * Blocks * LogicalOps);

  const std::vector<Operation<T>> Ops = operations<T>();
  size_t Bad = 0;
  auto Report = [&](const char *What, size_t I, int Op, auto Got, auto Want) {
    if (Got != Want && Bad++ < 5)
      UNSCOPED_INFO(What << " of item " << I << " result " << Op << ": got "
                         << printable(Got) << ", want " << printable(Want));
  };
  for (unsigned Bl = 0; Bl < Blocks; ++Bl)
    for (const std::vector<size_t> &Ids : Groups) {
      const size_t Count = Ids.size();
      // Work-item J's operands: its own, or its mirror's.
      auto Src = [&](size_t J) {
        return Bl * N + Ids[Which == Kernel::Mirrored ? Count - 1 - J : J];
      };
      std::vector<T> MulV(Count), BitsV(Count);
      std::vector<int> PredV(Count);
      for (size_t J = 0; J < Count; ++J) {
        MulV[J] = In.Mul[Src(J)];
        BitsV[J] = In.Bits[Src(J)];
        PredV[J] = In.Pred[Src(J)] != 0;
      }
      for (size_t Op = 0; Op < Ops.size(); ++Op) {
        auto Want = referenceOf(Op == 0 ? MulV : BitsV, Ops[Op]);
        for (size_t J = 0; J < Count; ++J) {
          size_t I = Bl * N + Ids[J];
          for (int Mode = 0; Mode < 3; ++Mode)
            Report("operation", I, int(Op * 3 + Mode),
                   Out[I * NOps + Op * 3 + Mode], Want[J][Mode]);
        }
      }
      for (size_t Op = 0; Op < LogicalOperations.size(); ++Op) {
        auto Want = referenceOf(PredV, LogicalOperations[Op]);
        for (size_t J = 0; J < Count; ++J) {
          size_t I = Bl * N + Ids[J];
          for (int Mode = 0; Mode < 3; ++Mode)
            Report("logical operation", I, int(Op * 3 + Mode),
                   LOut[I * LogicalOps + Op * 3 + Mode], Want[J][Mode]);
        }
      }
    }
  CHECK(Bad == 0);
}

const std::vector<std::vector<size_t>> Shapes1 = {{1}, {7}, {64}, {100}, {256}};
const std::vector<std::vector<size_t>> Shapes2 = {
    {1, 3}, {7, 1}, {8, 8}, {10, 10}, {16, 16}};
const std::vector<std::vector<size_t>> Shapes3 = {
    {1, 1, 1}, {7, 1, 1}, {1, 3, 1}, {4, 4, 4}, {5, 5, 4}, {8, 4, 8}};

/// Every kernel on every shape, on the barrier regions and on fibers.
template <typename T> void checkType(const char *TypeName) {
  Env E;
  std::mt19937_64 Rng(std::hash<std::string>()(TypeName));
  for (const char *Path : {"", " -clcpu-force-fibers"}) {
    std::string Options =
        std::string("-cl-std=CL3.0 -DT=") + TypeName +
        " -DNOPS=" + std::to_string(IsInteger<T> ? IntegerOps : MulOps) +
        (IsInteger<T> ? " -DINTEGER" : "") + Path;
    cl_program P = E.build(Source, Options);
    for (Kernel Which : {Kernel::Plain, Kernel::Mirrored, Kernel::Looped})
      for (unsigned Dims = 1; Dims <= 3; ++Dims)
        for (const auto &S : Dims == 1   ? Shapes1
                             : Dims == 2 ? Shapes2
                                         : Shapes3) {
          INFO(TypeName << " kernel " << nameOf(Which) << Path << ", " << Dims
                        << "D local " << S[0] << "x"
                        << (S.size() > 1 ? S[1] : 1) << "x"
                        << (S.size() > 2 ? S[2] : 1));
          check<T>(E, P, Which, Dims, S.data(), Rng);
        }
  }
}

} // namespace

TEST_CASE("cl_khr_work_group_uniform_arithmetic (OpenCL C 3.0 6.15.16): "
          "mul, and, or, xor and logical reductions and scans on int",
          "[collective][uniform_arithmetic]") {
  checkType<cl_int>("int");
}
TEST_CASE("cl_khr_work_group_uniform_arithmetic (OpenCL C 3.0 6.15.16): "
          "mul, and, or, xor and logical reductions and scans on uint",
          "[collective][uniform_arithmetic]") {
  checkType<cl_uint>("uint");
}
TEST_CASE("cl_khr_work_group_uniform_arithmetic (OpenCL C 3.0 6.15.16): "
          "mul, and, or, xor and logical reductions and scans on long",
          "[collective][uniform_arithmetic]") {
  checkType<cl_long>("long");
}
TEST_CASE("cl_khr_work_group_uniform_arithmetic (OpenCL C 3.0 6.15.16): "
          "mul, and, or, xor and logical reductions and scans on ulong",
          "[collective][uniform_arithmetic]") {
  checkType<cl_ulong>("ulong");
}
TEST_CASE("cl_khr_work_group_uniform_arithmetic (OpenCL C 3.0 6.15.16): "
          "mul and logical reductions and scans on float",
          "[collective][uniform_arithmetic]") {
  checkType<cl_float>("float");
}
TEST_CASE("cl_khr_work_group_uniform_arithmetic (OpenCL C 3.0 6.15.16): "
          "mul and logical reductions and scans on double (cl_khr_fp64)",
          "[collective][uniform_arithmetic]") {
  checkType<cl_double>("double");
}
TEST_CASE("cl_khr_work_group_uniform_arithmetic (OpenCL C 3.0 6.15.16): "
          "mul and logical reductions and scans on half (cl_khr_fp16)",
          "[collective][uniform_arithmetic][half]") {
  // _Float16 arithmetic rounds each product to half, as the device's does
  // (exact here).
  checkType<_Float16>("half");
}

TEST_CASE("cl_khr_work_group_uniform_arithmetic: the device lists the "
          "extension, version 1.0.0",
          "[device][uniform_arithmetic]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  std::string Names = " " + deviceString(D, CL_DEVICE_EXTENSIONS) + " ";
  CHECK(Names.find(" cl_khr_work_group_uniform_arithmetic ") !=
        std::string::npos);
  CHECK(extensionVersion(D, "cl_khr_work_group_uniform_arithmetic") ==
        CL_MAKE_VERSION(1, 0, 0));
}

TEST_CASE("cl_khr_work_group_uniform_arithmetic: \"requires OpenCL 2.0\": "
          "the functions are declared where the work-group collective "
          "functions are (OpenCL C 2.0, and 3.0 with "
          "__opencl_c_work_group_collective_functions), the macro for every "
          "version",
          "[collective][uniform_arithmetic][options]") {
  Env E;
  const char *Calls = R"(
kernel void k(global int *o) {
#ifdef cl_khr_work_group_uniform_arithmetic
  o[1] = 1;
#endif
#ifdef CALL
  o[0] = CALL(o[2]);
#endif
}
)";
  for (const char *Std : {"-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"}) {
    bool Collectives = std::string(Std) != "-cl-std=CL1.2";
    for (const char *Fn :
         {"work_group_reduce_add", "work_group_reduce_mul",
          "work_group_scan_exclusive_logical_xor", "work_group_reduce_and"}) {
      INFO(Std << " " << Fn);
      std::string Log;
      std::string Options = std::string(Std) + " -DCALL=" + Fn;
      cl_program P = E.tryBuild(Calls, Options.c_str(), Log);
      CHECK((P != nullptr) == Collectives);
      if (!Collectives)
        CHECK(Log.find(Fn) != std::string::npos);
    }
    INFO(Std);
    cl_kernel K = E.kernel(Calls, "k", Std);
    cl_mem O = E.buffer(std::vector<cl_int>{0, 0, 5});
    E.arg(K, 0, O);
    size_t One = 1;
    REQUIRE(E.run(K, 1, &One, &One) == CL_SUCCESS);
    CHECK(E.read<cl_int>(O, 3)[1] == 1);
  }
}
