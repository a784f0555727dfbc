//===- compiler/regions/RegionFunctions.cpp - the cut body ----------------===//
//
// `<K>.regions` is the kernel body with the region to start and where to
// store the state as last parameters. Its new entry switches on the region
// to the body's entry (region 0) or to the resume block after a sync point;
// each sync point stores what the group needs (a collective's operand and
// index argument), saves what lives across it, stores its number in the
// state slot and returns it; its resume block restores what lives across
// and continues. SSAUpdater then joins the reloaded and the original
// definitions. The driver (RegionDriver.cpp) calls it with a constant
// region in each loop over the work-items, so after inlining only that
// region's code is left and the loop vectorizes like a barrier-free
// kernel's.
//
// `one_state` is true in the driver's loops over regions whose exit is
// uniform: the driver reads only the first work-item's state there, so
// every work-item stores it in that one slot (one scalar store per vector
// iteration) instead of its own.

#include "compiler/regions/RegionFunctions.h"
#include "compiler/KernelBody.h"
#include "compiler/WorkGroupContext.h"
#include "compiler/regions/Liveness.h"
#include "compiler/regions/ScratchLayout.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/SSAUpdater.h>

using namespace llvm;

namespace clcpu::compiler::regions {

namespace {

/// Before collective sync point \p S (\p SB at its call): its operand, and
/// its index argument where it has one, to their slots.
void storeCollectiveOperands(RegionPlan &P, SlotAliases &Aliases,
                             const SyncPoint &S, IRBuilder<> &SB) {
  CallInst *CI = S.Call;
  Type *I64 = SB.getInt64Ty();
  bool Meeting = (S.What.Op % CollSubGroup) / 16 == CollReconverge;
  ++(Meeting ? P.Meetings : P.Collectives);
  P.Inline += !Meeting && inlineSubGroupOp(S.What.Op);
  // (sub_group_elect() has no operand.) Group-wide operands go to the
  // first work-item's slots (Size 0), tagged as the per-work-item slots
  // they are part of.
  uint64_t Stride = S.groupWideOperands() ? 0 : 8;
  Aliases.tag(SB.CreateStore(CI->arg_size()
                                 ? collectiveToBits(SB, CI->getArgOperand(0))
                                 : SB.getInt64(0),
                             P.SA.at(SB, {ValueOffset, Stride})),
              {ValueOffset, 8});
  uint32_t Kind = (S.What.Op % CollSubGroup) / 16;
  Value *Index = nullptr;
  auto Arg = [&](unsigned I) -> Value * {
    return I < CI->arg_size() ? SB.CreateZExtOrTrunc(CI->getArgOperand(I), I64)
                              : SB.getInt64(0);
  };
  if (Kind == CollBroadcast && !(S.What.Op & CollSubGroup))
    // work_group_broadcast(v, x[, y[, z]]): the source's linear id.
    Index = SB.CreateAdd(
        Arg(1),
        SB.CreateMul(P.Size[0],
                     SB.CreateAdd(Arg(2), SB.CreateMul(P.Size[1], Arg(3)))));
  else if (Kind == CollBroadcast || Kind == CollRotate ||
           Kind == CollPipeReserveRead || Kind == CollPipeReserveWrite ||
           Kind == CollPipeCommitRead || Kind == CollPipeCommitWrite ||
           (Kind >= CollShuffle && Kind <= CollShuffleDown) ||
           (S.What.Op & CollClustered))
    Index = Arg(1); // the source, shuffle operand or cluster size
  if (Index)
    Aliases.tag(SB.CreateStore(Index, P.SA.at(SB, {IndexOffset, Stride})),
                {IndexOffset, 8});
}

/// The end of the regions before sync point \p SI: stores what the group
/// needs, saves what lives across, returns the sync point's number.
void endRegionsAt(RegionPlan &P, SlotAliases &Aliases, unsigned SI) {
  LLVMContext &C = P.M.getContext();
  const DataLayout &DL = P.M.getDataLayout();
  SyncPoint &S = P.Syncs[SI];
  IRBuilder<> SB(S.Call);
  if (S.What.Kind == SyncCall::Collective)
    storeCollectiveOperands(P, Aliases, S, SB);
  for (unsigned VI = 0; VI < P.Values.size(); ++VI) {
    const Crossing &X = P.Values[VI];
    if (!X.Remat && is_contained(X.At, SI)) {
      Instruction *St = Aliases.tag(
          SB.CreateStore(X.V, P.SA.at(SB, X.storedAt(SI))), X.storedAt(SI));
      if (!X.Uniform)
        P.Saves.push_back({VI, cast<StoreInst>(St)});
    }
  }
  // The alloca's own size, not its slot's (rounded up to the alignment):
  // copying the slot's size read past a [5 x i32] alloca, and on resume
  // wrote 12 bytes of the slot's padding over the stack next to it.
  for (CopiedAlloca &Cp : P.CopiedAllocas)
    if (is_contained(Cp.At, SI))
      SB.CreateMemCpy(P.SA.at(SB, Cp.Where), Cp.A->getAlign(), Cp.A,
                      Cp.A->getAlign(), allocaBytes(*Cp.A, DL));
  S.Block->getTerminator()->eraseFromParent();
  Aliases.tagState(SB.CreateStore(SB.getInt32(S.Id), P.StateAt));
  ReturnInst::Create(C, ConstantInt::get(Type::getInt32Ty(C), S.Id), S.Block);
}

/// The start of the region after sync point \p SI: restores what lives
/// across, takes a collective's result from its slot, continues at the
/// block after the sync point. Returns the new block.
BasicBlock *resumeAfter(RegionPlan &P, SlotAliases &Aliases, unsigned SI) {
  LLVMContext &C = P.M.getContext();
  const DataLayout &DL = P.M.getDataLayout();
  SyncPoint &S = P.Syncs[SI];
  CallInst *CI = S.Call;
  BasicBlock *Res = BasicBlock::Create(C, "resume", P.R, S.Post);
  IRBuilder<> RB(Res);
  for (CopiedAlloca &Cp : P.CopiedAllocas)
    if (is_contained(Cp.At, SI))
      RB.CreateMemCpy(Cp.A, Cp.A->getAlign(), P.SA.at(RB, Cp.Where),
                      Cp.A->getAlign(), allocaBytes(*Cp.A, DL));
  // The kept values first: a value computed again may be computed from
  // them (uniform leaves, Liveness.cpp), which Copies then maps to their
  // reloads.
  DenseMap<Value *, Value *> Copies;
  for (bool Remat : {false, true})
    for (unsigned VI = 0; VI < P.Values.size(); ++VI) {
      const Crossing &X = P.Values[VI];
      if (X.Remat != Remat || !is_contained(X.At, SI))
        continue;
      Value *V = X.Remat ? rematerialize(RB, X.V, Copies)
                         : Aliases.tag(RB.CreateLoad(X.V->getType(),
                                                     P.SA.at(RB, X.at(SI))),
                                       X.at(SI));
      if (!X.Remat)
        Copies[X.V] = V;
      P.Restored[VI].push_back({SI, cast<Instruction>(V)});
    }
  if (S.What.Kind == SyncCall::Collective && !CI->getType()->isVoidTy()) {
    Slot From = S.Result ? *S.Result : Slot{ValueOffset, 8};
    Value *Result = collectiveFromBits(
        RB,
        Aliases.tag(RB.CreateLoad(RB.getInt64Ty(), P.SA.at(RB, From)), From),
        CI->getType());
    CI->replaceAllUsesWith(Result);
    for (Crossing &X : P.Values)
      if (X.V == CI)
        X.V = cast<Instruction>(Result);
  }
  RB.CreateBr(S.Post);
  CI->eraseFromParent();
  return Res;
}

} // namespace

void makeRegionsFunction(RegionPlan &P) {
  LLVMContext &C = P.M.getContext();
  Type *I32 = Type::getInt32Ty(C);
  SmallVector<ReturnInst *, 4> Returns;
  Function *R = cloneWithParams(P.Body, {I32, Type::getInt1Ty(C)}, I32,
                                P.K.Name + ".regions", Returns);
  for (ReturnInst *Ret : Returns) {
    P.Exits.push_back(ReturnInst::Create(C, ConstantInt::get(I32, 0), Ret));
    Ret->eraseFromParent();
  }
  R->removeFnAttr(Attribute::AlwaysInline);
  R->removeFnAttr(Attribute::NoInline);
  unsigned NA = R->arg_size();
  P.R = R;
  P.Ctx = R->getArg(NA - 6);
  P.Region = R->getArg(NA - 2);
  P.OneState = R->getArg(NA - 1);
  P.Region->setName("region");
  P.OneState->setName("one_state");
  P.Lid[0] = R->getArg(NA - 5);
  P.Lid[1] = R->getArg(NA - 4);
  P.Lid[2] = R->getArg(NA - 3);
}

void emitRegionsEntry(RegionPlan &P) {
  LLVMContext &C = P.M.getContext();
  P.Entry = BasicBlock::Create(C, "regions.entry", P.R, P.Start);
  for (AllocaInst *A : P.Allocas)
    A->moveBefore(*P.Entry, P.Entry->end());
  IRBuilder<> B(P.Entry);
  Value **Size = P.Size;
  loadLocalSize(B, P.Ctx, Size, P.K);
  P.SA.Scratch = loadContextField(B, P.Ctx, ContextField::Scratch);
  P.SA.N = B.CreateMul(B.CreateMul(Size[0], Size[1]), Size[2]);
  P.SA.Lin = B.CreateAdd(
      B.CreateMul(B.CreateAdd(B.CreateMul(P.Lid[2], Size[1]), P.Lid[1]),
                  Size[0]),
      P.Lid[0]);
  P.StateAt = B.CreateSelect(P.OneState, P.SA.at(B, {StateOffset, 0}),
                             P.SA.at(B, {StateOffset, 4}), "state.at");
  for (auto [A, S] : P.ResidentAllocas) {
    Value *Slot = P.SA.at(B, S);
    A->replaceAllUsesWith(Slot);
    A->eraseFromParent();
  }
}

void cutAtSyncPoints(RegionPlan &P, SlotAliases &Aliases) {
  P.Restored.resize(P.Values.size());
  for (unsigned SI = 0; SI < P.Syncs.size(); ++SI) {
    endRegionsAt(P, Aliases, SI);
    P.Resume.push_back(resumeAfter(P, Aliases, SI));
  }
  // A finished work-item's state is 0.
  for (ReturnInst *Ret : P.Exits) {
    IRBuilder<> EB(Ret);
    Aliases.tagState(EB.CreateStore(EB.getInt32(0), P.StateAt));
  }
  IRBuilder<> B(P.Entry);
  SwitchInst *Sw = B.CreateSwitch(P.Region, P.Start, P.Syncs.size());
  for (unsigned SI = 0; SI < P.Syncs.size(); ++SI)
    Sw->addCase(B.getInt32(P.Syncs[SI].Id), P.Resume[SI]);
}

void repairSSA(RegionPlan &P) {
  for (unsigned VI = 0; VI < P.Values.size(); ++VI) {
    Instruction *V = P.Values[VI].V;
    SSAUpdater SSA;
    SSA.Initialize(V->getType(), V->getName());
    SSA.AddAvailableValue(V->getParent(), V);
    for (auto [SI, L] : P.Restored[VI])
      SSA.AddAvailableValue(L->getParent(), L);
    for (Use &U : make_early_inc_range(V->uses())) {
      auto *User = cast<Instruction>(U.getUser());
      if (!isa<PHINode>(User) && User->getParent() == V->getParent())
        continue; // after the definition in its own block
      SSA.RewriteUse(U);
    }
  }
}

void dropRedundantSaves(RegionPlan &P) {
  // A work-item's slot of a value still holds it when the value was only
  // reloaded from there since (it lives across two sync points without
  // changing): no store. Only the value's own stores, each at a sync point
  // (the end of a region), write that slot, so none comes between the
  // region's reload and its next sync point. Without this, a region with an
  // atomic (which LLVM does not move stores across) would keep one store per
  // value and work-item.
  for (auto [VI, St] : P.Saves) {
    SmallPtrSet<const Value *, 8> Reloads, Seen;
    for (auto [SI, L] : P.Restored[VI])
      Reloads.insert(L);
    SmallVector<const Value *, 8> Work = {St->getValueOperand()};
    bool Same = true;
    while (Same && !Work.empty()) {
      const Value *V = Work.pop_back_val();
      if (!Seen.insert(V).second || Reloads.count(V))
        continue;
      if (auto *Phi = dyn_cast<PHINode>(V))
        append_range(Work, Phi->incoming_values());
      else
        Same = false;
    }
    if (Same)
      St->eraseFromParent();
  }
}

} // namespace clcpu::compiler::regions
