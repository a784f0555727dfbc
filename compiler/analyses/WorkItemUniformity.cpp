//===- compiler/analyses/WorkItemUniformity.cpp - uniform values ----------===//
//
// A fixpoint over the body's instructions (compiler/analyses/
// WorkItemUniformity.h says who uses it).

#include "compiler/analyses/WorkItemUniformity.h"
#include "compiler/Barriers.h"
#include "compiler/KernelBody.h"
#include "compiler/WorkGroupContext.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Support/raw_ostream.h>

using namespace llvm;

namespace clcpu::compiler {

AnalysisKey WorkItemUniformityAnalysis::Key;

namespace {

/// The values of \p R that are the same for every work-item of a group when
/// computed (uniform): a fixpoint that starts from "all uniform" and marks
/// divergent what depends on a local id, on a divergent address, a
/// volatile or atomic access, an alloca, a call (other than a work-group
/// reduction of any operation, broadcast, all or any, and an intrinsic
/// without memory or other effects, uniform when its operands are), or,
/// for a PHI, on which predecessor a divergent branch chose (the
/// predecessors' terminators and their control dependences). Barriers are
/// reached by all work-items or none (OpenCL C 6.13.8), so a loop around a
/// barrier exits on a uniform condition and its counter stays uniform.
DenseSet<const Value *> uniformInstructions(Function &R,
                                            ArrayRef<Value *> LocalIds) {
  PostDominatorTree PDT(R);
  // Control dependences: block -> the blocks whose branch decides whether it
  // runs.
  DenseMap<const BasicBlock *, SmallVector<const BasicBlock *, 4>> Deps;
  for (BasicBlock &B : R) {
    const Instruction *T = B.getTerminator();
    if (T->getNumSuccessors() < 2)
      continue;
    DomTreeNode *Stop = PDT.getNode(&B) ? PDT.getNode(&B)->getIDom() : nullptr;
    for (const BasicBlock *S : successors(&B))
      for (DomTreeNode *N = PDT.getNode(S); N && N != Stop; N = N->getIDom())
        if (N->getBlock())
          Deps[N->getBlock()].push_back(&B);
  }
  DenseSet<const Value *> Divergent(LocalIds.begin(), LocalIds.end());
  auto Div = [&](const Value *V) { return Divergent.count(V) != 0; };
  auto BranchDivergent = [&](const BasicBlock *B) {
    const Instruction *T = B->getTerminator();
    if (const auto *Br = dyn_cast<BranchInst>(T))
      return Br->isConditional() && Div(Br->getCondition());
    if (const auto *Sw = dyn_cast<SwitchInst>(T))
      return Div(Sw->getCondition());
    return T->getNumSuccessors() > 1;
  };
  auto DecidedDivergently = [&](const BasicBlock *B) {
    if (BranchDivergent(B))
      return true;
    auto It = Deps.find(B);
    if (It != Deps.end())
      for (const BasicBlock *D : It->second)
        if (BranchDivergent(D))
          return true;
    return false;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Instruction &I : instructions(R)) {
      if (Div(&I) || I.getType()->isVoidTy())
        continue;
      bool D = false;
      if (auto *II = dyn_cast<IntrinsicInst>(&I);
          II && !II->mayReadOrWriteMemory() && !II->mayHaveSideEffects()) {
        // An intrinsic without memory or other effects (min, max, abs,
        // fma, funnel shifts) is a function of its operands alone: the
        // bound `min(begin + size, n)` of pyopencl's grid-stride loops is
        // as uniform as begin, size and n.
        for (const Value *Op : II->args())
          D |= Div(Op);
      } else if (auto *CI = dyn_cast<CallInst>(&I)) {
        auto S = classifySyncCall(*CI);
        uint32_t Kind = S ? (S->Op % CollSubGroup) / 16 : 0;
        // Every work-group reduction gives the whole group one result: add,
        // min and max, and cl_khr_work_group_uniform_arithmetic's mul,
        // and, or, xor and logical ones (a loop that runs while
        // work_group_reduce_logical_or(changed) exits uniformly).
        CollCombine C;
        CollMode M;
        bool Reduction =
            collectiveArithmetic(Kind, C, M) && M == CollMode::Reduce;
        D = !S || S->Kind != SyncCall::Collective || (S->Op & CollSubGroup) ||
            !(Kind == CollAll || Kind == CollAny || Kind == CollBroadcast ||
              Kind == CollPipeReserveRead || Kind == CollPipeReserveWrite ||
              Reduction);
        if (!D && Kind == CollBroadcast)
          for (unsigned A = 1; A < CI->arg_size(); ++A)
            D |= Div(CI->getArgOperand(A));
      } else if (auto *L = dyn_cast<LoadInst>(&I)) {
        // A plain load of one address for the whole group (a value one
        // work-item put in local memory before a barrier) reads the same
        // value in every work-item: a store to that address in the same
        // region by another work-item would be a data race (OpenCL C 2.0
        // 3.3.4: the program's behavior is undefined), and private memory
        // is only reached through allocas, which are divergent.
        D = !L->isSimple() || Div(L->getPointerOperand());
      } else if (auto *Phi = dyn_cast<PHINode>(&I)) {
        for (unsigned K = 0; K < Phi->getNumIncomingValues() && !D; ++K)
          D = Div(Phi->getIncomingValue(K)) ||
              DecidedDivergently(Phi->getIncomingBlock(K));
      } else if (isa<AllocaInst>(I) || I.mayReadOrWriteMemory() ||
                 I.mayHaveSideEffects()) {
        D = true;
      } else {
        for (const Value *Op : I.operands())
          D |= Div(Op);
      }
      if (D) {
        Divergent.insert(&I);
        Changed = true;
      }
    }
  }
  DenseSet<const Value *> Uniform;
  for (Instruction &I : instructions(R))
    if (!Div(&I) && !I.getType()->isVoidTy())
      Uniform.insert(&I);
  return Uniform;
}

} // namespace

WorkItemUniformity::WorkItemUniformity(Function &F) {
  Value *Lid[3];
  if (!localIdParams(F, Lid))
    return;
  LocalIds.assign(Lid, Lid + 3);
  Uniform = uniformInstructions(F, LocalIds);
}

bool WorkItemUniformity::isUniform(const Value *V) const {
  if (LocalIds.empty() || isa<Constant>(V))
    return true;
  if (isa<Argument>(V))
    return !is_contained(LocalIds, V);
  return Uniform.count(V) != 0;
}

bool WorkItemUniformity::invalidate(Function &, const PreservedAnalyses &PA,
                                    FunctionAnalysisManager::Invalidator &) {
  auto PAC = PA.getChecker<WorkItemUniformityAnalysis>();
  return !PAC.preserved() && !PAC.preservedSet<AllAnalysesOn<Function>>();
}

WorkItemUniformity WorkItemUniformityAnalysis::run(Function &F,
                                                   FunctionAnalysisManager &) {
  return WorkItemUniformity(F);
}

PreservedAnalyses
WorkItemUniformityPrinterPass::run(Function &F, FunctionAnalysisManager &AM) {
  const WorkItemUniformity &U = AM.getResult<WorkItemUniformityAnalysis>(F);
  OS << "clcpu-uniformity of " << F.getName() << ":\n";
  for (Instruction &I : instructions(F))
    if (!I.getType()->isVoidTy()) {
      OS << (U.isUniform(&I) ? "  uniform:  " : "  divergent:");
      I.print(OS);
      OS << "\n";
    }
  return PreservedAnalyses::all();
}

} // namespace clcpu::compiler
