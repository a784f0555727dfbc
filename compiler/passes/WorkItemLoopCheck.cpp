//===- WorkItemLoopCheck.cpp - x-loops the native path takes --------------===//
//
// Runs right before the loop vectorizer. A work-item x-loop that contains
// loops is marked for the vectorizer's VPlan-native (outer-loop) path
// (compiler/WorkItemLoops.cpp); the native path widens without the checks
// of the inner-loop path, so this pass withdraws the mark where it cannot
// widen the loop correctly or well: calls other than vectorizable
// intrinsics, atomics, volatile accesses, vector-typed values, branches that
// differ between work-items, values used after the loop, inner loops that
// walk each work-item's own consecutive elements. Such a kernel then runs
// scalar across work-items (its inner loops vectorized as usual), which is
// correct, instead of reaching an unsupported shape in the vectorizer.

#include "compiler/passes/WorkItemLoopCheck.h"

#include "compiler/passes/PassResult.h"

#include "compiler/WorkItemLoops.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-work-item-loop-check"

namespace clcpu::compiler {

namespace {

/// Why the native path cannot widen \p I, or null if it can. With \p
/// VectorsSplit, vector-typed values count as the scalars the Scalarizer
/// will split them into.
const char *unsupported(const Instruction &I, bool VectorsSplit) {
  if (VectorsSplit && (isa<ExtractElementInst>(I) ||
                       isa<InsertElementInst>(I) || isa<ShuffleVectorInst>(I)))
    return nullptr;
  if (!VectorsSplit && I.getType()->isVectorTy())
    return "vector-typed value";
  for (const Value *Op : I.operands())
    if (!VectorsSplit && Op->getType()->isVectorTy())
      return "vector-typed operand";
  if (const auto *CI = dyn_cast<CallInst>(&I)) {
    Intrinsic::ID ID = CI->getIntrinsicID();
    if (ID == Intrinsic::not_intrinsic || !isTriviallyVectorizable(ID))
      return "call";
    // An operand that stays scalar (llvm.powi's exponent, is.fpclass's
    // class mask) must be the same for every work-item.
    for (unsigned A = 0; A < CI->arg_size(); ++A)
      if (isVectorIntrinsicWithScalarOpAtArg(ID, A) &&
          !isa<Constant>(CI->getArgOperand(A)))
        return "intrinsic with a varying scalar operand";
    return nullptr;
  }
  // The native path widens without dependence checks. Global and local
  // memory is fine (work-items that touch each other's data without a
  // barrier race in OpenCL anyway), but a private array is one alloca the
  // x-loop reuses for every work-item: widened, the lanes would share it.
  if (const auto *L = dyn_cast<LoadInst>(&I)) {
    if (!L->isSimple())
      return "atomic or volatile load";
    return isa<AllocaInst>(getUnderlyingObject(L->getPointerOperand()))
               ? "private array"
               : nullptr;
  }
  if (const auto *S = dyn_cast<StoreInst>(&I)) {
    if (!S->isSimple())
      return "atomic or volatile store";
    return isa<AllocaInst>(getUnderlyingObject(S->getPointerOperand()))
               ? "private array"
               : nullptr;
  }
  if (isa<BinaryOperator>(I) || isa<BranchInst>(I) || isa<CastInst>(I) ||
      isa<CmpInst>(I) || isa<SelectInst>(I) || isa<PHINode>(I) ||
      isa<GetElementPtrInst>(I) || isa<UnaryOperator>(I) || isa<FreezeInst>(I))
    return nullptr;
  return "instruction kind";
}

/// Whether every load and store of some innermost loop in the work-item
/// loop \p X moves one element per iteration of that loop, from a start
/// that is neither the same for all work-items nor one element further
/// per work-item: `in[gid * k + j]`, each work-item's own k consecutive
/// elements (across work-items: gathers of stride k, which cost far more
/// than the vector loads of each work-item's own elements).
bool walksOwnElements(const Loop &X, ScalarEvolution &SE) {
  for (const Loop *I : X.getLoopsInPreorder()) {
    if (!I->isInnermost())
      continue;
    bool Any = false, All = true;
    for (BasicBlock *BB : I->blocks())
      for (Instruction &Ins : *BB) {
        if (!isa<LoadInst>(Ins) && !isa<StoreInst>(Ins))
          continue;
        Any = true;
        Type *Ty = getLoadStoreType(&Ins);
        const auto *AR = dyn_cast<SCEVAddRecExpr>(
            SE.getSCEV(getLoadStorePointerOperand(&Ins)));
        const auto *Step =
            AR && AR->getLoop() == I && AR->isAffine()
                ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE))
                : nullptr;
        if (!Step ||
            Step->getAPInt() !=
                Ins.getDataLayout().getTypeAllocSize(Ty).getFixedValue()) {
          All = false;
          continue;
        }
        const SCEV *Start = AR->getStart();
        const auto *XR = dyn_cast<SCEVAddRecExpr>(Start);
        if (SE.isLoopInvariant(Start, &X) ||
            (XR && XR->getLoop() == &X && XR->getStepRecurrence(SE) == Step))
          All = false;
      }
    if (Any && All)
      return true;
  }
  return false;
}

/// Whether an instruction of \p L has a user outside it.
bool hasLiveOut(const Loop &L) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      for (const User *U : I.users())
        if (!L.contains(cast<Instruction>(U)->getParent()))
          return true;
  return false;
}

} // namespace

const char *nativePathObstacle(Loop &L, LoopInfo &LI, ScalarEvolution &SE,
                               bool VectorsSplit) {
  const char *Why = nullptr;
  for (BasicBlock *BB : L.blocks()) {
    for (Instruction &I : *BB)
      if (!isOptimizerHint(I) && (Why = unsupported(I, VectorsSplit)))
        return Why;
    // The native path's own rule: a conditional branch must be uniform
    // across work-items or a loop's back or exit edge.
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (Br && Br->isConditional() && !L.isLoopInvariant(Br->getCondition()) &&
        !LI.isLoopHeader(Br->getSuccessor(0)) &&
        !LI.isLoopHeader(Br->getSuccessor(1)))
      return "branch that differs between work-items";
  }
  // A value computed in the x-loop and used after it (LICM promotes a
  // store to a work-item-independent address, `*result = count`, to one
  // store after the loop of the last work-item's value): the native
  // path does not carry live-outs out of the widened loop, so the store
  // would get the value from before the loop (Boost.Compute's count_if
  // would return 0). Such a loop stays scalar.
  if (hasLiveOut(L))
    return "a value computed in the loop is used after it";
  // Each work-item walking its own consecutive elements is faster
  // per work-item (vector loads of its elements, ScanLoopVectorize.cpp
  // for running sums) than across work-items as strided gathers and
  // scatters.
  if (walksOwnElements(L, SE))
    return "inner loop walks each work-item's own consecutive elements";
  return nullptr;
}

PreservedAnalyses WorkItemLoopCheckPass::run(Function &F,
                                             FunctionAnalysisManager &FAM) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  bool Changed = false;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!isWorkItemLoop(*L) || L->isInnermost())
      continue;
    if (!nativePathObstacle(*L, LI, SE, /*VectorsSplit=*/false)) {
      // Hints only: the native path would try to widen them.
      SmallVector<Instruction *, 4> Droppable;
      for (BasicBlock *BB : L->blocks())
        for (Instruction &I : *BB)
          if (isOptimizerHint(I))
            Droppable.push_back(&I);
      for (Instruction *I : Droppable)
        I->eraseFromParent();
      Changed |= !Droppable.empty();
      continue;
    }
    // Without the vectorize hints the x-loop stays scalar and its inner
    // loops are vectorized as usual.
    replaceVectorizeHints(*L);
    Changed = true;
  }
  return keptCFG(Changed);
}

} // namespace clcpu::compiler
