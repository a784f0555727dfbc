//===- compiler/regions/ScratchLayout.cpp - scratch slots -----------------===//
//
// What a work-item keeps across a sync point goes to per-work-item scratch
// (WorkGroupContext::Scratch), laid out slot by slot, each slot an array
// over the group's work-items (consecutive work-items at consecutive
// addresses, so the vectorized loops read and write whole vectors):
//
//   [state: i32 x n][collective value: i64 x n][collective index: i64 x n]
//   [SSA value or private variable: size x n] ...
//
// A value the same in every work-item gets one group-wide slot per sync
// point instead (every work-item stores the same value at the same address:
// the vectorizer keeps one scalar store, the loads are invariant). A kernel
// needing more than MaxRegionScratch bytes per work-item stays on fibers.
//
// The slots never alias the kernel's own memory nor each other; alias
// scopes and type-based tags say so, so that the vectorizer needs no
// run-time overlap checks and LICM and GVN can move and forward the slots'
// accesses.

#include "compiler/regions/ScratchLayout.h"

#include <llvm/IR/DataLayout.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <string>

using namespace llvm;

namespace clcpu::compiler::regions {

Value *ScratchAddress::at(IRBuilder<> &B, Slot S) const {
  Value *Off =
      B.CreateAdd(B.CreateMul(N, B.getInt64(S.Offset), "", true),
                  B.CreateMul(Lin, B.getInt64(S.Size), "", true), "", true);
  return B.CreateInBoundsGEP(B.getInt8Ty(), Scratch, Off);
}

uint64_t allocaBytes(const AllocaInst &A, const DataLayout &DL) {
  return A.getAllocationSize(DL)
      .value_or(TypeSize::getFixed(0))
      .getFixedValue();
}

bool layOutScratch(RegionPlan &P, std::string &Why) {
  const DataLayout &DL = P.M.getDataLayout();
  uint64_t End = FixedBytes;
  auto Place = [&](uint64_t Size, uint64_t Al) {
    Slot S;
    S.Size = alignTo(std::max<uint64_t>(Size, 1), Al);
    End = alignTo(End, Al);
    S.Offset = End;
    End += S.Size;
    return S;
  };
  for (Crossing &X : P.Values)
    if (!X.Remat) {
      P.KeptUniform += X.Uniform;
      uint64_t Size = DL.getTypeAllocSize(X.V->getType()),
               Al = DL.getPrefTypeAlign(X.V->getType()).value();
      if (X.Uniform) {
        // Every work-item stores the same value at the same address (the
        // vectorizer keeps one scalar store, the loads are invariant).
        for (unsigned SI : X.At) {
          Slot S = Place(Size, Al);
          S.Size = 0;
          X.UniformSlots.push_back(S);
          if (P.Syncs[SI].SelfLoop) {
            Slot Next = Place(Size, Al);
            Next.Size = 0;
            X.NextSlots.push_back(Next);
            P.Copies.push_back({P.Syncs[SI].Id, Next.Offset, S.Offset, Size});
          } else {
            X.NextSlots.push_back(S);
          }
        }
      } else {
        X.Where = Place(Size, Al);
      }
      ++P.Kept;
    }
  // Work-group collectives with one result for the whole group
  // (WorkItemUniformity: reductions, broadcasts of a uniform source, all,
  // any): a group-wide slot for the result (SyncPoint::Result).
  for (SyncPoint &S : P.Syncs)
    if (S.What.Kind == SyncCall::Collective && !(S.What.Op & CollSubGroup) &&
        !S.Call->getType()->isVoidTy() && P.Uniform.isUniform(S.Call)) {
      S.Result = Place(8, 8);
      S.Result->Size = 0;
    }
  for (CopiedAlloca &Cp : P.CopiedAllocas)
    Cp.Where = Place(allocaBytes(*Cp.A, DL), Cp.A->getAlign().value());
  for (AllocaInst *A : P.Allocas)
    if (P.Resident.count(A))
      P.ResidentAllocas.push_back(
          {A, Place(allocaBytes(*A, DL),
                    std::max<uint64_t>(A->getAlign().value(), 16))});
  End = alignTo(End, 8);
  if (End > MaxRegionScratch) {
    Why = std::to_string(End) +
          " bytes of private state live across barriers per work-item";
    return false;
  }
  P.ScratchBytes = P.K.RegionScratch = End;
  return true;
}

SlotAliases::SlotAliases(const RegionPlan &P) : C(P.M.getContext()), MDB(C) {
  // The slots' own accesses never alias the kernel's: they get an alias
  // scope of their own, every other memory access of the kernel is marked
  // outside it (so the vectorizer needs no run-time overlap checks between
  // the scratch and the buffers). Private variables kept in the scratch are
  // accessed by the kernel's own code, in slots no saved value uses.
  MDNode *Domain = MDB.createAnonymousAliasScopeDomain("clcpu.scratch");
  Scope = MDB.createAnonymousAliasScope(Domain, "slots");
  MDNode *ScopeList = MDNode::get(C, {Scope});
  for (Instruction &I : instructions(*P.R))
    if (I.mayReadOrWriteMemory())
      I.setMetadata(LLVMContext::MD_noalias,
                    MDNode::concatenate(I.getMetadata(LLVMContext::MD_noalias),
                                        ScopeList));
  // Among the slots (a second domain): the per-work-item arrays and each
  // group-wide slot of a uniform value never overlap (they would only for an
  // empty group, n = 0). Without this, a region that loads one uniform slot
  // and stores another, at Offset1 * n and Offset2 * n, would not vectorize
  // (a may-alias dependence on loop-invariant addresses), nor could the load
  // be hoisted out of the work-item loop.
  MDNode *SlotDomain = MDB.createAnonymousAliasScopeDomain("clcpu.slots");
  PerItem = MDB.createAnonymousAliasScope(SlotDomain, "per-item");
  for (const Crossing &X : P.Values)
    for (const Slot &S : concat<const Slot>(X.UniformSlots, X.NextSlots))
      if (!GroupScopes.count(S.Offset))
        GroupScopes[S.Offset] = MDB.createAnonymousAliasScope(
            SlotDomain, X.V->getName().str() + ".group");
  for (const SyncPoint &S : P.Syncs)
    if (S.Result)
      GroupScopes[S.Result->Offset] = MDB.createAnonymousAliasScope(
          SlotDomain, S.Call->getName().str() + ".result");
  // The state slot (one per work-item, or the one group-wide slot the
  // driver reads when the region's exit is uniform) has a scope of its own:
  // the state store is then the only access to its address in a work-item
  // loop, and LICM sinks it out of the loop (one store per region instead of
  // one per vector iteration).
  StateScope = MDB.createAnonymousAliasScope(SlotDomain, "state");
  AllSlotScopes = {PerItem, StateScope};
  for (auto &[Offset, G] : GroupScopes)
    AllSlotScopes.push_back(G);
  // And every slot a type-based alias tag of its own (the slots never
  // overlap): unlike scopes, which the inliner clones per inlined call, tags
  // still tell apart the slots of two regions inlined one after the other
  // (and the sub-group step between them: SubGroupStepInline.cpp).
  SlotRoot = MDB.createTBAARoot("clcpu scratch slots");
}

MDNode *SlotAliases::slotTag(uint64_t Offset) {
  MDNode *&Tag = SlotTags[Offset];
  if (!Tag) {
    MDNode *Ty = MDB.createTBAAScalarTypeNode("slot " + std::to_string(Offset),
                                              SlotRoot);
    Tag = MDB.createTBAAStructTagNode(Ty, Ty, 0);
  }
  return Tag;
}

Instruction *SlotAliases::tag(Instruction *I, uint64_t TagOffset, MDNode *Own) {
  I->setMetadata(LLVMContext::MD_tbaa, slotTag(TagOffset));
  I->setMetadata(LLVMContext::MD_alias_scope, MDNode::get(C, {Scope, Own}));
  SmallVector<Metadata *, 8> Others;
  for (Metadata *M : AllSlotScopes)
    if (M != Own)
      Others.push_back(M);
  I->setMetadata(LLVMContext::MD_noalias, MDNode::get(C, Others));
  return I;
}

Instruction *SlotAliases::tag(Instruction *I, Slot S) {
  return tag(I, S.Offset, S.Size ? PerItem : GroupScopes.lookup(S.Offset));
}

Instruction *SlotAliases::tagState(Instruction *I) {
  return tag(I, StateOffset, StateScope);
}

} // namespace clcpu::compiler::regions
