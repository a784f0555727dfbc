//===- compiler/regions/CollectiveSteps.cpp - between regions -------------===//
//
// Between two regions every work-item has reached the sync point, which is
// what a barrier means; a collective is computed there in one O(n) pass
// over the values the work-items stored (WorkGroupContext::GroupCollective),
// or, for a sub-group collective InlineCollectives.cpp handles, in the
// kernel's own code, one vector per sub-group. When work-items diverged
// (the driver's slow loop), only those waiting at the sync point take part.
//
// A stretch of regions joined by sub-group sync points runs one sub-group
// at a time (RegionDriver.cpp); its collectives are computed right after
// that sub-group's region, by the sub-group step, with the same addresses
// and alias tags as the regions' own slot accesses so that, once inlined
// next to them, GVN forwards the region's stores into the step.

#include "compiler/regions/CollectiveSteps.h"
#include "compiler/Binary.h"
#include "compiler/WorkGroupContext.h"
#include "compiler/regions/ScratchLayout.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace clcpu::compiler::regions {

namespace {

/// Tags the accesses of \p F to the slots at \p Values and \p Args (their
/// addresses offsets from those) that have no tag yet.
void tagSlotAccesses(Function &F, Value *Values, Value *Args,
                     SlotAliases &Aliases) {
  for (Instruction &I : instructions(F)) {
    Value *P = getLoadStorePointerOperand(&I);
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      switch (II->getIntrinsicID()) {
      case Intrinsic::masked_gather:
      case Intrinsic::masked_load:
        P = II->getArgOperand(0);
        break;
      case Intrinsic::masked_scatter:
      case Intrinsic::masked_store:
        P = II->getArgOperand(1);
        break;
      default:
        break;
      }
    while (P != Values && P != Args)
      if (auto *G = dyn_cast_or_null<GetElementPtrInst>(P))
        P = G->getPointerOperand();
      else
        break;
    if ((P == Values || P == Args) && !I.getMetadata(LLVMContext::MD_tbaa))
      Aliases.tag(&I, {P == Values ? ValueOffset : IndexOffset, 8});
  }
}

} // namespace

Function *emitCollectiveStep(const RegionPlan &P) {
  Module &M = P.M;
  LLVMContext &C = M.getContext();
  Type *I64 = Type::getInt64Ty(C), *I32 = Type::getInt32Ty(C);
  PointerType *Ptr = PointerType::getUnqual(C);
  auto *F = Function::Create(
      FunctionType::get(Type::getVoidTy(C), {Ptr, I32, Ptr, I64, Ptr}, false),
      GlobalValue::InternalLinkage, P.K.Name + ".collective", M);
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::NoInline);
  Value *Ctx = F->getArg(0), *Region = F->getArg(1), *Scratch = F->getArg(2),
        *N = F->getArg(3), *States = F->getArg(4);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  ReturnInst::Create(C, Done);
  IRBuilder<> B(Entry);
  SwitchInst *Sw = B.CreateSwitch(Region, Done);
  auto *FT = FunctionType::get(Type::getVoidTy(C),
                               {Ptr, I32, Ptr, Ptr, I64, Ptr, I32}, false);
  for (const SyncPoint &S : P.Syncs) {
    bool Collective = S.What.Kind == SyncCall::Collective;
    auto Own = make_filter_range(
        P.Copies, [&](const SlotCopy &Cp) { return Cp.Id == S.Id; });
    if (!Collective && Own.empty())
      continue;
    BasicBlock *BB = BasicBlock::Create(C, "step", F, Done);
    Sw->addCase(B.getInt32(S.Id), BB);
    IRBuilder<> CB(BB);
    auto At = [&](uint64_t Offset) {
      return CB.CreateInBoundsGEP(CB.getInt8Ty(), Scratch,
                                  CB.CreateMul(N, CB.getInt64(Offset)));
    };
    for (const SlotCopy &Cp : Own)
      CB.CreateMemCpy(At(Cp.To), Align(1), At(Cp.From), Align(1), Cp.Bytes);
    uint32_t Op = S.What.Op;
    auto Runtime = [&](IRBuilder<> &RB, Value *From, Value *Count,
                       Value *StatesArg) {
      auto Slots = [&](uint64_t Offset) {
        return RB.CreateInBoundsGEP(
            I64,
            RB.CreateInBoundsGEP(RB.getInt8Ty(), Scratch,
                                 RB.CreateMul(N, RB.getInt64(Offset))),
            From);
      };
      RB.CreateCall(FT,
                    loadContextField(RB, Ctx, ContextField::GroupCollective),
                    {Ctx, RB.getInt32(Op), Slots(ValueOffset),
                     Slots(IndexOffset), Count, StatesArg, Region});
    };
    if (Collective && (Op % CollSubGroup) / 16 == CollReconverge &&
        (Op & CollSubGroup)) {
      // A reconvergence point computes nothing.
    } else if (Collective && inlineSubGroupOp(Op)) {
      // The sub-groups' vectors in the kernel's code, a partial last one
      // by the runtime: every work-item here (no state slots passed), or
      // (the divergent loop) those whose state is this sync point.
      Value *Values = At(ValueOffset), *Args = At(IndexOffset);
      BasicBlock *Here = BasicBlock::Create(C, "step.inline", F, Done);
      BasicBlock *Some = BasicBlock::Create(C, "step.diverged", F, Done);
      CB.CreateCondBr(CB.CreateIsNull(States), Here, Some);
      auto Emit = [&](BasicBlock *BB, Value *StatesArg) {
        IRBuilder<> IB(BB);
        Value *Full =
            emitInlineSubGroupOp(IB, Op, Values, Args, N, StatesArg, Region);
        BasicBlock *Tail = BasicBlock::Create(C, "step.tail", F, Done);
        IB.CreateCondBr(IB.CreateICmpULT(Full, N), Tail, Done);
        IRBuilder<> TB(Tail);
        Value *TailStates =
            StatesArg ? TB.CreateGEP(I32, StatesArg, Full)
                      : ConstantPointerNull::get(PointerType::getUnqual(C));
        Runtime(TB, Full, TB.CreateSub(N, Full), TailStates);
        TB.CreateBr(Done);
      };
      Emit(Here, nullptr);
      if (inlineSubGroupOp(Op, /*Diverged=*/true)) {
        Emit(Some, States);
      } else {
        IRBuilder<> RB(Some);
        Runtime(RB, RB.getInt64(0), N, States);
        RB.CreateBr(Done);
      }
      continue;
    } else if (Collective) {
      Runtime(CB, CB.getInt64(0), S.groupWideOperands() ? CB.getInt64(1) : N,
              States);
      // The whole group's result, where the region after this reads it
      // (SyncPoint::Result): work-group collectives run over all n values
      // whatever the states, so the first work-item's is the group's.
      if (S.Result)
        CB.CreateStore(CB.CreateLoad(I64, At(ValueOffset)),
                       At(S.Result->Offset));
    }
    CB.CreateBr(Done);
  }
  return F;
}

Function *emitSubGroupStep(const RegionPlan &P, SlotAliases &Aliases) {
  Module &M = P.M;
  LLVMContext &C = M.getContext();
  Type *I64 = Type::getInt64Ty(C), *I32 = Type::getInt32Ty(C);
  PointerType *Ptr = PointerType::getUnqual(C);
  auto *F = Function::Create(
      FunctionType::get(Type::getVoidTy(C), {Ptr, I32, Ptr, I64, I64}, false),
      GlobalValue::InternalLinkage, P.K.Name + ".collective.sg", M);
  F->addFnAttr(Attribute::NoUnwind);
  // Inlined after the vectorizer (compiler/passes/SubGroupStepInline.cpp).
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(LateInlineAttr);
  Value *Region = F->getArg(1), *Scratch = F->getArg(2), *N = F->getArg(3),
        *First = F->getArg(4);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  ReturnInst::Create(C, Done);
  IRBuilder<> B(Entry);
  SwitchInst *Sw = B.CreateSwitch(Region, Done);
  for (const SyncPoint &S : P.Syncs) {
    if (!is_contained(P.SubGroupSyncs, S.Id))
      continue;
    BasicBlock *BB = BasicBlock::Create(C, "step.sg", F, Done);
    Sw->addCase(B.getInt32(S.Id), BB);
    IRBuilder<> SB(BB);
    auto At = [&](uint64_t Offset) {
      return SB.CreateInBoundsGEP(SB.getInt8Ty(), Scratch,
                                  SB.CreateMul(N, SB.getInt64(Offset)));
    };
    // The group-wide slots of uniform values (every sub-group stores the
    // same value there, and reads it back before the next one runs).
    for (const SlotCopy &Cp : P.Copies)
      if (Cp.Id == S.Id)
        SB.CreateMemCpy(At(Cp.To), Align(1), At(Cp.From), Align(1), Cp.Bytes);
    uint32_t Op = S.What.Op;
    if (S.What.Kind == SyncCall::Collective &&
        (Op % CollSubGroup) / 16 != CollReconverge) {
      // The addresses the regions' own slot accesses use (so that, inlined
      // next to them, they are the same values and GVN forwards the
      // region's stores: compiler/passes/SubGroupStepInline.cpp).
      ScratchAddress SA{Scratch, N, First};
      Value *Values = SA.at(SB, {ValueOffset, 8});
      Value *Args = SA.at(SB, {IndexOffset, 8});
      emitInlineSubGroupOp(SB, Op, Values, Args,
                           SB.getInt64(hostSubGroupSize()),
                           /*States=*/nullptr, Region);
      // Each access gets the alias tag of the slot it reads or writes (its
      // address is an offset from Values or Args).
      tagSlotAccesses(*F, Values, Args, Aliases);
    }
    SB.CreateBr(Done);
  }
  // (The copies' memcpys stay untagged: they may alias anything.)
  return F;
}

} // namespace clcpu::compiler::regions
