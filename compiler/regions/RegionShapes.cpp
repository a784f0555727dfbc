//===- compiler/regions/RegionShapes.cpp - regions for the driver ---------===//
//
// A region's exit is uniform when every branch that decides which sync
// point it stops at is uniform: work-items that start it together stop
// together, so the driver reads one work-item's state instead of scanning
// all of them, and the vectorized loop stores one state.
//
// Sub-group stretches: the sub-group sync points whose next region can run
// per sub-group, and the regions that can and start after one or can stop
// at one. A region can when its exit is uniform and it has no atomic, fence
// or call: a locked instruction waits for every store before it to reach
// the cache, which per sub-group means after each sub-group's few vector
// stores (it slows the ballot compaction of bench/ down), and such a region
// does not vectorize anyway.

#include "compiler/regions/RegionShapes.h"
#include "compiler/WorkGroupContext.h"
#include "compiler/regions/SyncPoints.h"

#include <llvm/Analysis/CFG.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IntrinsicInst.h>

#include <algorithm>

using namespace llvm;

namespace clcpu::compiler::regions {

namespace {

/// Whether every branch of the region starting at \p Start that decides
/// where it stops is uniform. Every return of `<K>.regions` returns a
/// constant (a sync point's number, 0 when finished); a branch decides when
/// its successors can reach different sets of those.
bool exitIsUniform(BasicBlock *Start, const WorkItemUniformity &Uniform) {
  DenseSet<const BasicBlock *> In = reachable(Start, /*Forward=*/true);
  DenseMap<const BasicBlock *, SmallVector<uint64_t, 4>> Ends;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const BasicBlock *BB : In) {
      SmallVector<uint64_t, 4> E;
      if (const auto *Ret = dyn_cast<ReturnInst>(BB->getTerminator())) {
        const auto *Id = dyn_cast<ConstantInt>(Ret->getReturnValue());
        if (!Id)
          return false;
        E.push_back(Id->getZExtValue());
      }
      for (const BasicBlock *S : successors(BB)) {
        auto It = Ends.find(S);
        if (It != Ends.end())
          E.append(It->second.begin(), It->second.end());
      }
      llvm::sort(E);
      E.erase(std::unique(E.begin(), E.end()), E.end());
      SmallVector<uint64_t, 4> &Old = Ends[BB];
      if (Old != E) {
        Old = std::move(E);
        Changed = true;
      }
    }
  }
  auto IsUniform = [&](const Value *V) { return Uniform.isUniform(V); };
  for (const BasicBlock *BB : In) {
    const Instruction *T = BB->getTerminator();
    if (T->getNumSuccessors() < 2)
      continue;
    bool Decides = false;
    for (const BasicBlock *S : successors(BB))
      Decides |= Ends[S] != Ends[*succ_begin(BB)];
    if (!Decides)
      continue;
    if (const auto *Br = dyn_cast<BranchInst>(T)) {
      if (!IsUniform(Br->getCondition()))
        return false;
    } else if (const auto *Sw = dyn_cast<SwitchInst>(T)) {
      if (!IsUniform(Sw->getCondition()))
        return false;
    } else {
      return false;
    }
  }
  return true;
}

/// Whether the driver can compute sync point \p S for one sub-group at a
/// time, right after that sub-group's work-items ran the region before it:
/// a sub-group barrier, or a sub-group collective computed in the kernel's
/// code (InlineCollectives.cpp) or a reconvergence point.
bool subGroupLocal(const SyncPoint &S) {
  if (S.What.Kind == SyncCall::SubGroupBarrier)
    return true;
  uint32_t Op = S.What.Op;
  return S.What.Kind == SyncCall::Collective && (Op & CollSubGroup) &&
         ((Op % CollSubGroup) / 16 == CollReconverge || inlineSubGroupOp(Op));
}

/// Where each region starts, and its number (the index into P.Shapes).
SmallVector<std::pair<BasicBlock *, unsigned>, 8>
regionStarts(const RegionPlan &P) {
  SmallVector<std::pair<BasicBlock *, unsigned>, 8> Starts = {{P.Start, 0}};
  for (unsigned SI = 0; SI < P.Syncs.size(); ++SI)
    Starts.push_back({P.Resume[SI], P.Syncs[SI].Id});
  return Starts;
}

} // namespace

void findRegionShapes(RegionPlan &P) {
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 8> Backedges;
  FindFunctionBackedges(*P.R, Backedges);
  for (auto [Start, Id] : regionStarts(P)) {
    DenseSet<const BasicBlock *> In = reachable(Start, /*Forward=*/true);
    RegionShape Sh;
    for (auto [From, To] : Backedges)
      Sh.HasLoops |= In.count(From) != 0;
    Sh.UniformExit = exitIsUniform(Start, P.Uniform);
    P.Shapes.push_back(Sh);
  }
}

void planSubGroupStretches(RegionPlan &P) {
  // (P.Shapes[Id]: the region starting after sync point Id; each sync block
  // now returns, so a forward walk stays in its region.)
  auto Starts = regionStarts(P);
  SmallVector<bool, 8> PerSubGroup;
  for (auto [Start, Id] : Starts) {
    bool Ok = P.Shapes[Id].UniformExit;
    for (const BasicBlock *BB : reachable(Start, /*Forward=*/true))
      for (const Instruction &I : *BB)
        Ok &= !I.isAtomic() && !isa<FenceInst>(I) &&
              (!isa<CallBase>(I) || isa<IntrinsicInst>(I));
    PerSubGroup.push_back(Ok);
  }
  for (const SyncPoint &S : P.Syncs)
    if (subGroupLocal(S) && PerSubGroup[S.Id])
      P.SubGroupSyncs.push_back(S.Id);
  for (auto [Start, Id] : Starts) {
    RegionShape &Sh = P.Shapes[Id];
    if (!PerSubGroup[Id])
      continue;
    DenseSet<const BasicBlock *> In = reachable(Start, /*Forward=*/true);
    unsigned Ends = count_if(P.Exits, [&](const ReturnInst *Ret) {
      return In.count(Ret->getParent()) != 0;
    });
    for (const SyncPoint &S : P.Syncs)
      if (In.count(S.Block)) {
        Sh.OnlyEnd = Ends ? -1 : int(S.Id);
        ++Ends;
      }
    if (Ends != 1)
      Sh.OnlyEnd = -1;
    Sh.SubGroupStretchStart = any_of(P.Syncs, [&](const SyncPoint &S) {
      return is_contained(P.SubGroupSyncs, S.Id) && In.count(S.Block);
    });
    Sh.SubGroupStretch =
        Sh.SubGroupStretchStart || is_contained(P.SubGroupSyncs, Id);
    P.Stretched += Sh.SubGroupStretchStart;
  }
}

} // namespace clcpu::compiler::regions
