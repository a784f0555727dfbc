// End-to-end: cl_khr_extended_bit_ops (OpenCL C 3.0, Integer Functions,
// "Extended Bit Operations"): bitfield_insert, bitfield_extract_signed,
// bitfield_extract_unsigned and bit_reverse for every integer type and
// vector width, against a bit-by-bit host reference, through the ICD loader.

#include "SchedulerCommon.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using sched::Env;

// One kernel per vector width W: work-item i takes W elements and one
// (offset, count) pair, which walks every pair with offset + count <= the
// type's bits (the spec leaves the others undefined): count 0 (insert
// returns base, extract 0), the whole width at offset 0, and offset equal
// to the width with count 0. 1024 work-items: the work-item loop runs
// vectorized, across work-items of different offsets and counts.
const char *Source = R"(
#ifndef cl_khr_extended_bit_ops
#error "cl_khr_extended_bit_ops is not defined"
#endif
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

#define KERNEL(W, VT, VS, VU, LOAD, STORE)                                    \
  kernel void k##W(global const T *base, global const T *ins,                 \
                   global T *oins, global S *osx, global U *oux,              \
                   global T *orev) {                                          \
    size_t i = get_global_id(0);                                              \
    uint offset = (i / (BITS + 1)) % (BITS + 1), count = i % (BITS + 1);      \
    if (offset + count > BITS)                                                \
      count = BITS - offset;                                                  \
    VT b = LOAD(i, base), n = LOAD(i, ins);                                   \
    STORE(bitfield_insert(b, n, offset, count), i, oins);                     \
    STORE(bitfield_extract_signed(b, offset, count), i, osx);                 \
    STORE(bitfield_extract_unsigned(b, offset, count), i, oux);               \
    STORE(bit_reverse(b), i, orev);                                           \
  }
#define LOAD1(i, p) p[i]
#define STORE1(v, i, p) p[i] = (v)
KERNEL(1, T, S, U, LOAD1, STORE1)
#define VKERNEL(W)                                                            \
  KERNEL(W, CAT(T, W), CAT(S, W), CAT(U, W), CAT(vload, W), CAT(vstore, W))
VKERNEL(2)
VKERNEL(3)
VKERNEL(4)
VKERNEL(8)
VKERNEL(16)
)";

constexpr size_t Items = 1024;
constexpr unsigned Widths[] = {1, 2, 3, 4, 8, 16};

template <typename T> std::vector<T> inputs(unsigned Seed) {
  using UT = std::make_unsigned_t<T>;
  std::mt19937_64 G(Seed);
  const UT Edge[] = {0,
                     UT(~UT(0)),
                     UT(UT(1) << (sizeof(T) * 8 - 1)),
                     UT(~UT(0) >> 1),
                     UT(0x5555555555555555ull),
                     UT(0xaaaaaaaaaaaaaaaaull),
                     1};
  std::vector<T> V(Items * 16);
  for (size_t I = 0; I < V.size(); ++I)
    V[I] = T(I % 5 == 0 ? Edge[(I / 5) % std::size(Edge)] : UT(G()));
  return V;
}

/// The reference, one bit at a time, as the spec words it.
template <typename T> struct Reference {
  using UT = std::make_unsigned_t<T>;
  using ST = std::make_signed_t<T>;
  static constexpr unsigned Bits = sizeof(T) * 8;
  static bool bit(UT X, unsigned B) { return (X >> B) & 1; }
  static UT withBit(UT X, unsigned B, bool V) {
    return V ? UT(X | UT(UT(1) << B)) : UT(X & UT(~(UT(1) << B)));
  }
  // "Any bits of the result value numbered outside [offset, offset + count
  // - 1] (inclusive) will come from the corresponding bits in base. Any
  // bits ... inside ... will come from the bits numbered [0, count - 1]
  // (inclusive) of insert."
  static T insert(T Base, T Ins, unsigned Offset, unsigned Count) {
    UT R = UT(Base);
    for (unsigned B = 0; B < Count; ++B)
      R = withBit(R, Offset + B, bit(UT(Ins), B));
    return T(R);
  }
  static UT extractUnsigned(T Base, unsigned Offset, unsigned Count) {
    UT R = 0;
    for (unsigned B = 0; B < Count; ++B)
      R = withBit(R, B, bit(UT(Base), Offset + B));
    return R;
  }
  // "The remaining bits in the result will be sign extended by replicating
  // the bit numbered offset + count - 1 of base."
  static ST extractSigned(T Base, unsigned Offset, unsigned Count) {
    UT R = extractUnsigned(Base, Offset, Count);
    if (Count && bit(UT(Base), Offset + Count - 1))
      for (unsigned B = Count; B < Bits; ++B)
        R = withBit(R, B, true);
    return ST(R);
  }
  static T reverse(T X) {
    UT R = 0;
    for (unsigned B = 0; B < Bits; ++B)
      R = withBit(R, Bits - 1 - B, bit(UT(X), B));
    return T(R);
  }
};

template <typename T>
void checkType(Env &E, const char *Name, const char *Signed,
               const char *Unsigned, const char *Options) {
  using Ref = Reference<T>;
  using UT = typename Ref::UT;
  using ST = typename Ref::ST;
  INFO("type " << Name << ", options '" << Options << "'");
  const std::vector<T> Base = inputs<T>(1), Ins = inputs<T>(2);
  std::string Opts = std::string(Options) + " -DT=" + Name + " -DS=" + Signed +
                     " -DU=" + Unsigned +
                     " -DBITS=" + std::to_string(Ref::Bits);
  cl_program P = E.build(Source, Opts);
  cl_mem MB = E.buffer(Base), MI = E.buffer(Ins);
  for (unsigned W : Widths) {
    INFO("vector width " << W);
    const size_t N = Items * W;
    cl_mem OIns = E.buffer(std::vector<T>(N)),
           OSx = E.buffer(std::vector<ST>(N)),
           OUx = E.buffer(std::vector<UT>(N)),
           ORev = E.buffer(std::vector<T>(N));
    E.run(P, "k" + std::to_string(W), {MB, MI, OIns, OSx, OUx, ORev}, Items);
    auto GotIns = E.read<T>(OIns, N);
    auto GotSx = E.read<ST>(OSx, N);
    auto GotUx = E.read<UT>(OUx, N);
    auto GotRev = E.read<T>(ORev, N);
    int Bad = 0;
    for (size_t I = 0; I < N && Bad < 8; ++I) {
      size_t Item = I / W;
      unsigned Offset = unsigned(Item / (Ref::Bits + 1) % (Ref::Bits + 1));
      unsigned Count = unsigned(Item % (Ref::Bits + 1));
      if (Offset + Count > Ref::Bits)
        Count = Ref::Bits - Offset;
      INFO("base " << +Base[I] << ", insert " << +Ins[I] << ", offset "
                   << Offset << ", count " << Count);
      T WantIns = Ref::insert(Base[I], Ins[I], Offset, Count);
      ST WantSx = Ref::extractSigned(Base[I], Offset, Count);
      UT WantUx = Ref::extractUnsigned(Base[I], Offset, Count);
      T WantRev = Ref::reverse(Base[I]);
      if (GotIns[I] != WantIns) {
        ++Bad;
        FAIL_CHECK("bitfield_insert = " << +GotIns[I] << ", want " << +WantIns);
      }
      if (GotSx[I] != WantSx) {
        ++Bad;
        FAIL_CHECK("bitfield_extract_signed = " << +GotSx[I] << ", want "
                                                << +WantSx);
      }
      if (GotUx[I] != WantUx) {
        ++Bad;
        FAIL_CHECK("bitfield_extract_unsigned = " << +GotUx[I] << ", want "
                                                  << +WantUx);
      }
      if (GotRev[I] != WantRev) {
        ++Bad;
        FAIL_CHECK("bit_reverse = " << +GotRev[I] << ", want " << +WantRev);
      }
    }
    CHECK(Bad == 0);
  }
}

void checkAllTypes(const char *Options) {
  Env E;
  checkType<int8_t>(E, "char", "char", "uchar", Options);
  checkType<uint8_t>(E, "uchar", "char", "uchar", Options);
  checkType<int16_t>(E, "short", "short", "ushort", Options);
  checkType<uint16_t>(E, "ushort", "short", "ushort", Options);
  checkType<int32_t>(E, "int", "int", "uint", Options);
  checkType<uint32_t>(E, "uint", "int", "uint", Options);
  checkType<int64_t>(E, "long", "long", "ulong", Options);
  checkType<uint64_t>(E, "ulong", "long", "ulong", Options);
}

} // namespace

TEST_CASE("cl_khr_extended_bit_ops (OpenCL C, Extended Bit Operations): "
          "every function, integer type and vector width matches a "
          "bit-by-bit reference, offsets and counts 0 to the full width",
          "[builtins][extended_bit_ops]") {
  // OpenCL C 1.2 (the default, as the CTS builds) and 3.0; -cl-opt-disable
  // runs the same bodies without the work-item loop's vectorization.
  checkAllTypes("");
  checkAllTypes("-cl-std=CL3.0");
  checkAllTypes("-cl-opt-disable");
}

TEST_CASE("cl_khr_extended_bit_ops: the device lists version 1.0.0",
          "[device][extended_bit_ops]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  CHECK(extensionVersion(D, "cl_khr_extended_bit_ops") ==
        CL_MAKE_VERSION(1, 0, 0));
}
