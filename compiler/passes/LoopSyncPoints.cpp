//===- LoopSyncPoints.cpp - loop iterations as barrier regions ------------===//
//
// A grid-stride loop, `for (i = get_global_id(0); i < n; i += stride)`,
// runs a different number of times in different work-items. The loop
// vectorizer's outer-loop path widens a work-item loop only around inner
// loops every work-item runs equally often, so such a kernel's work-items
// run one after another, each striding through memory alone (a page per
// access for a 256 KiB stride): the local-memory reduction in bench/ would
// run at a small fraction of the copy bandwidth.
//
// In a kernel on the barrier-region path (compiler/regions/),
// this pass puts a sync point at the header of such a loop: each iteration
// becomes a region, run for every work-item of the group by one vectorized
// loop over the work-items (adjacent work-items, adjacent addresses), with
// the loop's state (counter, partial sums) in per-work-item scratch between
// iterations. This only changes the order in which work-items interleave,
// which OpenCL leaves open: work-items of a group share nothing between
// barriers but atomics, and loops with atomics are left alone. Work-items
// that leave the loop earlier than others wait at their next sync point;
// the region driver runs the ones still in the loop (loop sync points have
// the lowest region numbers, so they go first) until all meet again.
//
// Only loops of that shape are taken: the exit compares an induction
// variable (a header PHI advanced by a uniform step) with a uniform bound,
// the start alone differing between work-items, so the trip counts differ
// by at most a few iterations across the group. (A loop with a uniform
// start that only some work-items enter is not one: builtins/misc.cl's
// async copies, done by the first work-item alone, rely on the others
// running after it.) Loops with calls (other
// than intrinsics without memory effects), atomics, volatile accesses,
// fences or private arrays, and loops that hold a sync point, stay as they
// are.

#include "compiler/passes/LoopSyncPoints.h"

#include "compiler/Barriers.h"
#include "compiler/analyses/SyncCalls.h"
#include "compiler/analyses/WorkItemUniformity.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-loop-sync-points"

namespace clcpu::compiler {

namespace {

const char *const LoopSyncMD = "clcpu.loop_sync";

/// Whether every instruction of \p L may run interleaved with other
/// work-items' iterations: no synchronization, no calls with memory
/// effects, no private arrays.
bool plainBody(const Loop &L) {
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB) {
      if (I.isAtomic() || isa<FenceInst>(I))
        return false;
      if (const auto *CB = dyn_cast<CallBase>(&I)) {
        const auto *II = dyn_cast<IntrinsicInst>(CB);
        if (!II || CB->mayReadOrWriteMemory() || CB->mayHaveSideEffects())
          return false;
        continue;
      }
      const Value *Ptr = getLoadStorePointerOperand(&I);
      if (!Ptr) {
        if (I.mayReadOrWriteMemory())
          return false;
        continue;
      }
      if ((isa<LoadInst>(I) && cast<LoadInst>(I).isVolatile()) ||
          (isa<StoreInst>(I) && cast<StoreInst>(I).isVolatile()))
        return false;
      SmallVector<const Value *, 4> Objects;
      getUnderlyingObjects(Ptr, Objects);
      for (const Value *O : Objects)
        if (isa<AllocaInst>(O))
          return false;
    }
  return true;
}

/// \p V without integer casts (`i += get_global_size(0)` on an int is
/// `trunc(sext(i) + size)`).
const Value *stripCasts(const Value *V) {
  while (isa<TruncInst>(V) || isa<SExtInst>(V) || isa<ZExtInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  return V;
}

/// Whether \p V (casts aside) is an `add` of \p Phi and a uniform value.
bool isUniformStep(const Value *V, const PHINode *Phi,
                   const WorkItemUniformity &Uniform) {
  const auto *Add = dyn_cast<BinaryOperator>(stripCasts(V));
  if (!Add || Add->getOpcode() != Instruction::Add)
    return false;
  for (unsigned K = 0; K < 2; ++K) {
    const Value *Other = Add->getOperand(1 - K);
    if (stripCasts(Add->getOperand(K)) == Phi && Uniform.isUniform(Other))
      return true;
  }
  return false;
}

/// Whether \p V (casts aside) is a header PHI of \p L advanced by a uniform
/// step from a start that differs between work-items (get_global_id(0),
/// the local id: not a loop that only some work-items enter, such as a
/// copy by the group's first work-item, whose order against the others'
/// reads builtins/misc.cl relies on), or that PHI plus the step.
bool isStridedInduction(const Value *V, const Loop &L,
                        const WorkItemUniformity &Uniform) {
  const BasicBlock *Latch = L.getLoopLatch(), *Pre = L.getLoopPreheader();
  auto Induction = [&](const Value *C) {
    const auto *Phi = dyn_cast<PHINode>(C);
    if (!Phi || Phi->getParent() != L.getHeader() || !Latch || !Pre ||
        Phi->getBasicBlockIndex(Latch) < 0 || Phi->getBasicBlockIndex(Pre) < 0)
      return static_cast<const PHINode *>(nullptr);
    const Value *Start = Phi->getIncomingValueForBlock(Pre);
    if (Uniform.isUniform(Start) ||
        !isUniformStep(Phi->getIncomingValueForBlock(Latch), Phi, Uniform))
      return static_cast<const PHINode *>(nullptr);
    return Phi;
  };
  V = stripCasts(V);
  if (Induction(V))
    return true;
  if (const auto *Add = dyn_cast<BinaryOperator>(V))
    for (unsigned K = 0; K < 2; ++K)
      if (const PHINode *Phi = Induction(stripCasts(Add->getOperand(K))))
        return isUniformStep(V, Phi, Uniform);
  return false;
}

/// Whether \p L leaves on `induction < uniform bound` (or the like) and the
/// comparison differs between work-items (the induction's start does).
bool stridedDivergentExit(const Loop &L, const WorkItemUniformity &Uniform) {
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  if (Exiting.size() != 1)
    return false;
  const auto *Br = dyn_cast<BranchInst>(Exiting[0]->getTerminator());
  if (!Br || !Br->isConditional() || Uniform.isUniform(Br->getCondition()))
    return false;
  const auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp)
    return false;
  for (unsigned K = 0; K < 2; ++K) {
    const Value *Bound = Cmp->getOperand(1 - K);
    if (Uniform.isUniform(Bound) &&
        isStridedInduction(Cmp->getOperand(K), L, Uniform))
      return true;
  }
  return false;
}

} // namespace

bool isLoopSyncPoint(const CallInst &CI) {
  return CI.getMetadata(LoopSyncMD) != nullptr;
}

unsigned insertLoopSyncPoints(Function &R, const WorkItemUniformity &Uniform,
                              const SyncCalls &Syncs) {
  DominatorTree DT(R);
  LoopInfo LI(DT);
  SmallVector<Loop *, 4> Taken;
  for (Loop *L : LI.getLoopsInPreorder()) {
    bool HasSync = false;
    for (const BasicBlock *BB : L->blocks())
      for (const Instruction &I : *BB)
        if (const auto *CI = dyn_cast<CallInst>(&I))
          HasSync |= Syncs.lookup(CI) != nullptr;
    if (!HasSync && L->getLoopLatch() && plainBody(*L) &&
        stridedDivergentExit(*L, Uniform))
      Taken.push_back(L);
  }
  if (Taken.empty())
    return 0;
  // A work-group barrier without fences: only the interleaving changes.
  Module &M = *R.getParent();
  LLVMContext &C = R.getContext();
  FunctionCallee Barrier = M.getOrInsertFunction(
      "_Z7barrierj", Type::getVoidTy(C), Type::getInt32Ty(C));
  for (Loop *L : Taken) {
    IRBuilder<> B(&*L->getHeader()->getFirstInsertionPt());
    CallInst *Sync = B.CreateCall(Barrier, {B.getInt32(0)});
    Sync->setMetadata(LoopSyncMD, MDNode::get(C, {}));
  }
  return static_cast<unsigned>(Taken.size());
}

PreservedAnalyses LoopSyncPointsPass::run(Function &F,
                                          FunctionAnalysisManager &AM) {
  const WorkItemUniformity &Uniform =
      AM.getResult<WorkItemUniformityAnalysis>(F);
  if (Uniform.localIds().empty() ||
      !insertLoopSyncPoints(F, Uniform, AM.getResult<SyncCallsAnalysis>(F)))
    return PreservedAnalyses::all(); // not a body, or no such loop
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace clcpu::compiler
