//===- VnniDotProduct.cpp - 4x8-bit dot products as VNNI instructions -----===//
//
// cl_khr_integer_dot_product's dot of an unsigned and a signed 4x8-bit
// vector (builtins/integer_dot_product.cl) is, per work-item, four bytes of
// each 32-bit word extended to 32 bits, multiplied pairwise and added. The
// work-item loop widens that across work-items; what it cannot make is the
// one instruction x86 has for it: VPDPBUSD (AVX-512 VNNI, and AVX-VNNI for
// 128- and 256-bit vectors) multiplies the four unsigned bytes of each
// 32-bit lane of one operand with the four signed bytes of the other's and
// adds the four products to the lane of an accumulator; VPDPBUSDS saturates
// that sum to 32 signed bits. The code generator only forms them from
// reductions of one vector, not from this lane-wise shape, and otherwise
// emits, per vector of work-items, four byte extractions of each operand,
// four vpmaddwd and three adds (and the saturation's compares and blends).
//
// This pass, at the optimizer's end, finds in each tree of adds over
// <N x i32> the four products `byte k of U (zero-extended) * byte k of S
// (sign-extended)`, k = 0..3, of one pair of words U and S, in the shapes
// InstCombine leaves them:
//
//   zero-extended byte k: and X, 255 | and (lshr X, 8k), 255 | lshr X, 24
//                         | zext (trunc (lshr X, 8k) to i8)
//   sign-extended byte k: ashr (shl X, 24 - 8k), 24 | ashr X, 24
//                         | sext (trunc (lshr X, 8k) to i8)
//
// and replaces them by vpdpbusd(rest of the tree, U, S); a tree that is
// exactly one such sum and feeds llvm.sadd.sat(sum, acc) becomes
// vpdpbusds(acc, U, S) in place of the saturating add (dot_acc_sat: "the
// saturating addition of the dot product ... and the accumulator"). Both
// are exact: the products are at most 2^15 in magnitude, so the sum of
// four and the accumulator wrap (vpdpbusd, like the adds it replaces) or
// saturate (vpdpbusds, like llvm.sadd.sat) the same way. Vectors wider
// than the instruction are split into its width. Products of two unsigned
// or two signed bytes have no such instruction on these CPUs and stay as
// they are. compiler::hostVnniDotProduct tells the runtime what this pass
// does on the host, for CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_*.

#include "compiler/passes/VnniDotProduct.h"

#include "compiler/Binary.h"
#include "compiler/Compiler.h"
#include "compiler/passes/PassResult.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/Local.h>

#include <algorithm>
#include <optional>

using namespace llvm;
using namespace llvm::PatternMatch;

#define DEBUG_TYPE "clcpu-vnni-dot-product"

namespace clcpu::compiler {

namespace {

/// The VPDPBUSD widths a target has: 512-bit with AVX-512 VNNI; 128- and
/// 256-bit with AVX-VNNI, or with AVX-512 VNNI and VL.
struct VnniWidths {
  bool Zmm = false, Ymm = false;
  VnniWidths(bool Avx512Vnni, bool Avx512Vl, bool AvxVnni)
      : Zmm(Avx512Vnni), Ymm(AvxVnni || (Avx512Vnni && Avx512Vl)) {}
  bool any() const { return Zmm || Ymm; }
  /// The lanes of one instruction for operands of \p N lanes: the widest
  /// that divides N, or 0 if none does.
  unsigned lanesFor(unsigned N) const {
    if (Zmm && N % 16 == 0)
      return 16;
    if (Ymm && N % 8 == 0)
      return 8;
    return Ymm && N % 4 == 0 ? 4 : 0;
  }
};

bool hasFeature(StringRef Features, StringRef Name) {
  SmallVector<StringRef, 64> List;
  Features.split(List, ',');
  return llvm::is_contained(List, Name);
}

/// Byte K of the 32-bit lanes of Word, zero- or sign-extended. A byte of a
/// value the same in every lane (a splat, as the vectorizer leaves values
/// uniform across work-items) is a byte of the scalar word: Splat.
struct Byte {
  Value *Word;
  unsigned K;
  bool Signed;
  bool Splat = false;
};

std::optional<Byte> matchByte(Value *V) {
  Value *X, *W;
  const APInt *S;
  auto ByteShift = [&] {
    return S->uge(8) && S->ult(32) && S->getZExtValue() % 8 == 0;
  };
  if (V->getType()->isVectorTy() &&
      match(V, m_Shuffle(m_InsertElt(m_Value(), m_Value(X), m_ZeroInt()),
                         m_Value(), m_ZeroMask()))) {
    std::optional<Byte> B = matchByte(X);
    if (B && !B->Word->getType()->isVectorTy())
      B->Splat = true;
    return B;
  }
  if (match(V, m_And(m_Value(X), m_SpecificInt(255)))) {
    if (match(X, m_LShr(m_Value(W), m_APInt(S))) && ByteShift())
      return Byte{W, unsigned(S->getZExtValue() / 8), false};
    return Byte{X, 0, false};
  }
  if (match(V, m_LShr(m_Value(X), m_SpecificInt(24))))
    return Byte{X, 3, false};
  if (match(V, m_AShr(m_Value(X), m_SpecificInt(24)))) {
    if (match(X, m_Shl(m_Value(W), m_APInt(S))) && ByteShift())
      return Byte{W, unsigned(24 - S->getZExtValue()) / 8, true};
    return Byte{X, 3, true};
  }
  auto *Ext = dyn_cast<CastInst>(V);
  if (Ext && (isa<ZExtInst>(Ext) || isa<SExtInst>(Ext)) &&
      Ext->getOperand(0)->getType()->getScalarSizeInBits() == 8 &&
      match(Ext->getOperand(0), m_Trunc(m_Value(X))) &&
      X->getType()->getScalarSizeInBits() == 32) {
    bool Signed = isa<SExtInst>(Ext);
    if (match(X, m_LShr(m_Value(W), m_APInt(S))) && ByteShift())
      return Byte{W, unsigned(S->getZExtValue() / 8), Signed};
    return Byte{X, 0, Signed};
  }
  return std::nullopt;
}

/// \p B's word is a word of \p Root's lanes: of its type, or its element
/// type for a splat.
bool isWordOf(const Byte &B, const Value *Root) {
  Type *T = Root->getType();
  return B.Word->getType() == (B.Splat ? T->getScalarType() : T);
}

/// The leaves of the tree of adds rooted at \p V; inner adds other than the
/// root have this tree as their only user.
void addLeaves(Value *V, bool IsRoot, SmallVectorImpl<Value *> &Leaves) {
  auto *BO = dyn_cast<BinaryOperator>(V);
  if (BO && BO->getOpcode() == Instruction::Add &&
      (IsRoot || BO->hasOneUse())) {
    addLeaves(BO->getOperand(0), false, Leaves);
    addLeaves(BO->getOperand(1), false, Leaves);
    return;
  }
  Leaves.push_back(V);
}

/// One dot product found in a tree: the words of the unsigned and of the
/// signed bytes, and which leaves are its four products.
struct DotGroup {
  Value *U, *S; // scalar where the bytes were splats
  bool USplat, SSplat;
  unsigned Bytes = 0; // bit k: byte k's product seen
  SmallVector<unsigned, 4> Leaves;
};

class Rewriter {
public:
  Rewriter(Function &F, VnniWidths Widths) : F(F), Widths(Widths) {}

  bool run() {
    // Tree roots: adds of 32-bit lanes that are not an operand of a larger
    // tree. Collected first, since rewriting deletes instructions.
    SmallVector<WeakTrackingVH, 16> Roots;
    for (Instruction &I : instructions(F)) {
      auto *BO = dyn_cast<BinaryOperator>(&I);
      if (!BO || BO->getOpcode() != Instruction::Add || !isLaneVector(BO))
        continue;
      auto *User =
          BO->hasOneUse() ? dyn_cast<BinaryOperator>(BO->user_back()) : nullptr;
      if (User && User->getOpcode() == Instruction::Add)
        continue;
      Roots.push_back(BO);
    }
    bool Changed = false;
    for (WeakTrackingVH &Root : Roots)
      if (auto *BO = dyn_cast_or_null<BinaryOperator>(Root))
        Changed |= rewrite(BO);
    return Changed;
  }

private:
  Function &F;
  VnniWidths Widths;

  bool isLaneVector(Value *V) const {
    auto *VT = dyn_cast<FixedVectorType>(V->getType());
    return VT && VT->getElementType()->isIntegerTy(32) &&
           Widths.lanesFor(VT->getNumElements());
  }

  bool rewrite(BinaryOperator *Root) {
    SmallVector<Value *, 16> Leaves;
    addLeaves(Root, true, Leaves);
    if (Leaves.size() < 4)
      return false;
    SmallVector<DotGroup, 4> Groups;
    for (unsigned L = 0; L < Leaves.size(); ++L) {
      Value *A, *B;
      if (!match(Leaves[L], m_Mul(m_Value(A), m_Value(B))))
        continue;
      std::optional<Byte> X = matchByte(A), Y = matchByte(B);
      if (!X || !Y || X->K != Y->K || X->Signed == Y->Signed ||
          !isWordOf(*X, Root) || !isWordOf(*Y, Root))
        continue;
      if (X->Signed)
        std::swap(X, Y);
      auto It = llvm::find_if(Groups, [&](const DotGroup &G) {
        return G.U == X->Word && G.S == Y->Word && G.USplat == X->Splat &&
               G.SSplat == Y->Splat && !(G.Bytes & 1u << X->K);
      });
      if (It == Groups.end()) {
        Groups.push_back(DotGroup{X->Word, Y->Word, X->Splat, Y->Splat});
        It = std::prev(Groups.end());
      }
      It->Bytes |= 1u << X->K;
      It->Leaves.push_back(L);
    }
    llvm::erase_if(Groups, [](const DotGroup &G) { return G.Bytes != 0xf; });
    if (Groups.empty())
      return false;
    SmallVector<bool, 16> InGroup(Leaves.size(), false);
    for (const DotGroup &G : Groups)
      for (unsigned L : G.Leaves)
        InGroup[L] = true;

    // dot_acc_sat: the tree is one dot product, saturated onto an
    // accumulator.
    Instruction *Replaced = Root;
    Value *Acc = nullptr;
    bool Saturate = false;
    if (Groups.size() == 1 && Leaves.size() == 4 && Root->hasOneUse())
      if (auto *Sat = dyn_cast<IntrinsicInst>(Root->user_back());
          Sat && Sat->getIntrinsicID() == Intrinsic::sadd_sat) {
        Replaced = Sat;
        Acc = Sat->getOperand(Sat->getOperand(0) == Root ? 1 : 0);
        Saturate = true;
      }

    IRBuilder<> B(Replaced);
    if (!Saturate) {
      for (unsigned L = 0; L < Leaves.size(); ++L)
        if (!InGroup[L])
          Acc = Acc ? B.CreateAdd(Acc, Leaves[L]) : Leaves[L];
      if (!Acc)
        Acc = Constant::getNullValue(Root->getType());
    }
    unsigned N = cast<FixedVectorType>(Root->getType())->getNumElements();
    for (const DotGroup &G : Groups)
      Acc = dotProduct(B, Acc, G.USplat ? B.CreateVectorSplat(N, G.U) : G.U,
                       G.SSplat ? B.CreateVectorSplat(N, G.S) : G.S, Saturate);
    LLVM_DEBUG(dbgs() << "clcpu-vnni-dot-product: " << Groups.size()
                      << " dot product(s) in " << *Replaced << "\n");
    Replaced->replaceAllUsesWith(Acc);
    RecursivelyDeleteTriviallyDeadInstructions(Replaced);
    return true;
  }

  /// vpdpbusd[s](Acc, U, S), split into the instruction's widest vectors
  /// that divide the operands' lanes.
  Value *dotProduct(IRBuilder<> &B, Value *Acc, Value *U, Value *S,
                    bool Saturate) {
    unsigned N = cast<FixedVectorType>(Acc->getType())->getNumElements();
    unsigned W = Widths.lanesFor(N);
    Intrinsic::ID ID;
    switch (W) {
    case 16:
      ID = Saturate ? Intrinsic::x86_avx512_vpdpbusds_512
                    : Intrinsic::x86_avx512_vpdpbusd_512;
      break;
    case 8:
      ID = Saturate ? Intrinsic::x86_avx512_vpdpbusds_256
                    : Intrinsic::x86_avx512_vpdpbusd_256;
      break;
    default:
      ID = Saturate ? Intrinsic::x86_avx512_vpdpbusds_128
                    : Intrinsic::x86_avx512_vpdpbusd_128;
      break;
    }
    Function *Vnni = Intrinsic::getDeclaration(F.getParent(), ID);
    if (N == W)
      return B.CreateCall(Vnni, {Acc, U, S});
    SmallVector<Value *, 4> Parts;
    for (unsigned Start = 0; Start < N; Start += W) {
      auto Slice = [&](Value *V) {
        return B.CreateShuffleVector(V, createSequentialMask(Start, W, 0));
      };
      Parts.push_back(B.CreateCall(Vnni, {Slice(Acc), Slice(U), Slice(S)}));
    }
    return concatenateVectors(B, Parts);
  }
};

} // namespace

bool hostVnniDotProduct() {
  const std::vector<std::string> &F = hostTargetFeatures();
  auto Has = [&](const char *X) {
    return std::find(F.begin(), F.end(), X) != F.end();
  };
  return VnniWidths(Has("+avx512vnni"), Has("+avx512vl"), Has("+avxvnni"))
      .any();
}

PreservedAnalyses VnniDotProductPass::run(Function &F,
                                          FunctionAnalysisManager &) {
  StringRef Features = F.getFnAttribute("target-features").getValueAsString();
  VnniWidths Widths(hasFeature(Features, "+avx512vnni"),
                    hasFeature(Features, "+avx512vl"),
                    hasFeature(Features, "+avxvnni"));
  if (!Widths.any())
    return PreservedAnalyses::all();
  return keptCFG(Rewriter(F, Widths).run());
}

} // namespace clcpu::compiler
