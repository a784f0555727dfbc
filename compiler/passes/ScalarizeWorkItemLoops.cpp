//===- ScalarizeWorkItemLoops.cpp - vectors to scalars --------------------===//
//
// The loop vectorizer widens scalars only: a kernel's float4 arithmetic
// inside a work-item loop would keep the loop scalar. In a work-group
// function with a work-item loop this pass splits every vector operation
// (loads and stores included) into scalar streams the vectorizer then widens
// across work-items; the per-work-item (fiber) code keeps its vector
// operations.
//
// Splitting pays only where a vectorizer widens the scalars again. Where no
// loop of the function can be widened (an x-loop with inner loops that the
// VPlan-native path cannot take, WorkItemLoopCheck.cpp, and whose vector
// operations are not in an innermost loop the inner-loop path could take)
// the split would leave every lane of a uint16 as its own scalar instruction
// for good: hashcat's kernels (uint16 arithmetic in a loop over candidates,
// atomics and lane-dependent branches in its hit check, run one work-item
// per group) ran 16 times the instructions. Such a function keeps its
// vector operations.

#include "compiler/passes/ScalarizeWorkItemLoops.h"

#include "compiler/WorkItemLoops.h"
#include "compiler/passes/WorkItemLoopCheck.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-scalarize-work-item-loops"

namespace clcpu::compiler {

namespace {

/// Whether \p I keeps the inner-loop vectorizer off its loop: an atomic,
/// volatile or ordered access, a fence, a call that is neither a
/// vectorizable intrinsic nor a function with vector variants.
bool blocksInnerLoopVectorizer(const Instruction &I) {
  if (const auto *L = dyn_cast<LoadInst>(&I))
    return !L->isSimple();
  if (const auto *S = dyn_cast<StoreInst>(&I))
    return !S->isSimple();
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I) || isa<FenceInst>(I))
    return true;
  if (const auto *CI = dyn_cast<CallInst>(&I)) {
    if (isOptimizerHint(I))
      return false;
    Intrinsic::ID ID = CI->getIntrinsicID();
    if (ID != Intrinsic::not_intrinsic)
      return !isTriviallyVectorizable(ID);
    return !CI->getFnAttr("vector-function-abi-variant").isValid();
  }
  return false;
}

/// Whether \p I computes, loads or stores a vector (a lane move, extract,
/// insert or shuffle, is no work of its own: `any(v)`'s loop over lanes).
bool isVectorOperation(const Instruction &I) {
  if (isa<ExtractElementInst>(I) || isa<InsertElementInst>(I) ||
      isa<ShuffleVectorInst>(I))
    return false;
  if (const auto *S = dyn_cast<StoreInst>(&I))
    return S->getValueOperand()->getType()->isVectorTy();
  return I.getType()->isVectorTy();
}

/// Whether \p L has a vector operation and the inner-loop vectorizer may
/// take it, so that splitting the vectors can pay.
bool innermostLoopGains(const Loop &L) {
  bool Vectors = false;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (blocksInnerLoopVectorizer(I))
        return false;
      Vectors |= isVectorOperation(I);
    }
  return Vectors;
}

/// Whether some work-item loop of \p F gets its split vector operations
/// widened again: by the native path across work-items, or by the
/// inner-loop vectorizer in an innermost loop (the x-loop itself or one of
/// its inner loops). False also where \p F has no work-item loop.
bool splitPays(Function &F, FunctionAnalysisManager &FAM) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution *SE = nullptr;
  for (Loop *X : LI.getLoopsInPreorder()) {
    if (!isWorkItemLoop(*X))
      continue;
    if (X->isInnermost()) {
      // The inner-loop path decides alone; a loop it cannot take at all
      // (an atomic, an opaque call) keeps its vectors.
      if (none_of(X->blocks(), [](BasicBlock *BB) {
            return any_of(*BB, blocksInnerLoopVectorizer);
          }))
        return true;
      continue;
    }
    if (!SE)
      SE = &FAM.getResult<ScalarEvolutionAnalysis>(F);
    if (!nativePathObstacle(*X, LI, *SE, /*VectorsSplit=*/true))
      return true;
    for (Loop *I : X->getLoopsInPreorder())
      if (I->isInnermost() && innermostLoopGains(*I))
        return true;
  }
  return false;
}

} // namespace

PreservedAnalyses
ScalarizeWorkItemLoopsPass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (!splitPays(F, FAM))
    return PreservedAnalyses::all();
  ScalarizerPassOptions O;
  O.ScalarizeLoadStore = true;
  return ScalarizerPass(O).run(F, FAM);
}

} // namespace clcpu::compiler
