//===- CheckBounds.cpp - every memory access checked against its object ---===//
//
// The bounds-check mode (-fclcpu-check-bounds, CLCPU_CHECK_BOUNDS=1): on a
// kernel body (compiler/KernelBody.h), every load, store, atomic and memory
// intrinsic whose pointer derives from an object of known extent is checked
// against that object before it runs:
//
// - a kernel argument (__global, __constant or __local buffer, SVM
//   pointer): its extent is a launch's, read from
//   WorkGroupContext::ArgExtents (the runtime fills in the buffer's or
//   sub-buffer's size, the SVM allocation's bytes from the pointer on, the
//   __local size);
// - a private array (a static alloca), a __local variable (the addresses
//   cloneBody marked with !clcpu.local_variable) or a program-scope
//   variable: a constant extent.
//
// A pointer is traced through GEPs and casts to its object; through phis
// and selects a shadow (object address, extent) is built alongside. A
// pointer that comes from memory, an integer or a call has no known object
// and is not checked.
//
// The check is `ptr - object` (unsigned: below the object wraps to a huge
// offset) `< extent - size + 1`, with the bound computed where the extent is
// (loop-invariant). A failed access does not happen: its load yields zero
// and its store, atomic or copy is skipped, so memory outside the object is
// never touched. In a body without loops (the vectorizer's innermost
// loop) the access sits under a branch on the check, which the loop
// vectorizer turns into a masked access: one compare and one mask per
// vector access; an access whose pointer is the same in every work-item
// (clcpu-uniformity) goes to a dummy object instead, without a branch. In
// a body with loops, vectorized as an outer loop where no branch may be,
// every failed access goes to the dummy object.
//
// The body is first cleaned by SROA: Clang keeps arguments and variables in
// memory until then, and a pointer loaded from `out.addr` would not lead
// back to its argument.
//
// The first failed check of each work-item is kept (site number, offset,
// extent) and stored, when the work-item returns, into three arrays of
// WorkGroupContext::CheckReport indexed by its linear local id
// (CheckReportSlots apart): only on a failure in a body without loops
// (masked stores), always (zeros without a failure) in one with loops. The
// scheduler reads them after each work-group (scheduler/NDRange.cpp). Site
// numbers index the table `clcpu.check_sites.<kernel>`, one description per
// site (access, object, source line with -g), which the runtime finds in the
// JIT'd code.
//
// A loop whose checked accesses each move by a constant step per iteration
// (`in[base + j]` for j < k) is versioned first: its preheader computes,
// from scalar evolution, the lowest and highest offset each such access
// takes over every iteration the loop may run, and when all of them lie in
// their objects the loop runs as a copy without those checks, which
// vectorizes like the unchecked kernel; otherwise the checked loop runs and
// reports exactly as above. The range covers iterations a guard inside the
// loop may skip, so it can send an in-bounds work-item to the checked loop,
// never an out-of-bounds one to the copy.
//
// Integer division and remainder by zero, which SafeIntegerDivision makes
// harmless (an unspecified value, OpenCL C 6.3), are reported the same way
// in this mode: they are the kernel's bug even if not an error.

#include "compiler/passes/CheckBounds.h"

#include "compiler/ContextFields.h"
#include "compiler/KernelBody.h"
#include "compiler/WorkGroupContext.h"
#include "compiler/analyses/WorkItemUniformity.h"
#include "compiler/passes/CheckRanges.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/CFG.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <optional>
#include <string>

using namespace llvm;

namespace clcpu::compiler {

namespace {

/// Where a pointer points: the object's address and extent in bytes (i64
/// values), and what the report calls it.
struct Shadow {
  Value *Base = nullptr;
  Value *Extent = nullptr;
  std::string What;
};

/// The object \p P points into, through GEPs and casts (a __local
/// variable's address is itself an offset from the group's local memory).
Value *stripToObject(Value *P) {
  for (;;) {
    if (auto *I = dyn_cast<Instruction>(P);
        I && I->getMetadata(LocalVariableMetadata))
      return P;
    if (auto *G = dyn_cast<GEPOperator>(P))
      P = G->getPointerOperand();
    else if (auto *O = dyn_cast<Operator>(P);
             O && (O->getOpcode() == Instruction::AddrSpaceCast ||
                   O->getOpcode() == Instruction::BitCast))
      P = O->getOperand(0);
    else
      return P;
  }
}

/// The metadata on an access of a versioned loop's unchecked copy
/// (Instrumenter::versionLoops): its range was checked before the loop.
constexpr const char InRangeMetadata[] = "clcpu.check.in_range";

/// A pointer an access uses, the bytes it touches there, and what the
/// report calls the access.
struct Operand {
  Value *Ptr;
  Value *Size;
  const char *Kind;
};

/// The pointers \p I accesses memory through, or none.
SmallVector<Operand, 2> accessOperands(Instruction &I, const DataLayout &DL) {
  auto Bytes = [&](Type *T) {
    return ConstantInt::get(Type::getInt64Ty(I.getContext()),
                            DL.getTypeStoreSize(T).getFixedValue());
  };
  SmallVector<Operand, 2> Ops;
  if (auto *L = dyn_cast<LoadInst>(&I)) {
    Ops.push_back({L->getPointerOperand(), Bytes(L->getType()), "load"});
  } else if (auto *S = dyn_cast<StoreInst>(&I)) {
    Ops.push_back({S->getPointerOperand(),
                   Bytes(S->getValueOperand()->getType()), "store"});
  } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    Ops.push_back({RMW->getPointerOperand(),
                   Bytes(RMW->getValOperand()->getType()), "atomic operation"});
  } else if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I)) {
    Ops.push_back({X->getPointerOperand(),
                   Bytes(X->getNewValOperand()->getType()),
                   "atomic operation"});
  } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    Ops.push_back({MI->getRawDest(), MI->getLength(),
                   isa<MemSetInst>(MI) ? "fill" : "copy"});
    if (auto *MT = dyn_cast<MemTransferInst>(MI))
      Ops.push_back({MT->getRawSource(), MT->getLength(), "load"});
  }
  return Ops;
}

std::string quoted(StringRef Name) {
  return Name.empty() ? std::string() : " '" + Name.str() + "'";
}

class Instrumenter {
public:
  Instrumenter(Function &F, FunctionAnalysisManager &AM)
      : F(F), AM(AM), C(F.getContext()), DL(F.getParent()->getDataLayout()),
        I64(Type::getInt64Ty(C)) {}

  bool run();

private:
  Function &F;
  FunctionAnalysisManager &AM;
  const WorkItemUniformity *U = nullptr;
  LLVMContext &C;
  const DataLayout &DL;
  Type *I64;
  Value *Ctx = nullptr;
  unsigned NumArgs = 0;
  Instruction *EntryPoint = nullptr; // where per-call values go
  Value *ExtentTable = nullptr;
  DenseMap<Value *, Shadow> Shadows;
  std::vector<std::string> Sites;
  AllocaInst *First[3] = {}; // the work-item's first failure
  GlobalVariable *Sink = nullptr;
  /// Failed accesses skipped by a branch (a body without loops), else
  /// redirected to the dummy object.
  bool Branches = true;

  ScalarEvolution *SE = nullptr;

  /// The offsets an access operand takes in its object over every
  /// iteration of a loop, as expressions its preheader can compute.
  struct Range {
    OffsetRange Offsets;
    Value *Object;
    uint64_t Size;
  };

  bool isObject(Value *V) const;
  std::optional<Range> rangeOver(const Loop &L, const Instruction &At,
                                 const Operand &O,
                                 PredicatedScalarEvolution &PSE);
  bool versionLoop(Loop &L, LoopInfo &LI, DominatorTree &DT);
  bool versionLoops();
  std::optional<uint64_t> constantExtent(Value *Object) const;
  bool provenInBounds(Value *Ptr, uint64_t Size);
  bool traceable(Value *P) const;
  const Shadow &shadow(Value *Object);
  Shadow leaf(Value *Object);
  Value *argExtent(unsigned Index);
  std::string where(const Instruction &I) const;
  void record(IRBuilder<> &B, Value *Ok, unsigned Site, Value *Offset,
              Value *Extent);
  Value *dummy(Type *PtrTy);
  Value *check(IRBuilder<> &B, Value *Ptr, Value *Size, const char *Kind,
               const Instruction &At);
  void guard(Instruction &I, Value *Ok, bool Uniform);
  bool checkDivision(BinaryOperator &Div);
  void storeReports();
  void emitSiteTable();
};

bool Instrumenter::isObject(Value *V) const {
  if (auto *A = dyn_cast<Argument>(V))
    return A->getArgNo() < NumArgs && A->getType()->isPointerTy();
  if (auto *AI = dyn_cast<AllocaInst>(V)) {
    std::optional<TypeSize> Size = AI->getAllocationSize(DL);
    return AI->isStaticAlloca() && Size && !Size->isScalable() &&
           !is_contained(First, AI);
  }
  if (auto *I = dyn_cast<Instruction>(V))
    return I->getMetadata(LocalVariableMetadata) != nullptr;
  if (auto *G = dyn_cast<GlobalVariable>(V))
    return G->hasInitializer() && G != Sink &&
           !G->getName().starts_with("llvm.");
  return false;
}

/// The extent of \p Object when it is known now (not an argument's).
std::optional<uint64_t> Instrumenter::constantExtent(Value *Object) const {
  if (!isObject(Object) || isa<Argument>(Object))
    return std::nullopt;
  if (auto *AI = dyn_cast<AllocaInst>(Object))
    return AI->getAllocationSize(DL)->getFixedValue();
  if (auto *G = dyn_cast<GlobalVariable>(Object))
    return DL.getTypeAllocSize(G->getValueType()).getFixedValue();
  MDNode *N = cast<Instruction>(Object)->getMetadata(LocalVariableMetadata);
  return mdconst::extract<ConstantInt>(N->getOperand(0))->getZExtValue();
}

/// Whether every address \p Ptr takes (its offset's range, which scalar
/// evolution knows through loop bounds and the local ids' ranges) keeps
/// \p Size bytes inside an object of constant extent: `tile[ly][k]` in a
/// loop over k < 16 with reqd_work_group_size(16, 16, 1).
bool Instrumenter::provenInBounds(Value *Ptr, uint64_t Size) {
  Value *Object = stripToObject(Ptr);
  std::optional<uint64_t> Extent = constantExtent(Object);
  if (!Extent || *Extent < Size || Ptr->getType() != Object->getType() ||
      !SE->isSCEVable(Ptr->getType()))
    return false;
  const SCEV *Offset = SE->getMinusSCEV(SE->getSCEV(Ptr), SE->getSCEV(Object));
  if (isa<SCEVCouldNotCompute>(Offset))
    return false;
  auto Within = [&](const ConstantRange &Lo, const ConstantRange &Hi) {
    return !Lo.isFullSet() && !Hi.isFullSet() &&
           Lo.getSignedMin().isNonNegative() &&
           Hi.getSignedMax().sle(int64_t(*Extent - Size));
  };
  ConstantRange R = SE->getSignedRange(Offset);
  if (Within(R, R))
    return true;
  // A loop that tests at its top (`for (k = 0; k < 16; ++k)` before
  // rotation) gives its induction one more value, the exiting one, than
  // its body sees: in the body, {S,+,X} ranges over S .. S + X * (BTC - 1).
  const auto *AR = dyn_cast<SCEVAddRecExpr>(Offset);
  auto *Access = dyn_cast<Instruction>(Ptr);
  if (!AR || !AR->isAffine() || !Access)
    return false;
  const Loop *L = AR->getLoop();
  if (L->getExitingBlock() != L->getHeader() ||
      Access->getParent() == L->getHeader() ||
      !L->contains(Access->getParent()))
    return false;
  const SCEV *Taken = SE->getBackedgeTakenCount(L);
  if (isa<SCEVCouldNotCompute>(Taken) ||
      SE->getUnsignedRange(Taken).getUnsignedMin().isZero())
    return false;
  const SCEV *Start = AR->getStart(), *Step = AR->getStepRecurrence(*SE);
  // The count is in the loop's own induction type (an int k), the offset
  // in 64 bits.
  if (SE->getTypeSizeInBits(Taken->getType()) >
      SE->getTypeSizeInBits(Step->getType()))
    return false;
  Taken = SE->getNoopOrZeroExtend(Taken, Step->getType());
  const SCEV *Last = SE->getAddExpr(
      Start, SE->getMulExpr(
                 Step, SE->getMinusSCEV(Taken, SE->getOne(Taken->getType()))));
  if (SE->isKnownNonNegative(Step))
    return Within(SE->getSignedRange(Start), SE->getSignedRange(Last));
  if (SE->isKnownNonPositive(Step))
    return Within(SE->getSignedRange(Last), SE->getSignedRange(Start));
  return false;
}

/// The range of offsets \p O takes in its object over every iteration of
/// \p L (passes/CheckRanges.h), for an object there before the loop.
std::optional<Instrumenter::Range>
Instrumenter::rangeOver(const Loop &L, const Instruction &At, const Operand &O,
                        PredicatedScalarEvolution &PSE) {
  auto *Size = dyn_cast<ConstantInt>(O.Size);
  Value *Object = stripToObject(O.Ptr);
  if (!Size || !isObject(Object) || isa<AllocaInst>(Object) ||
      O.Ptr->getType() != Object->getType() ||
      !SE->isSCEVable(O.Ptr->getType()))
    return std::nullopt;
  if (auto *I = dyn_cast<Instruction>(Object);
      I && I->getParent() != &F.getEntryBlock())
    return std::nullopt;
  // An index computed in 32 bits (`in[base + j]`, int j) is an affine
  // recurrence only as long as it does not wrap there: PSE assumes it, and
  // the preheader tests the assumption with the ranges.
  const SCEV *Address = SE->getSCEV(O.Ptr);
  if (!SE->isLoopInvariant(Address, &L))
    Address = PSE.getAsAddRec(O.Ptr);
  if (!Address)
    return std::nullopt;
  std::optional<OffsetRange> R = offsetRangeOver(
      *SE, L, SE->getMinusSCEV(Address, SE->getSCEV(Object)), At.getParent());
  if (!R)
    return std::nullopt;
  return Range{*R, Object, Size->getZExtValue()};
}

/// Versions innermost loop \p L when some of its checked accesses have
/// ranges (rangeOver): the preheader tests every range against its object
/// and enters a copy of the loop whose accesses with a range are marked
/// InRangeMetadata (not checked), or else the loop itself.
bool Instrumenter::versionLoop(Loop &L, LoopInfo &LI, DominatorTree &DT) {
  // A barrier or collective must be reached by every work-item of the
  // group in the same place: a loop with one is never split two ways.
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *Call = dyn_cast<CallBase>(&I); Call && Call->isConvergent())
        return false;
  if (!L.getLoopPreheader())
    return false;
  std::vector<Range> Ranges;
  SmallPtrSet<Instruction *, 16> Covered;
  PredicatedScalarEvolution PSE(*SE, L);
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      SmallVector<Operand, 2> Ops = accessOperands(I, DL);
      std::vector<Range> Mine;
      bool All = true;
      for (const Operand &O : Ops) {
        auto *Known = dyn_cast<ConstantInt>(O.Size);
        if (!traceable(O.Ptr) ||
            (Known && provenInBounds(O.Ptr, Known->getZExtValue())))
          continue; // never checked
        if (std::optional<Range> R = rangeOver(L, I, O, PSE))
          Mine.push_back(*R);
        else
          All = false;
      }
      if (All && !Mine.empty()) {
        Covered.insert(&I);
        Ranges.insert(Ranges.end(), Mine.begin(), Mine.end());
      }
    }
  if (Covered.empty())
    return false;
  auto Test = [&](IRBuilderBase &B, Instruction *Where) -> Value * {
    SCEVExpander Exp(*SE, DL, "in.range");
    Value *Ok = B.getTrue();
    for (const Range &R : Ranges) {
      Value *Extent = shadow(R.Object).Extent;
      B.SetInsertPoint(Where);
      Value *Size = B.getInt64(R.Size);
      Value *Fits = B.CreateICmpUGE(Extent, Size);
      Value *Room = B.CreateSub(Extent, Size);
      Value *In = withinRange(B, Exp, R.Offsets, Room, Where);
      Ok = B.CreateAnd(Ok, B.CreateAnd(Fits, In));
    }
    // The assumptions PSE made: true when one fails.
    Value *Wraps = Exp.expandCodeForPredicate(&PSE.getPredicate(), Where);
    B.SetInsertPoint(Where);
    return B.CreateAnd(Ok, B.CreateNot(Wraps));
  };
  ValueToValueMapTy VMap;
  if (!compiler::versionLoop(L, LI, DT, *SE, Test, VMap))
    return false;
  MDNode *Mark = MDNode::get(C, {});
  for (Instruction *I : Covered)
    cast<Instruction>(VMap[I])->setMetadata(InRangeMetadata, Mark);
  return true;
}

/// Versions the body's innermost loops (versionLoop); true if any was.
bool Instrumenter::versionLoops() {
  LoopInfo &LI = AM.getResult<LoopAnalysis>(F);
  DominatorTree &DT = AM.getResult<DominatorTreeAnalysis>(F);
  SmallVector<Loop *, 8> Innermost;
  for (Loop *L : LI.getLoopsInPreorder())
    if (L->isInnermost())
      Innermost.push_back(L);
  bool Changed = false;
  for (Loop *L : Innermost) {
    Changed |= simplifyLoop(L, &DT, &LI, SE, nullptr, nullptr,
                            /*PreserveLCSSA=*/false);
    Changed |= versionLoop(*L, LI, DT);
  }
  return Changed;
}

/// Whether every object \p P may point into (through phis and selects) is
/// one of known extent.
bool Instrumenter::traceable(Value *P) const {
  Value *Root = stripToObject(P);
  // Private memory is traced only on its own: its address then stays out
  // of phis and selects, where it would keep SROA from promoting it.
  if (isa<AllocaInst>(Root))
    return isObject(Root);
  SmallPtrSet<Value *, 8> Seen;
  SmallVector<Value *, 8> Work{Root};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    if (auto *Phi = dyn_cast<PHINode>(V)) {
      for (Value *In : Phi->incoming_values())
        Work.push_back(stripToObject(In));
    } else if (auto *S = dyn_cast<SelectInst>(V)) {
      Work.push_back(stripToObject(S->getTrueValue()));
      Work.push_back(stripToObject(S->getFalseValue()));
    } else if (isa<AllocaInst>(V) || !isObject(V)) {
      return false;
    }
  }
  return true;
}

Value *Instrumenter::argExtent(unsigned Index) {
  IRBuilder<> B(EntryPoint);
  if (!ExtentTable)
    ExtentTable = loadContextField(B, Ctx, ContextField::ArgExtents);
  LoadInst *L =
      B.CreateLoad(I64, B.CreateConstInBoundsGEP1_64(I64, ExtentTable, Index),
                   "extent.arg" + std::to_string(Index));
  L->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(C, {}));
  return L;
}

Shadow Instrumenter::leaf(Value *V) {
  IRBuilder<> B(EntryPoint);
  if (auto *A = dyn_cast<Argument>(V))
    return {B.CreatePtrToInt(A, I64), argExtent(A->getArgNo()),
            "argument " + std::to_string(A->getArgNo()) + quoted(A->getName())};
  if (auto *G = dyn_cast<GlobalVariable>(V)) {
    uint64_t Size = DL.getTypeAllocSize(G->getValueType());
    return {B.CreatePtrToInt(G, I64), B.getInt64(Size),
            "program-scope variable" + quoted(G->getName()) + " (" +
                std::to_string(Size) + " bytes)"};
  }
  auto *I = cast<Instruction>(V);
  B.SetInsertPoint(I->getParent(), std::next(I->getIterator()));
  if (auto *AI = dyn_cast<AllocaInst>(I)) {
    uint64_t Size = AI->getAllocationSize(DL)->getFixedValue();
    return {B.CreatePtrToInt(AI, I64), B.getInt64(Size),
            "private variable" + quoted(AI->getName()) + " (" +
                std::to_string(Size) + " bytes)"};
  }
  MDNode *N = I->getMetadata(LocalVariableMetadata);
  uint64_t Size =
      mdconst::extract<ConstantInt>(N->getOperand(0))->getZExtValue();
  return {B.CreatePtrToInt(I, I64), B.getInt64(Size),
          "__local variable" +
              quoted(cast<MDString>(N->getOperand(1))->getString()) + " (" +
              std::to_string(Size) + " bytes)"};
}

/// The shadow of \p Object (a stripped, traceable pointer).
const Shadow &Instrumenter::shadow(Value *Object) {
  if (auto It = Shadows.find(Object); It != Shadows.end())
    return It->second;
  if (auto *Phi = dyn_cast<PHINode>(Object)) {
    // Placeholders first: a loop's phi may reach itself.
    IRBuilder<> B(Phi);
    PHINode *Base = B.CreatePHI(I64, Phi->getNumIncomingValues(), "obj");
    PHINode *Extent =
        B.CreatePHI(I64, Phi->getNumIncomingValues(), "obj.extent");
    Shadows[Object] = {Base, Extent, ""};
    std::string What;
    for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K) {
      const Shadow &In = shadow(stripToObject(Phi->getIncomingValue(K)));
      Base->addIncoming(In.Base, Phi->getIncomingBlock(K));
      Extent->addIncoming(In.Extent, Phi->getIncomingBlock(K));
      if (What.empty())
        What = In.What;
      else if (In.What != What && !In.What.empty() &&
               What.find(" or another") == std::string::npos)
        What += " or another object";
    }
    Shadows[Object].What = What;
    return Shadows[Object];
  }
  if (auto *Sel = dyn_cast<SelectInst>(Object)) {
    Shadow T = shadow(stripToObject(Sel->getTrueValue()));
    Shadow E = shadow(stripToObject(Sel->getFalseValue()));
    IRBuilder<> B(Sel);
    Value *Cond = Sel->getCondition();
    return Shadows[Object] = {
               B.CreateSelect(Cond, T.Base, E.Base, "obj"),
               B.CreateSelect(Cond, T.Extent, E.Extent, "obj.extent"),
               T.What == E.What ? T.What : T.What + " or " + E.What};
  }
  return Shadows[Object] = leaf(Object);
}

/// " at <file>:<line>:<column>" with -g, else "".
std::string Instrumenter::where(const Instruction &I) const {
  const DILocation *L = I.getDebugLoc().get();
  if (!L)
    return "";
  return " at " + L->getFilename().str() + ":" + std::to_string(L->getLine()) +
         ":" + std::to_string(L->getColumn());
}

void Instrumenter::record(IRBuilder<> &B, Value *Ok, unsigned Site,
                          Value *Offset, Value *Extent) {
  Value *Cur = B.CreateLoad(I64, First[0]);
  Value *New = B.CreateAnd(B.CreateICmpEQ(Cur, B.getInt64(0)), B.CreateNot(Ok),
                           "first.failure");
  Value *Values[3] = {B.getInt64(Site), Offset, Extent};
  for (unsigned K = 0; K < 3; ++K) {
    Value *Old = K ? B.CreateLoad(I64, First[K]) : Cur;
    B.CreateStore(B.CreateSelect(New, Values[K], Old), First[K]);
  }
}

/// The dummy object a uniform failed access goes to, as a pointer of type
/// \p PtrTy.
Value *Instrumenter::dummy(Type *PtrTy) {
  if (!Sink) {
    // Large enough for any access a kernel makes at once (a double16).
    auto *Ty = ArrayType::get(Type::getInt8Ty(C), 256);
    Sink = new GlobalVariable(*F.getParent(), Ty, /*isConstant=*/false,
                              GlobalValue::InternalLinkage,
                              Constant::getNullValue(Ty), "clcpu.check.sink");
    Sink->setAlignment(Align(128));
  }
  return ConstantExpr::getPointerBitCastOrAddrSpaceCast(Sink, PtrTy);
}

/// The condition that [Ptr, Ptr + Size) lies in its object, with the
/// failure recorded; null if Ptr's object is unknown or the access is in
/// bounds by construction.
Value *Instrumenter::check(IRBuilder<> &B, Value *Ptr, Value *Size,
                           const char *Kind, const Instruction &At) {
  if (!traceable(Ptr))
    return nullptr;
  Value *Object = stripToObject(Ptr);
  const Shadow &S = shadow(Object);
  auto *ConstSize = dyn_cast<ConstantInt>(Size);
  Sites.push_back(std::string(Kind) + " of " +
                  (ConstSize
                       ? std::to_string(ConstSize->getZExtValue()) + " bytes"
                       : std::string("bytes")) +
                  (Kind[0] == 'l'   ? " from "
                   : Kind[0] == 'a' ? " on "
                                    : " to ") +
                  S.What + where(At));
  unsigned Site = Sites.size();
  Value *Offset = B.CreateSub(B.CreatePtrToInt(Ptr, I64), S.Base, "offset");
  Value *Size64 = B.CreateZExtOrTrunc(Size, I64);
  // offset + size <= extent, as a call the optimizer moves but does not
  // take apart: passes/CheckRangeVersioning.cpp finds it in the work-item
  // loop, tests its range there, and then expands it.
  Value *Ok = B.CreateCall(inBoundsFunction(*F.getParent()),
                           {Offset, S.Extent, Size64}, "in.bounds");
  if (!ConstSize)
    Ok = B.CreateOr(Ok, B.CreateICmpEQ(Size64, B.getInt64(0)));
  record(B, Ok, Site, Offset, S.Extent);
  return Ok;
}

/// Runs \p I only if \p Ok: a uniform access goes to the dummy object
/// (or copies nothing) instead; any other waits behind a branch, and its
/// result is zero when it does not run.
void Instrumenter::guard(Instruction &I, Value *Ok, bool Uniform) {
  IRBuilder<> B(&I);
  if (Uniform) {
    if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
      MI->setLength(
          B.CreateSelect(Ok, MI->getLength(),
                         Constant::getNullValue(MI->getLength()->getType())));
      return;
    }
    unsigned Op = isa<StoreInst>(I) ? 1 : 0; // the pointer operand
    Value *Ptr = I.getOperand(Op);
    I.setOperand(Op, B.CreateSelect(Ok, Ptr, dummy(Ptr->getType())));
    return;
  }
  Instruction *Then = SplitBlockAndInsertIfThen(Ok, &I, /*Unreachable=*/false);
  BasicBlock *Head = Then->getParent()->getSinglePredecessor();
  BasicBlock *Tail = I.getParent();
  I.moveBefore(Then);
  if (I.getType()->isVoidTy() || I.use_empty())
    return;
  PHINode *Result =
      PHINode::Create(I.getType(), 2, I.getName() + ".checked", Tail->begin());
  Result->addIncoming(&I, Then->getParent());
  Result->addIncoming(Constant::getNullValue(I.getType()), Head);
  I.replaceUsesWithIf(Result, [&](Use &U) { return U.getUser() != Result; });
}

/// A division or remainder whose divisor SafeIntegerDivision guarded: a zero
/// divisor is reported.
bool Instrumenter::checkDivision(BinaryOperator &Div) {
  auto *Guard = dyn_cast<SelectInst>(Div.getOperand(1));
  if (!Guard || !Guard->getName().starts_with("safe.divisor"))
    return false;
  Value *D = Guard->getFalseValue();
  IRBuilder<> B(&Div);
  Value *Ok = B.CreateICmpNE(D, Constant::getNullValue(D->getType()));
  if (Ok->getType()->isVectorTy())
    Ok = B.CreateAndReduce(Ok);
  bool Rem = Div.getOpcode() == Instruction::SRem ||
             Div.getOpcode() == Instruction::URem;
  Sites.push_back(std::string(Rem ? "integer remainder" : "integer division") +
                  " by zero" + where(Div));
  record(B, Ok, Sites.size(), B.getInt64(0), B.getInt64(0));
  return true;
}

void Instrumenter::storeReports() {
  Value *Lid[3];
  localIdParams(F, Lid);
  SmallVector<ReturnInst *, 4> Returns;
  for (BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(Ret);
  for (ReturnInst *Ret : Returns) {
    IRBuilder<> B(Ret);
    if (!Branches) {
      // Stored by every work-item, 0 when it had no failure: a branch here
      // would keep the outer-loop vectorizer from the body.
    } else {
      // Stored only on a failure (masked stores, rarely any lane): the
      // report stays zero otherwise, and costs no memory traffic. The
      // failure word tells the scheduler to look.
      Value *Failed =
          B.CreateICmpNE(B.CreateLoad(I64, First[0]), B.getInt64(0));
      B.SetInsertPoint(SplitBlockAndInsertIfThen(Failed, Ret, false));
      B.CreateStore(B.getInt64(1),
                    B.CreateConstInBoundsGEP1_64(
                        I64,
                        loadContextField(B, Ctx, ContextField::CheckReport),
                        CheckReportFailed));
    }
    Value *Report = loadContextField(B, Ctx, ContextField::CheckReport);
    Value *SizeX = loadContextField(B, Ctx, ContextField::LocalSize, 0);
    Value *SizeY = loadContextField(B, Ctx, ContextField::LocalSize, 1);
    Value *Linear = B.CreateAdd(
        Lid[0],
        B.CreateMul(SizeX, B.CreateAdd(Lid[1], B.CreateMul(SizeY, Lid[2]))));
    for (unsigned K = 0; K < 3; ++K)
      B.CreateStore(B.CreateLoad(I64, First[K]),
                    B.CreateInBoundsGEP(
                        I64, Report,
                        B.CreateAdd(Linear, B.getInt64(K * CheckReportSlots))));
  }
}

void Instrumenter::emitSiteTable() {
  Module &M = *F.getParent();
  StringRef Kernel = F.getName();
  Kernel.consume_back(".body");
  std::vector<Constant *> Entries;
  for (const std::string &S : Sites) {
    auto *Text = ConstantDataArray::getString(C, S);
    auto *G = new GlobalVariable(M, Text->getType(), true,
                                 GlobalValue::PrivateLinkage, Text,
                                 "clcpu.check_site");
    Entries.push_back(G);
  }
  auto *PtrTy = PointerType::getUnqual(C);
  Entries.push_back(ConstantPointerNull::get(PtrTy));
  // Whether a failure sets the CheckReportFailed word (storeReports).
  if (Branches) {
    auto *Mark = ConstantDataArray::getString(C, "failure word");
    Entries.push_back(new GlobalVariable(M, Mark->getType(), true,
                                         GlobalValue::PrivateLinkage, Mark,
                                         "clcpu.check_flagged"));
  } else {
    Entries.push_back(ConstantPointerNull::get(PtrTy));
  }
  auto *Ty = ArrayType::get(PtrTy, Entries.size());
  new GlobalVariable(M, Ty, true, GlobalValue::ExternalLinkage,
                     ConstantArray::get(Ty, Entries),
                     CheckSitesPrefix + Kernel.str());
}

bool Instrumenter::run() {
  Ctx = contextParam(F);
  Value *Lid[3];
  if (!Ctx || !localIdParams(F, Lid))
    return false;
  NumArgs = cast<Argument>(Ctx)->getArgNo();
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  static const char *Names[3] = {"first.site", "first.offset", "first.extent"};
  for (unsigned K = 0; K < 3; ++K) {
    First[K] = B.CreateAlloca(I64, nullptr, Names[K]);
    B.CreateStore(B.getInt64(0), First[K]);
  }
  EntryPoint = &*B.GetInsertPoint();
  // A body without loops becomes the vectorizer's innermost loop, which
  // turns a branch around an access into a masked access. A body with a
  // loop is vectorized as an outer loop (or cut into regions), where a
  // branch keeps the vectorizer away: there every failed access goes to
  // the dummy object, a gather or scatter outside inner loops.
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> Backedges;
  FindFunctionBackedges(F, Backedges);
  Branches = Backedges.empty();
  SE = &AM.getResult<ScalarEvolutionAnalysis>(F);
  if (!Branches && versionLoops()) {
    AM.invalidate(F, PreservedAnalyses::none());
    SE = &AM.getResult<ScalarEvolutionAnalysis>(F);
  }
  U = &AM.getResult<WorkItemUniformityAnalysis>(F);
  struct Access {
    Instruction *I;
    bool Uniform;
    SmallVector<Operand, 2> Operands;
  };
  // The accesses (less the operands proven in bounds, and those of a
  // versioned loop's unchecked copy) and divisions, and whether each access
  // is the same in every work-item, before anything changes.
  std::vector<Access> Accesses;
  std::vector<BinaryOperator *> Divisions;
  for (Instruction &I : instructions(F)) {
    if (auto *BO = dyn_cast<BinaryOperator>(&I);
        BO && (BO->getOpcode() == Instruction::SDiv ||
               BO->getOpcode() == Instruction::UDiv ||
               BO->getOpcode() == Instruction::SRem ||
               BO->getOpcode() == Instruction::URem)) {
      Divisions.push_back(BO);
      continue;
    }
    if (I.getMetadata(InRangeMetadata)) {
      I.setMetadata(InRangeMetadata, nullptr);
      continue;
    }
    Access A{&I, false, {}};
    for (const Operand &O : accessOperands(I, DL)) {
      auto *Known = dyn_cast<ConstantInt>(O.Size);
      if (!Known || !provenInBounds(O.Ptr, Known->getZExtValue()))
        A.Operands.push_back(O);
    }
    if (A.Operands.empty())
      continue;
    // Uniform: every pointer and the length the same in every work-item.
    A.Uniform = !isa<MemIntrinsic>(I) ||
                U->isUniform(cast<MemIntrinsic>(I).getLength());
    for (const Operand &O : A.Operands)
      A.Uniform &= U->isUniform(O.Ptr);
    Accesses.push_back(std::move(A));
  }
  for (const Access &A : Accesses) {
    IRBuilder<> At(A.I);
    Value *Ok = nullptr;
    for (const Operand &O : A.Operands)
      if (Value *This = check(At, O.Ptr, O.Size, O.Kind, *A.I))
        Ok = Ok ? At.CreateAnd(Ok, This) : This;
    if (Ok)
      guard(*A.I, Ok, A.Uniform || !Branches);
  }
  for (BinaryOperator *Div : Divisions)
    checkDivision(*Div);
  storeReports();
  emitSiteTable();
  F.getParent()->getOrInsertNamedMetadata("clcpu.check_bounds");
  return true;
}

} // namespace

Function *inBoundsFunction(Module &M) {
  LLVMContext &C = M.getContext();
  Type *I64 = Type::getInt64Ty(C);
  FunctionCallee Fn = M.getOrInsertFunction(
      InBoundsFunction,
      FunctionType::get(Type::getInt1Ty(C), {I64, I64, I64}, false));
  auto *F = cast<Function>(Fn.getCallee());
  F->setDoesNotAccessMemory();
  F->setDoesNotThrow();
  F->setWillReturn();
  F->addFnAttr(Attribute::Speculatable);
  F->addFnAttr(Attribute::NoSync);
  return F;
}

bool isBoundsChecked(const Module &M) {
  return M.getNamedMetadata("clcpu.check_bounds") != nullptr;
}

PreservedAnalyses CheckBoundsPass::run(Function &F,
                                       FunctionAnalysisManager &AM) {
  if (!contextParam(F))
    return PreservedAnalyses::all();
  // Clang keeps every argument and variable in memory until SROA runs
  // (`out` is a load of `out.addr`): promoted first, pointers lead back to
  // their arguments, and only real private arrays stay allocas.
  PreservedAnalyses PA = SROAPass(SROAOptions::PreserveCFG).run(F, AM);
  AM.invalidate(F, PA);
  Instrumenter(F, AM).run();
  return PreservedAnalyses::none();
}

} // namespace clcpu::compiler
