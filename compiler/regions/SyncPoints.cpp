//===- compiler/regions/SyncPoints.cpp - where regions end ----------------===//
//
// Sync points are where `<K>.regions` stops: barriers, work-group and
// sub-group collectives, and the sync points LoopSyncPoints.cpp puts at the
// header of grid-stride loops. Each gets a block of its own (the call and a
// branch), so that a region ends at the end of a block and the next one
// starts at the beginning of one, and a number (the region after it), the
// loop sync points the lowest: when work-items wait at different sync
// points, the driver runs the lowest first, so the ones still in a loop
// catch up before anyone passes a real barrier. The blocks before and after
// each sync point tell the liveness phase what lives across it.

#include "compiler/regions/SyncPoints.h"
#include "compiler/WorkGroupContext.h"
#include "compiler/analyses/SyncCalls.h"

#include <llvm/IR/CFG.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <algorithm>

using namespace llvm;

namespace clcpu::compiler::regions {

namespace {

/// Whether the region starting at \p Post (right after the sync point in
/// \p Block) can reach that sync point again: a forward walk that stops at
/// every sync block.
bool regionReturnsTo(const BasicBlock *Post, const BasicBlock *Block,
                     const SmallPtrSetImpl<const BasicBlock *> &SyncBlocks) {
  DenseSet<const BasicBlock *> Seen = {Post};
  SmallVector<const BasicBlock *, 32> Work = {Post};
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    if (BB == Block)
      return true;
    if (SyncBlocks.count(BB))
      continue;
    for (const BasicBlock *S : successors(BB))
      if (Seen.insert(S).second)
        Work.push_back(S);
  }
  return false;
}

} // namespace

DenseSet<const BasicBlock *> reachable(const BasicBlock *From, bool Forward) {
  DenseSet<const BasicBlock *> Seen = {From};
  SmallVector<const BasicBlock *, 32> Work = {From};
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    auto Visit = [&](const BasicBlock *N) {
      if (Seen.insert(N).second)
        Work.push_back(N);
    };
    if (Forward)
      for (const BasicBlock *S : successors(BB))
        Visit(S);
    else
      for (const BasicBlock *P : predecessors(BB))
        Visit(P);
  }
  return Seen;
}

bool collectivesAreScalar(Function &Body, std::string &Why) {
  for (Instruction &I : instructions(Body))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (auto S = classifySyncCall(*CI); S && !S->Scalar) {
        Why = "a collective of a vector or half operand (" +
              CI->getCalledFunction()->getName().str() + ")";
        return false;
      }
  return true;
}

void addLoopSyncPoints(RegionPlan &P) {
  P.LoopSyncs =
      insertLoopSyncPoints(*P.R, WorkItemUniformity(*P.R), SyncCalls(*P.R));
}

bool findSyncPoints(RegionPlan &P, std::string &Why) {
  // Lifetime markers only help the optimizer; across regions they would
  // mark restored variables dead.
  for (Instruction &I : make_early_inc_range(instructions(*P.R))) {
    if (auto *II = dyn_cast<IntrinsicInst>(&I);
        II && II->isLifetimeStartOrEnd()) {
      II->eraseFromParent();
      continue;
    }
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (auto S = classifySyncCall(*CI)) {
        SyncPoint SP;
        SP.Call = CI;
        SP.What = *S;
        P.Syncs.push_back(std::move(SP));
      }
  }
  // Loop sync points take the lowest numbers: when work-items wait at
  // different sync points, the driver runs the lowest first, so the ones
  // still in a loop catch up before anyone passes a real barrier.
  std::stable_partition(P.Syncs.begin(), P.Syncs.end(), [](const SyncPoint &S) {
    return isLoopSyncPoint(*S.Call);
  });
  for (unsigned SI = 0; SI < P.Syncs.size(); ++SI)
    P.Syncs[SI].Id = SI + 1;
  if (P.Syncs.empty()) {
    Why = "no barrier, collective or grid-stride loop";
    return false;
  }
  return true;
}

void isolateSyncPoints(RegionPlan &P) {
  for (SyncPoint &S : P.Syncs) {
    S.Block = SplitBlock(S.Call->getParent(), S.Call);
    S.Post = SplitBlock(S.Block, S.Call->getNextNode());
  }
  for (SyncPoint &S : P.Syncs) {
    S.After = reachable(S.Post, /*Forward=*/true);
    S.Before = reachable(S.Block, /*Forward=*/false);
  }
  for (SyncPoint &S : P.Syncs)
    P.SyncBlocks.insert(S.Block);
  for (SyncPoint &S : P.Syncs)
    S.SelfLoop = regionReturnsTo(S.Post, S.Block, P.SyncBlocks);
}

void findReachingSyncPoints(RegionPlan &P) {
  // Kernels with non-uniform sub-group functions: which sync points can
  // reach which, for the order the driver releases them in when work-items
  // wait at different ones (emitRegionDriver).
  ArrayRef<SyncPoint> Syncs = P.Syncs;
  if (Syncs.size() >= 64 || none_of(Syncs, [](const SyncPoint &S) {
        return S.What.Kind == SyncCall::Collective &&
               (S.What.Op & CollNonUniform);
      }))
    return;
  P.ReachedBy.assign(Syncs.size() + 1, 0);
  SmallVector<const BasicBlock *, 16> Blocks;
  for (const SyncPoint &S : Syncs)
    Blocks.push_back(S.Block);
  // Not through the back edge of a loop around the later sync point
  // (compiler/passes/Reconvergence.cpp).
  SmallVector<uint64_t, 8> After = siteReach(Blocks);
  for (unsigned T = 0; T < Syncs.size(); ++T)
    for (unsigned F = 0; F < Syncs.size(); ++F)
      if (F != T && (After[F] >> T & 1))
        P.ReachedBy[Syncs[T].Id] |= uint64_t(1) << Syncs[F].Id;
}

} // namespace clcpu::compiler::regions
