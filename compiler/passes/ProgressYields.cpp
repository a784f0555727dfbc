//===- ProgressYields.cpp - yields in loops that wait for a work-item -----===//
//
// Independent forward progress of sub-groups (cl_khr_subgroups,
// CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS): a work-item may wait
// in a loop for a
// value another work-item of its group writes (a spin lock, a flag set
// after a compare-and-swap). The work-item loop and the barrier regions
// run a group's work-items one after another on one thread, so the waiter
// would spin for ever. This pass finds such loops (an exit that depends on
// an atomic or volatile load, followed through private variables) and puts
// a call through WorkGroupContext::Yield on their back edges; a kernel with
// one runs one fiber per work-item, and the yield switches to the next
// fiber. -cl-no-subgroup-ifp turns the search off (compiler/Compiler.h).

#include "compiler/passes/ProgressYields.h"

#include "compiler/ContextFields.h"
#include "compiler/KernelBody.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-progress-yields"

namespace clcpu::compiler {

namespace {
/// True if \p V is computed from an atomic or volatile memory access: a
/// value another work-item may change. Values read from a private variable
/// (an alloca: the IR is not optimized yet) are followed to what was stored
/// there; values read from other ordinary memory are not (waiting on them
/// is a data race).
bool dependsOnSharedState(
    Value *V, const DenseMap<Value *, SmallVector<Value *, 4>> &Stored) {
  SmallVector<Value *, 16> Work = {V};
  SmallPtrSet<Value *, 32> Seen;
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !Seen.insert(I).second)
      continue;
    if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
      return true;
    if (auto *L = dyn_cast<LoadInst>(I)) {
      if (L->isAtomic() || L->isVolatile())
        return true;
      auto It = Stored.find(getUnderlyingObject(L->getPointerOperand()));
      if (It != Stored.end())
        Work.append(It->second.begin(), It->second.end());
      continue;
    }
    for (Value *Op : I->operands())
      Work.push_back(Op);
  }
  return false;
}

/// Puts the yields into \p Body, whose context is \p Ctx. True if there
/// was any.
bool insertProgressYields(Function &Body, Value *Ctx) {
  LLVMContext &C = Body.getContext();
  // What is stored into each private variable.
  DenseMap<Value *, SmallVector<Value *, 4>> Stored;
  bool Shared = false;
  for (Instruction &I : instructions(Body)) {
    if (auto *St = dyn_cast<StoreInst>(&I)) {
      if (auto *A = dyn_cast<AllocaInst>(
              getUnderlyingObject(St->getPointerOperand())))
        Stored[A].push_back(St->getValueOperand());
    }
    Shared |= isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I);
    if (auto *L = dyn_cast<LoadInst>(&I))
      Shared |= L->isAtomic() || L->isVolatile();
  }
  if (!Shared)
    return false; // nothing another work-item could change
  DominatorTree DT(Body);
  LoopInfo LI(DT);
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> BackEdges;
  for (Loop *L : LI.getLoopsInPreorder()) {
    SmallVector<BasicBlock *, 4> Exiting;
    L->getExitingBlocks(Exiting);
    bool Waits = false;
    for (BasicBlock *BB : Exiting) {
      Instruction *T = BB->getTerminator();
      if (auto *Br = dyn_cast<BranchInst>(T); Br && Br->isConditional())
        Waits |= dependsOnSharedState(Br->getCondition(), Stored);
      else if (auto *Sw = dyn_cast<SwitchInst>(T))
        Waits |= dependsOnSharedState(Sw->getCondition(), Stored);
    }
    if (!Waits)
      continue;
    SmallVector<BasicBlock *, 4> Latches;
    L->getLoopLatches(Latches);
    for (BasicBlock *Latch : Latches)
      BackEdges.push_back({Latch, L->getHeader()});
  }
  if (BackEdges.empty())
    return false;
  PointerType *Ptr = PointerType::getUnqual(C);
  auto *YieldTy = FunctionType::get(Type::getVoidTy(C), {Ptr}, false);
  for (auto [Latch, Header] : BackEdges) {
    // Only when the loop goes round again: a loop that exits at once (a
    // compare-and-swap that succeeds) costs nothing.
    BasicBlock *Edge = SplitEdge(Latch, Header);
    IRBuilder<> B(Edge->getTerminator());
    CallInst *Y = B.CreateCall(
        YieldTy, loadContextField(B, Ctx, ContextField::Yield), {Ctx});
    Y->addFnAttr(Attribute::NoUnwind);
  }
  return true;
}

} // namespace

PreservedAnalyses ProgressYieldsPass::run(Function &F,
                                          FunctionAnalysisManager &) {
  Value *Ctx = contextParam(F);
  if (!Ctx || !insertProgressYields(F, Ctx))
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}

} // namespace clcpu::compiler
