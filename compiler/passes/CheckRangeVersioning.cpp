//===- CheckRangeVersioning.cpp - a work-item loop's checks tested once ---===//
//
// In the bounds-check mode (passes/CheckBounds.cpp) every access of a
// kernel body is checked: `@clcpu.check.in_bounds(offset, extent, size)`.
// The image builtins (builtins/image.cl) check their integer coordinates
// the same way in every mode: a read clamps a coordinate outside the image,
// a write skips it, and in a copy where the check holds for the whole loop
// neither is left (image_copy's loads and stores become plain vector ones).
// In a kernel without loops the check stays in the vectorized work-item
// loop as a compare, a mask on the access, the bookkeeping of the
// work-item's first failure and masked stores of its report: several
// times the work of `out[i] = in[i]` itself, and a masked store cannot be
// non-temporal.
//
// Once the body is a work-item x-loop (compiler/WorkItemLoops.cpp), most
// offsets are affine in the work-item's index: `out[get_global_id(0)]`
// moves by 4 bytes per work-item. At the vectorizer's start this pass
// versions each innermost x-loop that has such checks: the preheader
// computes the lowest and highest offset each one takes over the loop's
// work-items (passes/CheckRanges.h) and, when all of them lie in their
// objects, runs a copy of the loop in which those checks are true.
// InstCombine and SimplifyCFG then take the masks, the bookkeeping and the
// report stores out of the copy, which vectorizes like the unchecked
// kernel. A group with an access outside its object runs the checked loop,
// which reports exactly as before.
//
// Then every remaining check becomes its compare: `extent >= size &
// offset <= extent - size` (unsigned). The checks are calls until here so
// that the optimizer cannot take them apart (it would turn a check into
// its negation, or split off the loop-invariant half), which would leave
// nothing to find.

#include "compiler/passes/CheckRangeVersioning.h"

#include "compiler/WorkItemLoops.h"
#include "compiler/passes/CheckBounds.h"
#include "compiler/passes/CheckRanges.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <optional>
#include <vector>

using namespace llvm;

#define DEBUG_TYPE "clcpu-check-range-versioning"

namespace clcpu::compiler {

namespace {

/// The checks of innermost x-loop \p L with their ranges (an offset affine
/// in the loop, extent and size invariant) when it is versioned.
bool versionOnChecks(Loop &L, LoopInfo &LI, DominatorTree &DT,
                     ScalarEvolution &SE) {
  if (!L.getLoopPreheader())
    return false;
  PredicatedScalarEvolution PSE(SE, L);
  std::vector<std::pair<CallInst *, OffsetRange>> Ranged;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      auto *Call = dyn_cast<CallInst>(&I);
      Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!Callee || Callee->getName() != InBoundsFunction ||
          !L.isLoopInvariant(Call->getArgOperand(1)) ||
          !L.isLoopInvariant(Call->getArgOperand(2)))
        continue;
      Value *Offset = Call->getArgOperand(0);
      const SCEV *S = SE.getSCEV(Offset);
      // An index computed in 32 bits (`int i = get_global_id(0)`) is an
      // affine recurrence only while it does not wrap there: PSE assumes
      // it, and the preheader tests the assumption too.
      if (!SE.isLoopInvariant(S, &L))
        S = PSE.getAsAddRec(Offset);
      if (!S)
        continue;
      if (std::optional<OffsetRange> R =
              offsetRangeOver(SE, L, S, Call->getParent()))
        Ranged.emplace_back(Call, *R);
    }
  if (Ranged.empty())
    return false;
  auto Test = [&](IRBuilderBase &B, Instruction *Where) -> Value * {
    SCEVExpander Exp(SE, Where->getModule()->getDataLayout(), "in.range");
    Value *Ok = B.getTrue();
    for (auto &[Call, R] : Ranged) {
      B.SetInsertPoint(Where);
      Value *Extent = Call->getArgOperand(1), *Size = Call->getArgOperand(2);
      Value *Fits = B.CreateICmpUGE(Extent, Size);
      Value *Room = B.CreateSub(Extent, Size);
      Value *In = withinRange(B, Exp, R, Room, Where);
      B.SetInsertPoint(Where);
      Ok = B.CreateAnd(Ok, B.CreateAnd(Fits, In));
    }
    // The assumptions PSE made: true when one fails.
    Value *Wraps = Exp.expandCodeForPredicate(&PSE.getPredicate(), Where);
    B.SetInsertPoint(Where);
    return B.CreateAnd(Ok, B.CreateNot(Wraps));
  };
  ValueToValueMapTy VMap;
  if (!versionLoop(L, LI, DT, SE, Test, VMap))
    return false;
  for (auto &[Call, R] : Ranged) {
    auto *Copy = cast<Instruction>(VMap[Call]);
    Copy->replaceAllUsesWith(ConstantInt::getTrue(Copy->getContext()));
    Copy->eraseFromParent();
  }
  return true;
}

/// Every check left in \p F becomes its compare; true if there was one.
bool expandChecks(Function &F) {
  SmallVector<CallInst *, 16> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (Function *Callee = Call->getCalledFunction();
          Callee && Callee->getName() == InBoundsFunction)
        Calls.push_back(Call);
  for (CallInst *Call : Calls) {
    IRBuilder<> B(Call);
    Value *Offset = Call->getArgOperand(0), *Extent = Call->getArgOperand(1),
          *Size = Call->getArgOperand(2);
    // offset + size <= extent, without overflow: offset <= extent - size.
    Value *Ok = B.CreateAnd(B.CreateICmpUGE(Extent, Size),
                            B.CreateICmpULE(Offset, B.CreateSub(Extent, Size)));
    Ok->takeName(Call);
    Call->replaceAllUsesWith(Ok);
    Call->eraseFromParent();
  }
  return !Calls.empty();
}

} // namespace

PreservedAnalyses CheckRangeVersioningPass::run(Function &F,
                                                FunctionAnalysisManager &AM) {
  // The checks come from the bounds-check mode, or from the image builtins
  // (builtins/image.cl: a coordinate inside its image) in every mode.
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  const Function *Checks = F.getParent()->getFunction(InBoundsFunction);
  if (!Checks || Checks->use_empty())
    return PreservedAnalyses::all();
  LoopInfo &LI = AM.getResult<LoopAnalysis>(F);
  DominatorTree &DT = AM.getResult<DominatorTreeAnalysis>(F);
  ScalarEvolution &SE = AM.getResult<ScalarEvolutionAnalysis>(F);
  SmallVector<Loop *, 8> Loops;
  for (Loop *L : LI.getLoopsInPreorder())
    if (L->isInnermost() && isWorkItemLoop(*L))
      Loops.push_back(L);
  bool Versioned = false;
  for (Loop *L : Loops)
    Versioned |= versionOnChecks(*L, LI, DT, SE);
  bool Expanded = expandChecks(F);
  if (!Versioned)
    return Expanded ? PreservedAnalyses::none() : PreservedAnalyses::all();
  // The copies' checks are now true: their masks, the first failure's
  // bookkeeping and the report stores fold away before the vectorizer
  // looks.
  AM.invalidate(F, PreservedAnalyses::none());
  PreservedAnalyses PA = InstCombinePass().run(F, AM);
  AM.invalidate(F, PA);
  SimplifyCFGPass().run(F, AM);
  // Each version is entered from the block that chooses between them, which
  // is no preheader: the passes after this one that hoist work out of a
  // loop (compiler/passes/InvariantDivision.cpp's magic numbers for
  // `x * w / w'`) need one per loop again.
  AM.invalidate(F, PreservedAnalyses::none());
  LoopSimplifyPass().run(F, AM);
  return PreservedAnalyses::none();
}

} // namespace clcpu::compiler
