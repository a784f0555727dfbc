//===- compiler/regions/BarrierRegions.cpp - barriers as work-item loops --===//
//
// The barrier fast path. A kernel with barriers or work-group / sub-group
// collectives is cut at each of them ("sync points") into regions. The
// kernel body becomes a function `<K>.regions(args, ctx, lx, ly, lz,
// region) -> next` that runs one work-item from the start of `region` (0:
// the kernel's entry; k: right after sync point k) to the next sync point,
// and returns that sync point's number (0 when the work-item finished),
// also stored in the work-item's state slot.
// `wg_<K>` then runs, for region r, one loop over the group's work-items
// calling `<K>.regions(..., r)`: with r a constant in each loop, the inliner
// keeps only the region's code, and that loop vectorizes across work-items
// exactly like a barrier-free kernel's (compiler/WorkGroupFunction.cpp).
// Between two loops every work-item has reached the sync point, which is
// what a barrier means; a collective is computed there in one O(n) pass
// over the values the work-items stored (WorkGroupContext::GroupCollective).
//
// What a work-item must keep across a sync point goes to per-work-item
// scratch (WorkGroupContext::Scratch), laid out slot by slot, each slot an
// array over the group's work-items (consecutive work-items at consecutive
// addresses, so the vectorized loops read and write whole vectors):
//
//   [state: i32 x n][collective value: i64 x n][collective index: i64 x n]
//   [SSA value or private variable: size x n] ...
//
//  * SSA values live across a sync point are stored before it and loaded
//    after it (SSAUpdater joins the loaded and the original definitions).
//  * Private variables (allocas SROA could not split) live across a sync
//    point are copied to their slot and back; a private variable whose
//    address escapes or is itself live across a sync point lives in its
//    slot for good (each region's inlined copy has its own alloca, so a
//    pointer to one must not survive a barrier).
//
// All work-items of a group reach the same barriers in the same order
// (OpenCL C 6.13.8: a barrier "must be encountered by all work-items in a
// work-group"). wg_<K> checks it: each work-item's next region goes to the
// state slot, and if they differ (a kernel where some work-items returned
// early, or took different sides of a branch to non-uniform sub-group
// functions) a slow loop runs, one region at a time, only the work-items
// waiting at that region, through an out-of-line copy of `<K>.regions`:
// the lowest first, or in a kernel with non-uniform sub-group functions one
// no work-item waiting elsewhere can still reach (the ReachedBy table;
// compiler/Reconvergence.cpp). A sub-group whose work-items stopped at
// different sync points computes each collective over the work-items at it
// (scheduler/Collectives.cpp, groupCollective): the active set of a
// non-uniform call, or a shuffle in each branch of an if on the sub-group
// local id.
//
// Shapes the regions do not handle (a collective of a vector or half
// operand, a dynamically sized private allocation, private state above
// MaxRegionScratch per work-item) stay on fibers (compiler/Barriers.cpp).

#include "compiler/Binary.h"
#include "compiler/Internal.h"
#include "compiler/WorkGroupContext.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/CFG.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/SSAUpdater.h>

#include <algorithm>
#include <string>

using namespace llvm;

namespace clcpu::compiler {

namespace {

// WorkGroupContext word indices (compiler/WorkGroupContext.h).
enum : unsigned { WLocalSize = 3, WScratch = 32, WGroupCollective = 33 };

/// The slots every region kernel has, in bytes per work-item: the region
/// each work-item returned (i32), a collective's operand and its index
/// argument (i64 each).
constexpr uint64_t StateOffset = 0, ValueOffset = 8, IndexOffset = 16,
                   FixedBytes = 24;

/// Private state per work-item above which a kernel stays on fibers.
constexpr uint64_t MaxRegionScratch = 256 * 1024;

struct SyncPoint {
  CallInst *Call = nullptr;
  SyncCall What;
  BasicBlock *Block = nullptr; // only Call and a branch to Post
  BasicBlock *Post = nullptr;
  unsigned Id = 0; // the region that starts after it (1-based)
  /// Blocks reachable from Post, and blocks from which Block is reachable.
  DenseSet<const BasicBlock *> After, Before;
  /// Whether a region starting after this sync point can end at it again
  /// without passing another one (a loop with this single sync point).
  bool SelfLoop = false;
};

/// A per-work-item slot: Offset * n + lid * Size bytes into the scratch.
struct Slot {
  uint64_t Offset = 0, Size = 0;
};

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
/// addresses derived from them.
bool rematerializable(const Value *V, unsigned &Budget) {
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return isa<Argument>(V) || isa<Constant>(V);
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
    if (!rematerializable(Op, Budget))
      return false;
  return true;
}

/// Whether every branch of the region starting at \p Start that decides
/// where it stops is uniform. Every return of `<K>.regions` returns a
/// constant (a sync point's number, 0 when finished); a branch decides when
/// its successors can reach different sets of those.
bool exitIsUniform(BasicBlock *Start, const DenseSet<const Value *> &Uniform,
                   ArrayRef<Value *> LocalIds) {
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
  auto IsUniform = [&](const Value *V) {
    return isUniform(V, Uniform, LocalIds);
  };
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

/// A copy of \p V's expression at \p B (\p Copies: what is copied already).
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

Value *ctxWord(IRBuilder<> &B, Value *Ctx, unsigned W, Type *Ty) {
  auto *L =
      B.CreateLoad(Ty, B.CreateConstInBoundsGEP1_64(B.getInt64Ty(), Ctx, W));
  L->setMetadata(LLVMContext::MD_invariant_load,
                 MDNode::get(B.getContext(), {}));
  return L;
}

/// Where the slots of the work-item at linear id Lin are, in a group of N.
struct ScratchAddress {
  Value *Scratch, *N, *Lin;
  Value *at(IRBuilder<> &B, Slot S) const {
    Value *Off =
        B.CreateAdd(B.CreateMul(N, B.getInt64(S.Offset), "", true),
                    B.CreateMul(Lin, B.getInt64(S.Size), "", true), "", true);
    return B.CreateInBoundsGEP(B.getInt8Ty(), Scratch, Off);
  }
};

/// A uniform value's group-wide slot written at sync point Id, copied to
/// the one the region after it reads (Crossing::NextSlots).
struct SlotCopy {
  unsigned Id;
  uint64_t From, To, Bytes;
};

/// `void <K>.collective(ctx, i32 region, ptr scratch, i64 n, ptr states)`,
/// called before the driver runs \p region: computes the collective of the
/// sync point that ends at it, if it is one (\p states: null, or the state
/// slots when work-items diverged), and makes the uniform values the
/// work-items saved there the ones the region reads (\p Copies).
Function *emitCollectiveStep(Module &M, const std::string &Name,
                             ArrayRef<SyncPoint> Syncs,
                             ArrayRef<SlotCopy> Copies) {
  LLVMContext &C = M.getContext();
  Type *I64 = Type::getInt64Ty(C), *I32 = Type::getInt32Ty(C);
  PointerType *Ptr = PointerType::getUnqual(C);
  auto *F = Function::Create(
      FunctionType::get(Type::getVoidTy(C), {Ptr, I32, Ptr, I64, Ptr}, false),
      GlobalValue::InternalLinkage, Name + ".collective", M);
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
  for (const SyncPoint &S : Syncs) {
    bool Collective = S.What.Kind == SyncCall::Collective;
    auto Own = make_filter_range(
        Copies, [&](const SlotCopy &Cp) { return Cp.Id == S.Id; });
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
      RB.CreateCall(FT, ctxWord(RB, Ctx, WGroupCollective, Ptr),
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
      Runtime(CB, CB.getInt64(0), N, States);
    }
    CB.CreateBr(Done);
  }
  return F;
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

/// `void <K>.collective.sg(ctx, i32 region, ptr scratch, i64 n, i64
/// first)`: what <K>.collective does before \p region when it follows one
/// of the sub-group sync points \p Ids, for the one full sub-group whose
/// first linear local id is \p first only (every work-item of it stopped
/// there: the regions before have uniform exits). Inlined with a constant
/// region after the vectorizer (compiler/SubGroupStepInline.cpp): the
/// sub-group's slots as one vector, the operation across its lanes, one
/// store.
Function *emitSubGroupStep(Module &M, const std::string &Name,
                           ArrayRef<SyncPoint> Syncs, ArrayRef<unsigned> Ids,
                           ArrayRef<SlotCopy> Copies,
                           function_ref<void(Instruction *, uint64_t)> Tag) {
  LLVMContext &C = M.getContext();
  Type *I64 = Type::getInt64Ty(C), *I32 = Type::getInt32Ty(C);
  PointerType *Ptr = PointerType::getUnqual(C);
  auto *F = Function::Create(
      FunctionType::get(Type::getVoidTy(C), {Ptr, I32, Ptr, I64, I64}, false),
      GlobalValue::InternalLinkage, Name + ".collective.sg", M);
  F->addFnAttr(Attribute::NoUnwind);
  // Inlined after the vectorizer (compiler/SubGroupStepInline.cpp).
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(LateInlineAttr);
  Value *Region = F->getArg(1), *Scratch = F->getArg(2), *N = F->getArg(3),
        *First = F->getArg(4);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  ReturnInst::Create(C, Done);
  IRBuilder<> B(Entry);
  SwitchInst *Sw = B.CreateSwitch(Region, Done);
  for (const SyncPoint &S : Syncs) {
    if (!is_contained(Ids, S.Id))
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
    for (const SlotCopy &Cp : Copies)
      if (Cp.Id == S.Id)
        SB.CreateMemCpy(At(Cp.To), Align(1), At(Cp.From), Align(1), Cp.Bytes);
    uint32_t Op = S.What.Op;
    if (S.What.Kind == SyncCall::Collective &&
        (Op % CollSubGroup) / 16 != CollReconverge) {
      // The addresses the regions' own slot accesses use (so that, inlined
      // next to them, they are the same values and GVN forwards the
      // region's stores: compiler/SubGroupStepInline.cpp).
      ScratchAddress SA{Scratch, N, First};
      Value *Values = SA.at(SB, {ValueOffset, 8});
      Value *Args = SA.at(SB, {IndexOffset, 8});
      emitInlineSubGroupOp(SB, Op, Values, Args,
                           SB.getInt64(hostSubGroupSize()),
                           /*States=*/nullptr, Region);
      // Each access gets the alias tag of the slot it reads or writes (its
      // address is an offset from Values or Args).
      for (Instruction &I : instructions(*F)) {
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
          Tag(&I, P == Values ? ValueOffset : IndexOffset);
      }
    }
    SB.CreateBr(Done);
  }
  // (The copies' memcpys stay untagged: they may alias anything.)
  return F;
}

} // namespace

bool emitBarrierRegions(Module &M, Function &Kernel, Function &Body,
                        KernelInfo &K, std::string &Why) {
  LLVMContext &C = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  Type *I64 = Type::getInt64Ty(C), *I32 = Type::getInt32Ty(C);
  PointerType *Ptr = PointerType::getUnqual(C);

  for (Instruction &I : instructions(Body))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (auto S = classifySyncCall(*CI); S && !S->Scalar) {
        Why = "a collective of a vector or half operand (" +
              CI->getCalledFunction()->getName().str() + ")";
        return false;
      }

  // Private variables to SSA values first: what is live across a sync point
  // is then mostly registers, and what stays in memory is a real array.
  promotePrivates(Body);

  // <K>.regions: Body with the region to start and where to store the
  // state as last parameters, returning the sync point it stopped at (0:
  // finished). `one_state` is true in the driver's loops over regions whose
  // exit is uniform: the driver reads only the first work-item's state
  // there, so every work-item stores it in that one slot (one scalar store
  // per vector iteration) instead of its own.
  SmallVector<Type *, 16> Params(Body.getFunctionType()->params());
  Params.push_back(I32);
  Params.push_back(Type::getInt1Ty(C));
  SmallVector<ReturnInst *, 4> Exits;
  Function *R =
      Function::Create(FunctionType::get(I32, Params, false),
                       GlobalValue::InternalLinkage, K.Name + ".regions", M);
  {
    ValueToValueMapTy VMap;
    for (unsigned I = 0; I < Body.arg_size(); ++I)
      VMap[Body.getArg(I)] = R->getArg(I);
    SmallVector<ReturnInst *, 4> Returns;
    CloneFunctionInto(R, &Body, VMap, CloneFunctionChangeType::LocalChangesOnly,
                      Returns);
    for (ReturnInst *Ret : Returns) {
      Exits.push_back(ReturnInst::Create(C, ConstantInt::get(I32, 0), Ret));
      Ret->eraseFromParent();
    }
  }
  R->removeFnAttr(Attribute::AlwaysInline);
  R->removeFnAttr(Attribute::NoInline);
  unsigned NA = R->arg_size();
  Value *Ctx = R->getArg(NA - 6), *Region = R->getArg(NA - 2),
        *OneState = R->getArg(NA - 1);
  R->getArg(NA - 2)->setName("region");
  OneState->setName("one_state");
  Value *Lid[3] = {R->getArg(NA - 5), R->getArg(NA - 4), R->getArg(NA - 3)};
  // Grid-stride loops: one region per iteration (LoopSyncPoints.cpp).
  unsigned LoopSyncs = 0;
  {
    DenseSet<const Value *> Same = uniformValues(*R, Lid);
    for (Argument &A : R->args())
      if (!is_contained(Lid, &A))
        Same.insert(&A); // kernel arguments, the context
    LoopSyncs = insertLoopSyncPoints(*R, Same);
  }

  // Lifetime markers only help the optimizer; across regions they would
  // mark restored variables dead.
  SmallVector<SyncPoint, 8> Syncs;
  for (Instruction &I : make_early_inc_range(instructions(*R))) {
    if (auto *II = dyn_cast<IntrinsicInst>(&I);
        II && II->isLifetimeStartOrEnd()) {
      II->eraseFromParent();
      continue;
    }
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (auto S = classifySyncCall(*CI)) {
        SyncPoint P;
        P.Call = CI;
        P.What = *S;
        Syncs.push_back(std::move(P));
      }
  }
  // Loop sync points take the lowest numbers: when work-items wait at
  // different sync points, the driver runs the lowest first, so the ones
  // still in a loop catch up before anyone passes a real barrier.
  std::stable_partition(Syncs.begin(), Syncs.end(), [](const SyncPoint &S) {
    return isLoopSyncPoint(*S.Call);
  });
  for (unsigned SI = 0; SI < Syncs.size(); ++SI)
    Syncs[SI].Id = SI + 1;
  if (Syncs.empty()) {
    R->eraseFromParent();
    Why = "no barrier, collective or grid-stride loop";
    return false;
  }
  BasicBlock *OldEntry = &R->getEntryBlock();
  SmallVector<AllocaInst *, 16> Allocas;
  for (Instruction &I : instructions(*R))
    if (auto *A = dyn_cast<AllocaInst>(&I)) {
      if (!A->isStaticAlloca() || A->getParent() != OldEntry) {
        R->eraseFromParent();
        Why = "a private allocation of dynamic size";
        return false;
      }
      Allocas.push_back(A);
    }
  // Each sync point alone in its block.
  for (SyncPoint &S : Syncs) {
    S.Block = SplitBlock(S.Call->getParent(), S.Call);
    S.Post = SplitBlock(S.Block, S.Call->getNextNode());
  }
  for (SyncPoint &S : Syncs) {
    S.After = reachable(S.Post, /*Forward=*/true);
    S.Before = reachable(S.Block, /*Forward=*/false);
  }
  // Kernels with non-uniform sub-group functions: which sync points can
  // reach which, for the order the driver releases them in when work-items
  // wait at different ones (emitRegionDriver).
  SmallVector<uint64_t, 16> ReachedBy;
  if (Syncs.size() < 64 && any_of(Syncs, [](const SyncPoint &S) {
        return S.What.Kind == SyncCall::Collective &&
               (S.What.Op & CollNonUniform);
      })) {
    ReachedBy.assign(Syncs.size() + 1, 0);
    SmallVector<const BasicBlock *, 16> Blocks;
    for (const SyncPoint &S : Syncs)
      Blocks.push_back(S.Block);
    // Not through the back edge of a loop around the later sync point
    // (compiler/Reconvergence.cpp).
    SmallVector<uint64_t, 8> After = siteReach(Blocks);
    for (unsigned T = 0; T < Syncs.size(); ++T)
      for (unsigned F = 0; F < Syncs.size(); ++F)
        if (F != T && (After[F] >> T & 1))
          ReachedBy[Syncs[T].Id] |= uint64_t(1) << Syncs[F].Id;
  }
  SmallPtrSet<const BasicBlock *, 8> SyncBlocks;
  for (SyncPoint &S : Syncs)
    SyncBlocks.insert(S.Block);
  for (SyncPoint &S : Syncs)
    S.SelfLoop = regionReturnsTo(S.Post, S.Block, SyncBlocks);

  // SSA values live across sync points, and at which.
  struct Crossing {
    Instruction *V = nullptr;
    SmallVector<unsigned, 4> At; // indices into Syncs
    Slot Where;
    bool Remat = false; // computed again after the sync point, not kept
    /// Uniform: one slot for the whole group per sync point in At (where
    /// it is saved), not one per work-item. Per sync point, because a
    /// region reads the slot of the sync point it starts after while its
    /// work-items, one after another, write the one it ends at. At a sync
    /// point a region both starts after and ends at (a loop with a single
    /// barrier), the work-items write a second slot, which the collective
    /// step copies to the first before the region runs again: otherwise the
    /// later work-items would read what the earlier ones stored for the
    /// next iteration.
    bool Uniform = false;
    SmallVector<Slot, 2> UniformSlots, NextSlots; // parallel to At
    Slot at(unsigned SI) const {
      if (!Uniform)
        return Where;
      return UniformSlots[find(At, SI) - At.begin()];
    }
    Slot storedAt(unsigned SI) const {
      if (!Uniform)
        return Where;
      return NextSlots[find(At, SI) - At.begin()];
    }
  };
  DenseSet<const Value *> Uniform = uniformValues(*R, Lid);
  SmallVector<Crossing, 16> Values;
  for (BasicBlock &BB : *R) {
    for (Instruction &I : BB) {
      if (isa<AllocaInst>(I) || I.getType()->isVoidTy())
        continue;
      bool UsedElsewhere = false;
      for (const User *U : I.users())
        UsedElsewhere |=
            isa<PHINode>(U) || cast<Instruction>(U)->getParent() != &BB;
      if (!UsedElsewhere)
        continue;
      // A collective's result (its call, alone in a sync block) is defined
      // after its own sync point but may live across later ones.
      bool Result = SyncBlocks.count(&BB) != 0;
      Crossing X;
      X.V = &I;
      for (unsigned S = 0; S < Syncs.size(); ++S)
        if (!(Result && Syncs[S].Block == &BB) && Syncs[S].Before.count(&BB) &&
            liveAt(I, Syncs[S].Post))
          X.At.push_back(S);
      unsigned Budget = 24;
      X.Remat = !Result && rematerializable(&I, Budget);
      X.Uniform = Uniform.count(&I) != 0;
      if (!X.At.empty())
        Values.push_back(std::move(X));
    }
  }

  // Private variables: in their slot for good (the address escapes or is
  // live across a sync point), copied to it and back at the sync points
  // they are live across, or left alone.
  SmallPtrSet<AllocaInst *, 8> Resident;
  for (Crossing &X : Values) {
    if (!X.V->getType()->isPtrOrPtrVectorTy())
      continue;
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(X.V, Objects);
    for (const Value *O : Objects)
      if (auto *A = dyn_cast<AllocaInst>(O))
        Resident.insert(const_cast<AllocaInst *>(A));
  }
  struct Copied {
    AllocaInst *A;
    SmallVector<unsigned, 4> At;
    Slot Where;
  };
  SmallVector<Copied, 8> CopiedAllocas;
  SmallVector<std::pair<AllocaInst *, Slot>, 8> ResidentAllocas;
  for (AllocaInst *A : Allocas) {
    SmallPtrSet<Instruction *, 16> Derived;
    if (escapes(*A, Derived))
      Resident.insert(A);
    if (Resident.count(A))
      continue;
    SmallPtrSet<const BasicBlock *, 8> Blocks;
    for (Instruction *D : Derived)
      for (User *U : D->users())
        Blocks.insert(cast<Instruction>(U)->getParent());
    Copied Cp{A, {}, {}};
    for (unsigned S = 0; S < Syncs.size(); ++S) {
      bool Before = false, After = false;
      for (const BasicBlock *BB : Blocks) {
        Before |= Syncs[S].Before.count(BB) != 0;
        After |= Syncs[S].After.count(BB) != 0;
      }
      if (Before && After)
        Cp.At.push_back(S);
    }
    if (!Cp.At.empty())
      CopiedAllocas.push_back(std::move(Cp));
  }

  // The layout.
  uint64_t End = FixedBytes;
  auto Place = [&](uint64_t Size, uint64_t Al) {
    Slot S;
    S.Size = alignTo(std::max<uint64_t>(Size, 1), Al);
    End = alignTo(End, Al);
    S.Offset = End;
    End += S.Size;
    return S;
  };
  auto AllocaBytes = [&](AllocaInst *A) {
    return A->getAllocationSize(DL)
        .value_or(TypeSize::getFixed(0))
        .getFixedValue();
  };
  unsigned Kept = 0, KeptUniform = 0;
  SmallVector<SlotCopy, 8> Copies;
  for (Crossing &X : Values)
    if (!X.Remat) {
      KeptUniform += X.Uniform;
      uint64_t Size = DL.getTypeAllocSize(X.V->getType()),
               Al = DL.getPrefTypeAlign(X.V->getType()).value();
      if (X.Uniform) {
        // Every work-item stores the same value at the same address (the
        // vectorizer keeps one scalar store, the loads are invariant).
        for (unsigned SI : X.At) {
          Slot S = Place(Size, Al);
          S.Size = 0;
          X.UniformSlots.push_back(S);
          if (Syncs[SI].SelfLoop) {
            Slot Next = Place(Size, Al);
            Next.Size = 0;
            X.NextSlots.push_back(Next);
            Copies.push_back({Syncs[SI].Id, Next.Offset, S.Offset, Size});
          } else {
            X.NextSlots.push_back(S);
          }
        }
      } else {
        X.Where = Place(Size, Al);
      }
      ++Kept;
    }
  for (Copied &Cp : CopiedAllocas)
    Cp.Where = Place(AllocaBytes(Cp.A), Cp.A->getAlign().value());
  for (AllocaInst *A : Allocas)
    if (Resident.count(A))
      ResidentAllocas.push_back(
          {A, Place(AllocaBytes(A),
                    std::max<uint64_t>(A->getAlign().value(), 16))});
  End = alignTo(End, 8);
  if (End > MaxRegionScratch) {
    R->eraseFromParent();
    Why = std::to_string(End) +
          " bytes of private state live across barriers per work-item";
    return false;
  }
  K.RegionScratch = End;

  // The new entry: allocas, the work-item's scratch address, and the jump to
  // the region's start.
  BasicBlock *Entry = BasicBlock::Create(C, "regions.entry", R, OldEntry);
  for (AllocaInst *A : Allocas)
    A->moveBefore(*Entry, Entry->end());
  IRBuilder<> B(Entry);
  Value *Size[3];
  for (unsigned D = 0; D < 3; ++D)
    Size[D] = K.ReqdWorkGroupSize[D] == 1 // as loadLocalSize
                  ? B.getInt64(1)
                  : ctxWord(B, Ctx, WLocalSize + D, I64);
  ScratchAddress SA;
  SA.Scratch = ctxWord(B, Ctx, WScratch, Ptr);
  SA.N = B.CreateMul(B.CreateMul(Size[0], Size[1]), Size[2]);
  SA.Lin = B.CreateAdd(
      B.CreateMul(B.CreateAdd(B.CreateMul(Lid[2], Size[1]), Lid[1]), Size[0]),
      Lid[0]);
  Value *StateAt = B.CreateSelect(OneState, SA.at(B, {StateOffset, 0}),
                                  SA.at(B, {StateOffset, 4}), "state.at");
  for (auto [A, S] : ResidentAllocas) {
    Value *P = SA.at(B, S);
    A->replaceAllUsesWith(P);
    A->eraseFromParent();
  }

  // The slots' own accesses never alias the kernel's: they get an alias
  // scope of their own, every other memory access of the kernel is marked
  // outside it (so the vectorizer needs no run-time overlap checks between
  // the scratch and the buffers). Private variables kept in the scratch are
  // accessed by the kernel's own code, in slots no saved value uses.
  MDBuilder MDB(C);
  MDNode *Domain = MDB.createAnonymousAliasScopeDomain("clcpu.scratch");
  MDNode *Scope = MDB.createAnonymousAliasScope(Domain, "slots");
  MDNode *ScopeList = MDNode::get(C, {Scope});
  for (Instruction &I : instructions(*R))
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
  MDNode *PerItem = MDB.createAnonymousAliasScope(SlotDomain, "per-item");
  DenseMap<uint64_t, MDNode *> GroupScopes; // by slot offset
  for (Crossing &X : Values)
    for (Slot &S : concat<Slot>(X.UniformSlots, X.NextSlots))
      if (!GroupScopes.count(S.Offset))
        GroupScopes[S.Offset] = MDB.createAnonymousAliasScope(
            SlotDomain, X.V->getName().str() + ".group");
  // The state slot (one per work-item, or the one group-wide slot the
  // driver reads when the region's exit is uniform) has a scope of its own:
  // the state store is then the only access to its address in a work-item
  // loop, and LICM sinks it out of the loop (one store per region instead of
  // one per vector iteration).
  MDNode *StateScope = MDB.createAnonymousAliasScope(SlotDomain, "state");
  SmallVector<Metadata *, 8> AllSlotScopes = {PerItem, StateScope};
  for (auto &[Offset, G] : GroupScopes)
    AllSlotScopes.push_back(G);
  // And every slot a type-based alias tag of its own (the slots never
  // overlap): unlike scopes, which the inliner clones per inlined call, tags
  // still tell apart the slots of two regions inlined one after the other
  // (and the sub-group step between them: SubGroupStepInline.cpp).
  MDNode *SlotRoot = MDB.createTBAARoot("clcpu scratch slots");
  DenseMap<uint64_t, MDNode *> SlotTags; // by slot offset
  auto SlotTag = [&](uint64_t Offset) {
    MDNode *&Tag = SlotTags[Offset];
    if (!Tag) {
      MDNode *Ty = MDB.createTBAAScalarTypeNode(
          "slot " + std::to_string(Offset), SlotRoot);
      Tag = MDB.createTBAAStructTagNode(Ty, Ty, 0);
    }
    return Tag;
  };
  auto Scoped = [&](Instruction *I, Slot S, MDNode *OwnScope = nullptr) {
    I->setMetadata(LLVMContext::MD_tbaa,
                   SlotTag(OwnScope == StateScope ? StateOffset : S.Offset));
    MDNode *Own = OwnScope ? OwnScope
                  : S.Size ? PerItem
                           : GroupScopes.lookup(S.Offset);
    I->setMetadata(LLVMContext::MD_alias_scope, MDNode::get(C, {Scope, Own}));
    SmallVector<Metadata *, 8> Others;
    for (Metadata *M : AllSlotScopes)
      if (M != Own)
        Others.push_back(M);
    I->setMetadata(LLVMContext::MD_noalias, MDNode::get(C, Others));
    return I;
  };

  // Each sync point: store what the group needs, save what lives across,
  // return its number; a new block restores and continues after it.
  SmallVector<SmallVector<std::pair<unsigned, Instruction *>, 4>, 16> Restored(
      Values.size());
  SmallVector<BasicBlock *, 8> Resume;
  SmallVector<std::pair<unsigned, StoreInst *>, 16> Saves; // per-item slots
  unsigned Collectives = 0, Meetings = 0, Inline = 0;
  for (unsigned SI = 0; SI < Syncs.size(); ++SI) {
    SyncPoint &S = Syncs[SI];
    CallInst *CI = S.Call;
    IRBuilder<> SB(CI);
    if (S.What.Kind == SyncCall::Collective) {
      bool Meeting = (S.What.Op % CollSubGroup) / 16 == CollReconverge;
      ++(Meeting ? Meetings : Collectives);
      Inline += !Meeting && inlineSubGroupOp(S.What.Op);
      // (sub_group_elect() has no operand.)
      Scoped(SB.CreateStore(CI->arg_size()
                                ? collectiveToBits(SB, CI->getArgOperand(0))
                                : SB.getInt64(0),
                            SA.at(SB, {ValueOffset, 8})),
             {ValueOffset, 8});
      uint32_t Kind = (S.What.Op % CollSubGroup) / 16;
      Value *Index = nullptr;
      auto Arg = [&](unsigned I) -> Value * {
        return I < CI->arg_size()
                   ? SB.CreateZExtOrTrunc(CI->getArgOperand(I), I64)
                   : SB.getInt64(0);
      };
      if (Kind == CollBroadcast && !(S.What.Op & CollSubGroup))
        // work_group_broadcast(v, x[, y[, z]]): the source's linear id.
        Index = SB.CreateAdd(
            Arg(1),
            SB.CreateMul(Size[0],
                         SB.CreateAdd(Arg(2), SB.CreateMul(Size[1], Arg(3)))));
      else if (Kind == CollBroadcast || Kind == CollRotate ||
               (Kind >= CollShuffle && Kind <= CollShuffleDown) ||
               (S.What.Op & CollClustered))
        Index = Arg(1); // the source, shuffle operand or cluster size
      if (Index)
        Scoped(SB.CreateStore(Index, SA.at(SB, {IndexOffset, 8})),
               {IndexOffset, 8});
    }
    for (unsigned VI = 0; VI < Values.size(); ++VI)
      if (!Values[VI].Remat && is_contained(Values[VI].At, SI)) {
        Instruction *St = Scoped(
            SB.CreateStore(Values[VI].V, SA.at(SB, Values[VI].storedAt(SI))),
            Values[VI].storedAt(SI));
        if (!Values[VI].Uniform)
          Saves.push_back({VI, cast<StoreInst>(St)});
      }
    // The alloca's own size, not its slot's (rounded up to the alignment):
    // copying the slot's size read past a [5 x i32] alloca, and on resume
    // wrote 12 bytes of the slot's padding over the stack next to it.
    for (Copied &Cp : CopiedAllocas)
      if (is_contained(Cp.At, SI))
        SB.CreateMemCpy(SA.at(SB, Cp.Where), Cp.A->getAlign(), Cp.A,
                        Cp.A->getAlign(), AllocaBytes(Cp.A));
    S.Block->getTerminator()->eraseFromParent();
    Scoped(SB.CreateStore(SB.getInt32(S.Id), StateAt), {}, StateScope);
    ReturnInst::Create(C, ConstantInt::get(I32, S.Id), S.Block);

    BasicBlock *Res = BasicBlock::Create(C, "resume", R, S.Post);
    IRBuilder<> RB(Res);
    for (Copied &Cp : CopiedAllocas)
      if (is_contained(Cp.At, SI))
        RB.CreateMemCpy(Cp.A, Cp.A->getAlign(), SA.at(RB, Cp.Where),
                        Cp.A->getAlign(), AllocaBytes(Cp.A));
    DenseMap<Value *, Value *> Copies;
    for (unsigned VI = 0; VI < Values.size(); ++VI) {
      if (!is_contained(Values[VI].At, SI))
        continue;
      Value *V = Values[VI].Remat
                     ? rematerialize(RB, Values[VI].V, Copies)
                     : Scoped(RB.CreateLoad(Values[VI].V->getType(),
                                            SA.at(RB, Values[VI].at(SI))),
                              Values[VI].at(SI));
      Restored[VI].push_back({SI, cast<Instruction>(V)});
    }
    if (S.What.Kind == SyncCall::Collective) {
      Value *Result = collectiveFromBits(
          RB,
          Scoped(RB.CreateLoad(I64, SA.at(RB, {ValueOffset, 8})),
                 {ValueOffset, 8}),
          CI->getType());
      CI->replaceAllUsesWith(Result);
      for (Crossing &X : Values)
        if (X.V == CI)
          X.V = cast<Instruction>(Result);
    }
    RB.CreateBr(S.Post);
    CI->eraseFromParent();
    Resume.push_back(Res);
  }
  // A finished work-item's state is 0.
  for (ReturnInst *Ret : Exits) {
    IRBuilder<> EB(Ret);
    Scoped(EB.CreateStore(EB.getInt32(0), StateAt), {}, StateScope);
  }
  SwitchInst *Sw = B.CreateSwitch(Region, OldEntry, Syncs.size());
  for (unsigned SI = 0; SI < Syncs.size(); ++SI)
    Sw->addCase(B.getInt32(Syncs[SI].Id), Resume[SI]);

  // Every use of a value live across a sync point sees the definition or
  // the reload that reaches it.
  for (unsigned VI = 0; VI < Values.size(); ++VI) {
    Instruction *V = Values[VI].V;
    SSAUpdater SSA;
    SSA.Initialize(V->getType(), V->getName());
    SSA.AddAvailableValue(V->getParent(), V);
    for (auto [SI, L] : Restored[VI])
      SSA.AddAvailableValue(L->getParent(), L);
    for (Use &U : make_early_inc_range(V->uses())) {
      auto *User = cast<Instruction>(U.getUser());
      if (!isa<PHINode>(User) && User->getParent() == V->getParent())
        continue; // after the definition in its own block
      SSA.RewriteUse(U);
    }
  }
  // A work-item's slot of a value still holds it when the value was only
  // reloaded from there since (it lives across two sync points without
  // changing): no store. Only the value's own stores, each at a sync point
  // (the end of a region), write that slot, so none comes between the
  // region's reload and its next sync point. Without this, a region with an
  // atomic (which LLVM does not move stores across) kept one store per value
  // and work-item.
  for (auto [VI, St] : Saves) {
    SmallPtrSet<const Value *, 8> Reloads, Seen;
    for (auto [SI, L] : Restored[VI])
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

  // The driver.
  SmallVector<std::pair<BasicBlock *, unsigned>, 8> Starts = {{OldEntry, 0}};
  for (unsigned SI = 0; SI < Syncs.size(); ++SI)
    Starts.push_back({Resume[SI], Syncs[SI].Id});
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 8> Backedges;
  FindFunctionBackedges(*R, Backedges);
  SmallVector<RegionShape, 8> Shapes;
  for (auto [Start, Id] : Starts) {
    DenseSet<const BasicBlock *> In = reachable(Start, /*Forward=*/true);
    RegionShape Sh;
    for (auto [From, To] : Backedges)
      Sh.HasLoops |= In.count(From) != 0;
    Sh.UniformExit = exitIsUniform(Start, Uniform, Lid);
    Shapes.push_back(Sh);
  }
  // Sub-group stretches: the sub-group sync points whose next region can
  // run per sub-group, and the regions that can and start after one or can
  // stop at one (Shapes[Id]: the region starting after sync point Id; each
  // sync block now returns, so a forward walk stays in its region). A region
  // can when its exit is uniform and it has no atomic, fence or call: a
  // locked instruction waits for every store before it to reach the cache,
  // which per sub-group means after each sub-group's few vector stores (the
  // ballot compaction of bench/ on one thread: 14-20 -> 21-22 ms), and such
  // a region does not vectorize anyway.
  SmallVector<bool, 8> PerSubGroup;
  for (auto [Start, Id] : Starts) {
    bool Ok = Shapes[Id].UniformExit;
    for (const BasicBlock *BB : reachable(Start, /*Forward=*/true))
      for (const Instruction &I : *BB)
        Ok &= !I.isAtomic() && !isa<FenceInst>(I) &&
              (!isa<CallBase>(I) || isa<IntrinsicInst>(I));
    PerSubGroup.push_back(Ok);
  }
  SmallVector<unsigned, 8> SubGroupSyncs;
  for (const SyncPoint &S : Syncs)
    if (subGroupLocal(S) && PerSubGroup[S.Id])
      SubGroupSyncs.push_back(S.Id);
  unsigned Stretched = 0;
  for (auto [Start, Id] : Starts) {
    RegionShape &Sh = Shapes[Id];
    if (!PerSubGroup[Id])
      continue;
    DenseSet<const BasicBlock *> In = reachable(Start, /*Forward=*/true);
    unsigned Ends = count_if(Exits, [&](const ReturnInst *Ret) {
      return In.count(Ret->getParent()) != 0;
    });
    for (const SyncPoint &S : Syncs)
      if (In.count(S.Block)) {
        Sh.OnlyEnd = Ends ? -1 : int(S.Id);
        ++Ends;
      }
    if (Ends != 1)
      Sh.OnlyEnd = -1;
    Sh.SubGroupStretchStart = any_of(Syncs, [&](const SyncPoint &S) {
      return is_contained(SubGroupSyncs, S.Id) && In.count(S.Block);
    });
    Sh.SubGroupStretch =
        Sh.SubGroupStretchStart || is_contained(SubGroupSyncs, Id);
    Stretched += Sh.SubGroupStretchStart;
  }
  Function *Step = emitCollectiveStep(M, K.Name, Syncs, Copies);
  Function *SubGroupStep =
      Stretched ? emitSubGroupStep(M, K.Name, Syncs, SubGroupSyncs, Copies,
                                   [&](Instruction *I, uint64_t Offset) {
                                     Scoped(I, {Offset, 8});
                                   })
                : nullptr;
  emitRegionDriver(M, Kernel, *R, *Step, SubGroupStep, SubGroupSyncs, Shapes,
                   ReachedBy, K);

  unsigned Barriers =
      static_cast<unsigned>(Syncs.size()) - Collectives - Meetings - LoopSyncs;
  K.Path = "barrier regions: " + std::to_string(Syncs.size() + 1) +
           " regions (" + std::to_string(Barriers) + " barrier" +
           (Barriers == 1 ? "" : "s") + ", " + std::to_string(Collectives) +
           " collective" + (Collectives == 1 ? "" : "s") +
           (Inline ? ", " + std::to_string(Inline) + " of them inline"
                   : std::string()) +
           (LoopSyncs ? ", " + std::to_string(LoopSyncs) + " grid-stride loop" +
                            (LoopSyncs == 1 ? "" : "s")
                      : std::string()) +
           (Meetings ? ", " + std::to_string(Meetings) +
                           " reconvergence point" + (Meetings == 1 ? "" : "s")
                     : std::string()) +
           "), " + std::to_string(Kept) + " values (" +
           std::to_string(KeptUniform) + " uniform) and " +
           std::to_string(CopiedAllocas.size() + ResidentAllocas.size()) +
           " private arrays across them, " + std::to_string(End) +
           " bytes of scratch per work-item, " +
           std::to_string(count_if(
               Shapes, [](const RegionShape &S) { return S.UniformExit; })) +
           " regions with uniform exits" +
           (Stretched ? ", " + std::to_string(Stretched) +
                            " starting a run per sub-group when the x size "
                            "allows"
                      : std::string());
  return true;
}

} // namespace clcpu::compiler
