//===- ParallelWorkItemLoops.cpp - work-items are independent -------------===//
//
// Between two barriers, the work-items of a group do not depend on each
// other through ordinary memory: OpenCL C's memory model (OpenCL C 3.0
// section 6.15.12) makes two unsynchronized conflicting accesses from
// different work-items, at least one a write, a data race with undefined
// behavior, and the only synchronization inside a region is by atomics.
// So the iterations of a work-item x-loop (compiler/WorkGroupFunction.cpp,
// compiler/regions/) may run in any order or side by side.
//
// The loop vectorizer cannot know that: for `out[i] += offsets[i / chunk]`
// it must prove that `out` and `offsets` do not overlap, fails ("cannot
// identify array bounds" for the gather) and leaves the loop scalar. This
// pass says it: every memory access of the x-loop joins one access group
// listed in the loop's llvm.loop.parallel_accesses (LangRef), which makes
// the loop "annotated parallel" for the vectorizer.
//
// It does so only when every access of the loop qualifies, and leaves the
// loop alone otherwise:
//  * atomics, volatile accesses and calls that touch memory (other than
//    memcpy/memset/memmove) are how work-items do communicate;
//  * a private variable (an alloca) lives once per work-group function and
//    is reused by every work-item in turn, so its accesses do depend
//    between iterations; once the address of one is stored anywhere, only
//    accesses through arguments and globals qualify.

#include "compiler/passes/ParallelWorkItemLoops.h"

#include "compiler/passes/PassResult.h"

#include "compiler/WorkItemLoops.h"

#include <llvm/Analysis/CaptureTracking.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/PassManager.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-parallel-work-item-loops"

namespace clcpu::compiler {

namespace {

/// Whether the address of a private variable of \p F may be stored
/// somewhere, so that a pointer loaded from memory may point to it.
bool privateAddressEscapes(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (isa<AllocaInst>(I) && PointerMayBeCaptured(&I, /*ReturnCaptures=*/true,
                                                   /*StoreCaptures=*/true))
      return true;
  return false;
}

/// Whether \p Ptr may point into a private variable (an alloca); when
/// \p Escaped, any pointer that is not a global or an argument may.
bool mayBePrivate(const Value *Ptr, bool Escaped) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects, /*LI=*/nullptr, /*MaxLookup=*/0);
  for (const Value *O : Objects) {
    if (isa<AllocaInst>(O) || isa<PHINode>(O) || isa<SelectInst>(O))
      return true;
    if (Escaped && !isa<Argument>(O) && !isa<GlobalValue>(O))
      return true;
  }
  return false;
}

/// Whether \p I, a memory access of a work-item loop, may join the loop's
/// parallel access group.
bool independent(const Instruction &I, bool Escaped) {
  if (const auto *Ld = dyn_cast<LoadInst>(&I))
    return Ld->isSimple() && !mayBePrivate(Ld->getPointerOperand(), Escaped);
  if (const auto *St = dyn_cast<StoreInst>(&I))
    return St->isSimple() && !mayBePrivate(St->getPointerOperand(), Escaped);
  // Markers that touch no memory a work-item sees (an inlined noalias
  // argument's scope, assumptions).
  if (isa<NoAliasScopeDeclInst>(I) || isa<AssumeInst>(I))
    return true;
  if (const auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    if (MI->isVolatile() || mayBePrivate(MI->getDest(), Escaped))
      return false;
    const auto *MT = dyn_cast<MemTransferInst>(MI);
    return !MT || !mayBePrivate(MT->getSource(), Escaped);
  }
  return false;
}

} // namespace

PreservedAnalyses ParallelWorkItemLoopsPass::run(Function &F,
                                                 FunctionAnalysisManager &FAM) {
  bool Changed = false;
  bool Escaped = privateAddressEscapes(F);
  for (Loop *L : FAM.getResult<LoopAnalysis>(F).getLoopsInPreorder()) {
    if (!isWorkItemLoop(*L) || L->isAnnotatedParallel())
      continue;
    SmallVector<Instruction *, 32> Accesses;
    bool All = true;
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB)
        if (I.mayReadOrWriteMemory()) {
          All = All && independent(I, Escaped);
          Accesses.push_back(&I);
        }
    if (!All || Accesses.empty())
      continue;
    LLVMContext &C = F.getContext();
    MDNode *Group = MDNode::getDistinct(C, {});
    for (Instruction *I : Accesses)
      I->setMetadata(LLVMContext::MD_access_group,
                     uniteAccessGroups(
                         I->getMetadata(LLVMContext::MD_access_group), Group));
    // The loop ID keeps its properties (the work-item mark, vectorize
    // hints) and gains the parallel access group.
    MDNode *ID = L->getLoopID();
    SmallVector<Metadata *, 8> Ops = {nullptr};
    if (ID)
      append_range(Ops, drop_begin(ID->operands()));
    Ops.push_back(MDNode::get(
        C, {MDString::get(C, "llvm.loop.parallel_accesses"), Group}));
    MDNode *NewID = MDNode::getDistinct(C, Ops);
    NewID->replaceOperandWith(0, NewID);
    L->setLoopID(NewID);
    Changed = true;
  }
  return keptCFG(Changed);
}

} // namespace clcpu::compiler
