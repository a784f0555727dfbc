//===- BlockedStores.cpp - per-work-item blocks stay scalar ---------------===//
//
// A work-item that writes its own S consecutive elements,
//
//   int b = get_global_id(0) * S;          // S a compile-time constant
//   for (int j = 0; j < S; ++j) { v = in[b + j]; out[b + j] = pre; pre += v; }
//
// has no loop left once the inner loop is fully unrolled: its work-item
// loop is innermost, and the loop vectorizer widens it across work-items.
// Each of the S stores then writes lanes S elements apart: a scatter, or an
// interleaved store group whose shuffles x86 has no cheap lowering for.
// Kept scalar, the S stores of one work-item are adjacent and the SLP
// vectorizer turns them into one vector store. That is much faster for a
// running prefix over each work-item's block and no slower for an
// element-wise `out = in * 3 + 1`. A loop over each work-item's block that
// only loads (a sum of S, no store group) is faster across work-items, so
// loads alone keep the vectorizer.
//
// So this pass, run before the vectorizer, gives an innermost work-item
// loop a vectorization width of 1 when its scalar stores include a complete
// group: S >= 2 stores of one element size whose addresses advance by S
// elements per work-item and start 0, 1, ..., S - 1 elements after one
// another. OpenCL vector stores (float4, one store each before
// ScalarizeWorkItemLoops splits them) do not count: they run first, while
// they are still single stores.

#include "compiler/passes/BlockedStores.h"

#include "compiler/WorkItemLoops.h"

#include <llvm/IR/DataLayout.h>

#include <llvm/ADT/SmallBitVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/PassManager.h>

#include <optional>

using namespace llvm;

#define DEBUG_TYPE "clcpu-blocked-stores"

namespace clcpu::compiler {

namespace {

/// How far \p S moves from one work-item to the next in the work-item loop
/// \p X, if by a constant. Like ConsecutiveGathers.cpp, it looks through
/// extensions and truncations: the OpenCL C source computes the index of
/// each work-item in int or size_t, where neighbouring work-items do not
/// wrap (and this only picks the faster of two correct codes).
std::optional<int64_t> strideIn(const SCEV *S, const Loop &X,
                                ScalarEvolution &SE, unsigned Depth = 0) {
  if (Depth > 12)
    return std::nullopt;
  if (SE.isLoopInvariant(S, &X))
    return 0;
  auto Small = [](const APInt &V) -> std::optional<int64_t> {
    if (V.getSignificantBits() > 62)
      return std::nullopt;
    return V.getSExtValue();
  };
  if (const auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
    const auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
    if (AR->getLoop() != &X || !AR->isAffine() || !Step)
      return std::nullopt;
    return Small(Step->getAPInt());
  }
  if (const auto *C = dyn_cast<SCEVCastExpr>(S))
    return strideIn(C->getOperand(), X, SE, Depth + 1);
  if (const auto *A = dyn_cast<SCEVAddExpr>(S)) {
    int64_t Sum = 0;
    for (const SCEV *Op : A->operands()) {
      std::optional<int64_t> D = strideIn(Op, X, SE, Depth + 1);
      if (!D || __builtin_add_overflow(Sum, *D, &Sum))
        return std::nullopt;
    }
    return Sum;
  }
  if (const auto *M = dyn_cast<SCEVMulExpr>(S);
      M && M->getNumOperands() == 2 && isa<SCEVConstant>(M->getOperand(0))) {
    std::optional<int64_t> D = strideIn(M->getOperand(1), X, SE, Depth + 1);
    std::optional<int64_t> K =
        Small(cast<SCEVConstant>(M->getOperand(0))->getAPInt());
    int64_t P;
    if (!D || !K || __builtin_mul_overflow(*D, *K, &P))
      return std::nullopt;
    return P;
  }
  // InstCombine's sign extension of a scaled int: (x << 35) >>exact 32.
  if (const auto *U = dyn_cast<SCEVUnknown>(S))
    if (auto *Sh = dyn_cast<BinaryOperator>(U->getValue());
        Sh && Sh->getOpcode() == Instruction::AShr && Sh->isExact())
      if (auto *C = dyn_cast<ConstantInt>(Sh->getOperand(1));
          C && C->getZExtValue() < 63) {
        std::optional<int64_t> D =
            strideIn(SE.getSCEV(Sh->getOperand(0)), X, SE, Depth + 1);
        int64_t Unit = int64_t(1) << C->getZExtValue();
        if (D && *D % Unit == 0)
          return *D / Unit;
      }
  return std::nullopt;
}

/// A simple scalar store of \p Size bytes to \p Ptr, \p Stride bytes
/// further per work-item.
struct StridedStore {
  const SCEV *Ptr;
  int64_t Stride;
  uint64_t Size;
};

/// Whether the stores of the work-item loop \p X include a complete group:
/// each work-item's own S >= 2 consecutive elements.
bool storesOwnBlocks(const Loop &X, ScalarEvolution &SE) {
  const DataLayout &DL = X.getHeader()->getDataLayout();
  SmallVector<StridedStore, 8> Stores;
  for (BasicBlock *BB : X.blocks())
    for (Instruction &I : *BB) {
      auto *St = dyn_cast<StoreInst>(&I);
      if (!St || !St->isSimple())
        continue;
      Type *Ty = St->getValueOperand()->getType();
      if (Ty->isVectorTy() || !Ty->isSized())
        continue;
      uint64_t Size = DL.getTypeStoreSize(Ty);
      const SCEV *Ptr = SE.getSCEV(St->getPointerOperand());
      std::optional<int64_t> Stride = strideIn(Ptr, X, SE);
      if (Size && Stride && *Stride >= int64_t(2 * Size) &&
          *Stride <= int64_t(64 * Size) && *Stride % int64_t(Size) == 0)
        Stores.push_back({Ptr, *Stride, Size});
    }
  for (const StridedStore &A : Stores) {
    SmallBitVector Seen(A.Stride / A.Size);
    for (const StridedStore &B : Stores) {
      if (B.Stride != A.Stride || B.Size != A.Size)
        continue;
      const auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(B.Ptr, A.Ptr));
      if (!D || D->getAPInt().getSignificantBits() > 32)
        continue;
      int64_t Off = D->getAPInt().getSExtValue();
      if (Off >= 0 && Off < A.Stride && Off % int64_t(A.Size) == 0)
        Seen.set(Off / A.Size);
    }
    if (Seen.all())
      return true;
  }
  return false;
}

} // namespace

PreservedAnalyses BlockedStoresPass::run(Function &F,
                                         FunctionAnalysisManager &FAM) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution *SE = nullptr;
  bool Changed = false;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!L->isInnermost() || !isWorkItemLoop(*L))
      continue;
    if (!SE)
      SE = &FAM.getResult<ScalarEvolutionAnalysis>(F);
    if (!storesOwnBlocks(*L, *SE))
      continue;
    // A vectorization width of 1 in place of any vectorize hints (a
    // barrier region's loop that had inner loops before they were
    // unrolled carries the outer-loop path's).
    LLVMContext &C = F.getContext();
    replaceVectorizeHints(
        *L, MDNode::get(C, {MDString::get(C, "llvm.loop.vectorize.width"),
                            ConstantAsMetadata::get(
                                ConstantInt::get(Type::getInt32Ty(C), 1))}));
    Changed = true;
  }
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  PA.preserve<LoopAnalysis>();
  PA.preserve<ScalarEvolutionAnalysis>();
  return PA;
}

} // namespace clcpu::compiler
