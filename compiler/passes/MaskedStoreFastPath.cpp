//===- MaskedStoreFastPath.cpp - masked stores of uniform masks -----------===//
//
// The vectorizer turns a store under a condition that differs between
// work-items (`if (lid < o) s[lid] = ...`, a barrier region's state and
// value slots written only by the work-items still in a grid-stride loop)
// into llvm.masked.store. With AVX-512 that is one store under a mask
// register. With AVX2 it is VMASKMOVPS / VPMASKMOVD, which AMD's Zen 1-3
// run as microcode, many times the cost of a plain vector store. In the
// grid-stride loop of bench/'s reduce_local (a region per
// iteration on this path: compiler/passes/LoopSyncPoints.cpp) the three
// masked stores per vector of work-items are a large share of the kernel's
// time on those CPUs.
//
// Most of these masks are uniform at run time: every work-item of a vector
// is still in the loop, or none of a vector passes `lid < o`. So on targets
// without AVX-512, a masked store in a loop whose mask is not a constant
// tests its mask first: all lanes on, a plain store; all off, nothing; mixed,
// the masked store. Each path writes exactly the lanes the masked store
// writes, so this holds for any memory (global buffers shared with other
// work-groups included).

#include "compiler/passes/MaskedStoreFastPath.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-masked-store-fast-path"

namespace clcpu::compiler {

namespace {

/// Whether \p F is compiled for AVX-512, whose masked stores are cheap.
bool hasCheapMaskedStores(const Function &F) {
  return F.getFnAttribute("target-features")
      .getValueAsString()
      .contains("+avx512f");
}

/// Guards masked store \p II (mask of \p N lanes): all lanes on, a plain
/// store; none, no store; otherwise the masked store.
void guard(IntrinsicInst *II, unsigned N) {
  Value *Val = II->getArgOperand(0), *Ptr = II->getArgOperand(1),
        *Mask = II->getArgOperand(3);
  Align A(cast<ConstantInt>(II->getArgOperand(2))->getZExtValue());
  IRBuilder<> B(II);
  Value *Bits = B.CreateBitCast(Mask, B.getIntNTy(N), "mask.bits");
  Value *All = B.CreateICmpEQ(Bits, Constant::getAllOnesValue(Bits->getType()),
                              "mask.all");
  Instruction *FullTerm, *RestTerm;
  SplitBlockAndInsertIfThenElse(All, II, &FullTerm, &RestTerm);
  IRBuilder<> FB(FullTerm);
  StoreInst *Full = FB.CreateAlignedStore(Val, Ptr, A);
  Full->copyMetadata(*II);
  IRBuilder<> RB(RestTerm);
  Value *Any = RB.CreateICmpNE(Bits, Constant::getNullValue(Bits->getType()),
                               "mask.any");
  Instruction *PartialTerm =
      SplitBlockAndInsertIfThen(Any, RestTerm, /*Unreachable=*/false);
  II->moveBefore(PartialTerm);
}

} // namespace

PreservedAnalyses MaskedStoreFastPathPass::run(Function &F,
                                               FunctionAnalysisManager &FAM) {
  if (hasCheapMaskedStores(F))
    return PreservedAnalyses::all();
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  SmallVector<std::pair<IntrinsicInst *, unsigned>, 16> Work;
  for (BasicBlock &BB : F) {
    if (!LI.getLoopFor(&BB))
      continue; // once-only code: not worth the branch
    for (Instruction &I : BB) {
      auto *II = dyn_cast<IntrinsicInst>(&I);
      if (!II || II->getIntrinsicID() != Intrinsic::masked_store ||
          isa<Constant>(II->getArgOperand(3)))
        continue;
      auto *VT = dyn_cast<FixedVectorType>(II->getArgOperand(3)->getType());
      if (VT && VT->getNumElements() >= 2 && VT->getNumElements() <= 64)
        Work.emplace_back(II, VT->getNumElements());
    }
  }
  for (auto [II, N] : Work)
    guard(II, N);
  return Work.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace clcpu::compiler
