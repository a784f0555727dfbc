//===- compiler/regions/Liveness.cpp - state across sync points -----------===//
//
// What a work-item keeps across a sync point goes to per-work-item scratch
// (ScratchLayout.cpp); this phase finds it.
//
//  * SSA values live across a sync point are stored before it and loaded
//    after it, or, when they are a short side-effect-free expression of the
//    arguments (get_global_id(), addresses derived from it), computed again
//    after it: a few instructions instead of a store and a load per
//    work-item.
//  * Private variables (allocas SROA could not split) live across a sync
//    point are copied to their slot and back; a private variable whose
//    address escapes or is itself live across a sync point lives in its
//    slot for good (each region's inlined copy has its own alloca, so a
//    pointer to one must not survive a barrier).

#include "compiler/regions/Liveness.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>

using namespace llvm;

namespace clcpu::compiler::regions {

namespace {

/// Whether \p V (defined in \p Def) is live on entry to \p Post: used on
/// some path from Post that does not pass its definition again.
bool liveAt(const Instruction &V, const BasicBlock *Post) {
  const BasicBlock *Def = V.getParent();
  if (Post == Def)
    return false;
  // Blocks with a use: a PHI uses its operand at the end of the incoming
  // block.
  SmallPtrSet<const BasicBlock *, 8> UseBlocks;
  for (const Use &U : V.uses()) {
    const auto *I = cast<Instruction>(U.getUser());
    if (const auto *Phi = dyn_cast<PHINode>(I))
      UseBlocks.insert(Phi->getIncomingBlock(U));
    else
      UseBlocks.insert(I->getParent());
  }
  SmallPtrSet<const BasicBlock *, 32> Seen = {Post};
  SmallVector<const BasicBlock *, 32> Work = {Post};
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    if (UseBlocks.count(BB))
      return true;
    for (const BasicBlock *S : successors(BB))
      if (S != Def && Seen.insert(S).second)
        Work.push_back(S);
  }
  return false;
}

/// The pointers derived from alloca \p A (GEPs, casts, selects, PHIs) and
/// whether any of them escapes: used other than as the address of a load,
/// a store, a memory intrinsic or a lifetime marker.
bool escapes(AllocaInst &A, SmallPtrSetImpl<Instruction *> &Derived) {
  SmallVector<Instruction *, 16> Work = {&A};
  Derived.insert(&A);
  while (!Work.empty()) {
    Instruction *P = Work.pop_back_val();
    for (Use &U : P->uses()) {
      auto *I = cast<Instruction>(U.getUser());
      if (isa<GetElementPtrInst>(I) || isa<CastInst>(I) || isa<SelectInst>(I) ||
          isa<PHINode>(I)) {
        if (isa<PtrToIntInst>(I))
          return true;
        if (Derived.insert(I).second)
          Work.push_back(I);
        continue;
      }
      if (isa<LoadInst>(I))
        continue;
      if (auto *St = dyn_cast<StoreInst>(I)) {
        if (St->getValueOperand() == P)
          return true; // the address itself is stored
        continue;
      }
      if (auto *II = dyn_cast<IntrinsicInst>(I)) {
        if (isa<MemIntrinsic>(II) || II->isLifetimeStartOrEnd())
          continue;
      }
      return true;
    }
  }
  return false;
}

/// Whether \p V can be computed again after a sync point instead of kept:
/// a side-effect-free expression of at most \p Budget instructions over the
/// function's arguments (local ids, kernel arguments) and invariant loads
/// from them (the work-group context): get_global_id(), get_local_size(),
/// addresses derived from them. With \p Uniform, also over integers the
/// same in every work-item (\p Leaves collects them), which are then kept
/// in a group-wide slot: `base + get_local_id(0)` with a loop's uniform
/// base, the index of a work-group loop striding over an array.
bool rematerializable(const Value *V, unsigned &Budget,
                      const WorkItemUniformity *Uniform = nullptr,
                      SmallVectorImpl<Instruction *> *Leaves = nullptr) {
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return isa<Argument>(V) || isa<Constant>(V);
  // A collective's result is defined by its sync point (a call), which
  // the region after it replaces: not a leaf. A uniform value that is an
  // expression of the arguments is computed again itself.
  if (Uniform && Leaves && I->getType()->isIntegerTy() && !isa<CallBase>(I) &&
      Uniform->isUniform(I)) {
    unsigned Plain = Budget;
    if (rematerializable(I, Plain)) {
      Budget = Plain;
      return true;
    }
    if (!Budget--)
      return false;
    Leaves->push_back(const_cast<Instruction *>(I));
    return true;
  }
  if (!Budget--)
    return false;
  if (const auto *L = dyn_cast<LoadInst>(I)) {
    if (!L->getMetadata(LLVMContext::MD_invariant_load) || L->isVolatile())
      return false;
  } else if (isa<PHINode>(I) || isa<AllocaInst>(I) ||
             I->mayReadOrWriteMemory() || I->mayHaveSideEffects() ||
             isa<CallBase>(I) || I->isTerminator()) {
    return false;
  }
  for (const Value *Op : I->operands())
    if (!rematerializable(Op, Budget, Uniform, Leaves))
      return false;
  return true;
}

/// Whether \p I is used outside its block (or by a PHI).
bool usedElsewhere(const Instruction &I) {
  bool Elsewhere = false;
  for (const User *U : I.users())
    Elsewhere |=
        isa<PHINode>(U) || cast<Instruction>(U)->getParent() != I.getParent();
  return Elsewhere;
}

} // namespace

bool findPrivates(RegionPlan &P, std::string &Why) {
  P.Start = &P.R->getEntryBlock();
  for (Instruction &I : instructions(*P.R))
    if (auto *A = dyn_cast<AllocaInst>(&I)) {
      if (!A->isStaticAlloca() || A->getParent() != P.Start) {
        Why = "a private allocation of dynamic size";
        return false;
      }
      P.Allocas.push_back(A);
    }
  return true;
}

void findLiveValues(RegionPlan &P) {
  P.Uniform = WorkItemUniformity(*P.R);
  for (BasicBlock &BB : *P.R) {
    for (Instruction &I : BB) {
      if (isa<AllocaInst>(I) || I.getType()->isVoidTy() || !usedElsewhere(I))
        continue;
      // A collective's result (its call, alone in a sync block) is defined
      // after its own sync point but may live across later ones.
      bool Result = P.SyncBlocks.count(&BB) != 0;
      Crossing X;
      X.V = &I;
      for (unsigned S = 0; S < P.Syncs.size(); ++S)
        if (!(Result && P.Syncs[S].Block == &BB) &&
            P.Syncs[S].Before.count(&BB) && liveAt(I, P.Syncs[S].Post))
          X.At.push_back(S);
      unsigned Budget = 24;
      X.Remat = !Result && rematerializable(&I, Budget);
      X.Uniform = P.Uniform.isUniform(&I);
      if (!X.At.empty())
        P.Values.push_back(std::move(X));
    }
  }
  // A per-work-item value computed from the local ids and uniform values
  // is computed again from those after the sync points it lives across,
  // the uniform ones kept there in group-wide slots: pyopencl's scans
  // keep `i = base + lid` across a barrier and store out[i] after it,
  // which reloaded from scratch is a scatter the vectorizer leaves scalar
  // and recomputed is a consecutive store. The leaves' values there are
  // the ones the value was computed from: a leaf's definition dominates
  // the value's, which dominates each sync point the value is live across
  // (it is used after it), so no path reaches the sync point through the
  // leaf's definition again without passing the value's.
  DenseMap<const Instruction *, unsigned> Index;
  for (unsigned VI = 0; VI < P.Values.size(); ++VI)
    Index[P.Values[VI].V] = VI;
  for (unsigned VI = 0, E = P.Values.size(); VI < E; ++VI) {
    Crossing &X = P.Values[VI];
    if (X.Remat || X.Uniform || P.SyncBlocks.count(X.V->getParent()))
      continue;
    // A few instructions (an add, the casts around it): the expression is
    // computed again in every region after every barrier it crosses, where
    // it replaces one vector load.
    unsigned Budget = 6;
    SmallVector<Instruction *, 4> Leaves;
    if (!rematerializable(X.V, Budget, &P.Uniform, &Leaves) || Leaves.empty())
      continue;
    SmallVector<unsigned, 4> At = X.At;
    P.Values[VI].Remat = true;
    for (Instruction *W : Leaves) {
      auto [It, New] = Index.try_emplace(W, P.Values.size());
      if (New) {
        Crossing L;
        L.V = W;
        L.Uniform = true;
        P.Values.push_back(std::move(L));
      }
      Crossing &C = P.Values[It->second];
      for (unsigned S : At)
        if (!is_contained(C.At, S))
          C.At.push_back(S);
      llvm::sort(C.At);
    }
  }
}

void classifyPrivates(RegionPlan &P) {
  // In their slot for good (the address escapes or is live across a sync
  // point), copied to it and back at the sync points they are live across,
  // or left alone.
  for (Crossing &X : P.Values) {
    if (!X.V->getType()->isPtrOrPtrVectorTy())
      continue;
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(X.V, Objects);
    for (const Value *O : Objects)
      if (auto *A = dyn_cast<AllocaInst>(O))
        P.Resident.insert(const_cast<AllocaInst *>(A));
  }
  for (AllocaInst *A : P.Allocas) {
    SmallPtrSet<Instruction *, 16> Derived;
    if (escapes(*A, Derived))
      P.Resident.insert(A);
    if (P.Resident.count(A))
      continue;
    SmallPtrSet<const BasicBlock *, 8> Blocks;
    for (Instruction *D : Derived)
      for (User *U : D->users())
        Blocks.insert(cast<Instruction>(U)->getParent());
    CopiedAlloca Cp{A, {}, {}};
    for (unsigned S = 0; S < P.Syncs.size(); ++S) {
      bool Before = false, After = false;
      for (const BasicBlock *BB : Blocks) {
        Before |= P.Syncs[S].Before.count(BB) != 0;
        After |= P.Syncs[S].After.count(BB) != 0;
      }
      if (Before && After)
        Cp.At.push_back(S);
    }
    if (!Cp.At.empty())
      P.CopiedAllocas.push_back(std::move(Cp));
  }
}

Value *rematerialize(IRBuilder<> &B, Value *V,
                     DenseMap<Value *, Value *> &Copies) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return V;
  if (Value *C = Copies.lookup(I))
    return C;
  Instruction *C = I->clone();
  for (Use &Op : C->operands())
    Op.set(rematerialize(B, Op.get(), Copies));
  B.Insert(C, I->getName());
  Copies[I] = C;
  return C;
}

} // namespace clcpu::compiler::regions
