// Unit tests for runtime/Mem and runtime/Svm (OpenCL 3.0 API spec, 5.2
// "Buffer Objects", 5.5 "Memory Objects", 5.6 "Shared Virtual Memory"): the
// checks and byte movers, without a queue or the loader.

#include "runtime/Context.h"
#include "runtime/Mem.h"
#include "runtime/Platform.h"
#include "runtime/Svm.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

using namespace clcpu;

namespace {
Context *newContext() {
  return new Context(Platform::get().devices(), {}, nullptr, nullptr);
}

// The bytes a box touches, marked in a map of the given length.
std::vector<int> marks(size_t Len, const RectSide &S, const size_t R[3]) {
  std::vector<int> M(Len, 0);
  for (size_t Z = 0; Z < R[2]; ++Z)
    for (size_t Y = 0; Y < R[1]; ++Y)
      for (size_t X = 0; X < R[0]; ++X)
        M[S.start() + Z * S.SlicePitch + Y * S.RowPitch + X] = 1;
  return M;
}
} // namespace

TEST_CASE("5.2.1: conflicting buffer flags are CL_INVALID_VALUE", "[mem]") {
  CHECK(checkBufferFlags(0) == CL_SUCCESS);
  CHECK(checkBufferFlags(CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR |
                         CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_NO_ACCESS) ==
        CL_SUCCESS);
  CHECK(checkBufferFlags(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY) ==
        CL_INVALID_VALUE);
  CHECK(checkBufferFlags(CL_MEM_READ_WRITE | CL_MEM_READ_ONLY) ==
        CL_INVALID_VALUE);
  CHECK(checkBufferFlags(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY) ==
        CL_INVALID_VALUE);
  CHECK(checkBufferFlags(CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_WRITE_ONLY) ==
        CL_INVALID_VALUE);
  CHECK(checkBufferFlags(CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR) ==
        CL_INVALID_VALUE);
  CHECK(checkBufferFlags(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) ==
        CL_INVALID_VALUE);
  CHECK(checkBufferFlags(CL_MEM_KERNEL_READ_AND_WRITE) == CL_INVALID_VALUE);
  CHECK(checkBufferFlags(cl_mem_flags(1) << 40) == CL_INVALID_VALUE);
}

TEST_CASE("5.2.2: rect pitch rules and defaults", "[mem]") {
  const size_t R[3] = {4, 3, 2};
  RectSide S{{0, 0, 0}, 0, 0};
  REQUIRE(S.resolve(R, "buffer") == CL_SUCCESS);
  CHECK(S.RowPitch == 4);
  CHECK(S.SlicePitch == 12);
  CHECK(S.extent(R).value() == 24);
  RectSide Small{{0, 0, 0}, 3, 0};
  CHECK(Small.resolve(R, "buffer") == CL_INVALID_VALUE);
  RectSide SliceSmall{{0, 0, 0}, 5, 14};
  CHECK(SliceSmall.resolve(R, "buffer") == CL_INVALID_VALUE);
  RectSide SliceOdd{{0, 0, 0}, 5, 16};
  CHECK(SliceOdd.resolve(R, "buffer") == CL_INVALID_VALUE);
  RectSide Ok{{1, 2, 3}, 5, 20};
  REQUIRE(Ok.resolve(R, "buffer") == CL_SUCCESS);
  CHECK(Ok.start() == 3 * 20 + 2 * 5 + 1);
  CHECK(Ok.extent(R).value() == Ok.start() + 20 + 2 * 5 + 4);
  // An extent past SIZE_MAX is invalid, not wrapped into range.
  RectSide Far{{~size_t(0) - 7, 0, 0}, 0, 0};
  REQUIRE(Far.resolve(R, "buffer") == CL_SUCCESS);
  CHECK(!Far.extent(R).valid());
  RectSide Huge{{0, 0, 0}, 64, size_t(1) << 62};
  REQUIRE(Huge.resolve(R, "buffer") == CL_SUCCESS);
  CHECK(Huge.extent(R).valid()); // 2 slices: 2^62 + ... fits
  const size_t FiveSlices[3] = {16, 1, 5};
  CHECK(!Huge.extent(FiveSlices).valid());
  // The default slice pitch region[1] * row_pitch must fit too.
  const size_t Tall[3] = {1, size_t(1) << 40, 2};
  RectSide TallSide{{0, 0, 0}, size_t(1) << 30, 0};
  CHECK(TallSide.resolve(Tall, "buffer") == CL_INVALID_VALUE);
  const size_t Zero[3] = {4, 0, 1};
  CHECK(checkRegion(Zero) == CL_INVALID_VALUE);
  CHECK(checkRegion(nullptr) == CL_INVALID_VALUE);
  CHECK(checkRegion(R) == CL_SUCCESS);
}

TEST_CASE("5.2.2: copyRect matches a byte-by-byte reference", "[mem]") {
  std::mt19937 Rng(42);
  for (int Iter = 0; Iter < 200; ++Iter) {
    auto U = [&](size_t Lo, size_t Hi) {
      return std::uniform_int_distribution<size_t>(Lo, Hi)(Rng);
    };
    size_t R[3] = {U(1, 9), U(1, 5), U(1, 4)};
    RectSide S{{U(0, 3), U(0, 3), U(0, 2)}, R[0] + U(0, 4), 0};
    S.SlicePitch = S.RowPitch * (R[1] + U(0, 3));
    RectSide D{{U(0, 3), U(0, 3), U(0, 2)}, R[0] + U(0, 4), 0};
    D.SlicePitch = D.RowPitch * (R[1] + U(0, 3));
    REQUIRE(S.resolve(R, "src") == CL_SUCCESS);
    REQUIRE(D.resolve(R, "dst") == CL_SUCCESS);
    std::vector<char> Src(S.extent(R).value()), Dst(D.extent(R).value(), 0),
        Ref;
    for (auto &C : Src)
      C = static_cast<char>(U(1, 250));
    Ref = Dst;
    for (size_t Z = 0; Z < R[2]; ++Z)
      for (size_t Y = 0; Y < R[1]; ++Y)
        for (size_t X = 0; X < R[0]; ++X)
          Ref[D.start() + Z * D.SlicePitch + Y * D.RowPitch + X] =
              Src[S.start() + Z * S.SlicePitch + Y * S.RowPitch + X];
    copyRect(Dst.data(), D, Src.data(), S, R);
    REQUIRE(Dst == Ref);
  }
}

TEST_CASE("5.2.2: rectsOverlap agrees with a byte map", "[mem]") {
  std::mt19937 Rng(7);
  int Overlapping = 0, Disjoint = 0;
  for (int Iter = 0; Iter < 2000; ++Iter) {
    auto U = [&](size_t Lo, size_t Hi) {
      return std::uniform_int_distribution<size_t>(Lo, Hi)(Rng);
    };
    size_t R[3] = {U(1, 6), U(1, 4), U(1, 3)};
    RectSide A{{U(0, 8), U(0, 4), U(0, 2)}, R[0] + U(0, 6), 0};
    A.SlicePitch = A.RowPitch * (R[1] + U(0, 2));
    RectSide B{{U(0, 8), U(0, 4), U(0, 2)}, R[0] + U(0, 6), 0};
    B.SlicePitch = B.RowPitch * (R[1] + U(0, 2));
    size_t Len = std::max(A.extent(R).value(), B.extent(R).value());
    auto MA = marks(Len, A, R), MB = marks(Len, B, R);
    bool Ref = false;
    for (size_t I = 0; I < Len; ++I)
      Ref |= MA[I] && MB[I];
    std::vector<char> Buf(Len);
    INFO("iteration " << Iter);
    REQUIRE(rectsOverlap(Buf.data(), A, Buf.data(), B, R) == Ref);
    (Ref ? Overlapping : Disjoint)++;
  }
  // The random cases exercise both answers.
  CHECK(Overlapping > 100);
  CHECK(Disjoint > 100);
}

TEST_CASE("5.2.3: fillPattern repeats the pattern exactly", "[mem]") {
  for (size_t P = 1; P <= 128; P *= 2) {
    std::vector<unsigned char> Pat(P);
    for (size_t I = 0; I < P; ++I)
      Pat[I] = static_cast<unsigned char>(I * 7 + 3);
    size_t Size = P * 37;
    std::vector<unsigned char> Buf(Size + 2, 0xEE);
    fillPattern(Buf.data() + 1, Size, Pat.data(), P);
    CHECK(Buf[0] == 0xEE);
    CHECK(Buf[Size + 1] == 0xEE);
    bool Ok = true;
    for (size_t I = 0; I < Size; ++I)
      Ok &= Buf[1 + I] == Pat[I % P];
    CHECK(Ok);
    CHECK(validPatternSize(P));
  }
  CHECK_FALSE(validPatternSize(0));
  CHECK_FALSE(validPatternSize(3));
  CHECK_FALSE(validPatternSize(256));
}

TEST_CASE("5.4: map flags", "[mem]") {
  CHECK(checkMapFlags(CL_MAP_READ | CL_MAP_WRITE) == CL_SUCCESS);
  CHECK(checkMapFlags(CL_MAP_WRITE_INVALIDATE_REGION) == CL_SUCCESS);
  CHECK(checkMapFlags(CL_MAP_WRITE_INVALIDATE_REGION | CL_MAP_READ) ==
        CL_INVALID_VALUE);
  CHECK(checkMapFlags(8) == CL_INVALID_VALUE);
}

TEST_CASE("5.2.1: buffers are aligned, USE_HOST_PTR is zero copy", "[mem]") {
  Context *C = newContext();
  for (size_t Size : {size_t(1), size_t(4096), size_t(3) << 20}) {
    Mem *M = nullptr;
    REQUIRE(Mem::createBuffer(C, 0, Size, nullptr, {}, M) == CL_SUCCESS);
    CHECK(reinterpret_cast<uintptr_t>(M->data()) % Mem::BaseAlign == 0);
    CHECK(M->size() == Size);
    static_cast<char *>(M->data())[Size - 1] = 1; // writable to the end
    CHECK(M->release());
  }
  std::vector<char> Host(1000, 5);
  Mem *U = nullptr;
  REQUIRE(Mem::createBuffer(C, CL_MEM_USE_HOST_PTR, Host.size(), Host.data(),
                            {}, U) == CL_SUCCESS);
  CHECK(U->data() == Host.data());
  void *P = U->map(10, 20);
  CHECK(P == Host.data() + 10);
  CHECK(U->mapCount() == 1);
  CHECK_FALSE(U->unmap(Host.data()));
  CHECK(U->unmap(P));
  CHECK(U->mapCount() == 0);
  CHECK(U->release());
  CHECK(C->release());
}

TEST_CASE("5.2.1: sub-buffers window their parent and keep it alive", "[mem]") {
  Context *C = newContext();
  Mem *M = nullptr;
  REQUIRE(Mem::createBuffer(C, CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, 1024,
                            nullptr, {}, M) == CL_SUCCESS);
  Mem *S = nullptr;
  CHECK(M->createSubBuffer(0, {100, 8}, S) == CL_MISALIGNED_SUB_BUFFER_OFFSET);
  CHECK(M->createSubBuffer(0, {1024, 1}, S) == CL_INVALID_VALUE);
  CHECK(M->createSubBuffer(0, {128, 0}, S) == CL_INVALID_BUFFER_SIZE);
  CHECK(M->createSubBuffer(CL_MEM_WRITE_ONLY, {128, 8}, S) == CL_INVALID_VALUE);
  CHECK(M->createSubBuffer(CL_MEM_HOST_WRITE_ONLY, {128, 8}, S) ==
        CL_INVALID_VALUE);
  CHECK(M->createSubBuffer(CL_MEM_USE_HOST_PTR, {128, 8}, S) ==
        CL_INVALID_VALUE);
  REQUIRE(M->createSubBuffer(0, {256, 768}, S) == CL_SUCCESS);
  CHECK(S->data() == static_cast<char *>(M->data()) + 256);
  CHECK(S->flags() == (CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY));
  CHECK(S->parent() == M);
  std::memset(M->data(), 7, 1024);
  CHECK(M->release()); // the sub-buffer still holds the parent's bytes
  CHECK(static_cast<char *>(S->data())[767] == 7);
  CHECK(S->release());
  CHECK(C->release());
}

TEST_CASE("5.6: the SVM registry resolves interior pointers", "[svm]") {
  Context *C = newContext();
  CHECK(svm::validFlags(CL_MEM_READ_WRITE));
  CHECK(svm::validFlags(CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS));
  CHECK_FALSE(svm::validFlags(CL_MEM_SVM_ATOMICS));
  CHECK_FALSE(svm::validFlags(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY));
  CHECK_FALSE(svm::validFlags(CL_MEM_USE_HOST_PTR));
  char *P = static_cast<char *>(svm::allocate(C, 0, 1000, 4096));
  REQUIRE(P);
  CHECK(reinterpret_cast<uintptr_t>(P) % 4096 == 0);
  SvmAllocation A;
  REQUIRE(svm::find(C, P + 999, &A));
  CHECK(A.Base == P);
  CHECK(A.Size == 1000);
  CHECK_FALSE(svm::find(C, P + 1000));
  CHECK(svm::contains(C, P + 10, 990));
  CHECK_FALSE(svm::contains(C, P + 10, 991));
  CHECK_FALSE(svm::free(C, P + 1)); // not a base
  CHECK(svm::free(C, P));
  CHECK_FALSE(svm::find(C, P));
  CHECK(C->release());
}

TEST_CASE("CheckedSize: overflow is sticky through an expression", "[mem]") {
  const size_t Max = ~size_t(0);
  CHECK((CheckedSize(3) * 4 + 5).value() == 17);
  CHECK(!(CheckedSize(Max) + 1).valid());
  CHECK(!(CheckedSize(size_t(1) << 32) * (size_t(1) << 32)).valid());
  CHECK(!((CheckedSize(Max) + 1) * 0).valid());
  CHECK(CheckedSize(10).fitsIn(10));
  CHECK(!CheckedSize(11).fitsIn(10));
  CHECK(!(CheckedSize(Max) * 2).fitsIn(Max));
  CHECK(hostRangeWraps(reinterpret_cast<void *>(Max - 7), 16));
  CHECK(!hostRangeWraps(reinterpret_cast<void *>(4096), 16));
}
