//===- CheckRanges.cpp - ranges of checked offsets over a loop
//-------------===//
//
// An access's offset in its object is `Start + Step * i` in iteration i of a
// loop. With a constant Step below 2^31 in magnitude and a count of
// iterations below 2^32 (tested where the count is not known), Step * i
// stays within 63 bits, so the offsets move from Start to the last one
// without wrapping: when both ends lie in [0, room], every offset between
// does. The ends are computed once, in the loop's preheader.

#include "compiler/passes/CheckRanges.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <cstdint>

using namespace llvm;

namespace clcpu::compiler {

std::optional<OffsetRange> offsetRangeOver(ScalarEvolution &SE, const Loop &L,
                                           const SCEV *Offset,
                                           const BasicBlock *At) {
  BasicBlock *Preheader = L.getLoopPreheader();
  if (!Preheader || isa<SCEVCouldNotCompute>(Offset) ||
      !Offset->getType()->isIntegerTy(64))
    return std::nullopt;
  Instruction *Where = Preheader->getTerminator();
  SCEVExpander Exp(SE, Preheader->getDataLayout(), "in.range");
  if (SE.isLoopInvariant(Offset, &L)) {
    if (!Exp.isSafeToExpandAt(Offset, Where))
      return std::nullopt;
    return OffsetRange{Offset, Offset, nullptr};
  }
  const auto *AR = dyn_cast<SCEVAddRecExpr>(Offset);
  if (!AR || !AR->isAffine() || AR->getLoop() != &L)
    return std::nullopt;
  const auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
  const SCEV *Taken = SE.getSymbolicMaxBackedgeTakenCount(&L);
  if (!Step || Step->getAPInt().getSignificantBits() > 32 ||
      isa<SCEVCouldNotCompute>(Taken) ||
      SE.getTypeSizeInBits(Taken->getType()) > 64)
    return std::nullopt;
  Type *I64 = Offset->getType();
  Taken = SE.getNoopOrZeroExtend(Taken, I64);
  // The iterations run Taken + 1 times; a loop that exits only at its top
  // runs the rest of its body one time fewer (a `for (j = 0; j < k; ++j)`
  // body sees j < k, not j == k).
  const SCEV *Last = Taken;
  if (L.getExitingBlock() == L.getHeader() && At != L.getHeader())
    Last = SE.getMinusSCEV(Taken, SE.getOne(I64));
  const SCEV *Start = AR->getStart();
  const SCEV *End = SE.getAddExpr(Start, SE.getMulExpr(Step, Last));
  OffsetRange R{SE.getSMinExpr(Start, End), SE.getSMaxExpr(Start, End), Taken};
  if (!Exp.isSafeToExpandAt(R.Lo, Where) ||
      !Exp.isSafeToExpandAt(R.Hi, Where) ||
      !Exp.isSafeToExpandAt(R.Taken, Where))
    return std::nullopt;
  return R;
}

Value *withinRange(IRBuilderBase &B, SCEVExpander &Exp, const OffsetRange &R,
                   Value *Room, Instruction *Where) {
  Type *I64 = B.getInt64Ty();
  Value *Lo = Exp.expandCodeFor(R.Lo, I64, Where);
  Value *Hi = Exp.expandCodeFor(R.Hi, I64, Where);
  B.SetInsertPoint(Where);
  // Lo >= 0 and Hi >= Lo: Hi compares unsigned like the check itself.
  Value *Ok = B.CreateAnd(B.CreateICmpSGE(Lo, B.getInt64(0)),
                          B.CreateICmpULE(Hi, Room));
  if (R.Taken) {
    Value *Taken = Exp.expandCodeFor(R.Taken, I64, Where);
    B.SetInsertPoint(Where);
    Ok = B.CreateAnd(Ok, B.CreateICmpULE(Taken, B.getInt64(UINT32_MAX)));
  }
  return Ok;
}

bool versionLoop(
    Loop &L, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE,
    function_ref<Value *(IRBuilderBase &, Instruction *Where)> Test,
    ValueToValueMapTy &VMap) {
  BasicBlock *Exit = L.getExitBlock();
  if (!L.isInnermost() || !L.getLoopPreheader() || !Exit ||
      !L.hasDedicatedExits())
    return false;
  // Values of the loop used after it go through phis in its exit, which
  // then merge the two copies.
  formLCSSA(L, DT, &LI, &SE);
  BasicBlock *Head = L.getLoopPreheader();
  IRBuilder<> B(Head->getTerminator());
  Value *Ok = Test(B, Head->getTerminator());
  Ok->setName("in.range");
  BasicBlock *Checked =
      SplitBlock(Head, Head->getTerminator(), &DT, &LI, nullptr,
                 L.getHeader()->getName() + ".checked.ph");
  SmallVector<BasicBlock *, 8> Blocks;
  Loop *Copy = cloneLoopWithPreheader(Checked, Head, &L, VMap, ".in.range", &LI,
                                      &DT, Blocks);
  remapInstructionsInBlocks(Blocks, VMap);
  Instruction *Old = Head->getTerminator();
  BranchInst::Create(Copy->getLoopPreheader(), Checked, Ok, Old->getIterator());
  Old->eraseFromParent();
  for (PHINode &Phi : Exit->phis())
    for (unsigned K = 0, E = Phi.getNumIncomingValues(); K < E; ++K) {
      BasicBlock *From = Phi.getIncomingBlock(K);
      if (!L.contains(From))
        continue;
      Value *V = Phi.getIncomingValue(K);
      Value *Mapped = VMap.lookup(V);
      Phi.addIncoming(Mapped ? Mapped : V, cast<BasicBlock>(VMap[From]));
    }
  DT.changeImmediateDominator(Exit, Head);
  SE.forgetLoop(&L);
  return true;
}

} // namespace clcpu::compiler
