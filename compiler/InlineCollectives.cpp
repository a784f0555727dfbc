//===- compiler/InlineCollectives.cpp - sub-group collectives as vectors --===//
//
// On the barrier regions a sub-group collective is a sync point: the region
// loop before it stores each work-item's operand in its 64-bit value slot,
// the collective is computed over those slots, and the region loop after it
// reads each work-item's result (compiler/regions/). When every
// work-item of the group stopped there (the driver's uniform path), this
// emits that computation into the kernel's own code: per sub-group of S
// work-items (S = hostSubGroupSize(), a constant), one vector of S slots is
// loaded, combined across its lanes and stored. The runtime's generic pass
// (scheduler/Collectives.cpp, groupCollective) chooses the operation per
// sub-group and walks 64-bit values one at a time, which is most of a
// stream compaction's time.
//
// The results are bit for bit the runtime's: integer operations are
// associative, so the scans combine lanes in log2(S) shift steps;
// floating-point sums, products, minima and maxima combine the lanes one
// after the other in increasing sub-group local id, as the runtime does.
// A partial last sub-group, and the operations not listed in
// inlineSubGroupOp (clustered reductions of floating-point types, whose
// runtime order the butterfly would change; logical operations on them),
// stay with the runtime.

#include "compiler/InlineCollectives.h"

#include "compiler/Barriers.h"
#include "compiler/Binary.h"
#include "compiler/WorkGroupContext.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>

using namespace llvm;

namespace clcpu::compiler {

namespace {

using Combine = CollCombine;
using Mode = CollMode;

struct ElementType {
  Type *Ty = nullptr; // i8 ... i64, float, double
  bool Signed = false;
};

ElementType elementType(LLVMContext &C, uint32_t Op) {
  switch (Op % 16) {
  case CollInt:
    return {Type::getInt32Ty(C), true};
  case CollUInt:
    return {Type::getInt32Ty(C), false};
  case CollLong:
    return {Type::getInt64Ty(C), true};
  case CollULong:
    return {Type::getInt64Ty(C), false};
  case CollFloat:
    return {Type::getFloatTy(C), false};
  case CollDouble:
    return {Type::getDoubleTy(C), false};
  case CollChar:
    return {Type::getInt8Ty(C), true};
  case CollUChar:
    return {Type::getInt8Ty(C), false};
  case CollShort:
    return {Type::getInt16Ty(C), true};
  case CollUShort:
    return {Type::getInt16Ty(C), false};
  case CollHalf:
    return {Type::getHalfTy(C), false};
  }
  return {};
}

/// The identity of \p C on \p E (scheduler/Collectives.cpp, identity()).
Constant *identity(Combine C, ElementType E) {
  Type *T = E.Ty;
  if (T->isFloatingPointTy()) {
    const fltSemantics &Sem = T->getFltSemantics();
    switch (C) {
    case Combine::Min:
      return ConstantFP::getInfinity(T, false);
    case Combine::Max:
      return ConstantFP::getInfinity(T, true);
    case Combine::Mul:
      return ConstantFP::get(T, APFloat::getOne(Sem));
    default:
      return ConstantFP::get(T, APFloat::getZero(Sem));
    }
  }
  unsigned Bits = T->getIntegerBitWidth();
  switch (C) {
  case Combine::Min:
    return ConstantInt::get(T, E.Signed ? APInt::getSignedMaxValue(Bits)
                                        : APInt::getMaxValue(Bits));
  case Combine::Max:
    return ConstantInt::get(T, E.Signed ? APInt::getSignedMinValue(Bits)
                                        : APInt::getMinValue(Bits));
  case Combine::Mul:
  case Combine::LAnd:
    return ConstantInt::get(T, 1);
  case Combine::And:
    return Constant::getAllOnesValue(T);
  default:
    return Constant::getNullValue(T);
  }
}

/// combine(A, B) on scalars or vectors of \p E. Floating-point min and max
/// as the runtime's `B < A ? B : A` and `A < B ? B : A`; logical
/// operations on operands already 0 or 1.
Value *combine(IRBuilder<> &B, Combine C, ElementType E, Value *X, Value *Y) {
  if (E.Ty->isFloatingPointTy()) {
    switch (C) {
    case Combine::Add:
      return B.CreateFAdd(X, Y);
    case Combine::Mul:
      return B.CreateFMul(X, Y);
    case Combine::Min:
      return B.CreateSelect(B.CreateFCmpOLT(Y, X), Y, X);
    default: // Max
      return B.CreateSelect(B.CreateFCmpOLT(X, Y), Y, X);
    }
  }
  switch (C) {
  case Combine::Add:
    return B.CreateAdd(X, Y);
  case Combine::Mul:
    return B.CreateMul(X, Y);
  case Combine::Min:
    return B.CreateBinaryIntrinsic(E.Signed ? Intrinsic::smin : Intrinsic::umin,
                                   X, Y);
  case Combine::Max:
    return B.CreateBinaryIntrinsic(E.Signed ? Intrinsic::smax : Intrinsic::umax,
                                   X, Y);
  case Combine::And:
  case Combine::LAnd:
    return B.CreateAnd(X, Y);
  case Combine::Or:
  case Combine::LOr:
    return B.CreateOr(X, Y);
  default: // Xor, LXor
    return B.CreateXor(X, Y);
  }
}

/// \p V's lanes moved up by \p K, lanes below K the identity \p Id.
Value *shiftUp(IRBuilder<> &B, Value *V, unsigned K, Constant *Id, unsigned S) {
  SmallVector<int, 16> Mask;
  for (unsigned I = 0; I < S; ++I)
    Mask.push_back(I >= K ? int(I - K) : int(S + I));
  return B.CreateShuffleVector(
      V, ConstantVector::getSplat(ElementCount::getFixed(S), Id), Mask);
}

/// The reduction or scan of the \p S lanes of \p V.
Value *arithmeticLanes(IRBuilder<> &B, Combine C, Mode M, ElementType E,
                       Value *V, unsigned S) {
  Constant *Id = identity(C, E);
  if (C == Combine::LAnd || C == Combine::LOr || C == Combine::LXor)
    V = B.CreateZExt(B.CreateICmpNE(V, Constant::getNullValue(V->getType())),
                     V->getType());
  if (E.Ty->isFloatingPointTy()) {
    // One lane after the other, from the identity, in increasing local id.
    Value *Acc = Id;
    Value *Out = PoisonValue::get(V->getType());
    for (unsigned I = 0; I < S; ++I) {
      Value *X = B.CreateExtractElement(V, uint64_t(I));
      if (M == Mode::Exclusive)
        Out = B.CreateInsertElement(Out, Acc, uint64_t(I));
      Acc = combine(B, C, E, Acc, X);
      if (M == Mode::Inclusive)
        Out = B.CreateInsertElement(Out, Acc, uint64_t(I));
    }
    return M == Mode::Reduce ? B.CreateVectorSplat(S, Acc) : Out;
  }
  // Integers: the inclusive scan in log2(S) steps (Hillis-Steele within one
  // vector), its last lane the reduction, the exclusive scan one lane up.
  Value *Scan = V;
  for (unsigned K = 1; K < S; K *= 2)
    Scan = combine(B, C, E, Scan, shiftUp(B, Scan, K, Id, S));
  if (M == Mode::Reduce)
    return B.CreateVectorSplat(S,
                               B.CreateExtractElement(Scan, uint64_t(S - 1)));
  if (M == Mode::Exclusive)
    return shiftUp(B, Scan, 1, Id, S);
  return Scan;
}

/// One full sub-group in the loop of emitInlineSubGroupOp: its slots as one
/// vector of S lanes, the lanes taking part, and how results are stored.
struct SubGroupVector {
  IRBuilder<> &B;
  unsigned S;
  ElementType E;
  FixedVectorType *VecTy; // the slots: S x i64
  FixedVectorType *TVec;  // the operands: S x E.Ty
  Value *I;               // the sub-group's first linear local id
  Value *At;              // its value slots
  Value *Args;            // every work-item's index argument slot
  Value *States;          // null, or the state slots
  Value *Active;          // the lanes taking part
  Value *ActiveBits;      // the same as an iS mask
  Value *First;           // the lowest active sub-group local id
  Value *Old;             // the slots as they were

  /// Results go to the active work-items' slots only.
  void store(Value *V) const {
    B.CreateAlignedStore(States ? B.CreateSelect(Active, V, Old) : V, At,
                         Align(8));
  }
  void splat(Value *X) const { store(B.CreateVectorSplat(S, X)); }
  // The slots hold each operand's bits zero-extended (collectiveToBits).
  Value *decode(Value *Bits) const {
    unsigned W = E.Ty->getPrimitiveSizeInBits().getFixedValue();
    Value *Int = B.CreateTrunc(Bits, FixedVectorType::get(B.getIntNTy(W), S));
    return B.CreateBitCast(Int, TVec);
  }
  Value *encode(Value *V) const {
    unsigned W = E.Ty->getPrimitiveSizeInBits().getFixedValue();
    return B.CreateZExt(
        B.CreateBitCast(V, FixedVectorType::get(B.getIntNTy(W), S)), VecTy);
  }
  Value *notZero(Value *V) const {
    return E.Ty->isFloatingPointTy()
               ? B.CreateFCmpUNE(V, Constant::getNullValue(TVec))
               : B.CreateICmpNE(V, Constant::getNullValue(TVec));
  }
  void flag(Value *Bit) const { // int 0 or 1
    splat(B.CreateZExt(Bit, B.getInt64Ty()));
  }
  Value *inactive() const { return B.CreateNot(Active); }
  Value *slotOf(Value *Lane) const {
    return B.CreateAlignedLoad(B.getInt64Ty(),
                               B.CreateInBoundsGEP(B.getInt64Ty(), At, Lane),
                               Align(8));
  }
  /// The lane numbers 0 ... S - 1.
  Constant *laneIds() const {
    SmallVector<Constant *, 16> Ids;
    for (unsigned L = 0; L < S; ++L)
      Ids.push_back(B.getInt64(L));
    return ConstantVector::get(Ids);
  }
};

/// sub_group_clustered_reduce_* (every work-item here: the caller passes
/// no states): the cluster size is the index argument (the same in every
/// work-item); 0 or not a power of two (undefined) is the whole sub-group,
/// as in the runtime. Butterfly steps: at step K each lane combines with
/// lane ^ K while K is below the cluster size, so every lane ends with its
/// aligned cluster's reduction (the integer operations are associative and
/// commutative).
void clusteredReduce(const SubGroupVector &V, Combine C) {
  IRBuilder<> &B = V.B;
  unsigned S = V.S;
  Value *Size = B.CreateAlignedLoad(
      B.getInt64Ty(), B.CreateInBoundsGEP(B.getInt64Ty(), V.Args, V.I),
      Align(8), "cluster");
  Value *Pow2 = B.CreateAnd(
      B.CreateICmpNE(Size, B.getInt64(0)),
      B.CreateICmpEQ(B.CreateAnd(Size, B.CreateSub(Size, B.getInt64(1))),
                     B.getInt64(0)));
  Size = B.CreateSelect(Pow2, Size, B.getInt64(S));
  Value *X = V.decode(V.Old);
  if (C == Combine::LAnd || C == Combine::LOr || C == Combine::LXor)
    X = B.CreateZExt(B.CreateICmpNE(X, Constant::getNullValue(V.TVec)), V.TVec);
  for (unsigned K = 1; K < S; K *= 2) {
    SmallVector<int, 16> Mask;
    for (unsigned L = 0; L < S; ++L)
      Mask.push_back(int(L ^ K));
    Value *Pair = B.CreateShuffleVector(X, X, Mask);
    X = B.CreateSelect(B.CreateICmpULT(B.getInt64(K), Size),
                       combine(B, C, V.E, X, Pair), X);
  }
  V.store(V.encode(X));
}

/// A reduction or scan. Inactive lanes take the identity: every active
/// lane's scan then combines exactly the active lanes before it (the
/// floating-point ones too: a sum from +0 is never -0, so adding +0 changes
/// nothing; 1 multiplies exactly; an infinity never wins a min or max).
void arithmetic(const SubGroupVector &V, Combine C, Mode M) {
  IRBuilder<> &B = V.B;
  Value *X = V.decode(V.Old);
  if (V.States)
    X = B.CreateSelect(V.Active, X,
                       ConstantVector::getSplat(ElementCount::getFixed(V.S),
                                                identity(C, V.E)));
  V.store(V.encode(arithmeticLanes(B, C, M, V.E, X, V.S)));
}

/// sub_group_all, sub_group_any, sub_group_non_uniform_all_equal.
void vote(const SubGroupVector &V, uint32_t Kind) {
  IRBuilder<> &B = V.B;
  if (Kind == CollAll || Kind == CollAny) {
    Value *Bits = V.notZero(V.decode(V.Old));
    V.flag(Kind == CollAll ? B.CreateAndReduce(B.CreateOr(Bits, V.inactive()))
                           : B.CreateOrReduce(B.CreateAnd(Bits, V.Active)));
    return;
  }
  Value *X = V.decode(V.Old);
  Value *Lead = B.CreateVectorSplat(V.S, B.CreateExtractElement(X, V.First));
  Value *Eq = V.E.Ty->isFloatingPointTy() ? B.CreateFCmpOEQ(X, Lead)
                                          : B.CreateICmpEQ(X, Lead);
  V.flag(B.CreateAndReduce(B.CreateOr(Eq, V.inactive())));
}

/// The source: the first active work-item's index (the same in every
/// work-item). Outside the sub-group (undefined): the first active
/// work-item's value for the non-uniform broadcast and for a sub-group
/// split between sync points, 0 for the uniform one, as the runtime.
void broadcast(const SubGroupVector &V, bool NonUniform) {
  IRBuilder<> &B = V.B;
  unsigned S = V.S;
  Value *From = B.CreateAlignedLoad(
      B.getInt64Ty(),
      B.CreateInBoundsGEP(B.getInt64Ty(), V.Args, B.CreateAdd(V.I, V.First)),
      Align(8), "from");
  Value *In = B.CreateICmpULT(From, B.getInt64(S));
  Value *Src = V.slotOf(B.CreateSelect(In, From, V.First));
  Value *All = B.CreateICmpEQ(V.ActiveBits, B.getIntN(S, ~uint64_t(0)));
  Value *Keep = NonUniform ? B.getTrue() : B.CreateOr(In, B.CreateNot(All));
  V.splat(B.CreateSelect(Keep, Src, B.getInt64(0)));
}

/// Each lane's source lane (scheduler/Collectives.cpp, shuffle()): from
/// its index, mask or delta; a source outside the sub-group (undefined) is
/// the lane itself. Rotations: within the sub-group (a full one is the
/// maximum size), or within clusters of the size in the Op. Every lane
/// reads the slots as they were; only the active ones take a result.
void shuffle(const SubGroupVector &V, uint32_t Op) {
  IRBuilder<> &B = V.B;
  unsigned S = V.S;
  uint32_t Kind = (Op % CollSubGroup) / 16;
  Value *A = B.CreateAlignedLoad(
      V.VecTy, B.CreateInBoundsGEP(B.getInt64Ty(), V.Args, V.I), Align(8),
      "arg");
  Value *Lane = V.laneIds();
  Value *Src = A;
  if (Kind == CollShuffleXor)
    Src = B.CreateXor(Lane, A);
  else if (Kind == CollShuffleUp)
    Src = B.CreateSub(Lane, A); // below 0: a large value
  else if (Kind == CollShuffleDown)
    Src = B.CreateAdd(Lane, A);
  else if (Kind == CollRotate) {
    uint64_t Cluster = S;
    if (Op & CollClustered)
      Cluster = uint64_t(1) << ((Op >> CollClusterShift) - 1);
    // The delta is an int; a cluster is a power of two, so the
    // non-negative remainder is a mask.
    Value *Delta = B.CreateSExt(
        B.CreateTrunc(A, FixedVectorType::get(B.getInt32Ty(), S)), V.VecTy);
    Value *Low = B.CreateVectorSplat(S, B.getInt64(Cluster - 1));
    Src = B.CreateOr(B.CreateAnd(Lane, B.CreateNot(Low)),
                     B.CreateAnd(B.CreateAdd(Lane, Delta), Low));
  }
  Value *In = B.CreateICmpULT(Src, B.CreateVectorSplat(S, B.getInt64(S)));
  Value *From = B.CreateSelect(In, Src, Lane);
  V.store(B.CreateMaskedGather(
      V.VecTy, B.CreateInBoundsGEP(B.getInt64Ty(), V.At, From), Align(8)));
}

/// The operation \p Op on one sub-group's vector.
void emitOperation(const SubGroupVector &V, uint32_t Op) {
  IRBuilder<> &B = V.B;
  unsigned S = V.S;
  uint32_t Kind = (Op % CollSubGroup) / 16;
  Combine C;
  Mode M;
  if (collectiveArithmetic(Kind, C, M) && (Op & CollClustered)) {
    clusteredReduce(V, C);
  } else if (collectiveArithmetic(Kind, C, M)) {
    arithmetic(V, C, M);
  } else if (Kind == CollAll || Kind == CollAny || Kind == CollAllEqual) {
    vote(V, Kind);
  } else if (Kind == CollBroadcast) {
    broadcast(V, (Op & CollNonUniform) != 0);
  } else if (Kind == CollBroadcastFirst) {
    V.splat(V.slotOf(V.First));
  } else if (Kind == CollElect) {
    V.store(B.CreateZExt(
        B.CreateICmpEQ(V.laneIds(), B.CreateVectorSplat(S, V.First)), V.VecTy));
  } else if ((Kind >= CollShuffle && Kind <= CollShuffleDown) ||
             Kind == CollRotate) {
    shuffle(V, Op);
  } else { // CollBallot: bit i for active local id i whose int predicate
           // is not 0
    auto *I32Vec = FixedVectorType::get(B.getInt32Ty(), S);
    Value *Pred = B.CreateICmpNE(B.CreateTrunc(V.Old, I32Vec),
                                 Constant::getNullValue(I32Vec));
    V.splat(B.CreateZExt(
        B.CreateBitCast(B.CreateAnd(Pred, V.Active), B.getIntNTy(S)),
        B.getInt64Ty()));
  }
}

} // namespace

bool inlineSubGroupOp(uint32_t Op, bool Diverged) {
  if (!(Op & CollSubGroup))
    return false;
  uint32_t Kind = (Op % CollSubGroup) / 16;
  bool Shuffle =
      (Kind >= CollShuffle && Kind <= CollShuffleDown) || Kind == CollRotate;
  if (Shuffle)
    return Op % 16 <= CollHalf;
  Combine C;
  Mode M;
  bool Float =
      Op % 16 == CollFloat || Op % 16 == CollDouble || Op % 16 == CollHalf;
  if (Op % 16 > CollHalf)
    return false;
  // Integer clusters only (in butterfly order), and with every work-item
  // here (the runtime reduces a split sub-group's work-items as one).
  if (Op & CollClustered)
    return !Diverged && collectiveArithmetic(Kind, C, M) && M == Mode::Reduce &&
           !Float;
  if (collectiveArithmetic(Kind, C, M))
    return !Float || C == Combine::Add || C == Combine::Mul ||
           C == Combine::Min || C == Combine::Max;
  switch (Kind) {
  case CollAll:
  case CollAny:
  case CollAllEqual:
  case CollBroadcast:
  case CollBroadcastFirst:
  case CollElect:
  case CollBallot:
  case CollReconverge:
    return true;
  default:
    return false;
  }
}

Value *emitInlineSubGroupOp(IRBuilder<> &B, uint32_t Op, Value *Values,
                            Value *Args, Value *N, Value *States,
                            Value *Region) {
  LLVMContext &Ctx = B.getContext();
  Function *F = B.GetInsertBlock()->getParent();
  Type *I64 = B.getInt64Ty(), *I32 = B.getInt32Ty();
  unsigned S = hostSubGroupSize();
  uint32_t Kind = (Op % CollSubGroup) / 16;
  // Full sub-groups only: the last one of a group may be partial.
  Value *Full = B.CreateAnd(N, B.getInt64(~uint64_t(S - 1)), "full");
  if (Kind == CollReconverge)
    return Full; // a meeting point: nothing to compute

  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Loop = BasicBlock::Create(Ctx, "sg", F);
  BasicBlock *Body = BasicBlock::Create(Ctx, "sg.body", F);
  BasicBlock *Latch = BasicBlock::Create(Ctx, "sg.latch", F);
  BasicBlock *Done = BasicBlock::Create(Ctx, "sg.done", F);
  B.CreateCondBr(B.CreateICmpEQ(Full, B.getInt64(0)), Done, Loop);
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(I64, 2, "sg.first");
  I->addIncoming(B.getInt64(0), Pre);
  Value *At = B.CreateInBoundsGEP(I64, Values, I);
  auto *VecTy = FixedVectorType::get(I64, S);
  auto *BoolVec = FixedVectorType::get(B.getInt1Ty(), S);
  // The work-items taking part: all, or those whose state is this sync
  // point (the others wait elsewhere and keep their slots for their own
  // collective: a non-uniform call's active set). A sub-group with none
  // here is left alone.
  Value *Active = Constant::getAllOnesValue(BoolVec);
  Value *ActiveBits = B.getIntN(S, ~uint64_t(0));
  if (States) {
    Value *St = B.CreateAlignedLoad(FixedVectorType::get(I32, S),
                                    B.CreateInBoundsGEP(I32, States, I),
                                    Align(4), "states");
    Active = B.CreateICmpEQ(St, B.CreateVectorSplat(S, Region), "active");
    ActiveBits = B.CreateBitCast(Active, B.getIntNTy(S));
  }
  B.CreateCondBr(B.CreateICmpNE(ActiveBits, B.getIntN(S, 0)), Body, Latch);
  B.SetInsertPoint(Body);
  // The lowest active sub-group local id.
  Value *First = B.CreateZExt(
      B.CreateBinaryIntrinsic(Intrinsic::cttz, ActiveBits, B.getTrue()), I64,
      "first");
  Value *Old = B.CreateAlignedLoad(VecTy, At, Align(8), "slots");
  ElementType E = elementType(Ctx, Op);
  SubGroupVector V{.B = B,
                   .S = S,
                   .E = E,
                   .VecTy = VecTy,
                   .TVec = FixedVectorType::get(E.Ty, S),
                   .I = I,
                   .At = At,
                   .Args = Args,
                   .States = States,
                   .Active = Active,
                   .ActiveBits = ActiveBits,
                   .First = First,
                   .Old = Old};
  emitOperation(V, Op);
  B.CreateBr(Latch);
  B.SetInsertPoint(Latch);
  Value *Next = B.CreateAdd(I, B.getInt64(S), "sg.next", true, true);
  I->addIncoming(Next, Latch);
  B.CreateCondBr(B.CreateICmpULT(Next, Full), Loop, Done);
  B.SetInsertPoint(Done);
  return Full;
}

} // namespace clcpu::compiler
