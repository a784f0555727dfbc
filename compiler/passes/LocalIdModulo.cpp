//===- LocalIdModulo.cpp - remainders of the local id ---------------------===//
//
// Work-items that exchange values with a neighbour in a ring index local
// memory with a remainder of their local id: `s[(lid + 1) % WG]`. With an
// unsigned id (or a signed one known not negative), InstCombine makes the
// remainder by a power of two an `and` with a low mask, which scalar
// evolution models as an add-recurrence truncated to the mask's width.
// The loop vectorizer then takes the access as consecutive on the
// condition that the recurrence does not wrap over the loop's trip count,
// versions the work-item loop on that condition, and runs the scalar copy
// of the loop where it fails. It fails for every group that holds a whole
// period of the remainder: in a group of 256 work-items exchanging through
// `(lid + 1) % 256`, every group, so the exchange ran one work-item at a
// time (barrier_stress with `size_t lid`: about ten times slower than
// with `int lid`, whose signed remainder the vectorizer gathers through).
//
// In a loop marked as a work-item x-loop (compiler/WorkItemLoops.h), this
// pass rewrites such an `and` (or a remainder scalar evolution takes as
// one: unsigned, or signed of a value it knows is not negative) of a
// recurrence over the local id (its start a constant: not the global id,
// whose groups wrap one at a time) as `x - (x & ~mask)`: the same value,
// which scalar evolution does not see through, so the access is a gather;
// for the vectors whose lanes do not wrap,
// compiler/passes/RuntimeConsecutiveGathers.cpp turns it back into a
// vector load at run time. InstCombine after the vectorizer folds the form
// back into the `and`. A remainder that cannot wrap within the loop's
// largest trip count (scalar evolution's, else reqd_work_group_size's,
// recorded on the loop) is left alone: there the vectorizer's condition
// always holds (clFFT's `lid & 255` in groups of 256).

#include "compiler/passes/LocalIdModulo.h"

#include "compiler/WorkItemLoops.h"
#include "compiler/passes/PassResult.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace clcpu::compiler {

namespace {

/// Whether `X & Mask` (Mask = 2^k - 1) in work-item loop \p L may wrap:
/// X a recurrence of \p L with a constant start and step (an expression of
/// the local id alone), whose values over L's largest trip count (unknown:
/// any) do not all fall in one period of the mask.
bool mayWrapInGroup(ScalarEvolution &SE, const Loop &L, Value *X,
                    const APInt &Mask) {
  const auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(X));
  if (!AR || AR->getLoop() != &L || !AR->isAffine())
    return false;
  const auto *Start = dyn_cast<SCEVConstant>(AR->getStart());
  const auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
  if (!Start || !Step || Step->getAPInt().isZero())
    return false;
  // The largest trip count scalar evolution knows, else the required
  // work-group size recorded on the loop (its bound is a load).
  unsigned MaxTrips = SE.getSmallConstantMaxTripCount(&L);
  if (!MaxTrips)
    MaxTrips = workItemLoopMaxTrips(L);
  if (!MaxTrips)
    return true;
  // The values Start + i * Step for i < MaxTrips, in 128 bits (no
  // overflow for the widths and counts here; the recurrence moves one way):
  // one period if the first and the last have the same bits above the
  // mask (an arithmetic shift floors negative values too).
  unsigned W = 128, Bits = Mask.popcount();
  APInt First = Start->getAPInt().sext(W);
  APInt Last = First + Step->getAPInt().sext(W) * APInt(W, MaxTrips - 1);
  return First.ashr(Bits) != Last.ashr(Bits);
}

} // namespace

PreservedAnalyses LocalIdModuloPass::run(Function &F,
                                         FunctionAnalysisManager &AM) {
  auto &LI = AM.getResult<LoopAnalysis>(F);
  auto &SE = AM.getResult<ScalarEvolutionAnalysis>(F);
  SmallVector<std::pair<BinaryOperator *, APInt>, 8> Work;
  for (Loop *L : LI.getLoopsInPreorder()) {
    // The vectorizer's inner-loop path: x-loops with no loop inside (the
    // outer-loop path gathers through every access anyway).
    if (!L->isInnermost() || !isWorkItemLoop(*L))
      continue;
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB) {
        Value *X;
        const APInt *C;
        APInt Mask;
        if (match(&I, m_And(m_Value(X), m_APInt(C))) && C->isMask() &&
            !C->isAllOnes())
          Mask = *C;
        // The remainders scalar evolution takes as that `and`: unsigned,
        // or signed of a value it knows is not negative.
        else if ((match(&I, m_URem(m_Value(X), m_APInt(C))) ||
                  (match(&I, m_SRem(m_Value(X), m_APInt(C))) &&
                   SE.isKnownNonNegative(SE.getSCEV(X)))) &&
                 C->isPowerOf2() && !C->isOne() && !C->isSignMask())
          Mask = *C - 1;
        else
          continue;
        if (mayWrapInGroup(SE, *L, X, Mask))
          Work.push_back({cast<BinaryOperator>(&I), Mask});
      }
  }
  for (auto [Rem, Mask] : Work) {
    IRBuilder<> B(Rem);
    Value *X = Rem->getOperand(0);
    Value *High = B.CreateAnd(X, ConstantInt::get(X->getType(), ~Mask),
                              Rem->getName() + ".high");
    Value *Low = B.CreateSub(X, High, Rem->getName() + ".low");
    Rem->replaceAllUsesWith(Low);
    Rem->eraseFromParent();
  }
  if (Work.empty())
    return PreservedAnalyses::all();
  // Values changed form: scalar evolution's cache of them is stale.
  PreservedAnalyses PA = keptCFG(true);
  PA.preserve<LoopAnalysis>();
  return PA;
}

} // namespace clcpu::compiler
