//===- compiler/SpirvLegalize.cpp - SPIR-V the translator reads -----------===//
//
// Debian's SPIRV-LLVM-Translator (llvm-spirv-15, compiler/Spirv.cpp) aborts
// on an assertion for a few constructs that valid OpenCL SPIR-V uses and
// that have a plain equivalent in SPIR-V it does read. This step rewrites
// them on the module's words, before the translator runs, so the rest of
// the path (translator, LLVM 19 pipeline) never sees them:
//
// - OpConstantNull of a scalar (bool, integer, float): OpConstantFalse or
//   OpConstant 0.
// - UserSemantic string decorations (OpDecorateString and
//   OpMemberDecorateString, SPIR-V 1.4): dropped; they are annotations
//   without meaning for the code.
// - OpCopyMemory (typed, no size; the translator asserts on it with or
//   without memory operands): OpLoad of the source's pointee type and
//   OpStore of it, the first memory-operand set on the store (the target's)
//   and the second, or the first when there is one, on the load.
// - OpCopyMemorySized with two memory-operand sets (SPIR-V 1.4; the
//   translator reads one): one set, volatile or non-temporal if either is,
//   with the target's alignment (the source's is a hint that may go).
// - OpPtrEqual, OpPtrNotEqual (SPIR-V 1.4, not implemented by the
//   translator): both pointers through OpConvertPtrToU to a 64-bit integer
//   (the addressing model is Physical64), then OpIEqual / OpINotEqual.
// - OpPtrDiff (likewise): OpConvertPtrToU of both, OpISub, OpSDiv by the
//   size of the pointee type (exact: both point into one array), and a
//   conversion to the result's width when that is not 64.
// - OpCopyLogical (likewise): member by member, OpCompositeExtract of the
//   operand's members, each copied logically to the result's member type
//   (recursively, for nested structures and arrays), and
//   OpCompositeInsert of each into an OpUndef of the result type.
// - OpVectorShuffle of two vectors of different lengths (the translator
//   asserts that both have one type): the shorter one first widened by a
//   shuffle of its own to the longer one's type, the components renumbered.
//
// Operand types come from each instruction's result type (which opcodes
// have one: SPIRV-Headers' HasResultAndType); new ids extend the header's
// bound; new types and constants go before the first function.

#include "compiler/SpirvLegalize.h"

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace clcpu::compiler {

namespace {
using Words = std::vector<uint32_t>;

/// The memory-operand masks merged or moved here: Volatile, Aligned and
/// Nontemporal (the OpenCL memory model's; the Vulkan ones carry ids).
constexpr uint32_t PlainMemoryAccess =
    uint32_t(spv::MemoryAccessVolatileMask) |
    uint32_t(spv::MemoryAccessAlignedMask) |
    uint32_t(spv::MemoryAccessNontemporalMask);

/// Words of a memory-operand set whose mask is \p Mask (plain): the mask
/// and Aligned's literal.
unsigned memoryOperandWords(uint32_t Mask) {
  return 1 + ((Mask & spv::MemoryAccessAlignedMask) ? 1 : 0);
}

/// Arrays copied logically element by element up to this length; a longer
/// one is left to the translator (the code would grow with it).
constexpr uint64_t MaxLogicalCopyElements = 1024;

/// Recursion limit on nested types (the module is untrusted).
constexpr unsigned MaxTypeDepth = 64;

class Legalizer {
public:
  explicit Legalizer(const std::string &Il) : W(Il.size() / 4) {
    std::memcpy(W.data(), Il.data(), W.size() * 4);
  }

  /// The rewritten module; empty if nothing changed.
  std::string run() {
    scan();
    Words Out(W.begin(), W.begin() + 5);
    size_t FirstFunction = 0;
    bool Changed = false;
    for (size_t I = 5; I < W.size();) {
      uint32_t Count = W[I] >> 16;
      if ((W[I] & 0xffff) == spv::OpFunction && !FirstFunction)
        FirstFunction = Out.size();
      if (rewrite(&W[I], Count, Out))
        Changed = true;
      else
        Out.insert(Out.end(), W.begin() + I, W.begin() + I + Count);
      I += Count;
    }
    if (!Changed)
      return "";
    if (!Globals.empty()) {
      if (!FirstFunction)
        FirstFunction = Out.size();
      Out.insert(Out.begin() + FirstFunction, Globals.begin(), Globals.end());
    }
    if (AddInt64Capability)
      Out.insert(Out.begin() + 5,
                 {(2u << 16) | spv::OpCapability, spv::CapabilityInt64});
    Out[3] = Bound;
    return std::string(reinterpret_cast<const char *>(Out.data()),
                       Out.size() * 4);
  }

private:
  /// The module's words (inspected: every instruction's count is in range).
  Words W;
  /// Result id → word index of the instruction that defines it.
  std::unordered_map<uint32_t, size_t> Def;
  /// Result id → its result type.
  std::unordered_map<uint32_t, uint32_t> TypeOf;
  /// Structures decorated CPacked (no padding between members).
  std::unordered_set<uint32_t> Packed;
  bool HasInt64Capability = false, AddInt64Capability = false;
  uint32_t Bound = 0;
  /// The module's 64-bit integer type (OpTypeInt 64 0), or the one added.
  uint32_t U64 = 0;
  /// Types and constants added, placed before the first function.
  Words Globals;
  std::unordered_map<uint64_t, uint32_t> U64Constants;

  void scan() {
    Bound = W[3];
    for (size_t I = 5; I < W.size(); I += W[I] >> 16) {
      uint32_t Count = W[I] >> 16, Op = W[I] & 0xffff;
      const uint32_t *Ops = &W[I + 1];
      bool HasResult, HasType;
      spv::HasResultAndType(spv::Op(Op), &HasResult, &HasType);
      unsigned ResultAt = HasType ? 1 : 0;
      if (HasResult && Count > ResultAt + 1) {
        Def.emplace(Ops[ResultAt], I);
        if (HasType)
          TypeOf.emplace(Ops[1], Ops[0]);
      }
      if (Op == spv::OpCapability && Count >= 2 &&
          Ops[0] == spv::CapabilityInt64)
        HasInt64Capability = true;
      if (Op == spv::OpDecorate && Count >= 3 &&
          Ops[1] == spv::DecorationCPacked)
        Packed.insert(Ops[0]);
      if (Op == spv::OpTypeInt && Count >= 4 && Ops[1] == 64 && Ops[2] == 0 &&
          !U64)
        U64 = Ops[0];
    }
  }

  uint32_t fresh() { return Bound++; }

  /// The instruction defining \p Id: its opcode (0 if none), and its
  /// operands in \p Ops / \p N.
  uint32_t definition(uint32_t Id, const uint32_t *&Ops, unsigned &N) const {
    auto It = Def.find(Id);
    if (It == Def.end())
      return 0;
    Ops = &W[It->second + 1];
    N = (W[It->second] >> 16) - 1;
    return W[It->second] & 0xffff;
  }

  uint32_t typeOf(uint32_t Id) const {
    auto It = TypeOf.find(Id);
    return It == TypeOf.end() ? 0 : It->second;
  }

  static void emit(Words &Out, spv::Op Op,
                   std::initializer_list<uint32_t> Ops) {
    Out.push_back(uint32_t((Ops.size() + 1) << 16) | Op);
    Out.insert(Out.end(), Ops);
  }

  uint32_t u64Type() {
    if (!U64) {
      U64 = fresh();
      emit(Globals, spv::OpTypeInt, {U64, 64, 0});
      AddInt64Capability = !HasInt64Capability;
    }
    return U64;
  }

  uint32_t u64Constant(uint64_t V) {
    auto [It, New] = U64Constants.emplace(V, 0);
    if (New) {
      uint32_t Type = u64Type();
      It->second = fresh();
      emit(Globals, spv::OpConstant,
           {Type, It->second, uint32_t(V), uint32_t(V >> 32)});
    }
    return It->second;
  }

  /// The value of the integer OpConstant \p Id.
  bool constantValue(uint32_t Id, uint64_t &V) const {
    const uint32_t *Ops = nullptr;
    unsigned N = 0;
    if (definition(Id, Ops, N) != spv::OpConstant || N < 3)
      return false;
    V = Ops[2] | (N >= 4 ? uint64_t(Ops[3]) << 32 : 0);
    return true;
  }

  /// The pointee type of the pointer value \p Ptr, or 0.
  uint32_t pointee(uint32_t Ptr) const {
    const uint32_t *Ops = nullptr;
    unsigned N = 0;
    if (definition(typeOf(Ptr), Ops, N) != spv::OpTypePointer || N < 3)
      return 0;
    return Ops[2];
  }

  /// The size and alignment of \p Type in memory as OpenCL C lays it out
  /// (OpenCL C 6.3.5: a 3-component vector takes 4 components' room;
  /// structures pad to their members' alignment unless CPacked). False for
  /// a type without a size (bool, opaque, runtime array).
  bool layout(uint32_t Type, uint64_t &Size, uint64_t &Align,
              unsigned Depth = 0) const {
    const uint32_t *Ops = nullptr;
    unsigned N = 0;
    if (Depth > MaxTypeDepth)
      return false;
    switch (definition(Type, Ops, N)) {
    case spv::OpTypeInt:
    case spv::OpTypeFloat:
      if (N < 2 || Ops[1] % 8 != 0 || Ops[1] == 0)
        return false;
      Size = Align = Ops[1] / 8;
      return true;
    case spv::OpTypePointer:
      Size = Align = 8;
      return true;
    case spv::OpTypeVector: {
      uint64_t ElementSize, ElementAlign;
      if (N < 3 || !layout(Ops[1], ElementSize, ElementAlign, Depth + 1))
        return false;
      Size = Align = ElementSize * (Ops[2] == 3 ? 4 : Ops[2]);
      return true;
    }
    case spv::OpTypeArray: {
      uint64_t Length, ElementSize;
      if (N < 3 || !constantValue(Ops[2], Length) ||
          !layout(Ops[1], ElementSize, Align, Depth + 1) ||
          __builtin_mul_overflow(Length, ElementSize, &Size))
        return false;
      return true;
    }
    case spv::OpTypeStruct: {
      bool IsPacked = Packed.count(Type) != 0;
      Size = 0;
      Align = 1;
      for (unsigned M = 1; M < N; ++M) {
        uint64_t MemberSize, MemberAlign;
        if (!layout(Ops[M], MemberSize, MemberAlign, Depth + 1))
          return false;
        if (IsPacked)
          MemberAlign = 1;
        Size = (Size + MemberAlign - 1) / MemberAlign * MemberAlign;
        if (__builtin_add_overflow(Size, MemberSize, &Size))
          return false;
        Align = std::max(Align, MemberAlign);
      }
      Size = (Size + Align - 1) / Align * Align;
      return true;
    }
    default:
      return false;
    }
  }

  /// Whether \p To and \p From logically match (SPIR-V 2.2.2: the same
  /// kind of aggregate with logically matching members, or one type).
  bool logicallyMatch(uint32_t To, uint32_t From, unsigned Depth = 0) const {
    if (To == From)
      return true;
    const uint32_t *T = nullptr, *F = nullptr;
    unsigned NT = 0, NF = 0;
    uint32_t OpT = definition(To, T, NT), OpF = definition(From, F, NF);
    if (Depth > MaxTypeDepth || OpT != OpF)
      return false;
    if (OpT == spv::OpTypeStruct) {
      if (NT != NF)
        return false;
      for (unsigned M = 1; M < NT; ++M)
        if (!logicallyMatch(T[M], F[M], Depth + 1))
          return false;
      return true;
    }
    uint64_t LT, LF;
    return OpT == spv::OpTypeArray && NT >= 3 && NF >= 3 &&
           constantValue(T[2], LT) && constantValue(F[2], LF) && LT == LF &&
           LT <= MaxLogicalCopyElements &&
           logicallyMatch(T[1], F[1], Depth + 1);
  }

  /// \p Value (of type \p From) copied logically to type \p To, in
  /// \p Result (a new id when 0); the id of the copy.
  uint32_t copyLogical(uint32_t To, uint32_t From, uint32_t Value,
                       uint32_t Result, Words &Out) {
    if (To == From) {
      if (!Result)
        return Value;
      emit(Out, spv::OpCopyObject, {To, Result, Value});
      return Result;
    }
    const uint32_t *T = nullptr, *F = nullptr;
    unsigned NT = 0, NF = 0;
    uint32_t Op = definition(To, T, NT);
    definition(From, F, NF);
    Words Members;
    if (Op == spv::OpTypeStruct) {
      for (unsigned M = 1; M < NT; ++M) {
        uint32_t Part = fresh();
        emit(Out, spv::OpCompositeExtract, {F[M], Part, Value, M - 1});
        Members.push_back(copyLogical(T[M], F[M], Part, 0, Out));
      }
    } else {
      uint64_t Length = 0;
      constantValue(T[2], Length);
      for (uint32_t E = 0; E < Length; ++E) {
        uint32_t Part = fresh();
        emit(Out, spv::OpCompositeExtract, {F[1], Part, Value, E});
        Members.push_back(copyLogical(T[1], F[1], Part, 0, Out));
      }
    }
    // Built by OpCompositeInsert into an OpUndef: llvm-spirv-15 crashes on
    // an OpCompositeConstruct of a structure from values that are not
    // constants.
    uint32_t Whole = fresh();
    emit(Out, spv::OpUndef, {To, Whole});
    for (uint32_t M = 0; M < Members.size(); ++M) {
      uint32_t Next = M + 1 == Members.size() && Result ? Result : fresh();
      emit(Out, spv::OpCompositeInsert, {To, Next, Members[M], Whole, M});
      Whole = Next;
    }
    return Whole;
  }

  /// The number of components of the vector type \p Type, or 0.
  uint32_t vectorLength(uint32_t Type) const {
    const uint32_t *Ops = nullptr;
    unsigned N = 0;
    if (definition(Type, Ops, N) != spv::OpTypeVector || N < 3)
      return 0;
    return Ops[2];
  }

  /// Appends the replacement of the instruction at \p I (\p Count words) to
  /// \p Out; false, with \p Out unchanged, if it stays as it is.
  bool rewrite(const uint32_t *I, uint32_t Count, Words &Out) {
    uint32_t Op = I[0] & 0xffff;
    const uint32_t *Ops = I + 1;
    unsigned N = Count - 1;
    switch (Op) {
    case spv::OpDecorateString:
      return N >= 2 && Ops[1] == spv::DecorationUserSemantic;
    case spv::OpMemberDecorateString:
      return N >= 3 && Ops[2] == spv::DecorationUserSemantic;
    case spv::OpConstantNull: {
      const uint32_t *T = nullptr;
      unsigned NT = 0;
      if (N != 2)
        return false;
      switch (definition(Ops[0], T, NT)) {
      case spv::OpTypeBool:
        emit(Out, spv::OpConstantFalse, {Ops[0], Ops[1]});
        return true;
      case spv::OpTypeInt:
      case spv::OpTypeFloat:
        if (NT < 2)
          return false;
        if (T[1] > 32)
          emit(Out, spv::OpConstant, {Ops[0], Ops[1], 0, 0});
        else
          emit(Out, spv::OpConstant, {Ops[0], Ops[1], 0});
        return true;
      default:
        return false;
      }
    }
    case spv::OpCopyMemory: {
      // Target, Source, then up to two memory-operand sets: "If two masks
      // are present, the first applies to Target ... and the second
      // applies to Source"; one applies to both.
      if (N < 2)
        return false;
      uint32_t Type = pointee(Ops[1]);
      unsigned TargetSet = 2, SourceSet = 2, End = 2;
      if (N > 2) {
        if (Ops[2] & ~PlainMemoryAccess)
          return false;
        End = 2 + memoryOperandWords(Ops[2]);
        if (N > End) {
          if (Ops[End] & ~PlainMemoryAccess)
            return false;
          SourceSet = End;
          End += memoryOperandWords(Ops[End]);
        }
      }
      if (!Type || End != N)
        return false;
      uint32_t Value = fresh();
      unsigned SourceWords = N > 2 ? memoryOperandWords(Ops[SourceSet]) : 0;
      unsigned TargetWords = N > 2 ? memoryOperandWords(Ops[TargetSet]) : 0;
      Out.push_back(((4 + SourceWords) << 16) | spv::OpLoad);
      Out.insert(Out.end(), {Type, Value, Ops[1]});
      Out.insert(Out.end(), Ops + SourceSet, Ops + SourceSet + SourceWords);
      Out.push_back(((3 + TargetWords) << 16) | spv::OpStore);
      Out.insert(Out.end(), {Ops[0], Value});
      Out.insert(Out.end(), Ops + TargetSet, Ops + TargetSet + TargetWords);
      return true;
    }
    case spv::OpCopyMemorySized: {
      // Target, Source, Size, then the sets.
      if (N < 5 || (Ops[3] & ~PlainMemoryAccess))
        return false;
      unsigned Second = 3 + memoryOperandWords(Ops[3]);
      if (N <= Second || (Ops[Second] & ~PlainMemoryAccess))
        return false;
      uint32_t Merged =
          Ops[3] | (Ops[Second] & (uint32_t(spv::MemoryAccessVolatileMask) |
                                   uint32_t(spv::MemoryAccessNontemporalMask)));
      Out.push_back(((1 + Second) << 16) | spv::OpCopyMemorySized);
      Out.insert(Out.end(), {Ops[0], Ops[1], Ops[2], Merged});
      Out.insert(Out.end(), Ops + 4, Ops + Second);
      return true;
    }
    case spv::OpPtrEqual:
    case spv::OpPtrNotEqual: {
      if (N != 4)
        return false;
      uint32_t Type = u64Type(), A = fresh(), B = fresh();
      emit(Out, spv::OpConvertPtrToU, {Type, A, Ops[2]});
      emit(Out, spv::OpConvertPtrToU, {Type, B, Ops[3]});
      emit(Out, Op == spv::OpPtrEqual ? spv::OpIEqual : spv::OpINotEqual,
           {Ops[0], Ops[1], A, B});
      return true;
    }
    case spv::OpPtrDiff: {
      // "Element-number subtraction of the memory addresses of two
      // pointers to elements of the same array": the byte difference over
      // the element's size.
      const uint32_t *T = nullptr;
      unsigned NT = 0;
      uint64_t Size, Align;
      if (N != 4 || definition(Ops[0], T, NT) != spv::OpTypeInt || NT < 2 ||
          !layout(pointee(Ops[2]), Size, Align) || Size == 0)
        return false;
      uint32_t Type = u64Type(), Divisor = u64Constant(Size), A = fresh(),
               B = fresh(), Bytes = fresh();
      uint32_t Elements = T[1] == 64 ? Ops[1] : fresh();
      emit(Out, spv::OpConvertPtrToU, {Type, A, Ops[2]});
      emit(Out, spv::OpConvertPtrToU, {Type, B, Ops[3]});
      emit(Out, spv::OpISub, {Type, Bytes, A, B});
      emit(Out, spv::OpSDiv,
           {T[1] == 64 ? Ops[0] : Type, Elements, Bytes, Divisor});
      if (T[1] != 64)
        emit(Out, spv::OpSConvert, {Ops[0], Ops[1], Elements});
      return true;
    }
    case spv::OpCopyLogical: {
      uint32_t From = N == 3 ? typeOf(Ops[2]) : 0;
      if (!From || !logicallyMatch(Ops[0], From))
        return false;
      copyLogical(Ops[0], From, Ops[2], Ops[1], Out);
      return true;
    }
    case spv::OpVectorShuffle: {
      if (N < 4)
        return false;
      uint32_t T1 = typeOf(Ops[2]), T2 = typeOf(Ops[3]);
      uint32_t N1 = vectorLength(T1), N2 = vectorLength(T2);
      if (T1 == T2 || !N1 || !N2 || N1 == N2)
        return false;
      // The shorter vector widened: its components, then component 0 in
      // the places the shuffle below never selects.
      bool FirstShorter = N1 < N2;
      uint32_t Short = FirstShorter ? Ops[2] : Ops[3];
      uint32_t Long = std::max(N1, N2), ShortLength = std::min(N1, N2);
      uint32_t Wide = fresh();
      Out.push_back(((5 + Long) << 16) | spv::OpVectorShuffle);
      Out.insert(Out.end(), {FirstShorter ? T2 : T1, Wide, Short, Short});
      for (uint32_t C = 0; C < Long; ++C)
        Out.push_back(C < ShortLength ? C : 0);
      Out.push_back(Count << 16 | spv::OpVectorShuffle);
      Out.insert(Out.end(), {Ops[0], Ops[1], FirstShorter ? Wide : Ops[2],
                             FirstShorter ? Ops[3] : Wide});
      // Components index the two vectors' concatenation: with the first
      // one widened, the second's start N2 - N1 places later. 0xFFFFFFFF
      // (undefined) stays.
      for (unsigned C = 4; C < N; ++C)
        Out.push_back(FirstShorter && Ops[C] != 0xFFFFFFFF && Ops[C] >= N1
                          ? Ops[C] - N1 + N2
                          : Ops[C]);
      return true;
    }
    default:
      return false;
    }
  }
};
} // namespace

std::string legalizeSpirv(const std::string &Il) {
  if (Il.size() < 20 || Il.size() % 4 != 0)
    return Il;
  std::string Out = Legalizer(Il).run();
  return Out.empty() ? Il : Out;
}

} // namespace clcpu::compiler
