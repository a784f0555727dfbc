//===- compiler/regions/RegionDriver.cpp - running the regions ------------===//
//
// `wg_<K>` runs, for region r, one loop over the group's work-items calling
// `<K>.regions(..., r)`: with r a constant in each loop, the inliner keeps
// only the region's code, and that loop vectorizes across work-items
// exactly like a barrier-free kernel's. Between two loops every work-item
// has reached the sync point, and the collective step computes it.
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
// compiler/passes/Reconvergence.cpp). A region whose exit is uniform needs no
// check: the first work-item's state is everyone's.
//
// A stretch of regions joined by sub-group sync points runs one sub-group
// at a time when the x size allows (emitSubGroupStretch).

#include "compiler/regions/RegionDriver.h"
#include "compiler/Binary.h"
#include "compiler/WorkItemLoops.h"
#include "compiler/regions/RegionPlan.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include <string>
#include <utility>

using namespace llvm;

namespace clcpu::compiler::regions {

namespace {

/// The sync point the divergent loop of a kernel with non-uniform
/// sub-group functions runs next, from the \p N state slots at \p
/// Scratch: one that no work-item waiting at another can still reach
/// (bit t of \p ReachedBy[s]: sync point t can reach s), the lowest such;
/// the lowest if each can be reached from another (both sides of an if in
/// a loop). So the work-items of both sides of a divergent branch meet at
/// their own call, a call after the branch waits until both sides arrived,
/// and one after a loop until the loop's last round: the rule the fibers
/// follow (scheduler/Fiber.cpp, releaseNonUniform). Branches to \p Exit if
/// every work-item finished, else to \p Run with the choice.
Value *pickSyncPoint(IRBuilder<> &B, Value *Scratch, Value *N,
                     ArrayRef<uint64_t> ReachedBy, const std::string &Name,
                     BasicBlock *Exit, BasicBlock *Run) {
  LLVMContext &C = B.getContext();
  Function *WG = B.GetInsertBlock()->getParent();
  Module &M = *WG->getParent();
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  auto *TableTy = ArrayType::get(I64, ReachedBy.size());
  auto *Table = new GlobalVariable(
      M, TableTy, /*isConstant=*/true, GlobalValue::PrivateLinkage,
      ConstantDataArray::get(C, ReachedBy), Name + ".sync.reach");
  // The set of sync points some work-item waits at (ids < 64).
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Loop = BasicBlock::Create(C, "waiting", WG);
  BasicBlock *Done = BasicBlock::Create(C, "waiting.done", WG);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(I64, 2);
  PHINode *Mask = B.CreatePHI(I64, 2);
  I->addIncoming(B.getInt64(0), Pre);
  Mask->addIncoming(B.getInt64(0), Pre);
  Value *S = B.CreateZExt(
      B.CreateLoad(I32, B.CreateInBoundsGEP(I32, Scratch, I)), I64);
  Value *Mask2 = B.CreateOr(Mask, B.CreateShl(B.getInt64(1), S));
  Value *IN = B.CreateAdd(I, B.getInt64(1), "", true, true);
  I->addIncoming(IN, Loop);
  Mask->addIncoming(Mask2, Loop);
  B.CreateCondBr(B.CreateICmpULT(IN, N), Loop, Done);
  // Bit 0: finished work-items, which never run again.
  B.SetInsertPoint(Done);
  Value *Waiting = B.CreateAnd(Mask2, B.getInt64(~uint64_t(1)), "waiting");
  BasicBlock *Pick = BasicBlock::Create(C, "pick", WG);
  BasicBlock *PickNext = BasicBlock::Create(C, "pick.next", WG);
  BasicBlock *Fallback = BasicBlock::Create(C, "pick.lowest", WG);
  BasicBlock *Found = BasicBlock::Create(C, "pick.found", WG);
  B.CreateCondBr(B.CreateICmpEQ(Waiting, B.getInt64(0)), Exit, Pick);
  B.SetInsertPoint(Pick);
  PHINode *Left = B.CreatePHI(I64, 2, "candidates");
  Left->addIncoming(Waiting, Done);
  Value *Id = B.CreateBinaryIntrinsic(Intrinsic::cttz, Left, B.getTrue());
  Value *From = B.CreateLoad(
      I64, B.CreateInBoundsGEP(TableTy, Table, {B.getInt64(0), Id}));
  Value *Others =
      B.CreateAnd(Waiting, B.CreateNot(B.CreateShl(B.getInt64(1), Id)));
  B.CreateCondBr(B.CreateICmpEQ(B.CreateAnd(Others, From), B.getInt64(0)),
                 Found, PickNext);
  B.SetInsertPoint(PickNext);
  Value *Rest = B.CreateAnd(Left, B.CreateSub(Left, B.getInt64(1)));
  Left->addIncoming(Rest, PickNext);
  B.CreateCondBr(B.CreateICmpEQ(Rest, B.getInt64(0)), Fallback, Pick);
  B.SetInsertPoint(Fallback);
  Value *LowestId =
      B.CreateBinaryIntrinsic(Intrinsic::cttz, Waiting, B.getTrue());
  B.CreateBr(Found);
  B.SetInsertPoint(Found);
  PHINode *Chosen = B.CreatePHI(I64, 2, "chosen");
  Chosen->addIncoming(Id, Pick);
  Chosen->addIncoming(LowestId, Fallback);
  Value *Result = B.CreateTrunc(Chosen, I32);
  B.CreateBr(Run);
  return Result;
}

/// A stretch of regions joined by sub-group sync points, run sub-group by
/// sub-group (#8: sub-group functions as operations across the lanes of
/// the sub-group's vector): for each sub-group (an x-run of \p S work-items,
/// the x size a multiple of S), the region \p Start as a loop over its S
/// work-items (\p Run emits one work-item's call and returns the state
/// the region stored, one for all: its exit is uniform); if that state is a
/// sub-group sync point of \p Syncs, \p Step computes it for this sub-group
/// and the region after it runs, and so on until a work-group sync point
/// (or the end), where the next sub-group starts. Sub-groups need not run
/// together between work-group sync points, and a region with a uniform
/// exit stops every sub-group at the same one. Leaves \p B after the
/// loops; returns the state there and its block.
std::pair<Value *, BasicBlock *> emitSubGroupStretch(
    IRBuilder<> &B, Value *const Size[3], unsigned S, Value *Start,
    ArrayRef<RegionShape> Shapes, ArrayRef<unsigned> Syncs, unsigned Lanes,
    function_ref<Value *(IRBuilder<> &, Value *, Value *, Value *, unsigned)>
        Run,
    function_ref<void(IRBuilder<> &, unsigned, Value *)> Step) {
  LLVMContext &C = B.getContext();
  Function *WG = B.GetInsertBlock()->getParent();
  Type *I32 = B.getInt32Ty();
  // The sub-groups in linear order: z, y, then x-runs of S.
  BasicBlock *Next = BasicBlock::Create(C, "sg.region", WG);
  BasicBlock *Check = BasicBlock::Create(C, "sg.stopped", WG);
  BasicBlock *Done = BasicBlock::Create(C, "sg.done", WG);
  PHINode *Cur = nullptr, *State = nullptr;
  Value *ZV = nullptr, *YV = nullptr, *X0 = nullptr;
  Value *Stride[3] = {B.CreateUDiv(Size[0], B.getInt64(S)), Size[1], Size[2]};
  emitLocalIdLoops(B, Stride,
                   [&](IRBuilder<> &XB, Value *X, Value *Y, Value *Z) {
                     BasicBlock *Pre = XB.GetInsertBlock();
                     XB.CreateBr(Next);
                     XB.SetInsertPoint(Next);
                     Cur = XB.CreatePHI(I32, 2, "sg.at");
                     Cur->addIncoming(Start, Pre);
                     X0 = XB.CreateMul(X, XB.getInt64(S), "sg.x0", true, true);
                     YV = Y;
                     ZV = Z;
                     XB.SetInsertPoint(Done);
                   });
  // Next: one S-item loop per region of the stretch (every region the
  // stretch starts at or continues to is one).
  BasicBlock *None = BasicBlock::Create(C, "sg.none", WG);
  new UnreachableInst(C, None);
  IRBuilder<> NB(Next);
  Value *First = NB.CreateAdd(
      NB.CreateMul(NB.CreateAdd(NB.CreateMul(ZV, Size[1]), YV), Size[0]), X0,
      "sg.first");
  SwitchInst *Sw = NB.CreateSwitch(Cur, None);
  IRBuilder<> CB(Check);
  State = CB.CreatePHI(I32, Shapes.size(), "sg.state");
  SmallVector<BasicBlock *, 8> Blocks(Shapes.size(), nullptr);
  for (unsigned R = 0; R < Shapes.size(); ++R)
    if (Shapes[R].SubGroupStretch) {
      Blocks[R] = BasicBlock::Create(C, "sg.region." + Twine(R), WG, Check);
      Sw->addCase(NB.getInt32(R), Blocks[R]);
    }
  for (unsigned R = 0; R < Shapes.size(); ++R) {
    BasicBlock *BB = Blocks[R];
    if (!BB)
      continue;
    IRBuilder<> RB(BB);
    BasicBlock *Pre = BB;
    BasicBlock *Body = BasicBlock::Create(C, "sg.x", WG, Check);
    BasicBlock *Exit = BasicBlock::Create(C, "sg.x.done", WG, Check);
    RB.CreateBr(Body);
    RB.SetInsertPoint(Body);
    PHINode *X = RB.CreatePHI(B.getInt64Ty(), 2, "lx");
    X->addIncoming(X0, Pre);
    Value *St = Run(RB, X, YV, ZV, R);
    Value *XN = RB.CreateAdd(X, RB.getInt64(1), "lx.next", true, true);
    X->addIncoming(XN, RB.GetInsertBlock());
    BranchInst *Latch = RB.CreateCondBr(
        RB.CreateICmpULT(XN, RB.CreateAdd(X0, RB.getInt64(S), "", true, true)),
        Body, Exit);
    // Widened by one vector of S lanes, the sub-group (so its stores match
    // the step's loads), and not unrolled into S scalar copies first (the
    // full unroller runs before the vectorizer).
    markWorkItemLoop(*Latch, /*BodyHasLoops=*/true, Lanes, /*NoUnroll=*/true);
    RB.SetInsertPoint(Exit);
    int End = Shapes[R].OnlyEnd;
    if (End > 0 && is_contained(Syncs, unsigned(End))) {
      // It can only stop at that sub-group sync point: straight on to the
      // next region (a chain of such regions is straight-line code).
      Step(RB, End, First);
      RB.CreateBr(Blocks[End]);
      continue;
    }
    PHINode *Out = RB.CreatePHI(I32, 1);
    Out->addIncoming(St, Latch->getParent());
    RB.CreateBr(Check);
    State->addIncoming(Out, Exit);
  }
  // Stopped at a sub-group sync point: compute it for this sub-group and run
  // the region after it; anywhere else, this sub-group is done.
  SwitchInst *Stopped = CB.CreateSwitch(State, Done);
  for (unsigned Sync : Syncs) {
    BasicBlock *BB = BasicBlock::Create(C, "sg.step." + Twine(Sync), WG, Done);
    Stopped->addCase(CB.getInt32(Sync), BB);
    IRBuilder<> SB(BB);
    Step(SB, Sync, First);
    SB.CreateBr(Next);
    Cur->addIncoming(SB.getInt32(Sync), BB);
  }
  // (Done: the x-run loop's latch, where emitLocalIdLoops' body ended.)
  return {State, B.GetInsertBlock()};
}

/// The driver being emitted: its inputs, and the values and blocks of
/// `wg_<K>` that its parts (the region loops, the sub-group stretches, the
/// scan of the states, the divergent loop) share.
class Driver {
public:
  Driver(Function &Kernel, Function &Regions, Function &CollectiveStep,
         Function *SubGroupStep, ArrayRef<unsigned> SubGroupSyncs,
         ArrayRef<RegionShape> Shapes, ArrayRef<uint64_t> ReachedBy,
         const KernelInfo &K)
      : Kernel(Kernel), Regions(Regions), CollectiveStep(CollectiveStep),
        SubGroupStep(SubGroupStep), SubGroupSyncs(SubGroupSyncs),
        Shapes(Shapes), ReachedBy(ReachedBy), K(K), C(Kernel.getContext()),
        B(C) {}

  void emitEntry(Module &M);
  void emitRegionLoops();
  void emitStretch();
  void emitScan();
  void emitDivergent();

private:
  CallInst *regionCall(IRBuilder<> &LB, Value *X, Value *Y, Value *Z,
                       Value *Region, bool OneState);
  std::pair<Value *, Value *> minMaxState(bool SkipDone);

  Function &Kernel, &Regions, &CollectiveStep;
  Function *SubGroupStep;
  ArrayRef<unsigned> SubGroupSyncs;
  ArrayRef<RegionShape> Shapes;
  ArrayRef<uint64_t> ReachedBy;
  const KernelInfo &K;

  LLVMContext &C;
  IRBuilder<> B;
  SmallVector<Value *, 16> CallArgs;
  Function *WG = nullptr;
  Value *Ctx = nullptr, *N = nullptr, *Scratch = nullptr;
  Value *Size[3] = {};
  BasicBlock *Dispatch = nullptr, *Scan = nullptr, *Exit = nullptr,
             *Slow = nullptr, *Same = nullptr;
  PHINode *Reg = nullptr;
  SwitchInst *Sw = nullptr;
  unsigned Lanes = 0;
  // The width of the regions' x-loops (xLoopLanes): below Lanes where a
  // required work-group size fixes fewer work-items in x.
  unsigned XLanes = 0;
  bool XLanesCapped = false;
  /// The next region where every work-item stopped at the same sync point,
  /// and the block it is known in.
  SmallVector<std::pair<Value *, BasicBlock *>, 8> Known;
  /// Sub-group stretches (see emitSubGroupStretch): a region of one runs
  /// there when the x size is a multiple of the sub-group size, so that
  /// every sub-group is one x-run of S work-items.
  BasicBlock *Stretch = nullptr;
  PHINode *StretchStart = nullptr;
};

CallInst *Driver::regionCall(IRBuilder<> &LB, Value *X, Value *Y, Value *Z,
                             Value *Region, bool OneState) {
  SmallVector<Value *, 16> Args(CallArgs);
  Args.append({X, Y, Z, Region, LB.getInt1(OneState)});
  return LB.CreateCall(&Regions, Args);
}

void Driver::emitEntry(Module &M) {
  Type *I32 = Type::getInt32Ty(C);
  WG = beginWorkGroupFunction(M, Kernel, K.Name, B, CallArgs);
  Ctx = WG->getArg(1);
  loadLocalSize(B, Ctx, Size, K);
  N = B.CreateMul(B.CreateMul(Size[0], Size[1]), Size[2], "n");
  Scratch = loadContextField(B, Ctx, ContextField::Scratch);
  BasicBlock *EntryEnd = B.GetInsertBlock();
  Dispatch = BasicBlock::Create(C, "dispatch", WG);
  Scan = BasicBlock::Create(C, "scan", WG);
  Exit = BasicBlock::Create(C, "exit", WG);
  Slow = BasicBlock::Create(C, "divergent", WG);
  B.CreateBr(Dispatch);
  ReturnInst::Create(C, Exit);

  // Dispatch: run region r for every work-item (the region is a constant in
  // each loop: the inliner keeps only its code, and the loop vectorizes).
  B.SetInsertPoint(Dispatch);
  Reg = B.CreatePHI(I32, 2, "region");
  Reg->addIncoming(B.getInt32(0), EntryEnd);
  Sw = B.CreateSwitch(Reg, Exit, Shapes.size());
  Lanes = workItemLanes(Kernel);
  XLanes = xLoopLanes(Kernel, XLanesCapped);
  Same = BasicBlock::Create(C, "uniform", WG);
}

void Driver::emitRegionLoops() {
  Type *I32 = Type::getInt32Ty(C);
  unsigned S = hostSubGroupSize();
  if (SubGroupStep) {
    Stretch = BasicBlock::Create(C, "stretch", WG, Scan);
    IRBuilder<> SB(Stretch);
    StretchStart = SB.CreatePHI(I32, 2, "stretch.start");
  }
  for (unsigned R = 0; R < Shapes.size(); ++R) {
    BasicBlock *L = BasicBlock::Create(C, "region." + Twine(R), WG, Scan);
    if (Stretch && Shapes[R].SubGroupStretchStart) {
      BasicBlock *Pick =
          BasicBlock::Create(C, "region." + Twine(R) + ".pick", WG, L);
      Sw->addCase(B.getInt32(R), Pick);
      IRBuilder<> PB(Pick);
      PB.CreateCondBr(
          PB.CreateICmpEQ(PB.CreateAnd(Size[0], S - 1), PB.getInt64(0)),
          Stretch, L);
      StretchStart->addIncoming(PB.getInt32(R), Pick);
    } else {
      Sw->addCase(B.getInt32(R), L);
    }
    IRBuilder<> LB(L);
    BranchInst *Latch = emitLocalIdLoops(
        LB, Size, [&](IRBuilder<> &XB, Value *X, Value *Y, Value *Z) {
          // (The region stores where it stopped in the state slot.)
          CallInst *Next =
              regionCall(XB, X, Y, Z, XB.getInt32(R), Shapes[R].UniformExit);
          Next->addFnAttr(Attribute::AlwaysInline);
        });
    markWorkItemLoop(*Latch, Shapes[R].HasLoops, XLanes, /*NoUnroll=*/false,
                     XLanesCapped, unsigned(K.ReqdWorkGroupSize[0]));
    if (Shapes[R].UniformExit) {
      // Every work-item stopped where the first one did.
      Known.push_back(
          {LB.CreateLoad(I32, Scratch, "first.state"), LB.GetInsertBlock()});
      LB.CreateBr(Same);
    } else {
      LB.CreateBr(Scan);
    }
  }
}

void Driver::emitStretch() {
  if (!Stretch)
    return;
  Type *I32 = Type::getInt32Ty(C);
  IRBuilder<> SB(Stretch);
  auto [Last, From] = emitSubGroupStretch(
      SB, Size, hostSubGroupSize(), StretchStart, Shapes, SubGroupSyncs, Lanes,
      [&](IRBuilder<> &XB, Value *X, Value *Y, Value *Z, unsigned R) {
        CallInst *Next = regionCall(XB, X, Y, Z, XB.getInt32(R), true);
        Next->addFnAttr(Attribute::AlwaysInline);
        return XB.CreateLoad(I32, Scratch, "first.state");
      },
      [&](IRBuilder<> &XB, unsigned Sync, Value *First) {
        XB.CreateCall(SubGroupStep,
                      {Ctx, XB.getInt32(Sync), Scratch, N, First});
      });
  Known.push_back({Last, From});
  SB.CreateBr(Same);
}

/// At B: the lowest and highest state of the group's work-items (\p
/// SkipDone: of those not finished, ~0 if none).
std::pair<Value *, Value *> Driver::minMaxState(bool SkipDone) {
  Type *I32 = Type::getInt32Ty(C), *I64 = Type::getInt64Ty(C);
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Loop = BasicBlock::Create(C, "states", WG);
  BasicBlock *Done = BasicBlock::Create(C, "states.done", WG);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(I64, 2);
  PHINode *Mn = B.CreatePHI(I32, 2), *Mx = B.CreatePHI(I32, 2);
  I->addIncoming(B.getInt64(0), Pre);
  Mn->addIncoming(B.getInt32(~0u), Pre);
  Mx->addIncoming(B.getInt32(0), Pre);
  Value *S = B.CreateLoad(I32, B.CreateInBoundsGEP(I32, Scratch, I));
  if (SkipDone) // finished work-items (0) never run again
    S = B.CreateSelect(B.CreateICmpEQ(S, B.getInt32(0)), B.getInt32(~0u), S);
  Value *Mn2 = B.CreateBinaryIntrinsic(Intrinsic::umin, Mn, S);
  Value *Mx2 = B.CreateBinaryIntrinsic(Intrinsic::umax, Mx, S);
  Value *IN = B.CreateAdd(I, B.getInt64(1), "", true, true);
  I->addIncoming(IN, Loop);
  Mn->addIncoming(Mn2, Loop);
  Mx->addIncoming(Mx2, Loop);
  B.CreateCondBr(B.CreateICmpULT(IN, N), Loop, Done);
  B.SetInsertPoint(Done);
  return std::make_pair(Mn2, Mx2);
}

void Driver::emitScan() {
  // Scan: did every work-item stop at the same sync point?
  Type *I32 = Type::getInt32Ty(C);
  B.SetInsertPoint(Scan);
  auto [ScanMin, Max] = minMaxState(false);
  B.CreateCondBr(B.CreateICmpEQ(ScanMin, Max), Same, Slow);
  BasicBlock *ScanEnd = B.GetInsertBlock();
  B.SetInsertPoint(Same);
  PHINode *Min = B.CreatePHI(I32, Known.size() + 1, "next.region");
  Min->addIncoming(ScanMin, ScanEnd);
  for (auto [V, From] : Known)
    Min->addIncoming(V, From);
  BasicBlock *Next = BasicBlock::Create(C, "next", WG);
  B.CreateCondBr(B.CreateICmpEQ(Min, B.getInt32(0)), Exit, Next);
  B.SetInsertPoint(Next);
  B.CreateCall(&CollectiveStep,
               {Ctx, Min, Scratch, N, ConstantPointerNull::get(B.getPtrTy())});
  B.CreateBr(Dispatch);
  Reg->addIncoming(Min, Next);
}

void Driver::emitDivergent() {
  // Divergent: work-items stopped at different sync points (some finished
  // early, or took different sides of a branch to non-uniform sub-group
  // functions). One sync point at a time runs only the work-items waiting
  // there, through the out-of-line region function.
  Type *I32 = Type::getInt32Ty(C);
  B.SetInsertPoint(Slow);
  BasicBlock *Run = BasicBlock::Create(C, "divergent.run", WG);
  Value *Lowest;
  if (ReachedBy.empty()) {
    // The lowest first.
    auto [Lo, Unused] = minMaxState(true);
    (void)Unused;
    Lowest = Lo;
    B.CreateCondBr(B.CreateICmpEQ(Lowest, B.getInt32(~0u)), Exit, Run);
  } else {
    Lowest = pickSyncPoint(B, Scratch, N, ReachedBy, K.Name, Exit, Run);
  }
  B.SetInsertPoint(Run);
  B.CreateCall(&CollectiveStep, {Ctx, Lowest, Scratch, N, Scratch});
  emitLocalIdLoops(B, Size, [&](IRBuilder<> &XB, Value *X, Value *Y, Value *Z) {
    // The state slot (offset 0): the region each work-item stopped before.
    Value *Lin = XB.CreateAdd(
        XB.CreateMul(XB.CreateAdd(XB.CreateMul(Z, Size[1]), Y), Size[0]), X);
    Value *At = XB.CreateInBoundsGEP(I32, Scratch, Lin);
    BasicBlock *Go = BasicBlock::Create(C, "divergent.item", WG);
    BasicBlock *Skip = BasicBlock::Create(C, "divergent.next", WG);
    XB.CreateCondBr(XB.CreateICmpEQ(XB.CreateLoad(I32, At), Lowest), Go, Skip);
    XB.SetInsertPoint(Go);
    CallInst *Next = regionCall(XB, X, Y, Z, Lowest, false);
    Next->addFnAttr(Attribute::NoInline);
    XB.CreateBr(Skip);
    XB.SetInsertPoint(Skip);
  });
  // Back to the check: once the work-items meet again at one sync point
  // (those a loop kept behind caught up), the vectorized loops take over.
  B.CreateBr(Scan);
}

} // namespace

void emitRegionDriver(Module &M, Function &Kernel, Function &Regions,
                      Function &CollectiveStep, Function *SubGroupStep,
                      ArrayRef<unsigned> SubGroupSyncs,
                      ArrayRef<RegionShape> Shapes,
                      ArrayRef<uint64_t> ReachedBy, const KernelInfo &K) {
  Driver D(Kernel, Regions, CollectiveStep, SubGroupStep, SubGroupSyncs, Shapes,
           ReachedBy, K);
  // The entry: the group's size and scratch, the switch on the next region.
  D.emitEntry(M);
  // One loop over the work-items per region, vectorized.
  D.emitRegionLoops();
  // The regions that run one sub-group at a time when the x size allows.
  D.emitStretch();
  // Whether every work-item stopped at the same sync point: its collective
  // step, then the next region.
  D.emitScan();
  // Where they did not: one sync point at a time, its work-items only.
  D.emitDivergent();
}

} // namespace clcpu::compiler::regions
