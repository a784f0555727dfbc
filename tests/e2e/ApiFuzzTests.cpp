// Random-input test of the API's size, offset, pitch and count arguments:
// the buffer, rect, fill, map and NDRange entry points called with values
// drawn around the overflow boundaries (0, 1, 2^31, 2^32, 2^63, SIZE_MAX and
// their neighbours) mixed with small in-range ones. A model of the spec's
// rules, computed in 128-bit arithmetic, says whether each call is valid:
// a valid call must succeed and leave the buffer as a shadow copy says, an
// invalid one must fail with an error and change nothing. Calls the model
// cannot make safe (a valid rect whose host side is larger than the test's
// host memory, a valid NDRange of 2^40 work-items) are not made.
//
// Hidden from the plain e2e run: ctest's api_fuzz runs it in a short mode
// (CLCPU_FUZZ_ITERATIONS; 3000 without it), also in the ASan + UBSan build,
// which turns any stray access into a failure.

#include "SchedulerCommon.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>

using namespace sched;

namespace {

using u128 = unsigned __int128;
constexpr size_t Max = std::numeric_limits<size_t>::max();
constexpr size_t BufBytes = 4096;
constexpr size_t HostBytes = 1 << 16;

/// Values at and around the overflow boundaries.
const size_t Boundaries[] = {0,
                             1,
                             2,
                             3,
                             (size_t(1) << 31) - 1,
                             size_t(1) << 31,
                             (size_t(1) << 31) + 1,
                             (size_t(1) << 32) - 1,
                             size_t(1) << 32,
                             (size_t(1) << 32) + 1,
                             (size_t(1) << 62),
                             (size_t(1) << 63) - 1,
                             size_t(1) << 63,
                             (size_t(1) << 63) + 1,
                             Max - 128,
                             Max - 8,
                             Max - 7,
                             Max - 1,
                             Max};

struct Fuzzer {
  std::mt19937_64 Rng;
  explicit Fuzzer(uint64_t Seed) : Rng(Seed) {}
  size_t below(size_t N) { return N ? Rng() % N : 0; }
  bool coin(unsigned OneIn = 2) { return below(OneIn) == 0; }
  /// Half the time a boundary value, else a small one (up to \p Small).
  size_t value(size_t Small) {
    if (coin())
      return Boundaries[below(std::size(Boundaries))];
    return below(Small + 1);
  }
};

/// The extent of a rect side (one past its last byte), or more than any
/// size where it does not fit in 64 bits.
u128 rectExtent(const size_t O[3], const size_t R[3], size_t RowPitch,
                size_t SlicePitch) {
  return u128(O[2]) * SlicePitch + u128(O[1]) * RowPitch + O[0] +
         u128(R[2] - 1) * SlicePitch + u128(R[1] - 1) * RowPitch + R[0];
}

/// The spec's pitch defaults and rules for one side; false if invalid.
bool resolvePitches(const size_t R[3], size_t &Row, size_t &Slice) {
  if (Row == 0)
    Row = R[0];
  else if (Row < R[0])
    return false;
  u128 MinSlice = u128(R[1]) * Row;
  if (Slice == 0) {
    if (MinSlice > Max)
      return false;
    Slice = static_cast<size_t>(MinSlice);
  } else if (Slice < MinSlice || Slice % Row) {
    return false;
  }
  return true;
}

/// The host's copy of a box between two byte arrays (the model's copyRect).
void modelCopy(unsigned char *Dst, const size_t DO[3], size_t DRow,
               size_t DSlice, const unsigned char *Src, const size_t SO[3],
               size_t SRow, size_t SSlice, const size_t R[3]) {
  for (size_t Z = 0; Z < R[2]; ++Z)
    for (size_t Y = 0; Y < R[1]; ++Y)
      std::memmove(Dst + (DO[2] + Z) * DSlice + (DO[1] + Y) * DRow + DO[0],
                   Src + (SO[2] + Z) * SSlice + (SO[1] + Y) * SRow + SO[0],
                   R[0]);
}

} // namespace

TEST_CASE("API fuzz: sizes, offsets, pitches and counts around the overflow "
          "boundaries get a spec error or a correct result",
          "[.fuzz]") {
  Env E;
  REQUIRE(E.Q);
  size_t Iterations = 3000;
  if (const char *N = std::getenv("CLCPU_FUZZ_ITERATIONS"))
    Iterations = std::strtoull(N, nullptr, 10);
  Fuzzer F(0x5eed1234abcdULL);

  std::vector<unsigned char> Shadow(BufBytes);
  for (size_t I = 0; I < BufBytes; ++I)
    Shadow[I] = static_cast<unsigned char>(I * 13 + 5);
  cl_mem Buf = E.buffer(Shadow);
  cl_mem Other = E.buffer(std::vector<unsigned char>(BufBytes, 0x77));
  std::vector<unsigned char> OtherShadow(BufBytes, 0x77);
  std::vector<unsigned char> Host(HostBytes);

  cl_kernel Count = E.kernel(R"(
    kernel void count(global uint *n, local uint *a, local uint *b) {
      if (get_local_id(0) == 0 && get_local_id(1) == 0 &&
          get_local_id(2) == 0) { a[0] = 1; b[0] = 1; }
      barrier(CLK_LOCAL_MEM_FENCE);
      atomic_inc(n);
    })",
                             "count", "-cl-std=CL3.0");
  cl_mem Counter = E.buffer(std::vector<cl_uint>{0});
  E.arg(Count, 0, Counter);
  cl_ulong LocalMem = deviceInfo<cl_ulong>(E.D, CL_DEVICE_LOCAL_MEM_SIZE);
  size_t MaxGroup = 0;
  REQUIRE(clGetKernelWorkGroupInfo(Count, E.D, CL_KERNEL_WORK_GROUP_SIZE,
                                   sizeof MaxGroup, &MaxGroup,
                                   nullptr) == CL_SUCCESS);

  size_t Valid = 0, Invalid = 0;
  for (size_t It = 0; It < Iterations; ++It) {
    unsigned Op = static_cast<unsigned>(F.below(7));
    CAPTURE(It, Op);
    switch (Op) {
    case 0:
    case 1: { // clEnqueueReadBuffer / clEnqueueWriteBuffer
      size_t Off = F.value(BufBytes), Size = F.value(BufBytes);
      CAPTURE(Off, Size);
      bool Ok = Size > 0 && u128(Off) + Size <= BufBytes;
      cl_int Err = Op == 0
                       ? clEnqueueReadBuffer(E.Q, Buf, CL_TRUE, Off, Size,
                                             Host.data(), 0, nullptr, nullptr)
                       : clEnqueueWriteBuffer(E.Q, Buf, CL_TRUE, Off, Size,
                                              Host.data(), 0, nullptr, nullptr);
      if (Size == 0) { // 0 bytes: an error, or nothing done
        CHECK((Err == CL_SUCCESS || Err == CL_INVALID_VALUE));
        break;
      }
      if (!Ok) {
        CHECK(Err == CL_INVALID_VALUE);
        ++Invalid;
        break;
      }
      REQUIRE(Err == CL_SUCCESS);
      ++Valid;
      if (Op == 0)
        CHECK(std::memcmp(Host.data(), Shadow.data() + Off, Size) == 0);
      else
        std::memcpy(Shadow.data() + Off, Host.data(), Size);
      break;
    }
    case 2: { // the rect transfers
      size_t BO[3], HO[3], R[3];
      for (int D = 0; D < 3; ++D) {
        BO[D] = F.value(D == 0 ? 64 : 4);
        HO[D] = F.value(D == 0 ? 64 : 4);
        R[D] = F.value(D == 0 ? 32 : 4);
      }
      size_t BRow = F.coin() ? 0 : F.value(128),
             BSlice = F.coin() ? 0 : F.value(2048);
      size_t HRow = F.coin() ? 0 : F.value(128),
             HSlice = F.coin() ? 0 : F.value(2048);
      unsigned Kind = static_cast<unsigned>(F.below(3));
      CAPTURE(Kind, BO[0], BO[1], BO[2], HO[0], HO[1], HO[2], R[0], R[1], R[2],
              BRow, BSlice, HRow, HSlice);
      bool Ok = R[0] && R[1] && R[2];
      size_t BR = BRow, BS = BSlice, HR = HRow, HS = HSlice;
      Ok = Ok && resolvePitches(R, BR, BS) && resolvePitches(R, HR, HS);
      u128 BEnd = Ok ? rectExtent(BO, R, BR, BS) : 0;
      u128 HEnd = Ok ? rectExtent(HO, R, HR, HS) : 0;
      bool BufOk = Ok && BEnd <= BufBytes;
      bool HostFits = HEnd <= (Kind == 2 ? BufBytes : HostBytes);
      if (Kind != 2 && BufOk && !HostFits &&
          HEnd <= u128(Max) - reinterpret_cast<uintptr_t>(Host.data()))
        break; // valid for the driver, but not the test's memory: not made
      if (Kind == 2) { // copy: host side is the other buffer
        // Same pitches on both sides keep the copy simple to model.
        cl_int Err =
            clEnqueueCopyBufferRect(E.Q, Buf, Other, BO, HO, R, BRow, BSlice,
                                    HRow, HSlice, 0, nullptr, nullptr);
        bool CopyOk = BufOk && HostFits;
        if (!CopyOk) {
          CHECK(Err == CL_INVALID_VALUE);
          ++Invalid;
          break;
        }
        REQUIRE(Err == CL_SUCCESS);
        REQUIRE(clFinish(E.Q) == CL_SUCCESS);
        ++Valid;
        modelCopy(OtherShadow.data(), HO, HR, HS, Shadow.data(), BO, BR, BS, R);
        break;
      }
      cl_int Err =
          Kind == 0
              ? clEnqueueReadBufferRect(E.Q, Buf, CL_TRUE, BO, HO, R, BRow,
                                        BSlice, HRow, HSlice, Host.data(), 0,
                                        nullptr, nullptr)
              : clEnqueueWriteBufferRect(E.Q, Buf, CL_TRUE, BO, HO, R, BRow,
                                         BSlice, HRow, HSlice, Host.data(), 0,
                                         nullptr, nullptr);
      if (!(BufOk && HostFits)) {
        CHECK(Err == CL_INVALID_VALUE);
        ++Invalid;
        break;
      }
      REQUIRE(Err == CL_SUCCESS);
      ++Valid;
      if (Kind == 0) {
        std::vector<unsigned char> Want(Host);
        modelCopy(Want.data(), HO, HR, HS, Shadow.data(), BO, BR, BS, R);
        CHECK(Want == Host);
      } else {
        modelCopy(Shadow.data(), BO, BR, BS, Host.data(), HO, HR, HS, R);
      }
      break;
    }
    case 3: { // clEnqueueFillBuffer
      size_t Off = F.value(BufBytes), Size = F.value(BufBytes);
      size_t PatSize = F.coin(4) ? F.value(256) : size_t(1) << F.below(8);
      CAPTURE(Off, Size, PatSize);
      unsigned char Pat[128];
      for (auto &B : Pat)
        B = static_cast<unsigned char>(F.below(256));
      bool PatOk = PatSize && PatSize <= 128 && !(PatSize & (PatSize - 1));
      bool Ok = PatOk && u128(Off) + Size <= BufBytes && Off % PatSize == 0 &&
                Size % PatSize == 0;
      cl_int Err = clEnqueueFillBuffer(E.Q, Buf, Pat, PatSize, Off, Size, 0,
                                       nullptr, nullptr);
      if (!Ok) {
        CHECK(Err == CL_INVALID_VALUE);
        ++Invalid;
        break;
      }
      if (Size == 0) {
        CHECK((Err == CL_SUCCESS || Err == CL_INVALID_VALUE));
        break;
      }
      REQUIRE(Err == CL_SUCCESS);
      REQUIRE(clFinish(E.Q) == CL_SUCCESS);
      ++Valid;
      for (size_t I = 0; I < Size; ++I)
        Shadow[Off + I] = Pat[I % PatSize];
      break;
    }
    case 4: { // clEnqueueMapBuffer
      size_t Off = F.value(BufBytes), Size = F.value(BufBytes);
      CAPTURE(Off, Size);
      bool Ok = Size > 0 && u128(Off) + Size <= BufBytes;
      cl_int Err = -1;
      void *P = clEnqueueMapBuffer(E.Q, Buf, CL_TRUE, CL_MAP_READ, Off, Size, 0,
                                   nullptr, nullptr, &Err);
      if (!Ok) {
        CHECK(Err == CL_INVALID_VALUE);
        CHECK(P == nullptr);
        ++Invalid;
        break;
      }
      REQUIRE(Err == CL_SUCCESS);
      ++Valid;
      CHECK(std::memcmp(P, Shadow.data() + Off, Size) == 0);
      REQUIRE(clEnqueueUnmapMemObject(E.Q, Buf, P, 0, nullptr, nullptr) ==
              CL_SUCCESS);
      break;
    }
    case 5:
    case 6: { // clEnqueueNDRangeKernel with __local arguments
      cl_uint Dims = 1 + static_cast<cl_uint>(F.below(3));
      size_t G[3] = {1, 1, 1}, L[3] = {1, 1, 1};
      bool WithLocal = F.coin();
      for (cl_uint D = 0; D < Dims; ++D) {
        G[D] = F.value(D == 0 ? 64 : 4);
        L[D] = F.value(D == 0 ? 16 : 2);
      }
      size_t LA = F.coin() ? F.value(256) : 4, LB = F.coin() ? F.value(256) : 4;
      CAPTURE(Dims, G[0], G[1], G[2], L[0], L[1], L[2], WithLocal, LA, LB);
      // The model: zero sizes launch nothing; the work-item count must fit
      // in size_t; groups must divide (OpenCL C 3.0 allows non-uniform
      // groups, so only the size limits apply).
      bool Zero = false;
      u128 Items = 1, GroupItems = 1;
      bool LocalOk = true;
      for (cl_uint D = 0; D < Dims; ++D) {
        Zero |= G[D] == 0;
        Items *= G[D];
        if (WithLocal) {
          LocalOk &= L[D] != 0 && L[D] <= MaxGroup;
          GroupItems *= L[D];
        }
      }
      if (Items > Max)
        Items = u128(Max) + 1;
      bool LocalArgsOk = LA && LB && u128(LA) + LB <= LocalMem;
      // A valid launch of too many work-items to run here is not made.
      if (!Zero && Items <= Max && Items > (1u << 16) && LocalArgsOk &&
          (!WithLocal || (LocalOk && GroupItems <= MaxGroup)))
        break;
      cl_int ErrA = clSetKernelArg(Count, 1, LA, nullptr);
      cl_int ErrB = clSetKernelArg(Count, 2, LB, nullptr);
      if (LA == 0 || LB == 0) {
        // CL_INVALID_ARG_SIZE if arg_size is zero and the argument is
        // declared with the local qualifier.
        CHECK((LA != 0 || ErrA == CL_INVALID_ARG_SIZE));
        CHECK((LB != 0 || ErrB == CL_INVALID_ARG_SIZE));
        // Leave valid values for the next launch.
        REQUIRE(clSetKernelArg(Count, 1, 4, nullptr) == CL_SUCCESS);
        REQUIRE(clSetKernelArg(Count, 2, 4, nullptr) == CL_SUCCESS);
        break;
      }
      REQUIRE(ErrA == CL_SUCCESS);
      REQUIRE(ErrB == CL_SUCCESS);
      cl_uint ZeroCount = 0;
      REQUIRE(clEnqueueWriteBuffer(E.Q, Counter, CL_TRUE, 0, sizeof ZeroCount,
                                   &ZeroCount, 0, nullptr,
                                   nullptr) == CL_SUCCESS);
      cl_int Err =
          clEnqueueNDRangeKernel(E.Q, Count, Dims, nullptr, G,
                                 WithLocal ? L : nullptr, 0, nullptr, nullptr);
      if (Zero) { // OpenCL 2.1+: trivially succeeds, runs nothing
        // (Unless a local size is itself invalid.)
        if (Err == CL_SUCCESS) {
          cl_uint N = 1;
          REQUIRE(clEnqueueReadBuffer(E.Q, Counter, CL_TRUE, 0, sizeof N, &N, 0,
                                      nullptr, nullptr) == CL_SUCCESS);
          CHECK(N == 0);
        }
        break;
      }
      bool Ok = Items <= Max && Items <= (1u << 16) && LocalArgsOk &&
                (!WithLocal || (LocalOk && GroupItems <= MaxGroup));
      if (!Ok) {
        CHECK(Err != CL_SUCCESS);
        ++Invalid;
        break;
      }
      REQUIRE(Err == CL_SUCCESS);
      ++Valid;
      cl_uint N = 0;
      REQUIRE(clEnqueueReadBuffer(E.Q, Counter, CL_TRUE, 0, sizeof N, &N, 0,
                                  nullptr, nullptr) == CL_SUCCESS);
      CHECK(N == static_cast<cl_uint>(Items));
      break;
    }
    }
    // Every so often, the buffers as a whole against their shadows.
    if (It % 64 == 63) {
      CHECK(E.read<unsigned char>(Buf, BufBytes) == Shadow);
      CHECK(E.read<unsigned char>(Other, BufBytes) == OtherShadow);
    }
  }
  CHECK(E.read<unsigned char>(Buf, BufBytes) == Shadow);
  CHECK(E.read<unsigned char>(Other, BufBytes) == OtherShadow);
  // Both kinds of call were made.
  CHECK(Valid > Iterations / 10);
  CHECK(Invalid > Iterations / 10);
}
