// Unit tests of compiler/SpirvLegalize.cpp: the SPIR-V 1.4 constructs
// Debian's translator (llvm-spirv-15) cannot read, rewritten on the words
// of hand-written modules (tests/e2e/spirv/*.spvasm, assembled by
// spirv-as). Each result must pass spirv-val and must no longer hold the
// construct; tests/e2e/SpirvTests.cpp runs the same modules through the
// loader and checks what they compute.

#include "compiler/SpirvLegalize.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

using namespace clcpu::compiler;

namespace {
// Opcodes (SPIR-V 1.6 specification, 3.52).
enum : uint32_t {
  OpUndef = 1,
  OpConstant = 43,
  OpLoad = 61,
  OpStore = 62,
  OpCopyMemory = 63,
  OpVectorShuffle = 79,
  OpCompositeExtract = 81,
  OpCompositeInsert = 82,
  OpConvertPtrToU = 117,
  OpSConvert = 114,
  OpISub = 130,
  OpSDiv = 135,
  OpIEqual = 170,
  OpINotEqual = 171,
  OpCopyLogical = 400,
  OpPtrEqual = 401,
  OpPtrNotEqual = 402,
  OpPtrDiff = 403,
};

std::string module(const char *Name) {
  std::ifstream In(std::string(CLCPU_SPIRV_DIR) + "/" + Name, std::ios::binary);
  REQUIRE(In);
  return std::string(std::istreambuf_iterator<char>(In), {});
}

/// The instructions of \p Il after the header: opcode and operands.
std::vector<std::vector<uint32_t>> instructions(const std::string &Il) {
  std::vector<uint32_t> W(Il.size() / 4);
  std::memcpy(W.data(), Il.data(), W.size() * 4);
  std::vector<std::vector<uint32_t>> Out;
  for (size_t I = 5; I < W.size();) {
    uint32_t Count = W[I] >> 16;
    REQUIRE(Count > 0);
    REQUIRE(I + Count <= W.size());
    std::vector<uint32_t> Inst{W[I] & 0xffff};
    Inst.insert(Inst.end(), W.begin() + I + 1, W.begin() + I + Count);
    Out.push_back(Inst);
    I += Count;
  }
  return Out;
}

size_t count(const std::string &Il, uint32_t Op) {
  size_t N = 0;
  for (const auto &I : instructions(Il))
    N += I[0] == Op;
  return N;
}

/// spirv-val's verdict on \p Il (SPIR-V 1.4 rules): empty if valid.
std::string validate(const std::string &Il) {
  char Path[] = "/tmp/clcpu-legalize-XXXXXX";
  int Fd = mkstemp(Path);
  REQUIRE(Fd >= 0);
  REQUIRE(write(Fd, Il.data(), Il.size()) == ssize_t(Il.size()));
  close(Fd);
  std::string Messages = std::string(Path) + ".txt";
  std::string Command = std::string(CLCPU_SPIRV_VAL) + " --target-env spv1.4 " +
                        Path + " > " + Messages + " 2>&1";
  int Status = std::system(Command.c_str());
  std::ifstream In(Messages);
  std::string Text(std::istreambuf_iterator<char>(In), {});
  unlink(Path);
  unlink(Messages.c_str());
  return Status == 0 ? "" : "spirv-val: " + Text;
}

/// \p Il legalized, checked valid.
std::string legalized(const std::string &Il) {
  std::string Out = legalizeSpirv(Il);
  REQUIRE(Out != Il);
  INFO(validate(Out));
  REQUIRE(validate(Out).empty());
  return Out;
}

/// Whether the module has an OpConstant of value \p V.
bool hasConstant(const std::string &Il, uint64_t V) {
  for (const auto &I : instructions(Il))
    if (I[0] == OpConstant && I.size() >= 4 &&
        (I[3] | (I.size() >= 5 ? uint64_t(I[4]) << 32 : 0)) == V)
      return true;
  return false;
}
} // namespace

TEST_CASE("SPIR-V 1.4 OpPtrEqual, OpPtrNotEqual, OpPtrDiff become integer "
          "arithmetic on OpConvertPtrToU",
          "[spirv-legalize]") {
  std::string Il = module("ptrops.spv");
  REQUIRE(validate(Il).empty());
  std::string Out = legalized(Il);
  CHECK(count(Out, OpPtrEqual) == 0);
  CHECK(count(Out, OpPtrNotEqual) == 0);
  CHECK(count(Out, OpPtrDiff) == 0);
  CHECK(count(Out, OpIEqual) == 2);
  CHECK(count(Out, OpINotEqual) == 1);
  CHECK(count(Out, OpConvertPtrToU) == 12);
  CHECK(count(Out, OpISub) == 3);
  CHECK(count(Out, OpSDiv) == 3);
  // The two 32-bit differences are narrowed; the 64-bit one is not.
  CHECK(count(Out, OpSConvert) == 2);
  // Element sizes: the padded { uint, float, uchar } and uint3 (OpenCL C
  // 6.3.5: the room of four components).
  CHECK(hasConstant(Out, 12));
  CHECK(hasConstant(Out, 16));
}

TEST_CASE("SPIR-V 1.4 OpCopyLogical becomes member-wise extracts and "
          "inserts, nested structures and arrays included",
          "[spirv-legalize]") {
  std::string Il = module("copylogical.spv");
  REQUIRE(validate(Il).empty());
  std::string Out = legalized(Il);
  CHECK(count(Out, OpCopyLogical) == 0);
  // outer: 3 members; inner: 2; the array: 3 elements.
  CHECK(count(Out, OpCompositeExtract) == 8);
  CHECK(count(Out, OpCompositeInsert) == 8);
  CHECK(count(Out, OpUndef) == 3);
}

TEST_CASE("OpCopyMemory becomes OpLoad and OpStore with the source's and "
          "the target's memory operands (SPIR-V 1.4: two sets)",
          "[spirv-legalize]") {
  std::string Il = module("copymemory.spv");
  REQUIRE(validate(Il).empty());
  std::string Out = legalized(Il);
  CHECK(count(Out, OpCopyMemory) == 0);
  std::vector<std::vector<uint32_t>> Loads, Stores;
  for (const auto &I : instructions(Out)) {
    if (I[0] == OpLoad)
      Loads.push_back(I);
    if (I[0] == OpStore)
      Stores.push_back(I);
  }
  REQUIRE(Loads.size() == 4);
  REQUIRE(Stores.size() == 4);
  // No memory operands.
  CHECK(Loads[0].size() == 4);
  CHECK(Stores[0].size() == 3);
  // One set: both.
  CHECK(std::vector<uint32_t>(Loads[1].begin() + 4, Loads[1].end()) ==
        std::vector<uint32_t>{2, 16});
  CHECK(std::vector<uint32_t>(Stores[1].begin() + 3, Stores[1].end()) ==
        std::vector<uint32_t>{2, 16});
  // Two sets: Volatile|Aligned 16 on the target, Aligned 4 on the source.
  CHECK(std::vector<uint32_t>(Loads[2].begin() + 4, Loads[2].end()) ==
        std::vector<uint32_t>{2, 4});
  CHECK(std::vector<uint32_t>(Stores[2].begin() + 3, Stores[2].end()) ==
        std::vector<uint32_t>{3, 16});
}

TEST_CASE("OpVectorShuffle of vectors of different lengths: the shorter one "
          "widened first, the components renumbered",
          "[spirv-legalize]") {
  std::string Il = module("shuffle.spv");
  REQUIRE(validate(Il).empty());
  std::string Out = legalized(Il);
  std::vector<std::vector<uint32_t>> Shuffles;
  for (const auto &I : instructions(Out))
    if (I[0] == OpVectorShuffle)
      Shuffles.push_back(I);
  REQUIRE(Shuffles.size() == 6);
  // shuffle(a, b, 1 0 5 2) with a: uint2, b: uint4 → a widened to 4, then
  // b's components start at 4: 1 0 7 4.
  CHECK(std::vector<uint32_t>(Shuffles[0].begin() + 5, Shuffles[0].end()) ==
        std::vector<uint32_t>{0, 1, 0, 0});
  CHECK(std::vector<uint32_t>(Shuffles[1].begin() + 5, Shuffles[1].end()) ==
        std::vector<uint32_t>{1, 0, 7, 4});
  // shuffle(b, a, 4 3 0 5): a widened second, the numbers unchanged.
  CHECK(std::vector<uint32_t>(Shuffles[3].begin() + 5, Shuffles[3].end()) ==
        std::vector<uint32_t>{4, 3, 0, 5});
  // An undefined component (0xFFFFFFFF) stays undefined.
  CHECK(std::vector<uint32_t>(Shuffles[5].begin() + 5, Shuffles[5].end()) ==
        std::vector<uint32_t>{5, 0xFFFFFFFF, 0, 4});
}

TEST_CASE("a module without such constructs is returned unchanged",
          "[spirv-legalize]") {
  std::string Il = module("kernels.spv");
  CHECK(legalizeSpirv(Il) == Il);
  // Not a module: returned as it is (inspectSpirv refuses it first).
  CHECK(legalizeSpirv("abc") == "abc");
}
