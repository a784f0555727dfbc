//===- CountedInnerLoops.cpp - inner loops the native path can take -------===//
//
// The vectorizer's VPlan-native path widens a work-item x-loop with loops
// inside (compiler/WorkItemLoops.cpp) only if each inner loop is "uniform"
// in a narrow syntactic sense (LoopVectorizationLegality's
// isUniformLoopNest): a canonical induction variable (from 0, step 1) whose
// incremented value the latch compares with a bound invariant in the
// x-loop. GPU kernels unroll their inner loops by hand, so that the loop
// steps by 2, 4 or more (CLBlast's Xgemm: `for (pwi = 0; pwi < KWG; pwi +=
// KWI)` with KWI work per step), or compare before the increment: the
// native path then gave up on the whole x-loop ("unsupported outer loop"),
// and Xgemm's accumulation ran one work-item at a time, a single serial
// chain of fused multiply-adds.
//
// Such an inner loop gets a counter of its own: a phi from 0 by 1, and a
// latch that leaves (on true) when the counter's next value reaches the
// trip count,
// which scalar evolution computes from the loop's own bounds and which
// must be the same for every work-item (invariant in the x-loop; it is
// computed before the x-loop). The loop's old exit test goes, its old
// induction stays for the body (the vectorizer and the later passes fold
// the two). A loop whose trip count scalar evolution cannot compute, or
// that differs between work-items, keeps its form: WorkItemLoopCheck then
// leaves the x-loop to the native path's own verdict as before.
//
// The latch of every inner loop the native path takes leaves on true,
// counted here or already counted: LLVM 19's native path emits an inner
// latch's branch with the exit first whatever the original order, so an
// inner loop written `br i1 %more, label %loop, label %exit` would run its
// body once (seen with the counter above before it left on true).

#include "compiler/passes/CountedInnerLoops.h"

#include "compiler/WorkItemLoops.h"
#include "compiler/passes/PassResult.h"

#include <llvm/ADT/Statistic.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-counted-inner-loops"

STATISTIC(NumCounted, "Inner loops of work-item loops given a counter");

namespace clcpu::compiler {

namespace {

/// Whether \p X carries the native path's vectorize hint.
bool wantsNativePath(const Loop &X) {
  return getBooleanLoopAttribute(&X, "llvm.loop.vectorize.enable");
}

/// Whether the native path already takes \p L as it is (its own test,
/// LoopVectorizationLegality's isUniformLoop).
bool alreadyCounted(const Loop &L, const Loop &X) {
  PHINode *IV = L.getCanonicalInductionVariable();
  BasicBlock *Latch = L.getLoopLatch();
  auto *Br = Latch ? dyn_cast<BranchInst>(Latch->getTerminator()) : nullptr;
  if (!IV || !Br || !Br->isConditional())
    return false;
  auto *Cmp = dyn_cast<CmpInst>(Br->getCondition());
  if (!Cmp)
    return false;
  Value *Next = IV->getIncomingValueForBlock(Latch);
  return (Cmp->getOperand(0) == Next &&
          X.isLoopInvariant(Cmp->getOperand(1))) ||
         (Cmp->getOperand(1) == Next && X.isLoopInvariant(Cmp->getOperand(0)));
}

/// Makes the latch of \p L, which the native path already takes, leave the
/// loop when its condition is true: the native path (LLVM 19) emits an
/// inner loop's latch branch with the exit as its first successor whatever
/// the original order, so a loop that stays on true would run once.
bool exitOnTrue(Loop &L) {
  auto *Br = cast<BranchInst>(L.getLoopLatch()->getTerminator());
  if (Br->getSuccessor(0) != L.getHeader())
    return false;
  auto *Cmp = cast<CmpInst>(Br->getCondition());
  if (Cmp->hasOneUse()) {
    Cmp->setPredicate(Cmp->getInversePredicate());
  } else {
    auto *Inv = CmpInst::Create(Cmp->getOpcode(), Cmp->getInversePredicate(),
                                Cmp->getOperand(0), Cmp->getOperand(1),
                                Cmp->getName() + ".exit", Br->getIterator());
    Br->setCondition(Inv);
  }
  Br->swapSuccessors();
  return true;
}

/// Gives \p L a counter deciding its exit; false if its shape or trip count
/// does not allow it.
bool count(Loop &L, Loop &X, ScalarEvolution &SE) {
  BasicBlock *Header = L.getHeader(), *Pre = L.getLoopPreheader(),
             *Latch = L.getLoopLatch(), *XPre = X.getLoopPreheader();
  if (!Pre || !Latch || !XPre || L.getExitingBlock() != Latch)
    return false;
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!Br || !Br->isConditional())
    return false;
  bool StayOnTrue = Br->getSuccessor(0) == Header;
  if (!StayOnTrue && Br->getSuccessor(1) != Header)
    return false;
  // The trip count, the same for every work-item: computed before X.
  const SCEV *Taken = SE.getBackedgeTakenCount(&L);
  if (isa<SCEVCouldNotCompute>(Taken) || !SE.isLoopInvariant(Taken, &X) ||
      !Taken->getType()->isIntegerTy())
    return false;
  // In 64 bits: a 32-bit count of 2^32 - 1 back edges does not wrap.
  Type *I64 = Type::getInt64Ty(Header->getContext());
  if (Taken->getType()->getIntegerBitWidth() > 64)
    return false;
  const SCEV *Trips =
      SE.getAddExpr(SE.getZeroExtendExpr(Taken, I64), SE.getOne(I64));
  SCEVExpander Exp(SE, Header->getDataLayout(), "counted");
  if (!Exp.isSafeToExpand(Trips))
    return false;
  Value *Bound = Exp.expandCodeFor(Trips, I64, XPre->getTerminator());

  IRBuilder<> B(&*Header->getFirstInsertionPt());
  PHINode *Counter = B.CreatePHI(I64, 2, "inner.count");
  B.SetInsertPoint(Br);
  Value *Next = B.CreateAdd(Counter, B.getInt64(1), "inner.count.next",
                            /*HasNUW=*/true, /*HasNSW=*/true);
  for (BasicBlock *P : predecessors(Header))
    Counter->addIncoming(P == Latch ? Next : B.getInt64(0), P);
  Value *Old = Br->getCondition();
  Br->setCondition(B.CreateICmpEQ(Next, Bound, "inner.done"));
  if (StayOnTrue)
    Br->swapSuccessors();
  if (auto *I = dyn_cast<Instruction>(Old); I && I->use_empty())
    I->eraseFromParent();
  SE.forgetLoop(&L);
  ++NumCounted;
  return true;
}

} // namespace

PreservedAnalyses CountedInnerLoopsPass::run(Function &F,
                                             FunctionAnalysisManager &FAM) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  bool Changed = false;
  for (Loop *X : LI.getLoopsInPreorder()) {
    if (!isWorkItemLoop(*X) || X->isInnermost() || !wantsNativePath(*X))
      continue;
    for (Loop *L : X->getLoopsInPreorder())
      if (L != X)
        Changed |= alreadyCounted(*L, *X) ? exitOnTrue(*L) : count(*L, *X, SE);
  }
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace clcpu::compiler
