//===- RuntimeConsecutiveGathers.cpp - gathers checked at run time --------===//
//===//
//
// compiler/passes/ConsecutiveGathers.cpp turns a gather into a vector load when
// the lanes' addresses are adjacent by construction. Many work-item loops
// gather from addresses that are adjacent almost always but not provably so:
// `s[(lid + 1) % WG]` (adjacent except where the index wraps),
// `in[min(gid + 1, n - 1)]` (except at the clamp), `a[idx[i]]` with a sorted
// index array. A gather of 16 lanes costs a dozen cycles or more on x86;
// comparing 16 addresses against lane 0's plus i * element size costs a few.
//
// Every remaining gather and scatter inside a loop gets that comparison: when
// all lanes are adjacent it runs as a (masked) vector load or store from lane
// 0's address, otherwise as the original gather or scatter. A gather also
// checks whether all lanes read one address (`offsets[i / chunk]`): then it
// is one scalar load and a broadcast. Each fast form is equivalent to the
// original whenever its check passes (the same lanes read or write the same
// addresses; adjacent addresses never repeat, so a scatter's lane order does
// not matter; a masked load or store never touches a disabled lane's
// address, just like the gather). Where the addresses are
// `gep base, ..., sext(<N x i32> idx)` the check compares the 32-bit indices
// (one vector compare, plus lane 0 at least N - 1 below INT_MAX so adjacent
// 32-bit indices cannot wrap) and the 64-bit address vector is only built
// on the gather's own path.
//
// A constant modulus (`s[(lid + 1) % WG]`) is tested on lane 0 alone, in
// scalar code (modularIndex). When the modulus M is a power of two and lane
// 0's dividend steps by a constant S through the loop around the gather
// (SCEV: {Start, +, S}), with the gather on every iteration's path, even
// that test becomes a countdown: how many iterations from here on keep all
// lanes adjacent is (M - N - index) / S + 1, computed before the loop and
// again after each iteration that took the gather; in between, each
// iteration decrements the count and adds S to lane 0's index, which the
// loop carries in the address's own type: no remainder, no sign test and
// no index extension per vector (barrier_stress's neighbour loop). The
// vector that wraps takes two masked loads instead of the gather
// (splitWrap), and the loop runs CountDownUnroll vectors per pass.

#include "compiler/passes/RuntimeConsecutiveGathers.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <optional>

using namespace llvm;

#define DEBUG_TYPE "clcpu-runtime-consecutive-gathers"

namespace clcpu::compiler {

namespace {

/// Whether \p II is worth guarding: a gather or scatter of 4 to 64 lanes of
/// an element whose size is a power of two no larger than 8 bytes.
bool candidate(const IntrinsicInst &II, const DataLayout &DL) {
  bool Gather = II.getIntrinsicID() == Intrinsic::masked_gather;
  auto *VT = dyn_cast<FixedVectorType>(Gather ? II.getType()
                                              : II.getArgOperand(0)->getType());
  if (!VT || VT->getNumElements() < 4 || VT->getNumElements() > 64)
    return false;
  Type *E = VT->getElementType();
  uint64_t Size = DL.getTypeStoreSize(E).getFixedValue();
  return Size == DL.getTypeAllocSize(E).getFixedValue() && Size <= 8 &&
         isPowerOf2_64(Size) &&
         isa<FixedVectorType>(II.getArgOperand(Gather ? 0 : 1)->getType());
}

/// Lane 0's address and how to compare the lanes, by element index when
/// \p Ptrs is `gep T, base, <uniform indices>..., <vector index>` whose last
/// index steps by \p Size bytes (one 32-bit vector compare for an int index,
/// and the vector address arithmetic then only feeds the gather, which is
/// where it sinks), else by address.
struct Lanes {
  Value *Base = nullptr;     // lane 0's address
  Value *Index = nullptr;    // a vector of indices or of addresses
  Value *NoWrap = nullptr;   // i1: lane 0's index + N - 1 does not wrap
  Value *Adjacent = nullptr; // i1: a scalar test that replaces the compare
  uint64_t Step = 1;         // between adjacent lanes: 1 index, or Size bytes
  // A modular index (modularIndex): lane 0's dividend Y0, its index in the
  // GEP's index type (the remainder, extended), and the modulus M when a
  // power of two, else null.
  Value *Y0 = nullptr;
  Instruction *Index0 = nullptr;
  uint64_t PowerOf2M = 0;
  bool SRem = false;
};

/// What modularIndex finds.
struct Modular {
  Value *R0 = nullptr, *Ok = nullptr, *Y0 = nullptr;
  uint64_t PowerOf2M = 0; // M when a power of two below 2^63, else 0
  bool SRem = false;
};

/// Whether lane k of the integer vector \p V is lane 0's plus k, in \p V's
/// wrapping arithmetic: `<c, c+1, ...>`, such a vector plus or minus a
/// splat, its truncation, or a PHI of such vectors (a widened induction
/// variable). PHIs on the way are assumed to have the property, which holds
/// by induction when every other value on the cycle keeps it.
bool consecutiveLanes(Value *V, SmallPtrSetImpl<PHINode *> &Visiting,
                      unsigned Depth = 0) {
  auto *VT = dyn_cast<FixedVectorType>(V->getType());
  if (!VT || !VT->getElementType()->isIntegerTy() || Depth > 8)
    return false;
  if (auto *C = dyn_cast<Constant>(V)) {
    auto *E0 = dyn_cast_or_null<ConstantInt>(C->getAggregateElement(0u));
    if (!E0)
      return false;
    for (unsigned K = 1; K < VT->getNumElements(); ++K) {
      auto *EK = dyn_cast_or_null<ConstantInt>(C->getAggregateElement(K));
      if (!EK || EK->getValue() != E0->getValue() + K)
        return false;
    }
    return true;
  }
  if (auto *P = dyn_cast<PHINode>(V)) {
    if (!Visiting.insert(P).second)
      return true;
    bool All = all_of(P->incoming_values(), [&](Value *In) {
      return consecutiveLanes(In, Visiting, Depth + 1);
    });
    if (!All)
      Visiting.erase(P); // an assumption only while P's cycle is explored
    return All;
  }
  if (auto *T = dyn_cast<TruncInst>(V))
    return consecutiveLanes(T->getOperand(0), Visiting, Depth + 1);
  auto *BO = dyn_cast<BinaryOperator>(V);
  if (!BO)
    return false;
  Value *L = BO->getOperand(0), *R = BO->getOperand(1);
  if (BO->getOpcode() == Instruction::Add)
    return (getSplatValue(R) && consecutiveLanes(L, Visiting, Depth + 1)) ||
           (getSplatValue(L) && consecutiveLanes(R, Visiting, Depth + 1));
  if (BO->getOpcode() == Instruction::Sub)
    return getSplatValue(R) && consecutiveLanes(L, Visiting, Depth + 1);
  return false;
}

/// Lane 0 of \p V, a vector consecutiveLanes accepted, as scalar code next
/// to \p V's own (a scalar PHI beside a vector PHI), so that lane 0 needs no
/// vector at all.
Value *lane0(Value *V, DenseMap<Value *, Value *> &Done) {
  if (Value *S = Done.lookup(V))
    return S;
  if (auto *C = dyn_cast<Constant>(V))
    return C->getAggregateElement(0u);
  auto *I = cast<Instruction>(V);
  if (auto *P = dyn_cast<PHINode>(I)) {
    IRBuilder<> B(P);
    PHINode *S =
        B.CreatePHI(P->getType()->getScalarType(), P->getNumIncomingValues(),
                    P->getName() + ".lane0");
    Done[P] = S;
    for (unsigned K = 0; K < P->getNumIncomingValues(); ++K)
      S->addIncoming(lane0(P->getIncomingValue(K), Done),
                     P->getIncomingBlock(K));
    return S;
  }
  IRBuilder<> B(I->getNextNode());
  Value *S;
  if (auto *T = dyn_cast<TruncInst>(I)) {
    S = B.CreateTrunc(lane0(T->getOperand(0), Done),
                      T->getType()->getScalarType());
  } else {
    auto *BO = cast<BinaryOperator>(I);
    Value *L = BO->getOperand(0), *R = BO->getOperand(1);
    Value *LS = getSplatValue(L), *RS = getSplatValue(R);
    // Add: the operand that is not the splat (or either, both splats).
    if (BO->getOpcode() == Instruction::Add && LS && !RS)
      S = B.CreateAdd(LS, lane0(R, Done));
    else
      S = B.CreateBinOp(BO->getOpcode(), lane0(L, Done), RS);
  }
  S->setName(V->getName() + ".lane0");
  Done[V] = S;
  return S;
}

/// For \p I = `Y % M` (srem, urem) or `Y & (M - 1)` with \p Y's lanes
/// consecutive and M >= N a constant: lane 0's index, computed as a scalar,
/// and a scalar test that the N lanes' indices are adjacent. That is the
/// neighbour access `s[(lid + 1) % WG]`: lane 0's `Y` goes through the
/// remainder alone, and the test is that its result is at most M - N (no
/// lane wraps) with `Y`'s lanes not wrapping in their type (for srem: lane
/// 0 non-negative, so that srem is urem). The vector of indices then feeds
/// only the gather. Null when \p I is not of that form.
Modular modularIndex(IRBuilder<> &B, Value *I, unsigned N) {
  auto *BO = dyn_cast<BinaryOperator>(I);
  if (!BO)
    return {};
  auto Op = BO->getOpcode();
  auto *MC = dyn_cast_or_null<ConstantInt>(getSplatValue(BO->getOperand(1)));
  if (!MC || (Op != Instruction::SRem && Op != Instruction::URem &&
              Op != Instruction::And))
    return {};
  APInt M = MC->getValue();
  unsigned Bits = M.getBitWidth();
  if (Op == Instruction::And) {
    if (!(M + 1).isPowerOf2())
      return {};
    M = M + 1; // the mask M - 1 keeps the residue mod M
  }
  // M >= N (as a positive number for srem), and N itself fits.
  if (Bits < 8 || (uint64_t(N) >> (Bits - 1)) != 0 || M.isZero() ||
      (Op == Instruction::SRem && M.isNegative()) || M.ult(N))
    return {};
  SmallPtrSet<PHINode *, 4> Visiting;
  Value *Y = BO->getOperand(0);
  if (!consecutiveLanes(Y, Visiting))
    return {};
  DenseMap<Value *, Value *> Done;
  Value *Y0 = lane0(Y, Done);
  // Y is splat(Y0) + <0, 1, ...> lane by lane: the remainder takes that
  // instead, so the widened induction variable feeding Y is no longer
  // needed in the loop (the vector indices are then built on the gather's
  // path only).
  {
    IRBuilder<> YB(BO);
    SmallVector<Constant *, 16> Iota;
    for (unsigned K = 0; K < N; ++K)
      Iota.push_back(ConstantInt::get(Y0->getType(), K));
    BO->setOperand(0,
                   YB.CreateAdd(YB.CreateVectorSplat(N, Y0),
                                ConstantVector::get(Iota), "lanes.dividend"));
  }
  // Where the test passes, lane 0 is non-negative (for srem too) and srem
  // is urem, the cheaper one; the index is used only there.
  Value *R0 = B.CreateBinOp(Op == Instruction::SRem ? Instruction::URem : Op,
                            Y0, ConstantInt::get(Y0->getType(), MC->getValue()),
                            "lane0.index");
  Constant *Last = ConstantInt::get(Y0->getType(), M - N);
  Value *Ok = B.CreateICmpULE(R0, Last, "no.wrap");
  if (Op != Instruction::And && M.isPowerOf2()) {
    // A power of two divides 2^Bits (and 2^(Bits-1), srem's M being
    // positive): lanes that stay below lane 0's next multiple of M cannot
    // wrap the type, so the remainder's bound is the whole test. For srem
    // the sign bit joins the mask, failing it for a negative lane 0.
    if (Op == Instruction::SRem)
      Ok = B.CreateICmpULE(
          B.CreateAnd(Y0, ConstantInt::get(Y0->getType(),
                                           APInt::getSignMask(Bits) | (M - 1))),
          Last, "no.wrap");
  } else if (Op != Instruction::And) {
    // Lane 0 + N - 1 does not pass the type's maximum (signed maximum for
    // srem, which also keeps lane 0 non-negative: unsigned compare).
    APInt Max = Op == Instruction::SRem ? APInt::getSignedMaxValue(Bits)
                                        : APInt::getMaxValue(Bits);
    Ok = B.CreateAnd(
        B.CreateICmpULE(Y0, ConstantInt::get(Y0->getType(), Max - (N - 1))), Ok,
        "lanes.adjacent.mod");
  }
  Modular Result;
  Result.R0 = R0;
  Result.Ok = Ok;
  Result.Y0 = Y0;
  Result.SRem = Op == Instruction::SRem;
  if (M.isPowerOf2() && M.getActiveBits() < 64)
    Result.PowerOf2M = M.getZExtValue();
  return Result;
}

Lanes compareBy(IRBuilder<> &B, Value *Ptrs, uint64_t Size, unsigned N,
                const DataLayout &DL) {
  auto ByAddress = [&] {
    Lanes L;
    L.Base = B.CreateExtractElement(Ptrs, uint64_t(0), "lane0.addr");
    L.Index = B.CreatePtrToInt(Ptrs, FixedVectorType::get(B.getInt64Ty(), N));
    L.Step = Size;
    return L;
  };
  auto *GEP = dyn_cast<GetElementPtrInst>(Ptrs);
  if (!GEP || GEP->getNumIndices() == 0)
    return ByAddress();
  Value *P = GEP->getPointerOperand();
  if (P->getType()->isVectorTy() && !(P = getSplatValue(P)))
    return ByAddress();
  SmallVector<Value *, 4> Scalar;
  gep_type_iterator GTI = gep_type_begin(GEP);
  for (unsigned I = 0; I + 1 < GEP->getNumIndices(); ++I, ++GTI) {
    Value *Idx = GEP->getOperand(1 + I);
    if (Idx->getType()->isVectorTy() && !(Idx = getSplatValue(Idx)))
      return ByAddress();
    Scalar.push_back(Idx);
  }
  Value *Last = GEP->getOperand(GEP->getNumIndices());
  if (GTI.isStruct() || !Last->getType()->isVectorTy() ||
      GTI.getSequentialElementStride(DL).getFixedValue() != Size)
    return ByAddress();
  Lanes L;
  // `s[(lid + 1) % WG]`: lane 0's index and the test in scalar code.
  auto *LastExt = dyn_cast<CastInst>(Last);
  if (LastExt && !isa<SExtInst>(LastExt) && !isa<ZExtInst>(LastExt))
    LastExt = nullptr;
  Modular MI = modularIndex(B, LastExt ? LastExt->getOperand(0) : Last, N);
  if (Value *R0 = MI.R0) {
    L.Y0 = MI.Y0;
    L.PowerOf2M = MI.PowerOf2M;
    L.SRem = MI.SRem;
    if (LastExt)
      R0 = B.CreateCast(LastExt->getOpcode(), R0,
                        Last->getType()->getScalarType());
    Scalar.push_back(R0);
    L.Index0 = dyn_cast<Instruction>(R0);
    L.Base = B.CreateGEP(GEP->getSourceElementType(), P, Scalar, "lane0.addr",
                         GEP->getNoWrapFlags());
    L.Index = Last;
    L.Adjacent = MI.Ok;
    return L;
  }
  Scalar.push_back(B.CreateExtractElement(Last, uint64_t(0)));
  L.Base = B.CreateGEP(GEP->getSourceElementType(), P, Scalar, "lane0.addr",
                       GEP->getNoWrapFlags());
  L.Index = Last;
  // An index widened from 32 bits: compare the narrow lanes, and lane 0 must
  // be N - 1 below the narrow type's maximum (else adjacent narrow values
  // could wrap where the wide ones do not).
  auto *Ext = dyn_cast<CastInst>(Last);
  if (Ext && (isa<SExtInst>(Ext) || isa<ZExtInst>(Ext))) {
    Value *X = Ext->getOperand(0);
    unsigned Bits = X->getType()->getScalarSizeInBits();
    if (Bits >= 8 && (uint64_t(N) - 1) < (uint64_t(1) << (Bits - 1))) {
      Value *X0 = B.CreateExtractElement(X, uint64_t(0));
      bool Signed = isa<SExtInst>(Ext);
      APInt Max =
          Signed ? APInt::getSignedMaxValue(Bits) : APInt::getMaxValue(Bits);
      Value *Limit = ConstantInt::get(X0->getType(), Max - (N - 1));
      L.NoWrap =
          Signed ? B.CreateICmpSLE(X0, Limit) : B.CreateICmpULE(X0, Limit);
      L.Index = X;
    }
  }
  return L;
}

/// Whether every lane of \p V is lane 0's plus \p Step times the lane
/// number (Step 0: all lanes equal).
Value *allLanes(IRBuilder<> &B, Value *V, uint64_t Step, const Twine &Name) {
  auto *VT = cast<FixedVectorType>(V->getType());
  unsigned N = VT->getNumElements();
  Value *Lane0 = B.CreateVectorSplat(N, B.CreateExtractElement(V, uint64_t(0)));
  Value *Want = Lane0;
  if (Step) {
    SmallVector<Constant *, 16> Steps;
    for (unsigned I = 0; I < N; ++I)
      Steps.push_back(ConstantInt::get(VT->getElementType(), I * Step));
    Want = B.CreateAdd(Lane0, ConstantVector::get(Steps));
  }
  Value *Eq = B.CreateBitCast(B.CreateICmpEQ(V, Want), B.getIntNTy(N));
  return B.CreateICmpEQ(Eq, ConstantInt::getAllOnesValue(B.getIntNTy(N)), Name);
}

/// From lane 0's dividend \p Y of an iteration: lane 0's index (Y mod M)
/// and how many iterations from this one on have all N lanes adjacent, the
/// dividend growing by \p S each time: (M - N - index) / S + 1 when the
/// index is at most M - N (and, for srem, Y is non-negative), else 0. A
/// power of two M divides 2^Bits (and 2^(Bits-1)): none of those
/// iterations' lanes wraps the type.
std::pair<Value *, Value *> countFrom(IRBuilder<> &B, Value *Y, const Lanes &L,
                                      unsigned N, uint64_t S) {
  Type *T = Y->getType();
  uint64_t M = L.PowerOf2M;
  Value *R = B.CreateAnd(Y, ConstantInt::get(T, M - 1), "countdown.index");
  Value *Valid = B.CreateICmpULE(R, ConstantInt::get(T, M - N));
  if (L.SRem)
    Valid = B.CreateAnd(Valid, B.CreateICmpSGE(Y, ConstantInt::get(T, 0)));
  Value *Left =
      B.CreateAdd(B.CreateUDiv(B.CreateSub(ConstantInt::get(T, M - N), R),
                               ConstantInt::get(T, S)),
                  ConstantInt::get(T, 1));
  return {R, B.CreateSelect(Valid, Left, ConstantInt::get(T, 0),
                            "countdown.count")};
}

/// A modular index's test as a count of iterations (see the file comment):
/// the loop's header PHIs and what the test's two sides feed them.
struct CountDown {
  PHINode *Left = nullptr, *Rem = nullptr;
  BasicBlock *Header = nullptr, *Preheader = nullptr;
  uint64_t Step = 0;
};

/// For \p L, a power-of-two modular index of \p II whose lane-0 dividend
/// is {Start, +, S} in the loop around \p II, with \p II's block on every
/// iteration's path to the latch: the header PHIs, started in the
/// preheader. None when the shape does not fit.
std::optional<CountDown> planCountDown(IntrinsicInst *II, const Lanes &L,
                                       unsigned N, LoopInfo &LI,
                                       DominatorTree &DT, ScalarEvolution &SE,
                                       const DataLayout &DL) {
  if (!L.PowerOf2M || !L.Index0 || !L.Y0)
    return std::nullopt;
  BasicBlock *G = II->getParent();
  Loop *Lp = LI.getLoopFor(G);
  if (!Lp)
    return std::nullopt;
  BasicBlock *Latch = Lp->getLoopLatch();
  if (!Latch || !DT.dominates(G, Latch))
    return std::nullopt;
  // SimplifyCFG may have merged the preheader away.
  BasicBlock *PH = Lp->getLoopPreheader();
  if (!PH)
    PH = InsertPreheaderForLoop(Lp, &DT, &LI, nullptr, false);
  if (!PH)
    return std::nullopt;
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(L.Y0));
  if (!AR || AR->getLoop() != Lp || !AR->isAffine())
    return std::nullopt;
  auto *SC = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
  uint64_t M = L.PowerOf2M;
  if (!SC || SC->getAPInt().isNegative() || SC->getAPInt().isZero() ||
      SC->getAPInt().uge(M))
    return std::nullopt;
  SCEVExpander Exp(SE, DL, "countdown");
  if (!Exp.isSafeToExpandAt(AR->getStart(), PH->getTerminator()))
    return std::nullopt;
  Type *T = L.Y0->getType();
  Value *Start = Exp.expandCodeFor(AR->getStart(), T, PH->getTerminator());
  CountDown CD;
  CD.Header = Lp->getHeader();
  CD.Preheader = PH;
  CD.Step = SC->getAPInt().getZExtValue();
  IRBuilder<> PB(PH->getTerminator());
  auto [Rem0, Left0] = countFrom(PB, Start, L, N, CD.Step);
  IRBuilder<> HB(CD.Header, CD.Header->begin());
  CD.Left = HB.CreatePHI(T, 2, "countdown.left");
  // Lane 0's index in the address's own type (an index in [0, M - N]
  // extends the same either way): no extension in the loop.
  Type *IdxT = L.Index0->getType();
  CD.Rem = HB.CreatePHI(IdxT, 2, "countdown.index");
  CD.Left->addIncoming(Left0, PH);
  CD.Rem->addIncoming(PB.CreateZExtOrTrunc(Rem0, IdxT), PH);
  return CD;
}

/// How many iterations of a countdown loop run per pass of its unrolled
/// body (compiler/Pipeline.cpp runs the unroller after this
/// pass). barrier_stress's neighbour loop: 10 instructions per vector, 6 of
/// them the loop's and the count's; unrolled by 4, 7 per vector.
constexpr unsigned CountDownUnroll = 4;

/// Asks the unroller for CountDownUnroll copies of the body of the loop
/// with header \p Header, entered from \p Preheader: the loop metadata of
/// its backedges less the vectorizer's "no runtime unrolling", plus the
/// count. (Set on the backedges' branches themselves: LoopInfo has not seen
/// the blocks the guard split.)
void unrollCountDownLoop(BasicBlock *Header, BasicBlock *Preheader) {
  LLVMContext &C = Header->getContext();
  SmallVector<Instruction *, 2> Backedges;
  MDNode *Old = nullptr;
  for (BasicBlock *Pred : predecessors(Header))
    if (Pred != Preheader) {
      Backedges.push_back(Pred->getTerminator());
      if (!Old)
        Old = Pred->getTerminator()->getMetadata(LLVMContext::MD_loop);
    }
  SmallVector<Metadata *, 4> Ops = {nullptr};
  if (Old)
    for (const MDOperand &Op : drop_begin(Old->operands())) {
      auto *N = dyn_cast<MDNode>(Op.get());
      auto *S = N && N->getNumOperands() ? dyn_cast<MDString>(N->getOperand(0))
                                         : nullptr;
      if (S && S->getString().starts_with("llvm.loop.unroll."))
        continue;
      Ops.push_back(Op.get());
    }
  Ops.push_back(MDNode::get(C, {MDString::get(C, "llvm.loop.unroll.count"),
                                ConstantAsMetadata::get(ConstantInt::get(
                                    Type::getInt32Ty(C), CountDownUnroll))}));
  MDNode *ID = MDNode::getDistinct(C, Ops);
  ID->replaceOperandWith(0, ID);
  for (Instruction *Br : Backedges)
    Br->setMetadata(LLVMContext::MD_loop, ID);
}

/// The countdown's other side, gather \p II of lanes (Y0 + i) mod M, M a
/// power of two >= N: its lanes are two runs, base[r .. M) and base[0 ..),
/// r = Y0 mod M (CD.Rem; lane 0's address L.Base): two masked loads, from
/// L.Base and from M elements below it, each touching only the lanes the
/// gather reads there. A vpgatherdd is microcoded on AMD Zen 3 and costs as
/// much as many plain vector loads, so one per wrap is a large share of a
/// loop that wraps every few dozen vectors (barrier_stress's neighbour
/// loop). For srem the dividends must be non-negative and not overflow
/// (else the gather stays).
Value *splitWrap(IntrinsicInst *II, const Lanes &L, const CountDown &CD,
                 unsigned N, uint64_t Size) {
  IRBuilder<> B(II);
  Value *Y0 = L.Y0;
  auto *T = cast<IntegerType>(Y0->getType());
  Value *Ok = nullptr;
  if (L.SRem)
    Ok = B.CreateAnd(
        B.CreateICmpSGE(Y0, ConstantInt::get(T, 0)),
        B.CreateICmpSLE(
            Y0, ConstantInt::get(T, APInt::getSignedMaxValue(T->getBitWidth()) -
                                        (N - 1))),
        "wrap.ok");
  Type *IdxT = CD.Rem->getType();
  // Lanes before the wrap: M - r of them (at most N matter).
  Value *K = B.CreateSub(ConstantInt::get(IdxT, L.PowerOf2M), CD.Rem);
  K = B.CreateBinaryIntrinsic(Intrinsic::umin, K, ConstantInt::get(IdxT, N));
  K = B.CreateTrunc(K, B.getInt32Ty());
  SmallVector<Constant *, 16> Ids;
  for (unsigned I = 0; I < N; ++I)
    Ids.push_back(B.getInt32(I));
  Value *Before =
      B.CreateICmpULT(ConstantVector::get(Ids), B.CreateVectorSplat(N, K));
  Value *Mask = II->getArgOperand(2), *Pass = II->getArgOperand(3);
  Align A(cast<ConstantInt>(II->getArgOperand(1))->getZExtValue());
  Instruction *Term = II, *GatherTerm = nullptr;
  if (Ok) {
    Instruction *Then;
    SplitBlockAndInsertIfThenElse(Ok, II, &Then, &GatherTerm);
    Term = Then;
  }
  IRBuilder<> TB(Term);
  Value *Low = TB.CreateGEP(TB.getInt8Ty(), L.Base,
                            TB.getInt64(-int64_t(L.PowerOf2M * Size)));
  auto *First = TB.CreateMaskedLoad(II->getType(), L.Base, A,
                                    TB.CreateAnd(Mask, Before), Pass);
  auto *Both = TB.CreateMaskedLoad(II->getType(), Low, A,
                                   TB.CreateAnd(Mask, TB.CreateNot(Before)),
                                   First, "wrap.lanes");
  for (Instruction *New : {First, Both})
    New->copyMetadata(*II, {LLVMContext::MD_tbaa, LLVMContext::MD_noalias,
                            LLVMContext::MD_alias_scope,
                            LLVMContext::MD_access_group});
  if (!Ok) {
    II->eraseFromParent();
    return Both;
  }
  // II starts the join block; it moves to the gather's side.
  BasicBlock *Join = II->getParent();
  II->moveBefore(GatherTerm);
  PHINode *Phi = PHINode::Create(II->getType(), 2, "", &*Join->begin());
  Phi->addIncoming(Both, Term->getParent());
  Phi->addIncoming(II, GatherTerm->getParent());
  return Phi;
}

/// Splits at \p II: `if (all lanes adjacent) masked load/store else II`.
void guard(IntrinsicInst *II, const DataLayout &DL, LoopInfo &LI,
           DominatorTree &DT, ScalarEvolution &SE) {
  bool Gather = II->getIntrinsicID() == Intrinsic::masked_gather;
  // gather(ptrs, align, mask, passthru); scatter(value, ptrs, align, mask)
  Value *Ptrs = II->getArgOperand(Gather ? 0 : 1);
  Align A(cast<ConstantInt>(II->getArgOperand(Gather ? 1 : 2))->getZExtValue());
  Value *Mask = II->getArgOperand(Gather ? 2 : 3);
  auto *VT = cast<FixedVectorType>(Gather ? II->getType()
                                          : II->getArgOperand(0)->getType());
  unsigned N = VT->getNumElements();
  uint64_t Size = DL.getTypeStoreSize(VT->getElementType()).getFixedValue();

  IRBuilder<> B(II);
  Lanes L = compareBy(B, Ptrs, Size, N, DL);
  Value *Base = L.Base;
  Value *All =
      L.Adjacent ? L.Adjacent : allLanes(B, L.Index, L.Step, "lanes.adjacent");
  if (L.NoWrap)
    All = B.CreateAnd(All, L.NoWrap, "lanes.adjacent.nowrap");
  std::optional<CountDown> CD;
  if (L.Adjacent)
    CD = planCountDown(II, L, N, LI, DT, SE, DL);
  if (CD) {
    // Lane 0's index is carried from iteration to iteration; the test is
    // whether the count of adjacent iterations left is non-zero.
    L.Index0->replaceAllUsesWith(CD->Rem);
    B.SetInsertPoint(II);
    All = B.CreateICmpNE(CD->Left, ConstantInt::get(CD->Left->getType(), 0),
                         "countdown.adjacent");
  }

  // Head: the check; Then: the vector access; II stays in Else. A modular
  // index wraps in at most N - 1 of every M consecutive lane-0 values: the
  // vector access is the likely side (laid out in line).
  Instruction *ThenTerm, *ElseTerm;
  MDNode *Weights = nullptr;
  if (L.Adjacent)
    Weights = MDBuilder(II->getContext()).createLikelyBranchWeights();
  SplitBlockAndInsertIfThenElse(All, II, &ThenTerm, &ElseTerm, Weights);
  // II starts the tail block; it moves to the else block.
  BasicBlock *Tail = II->getParent();
  II->moveBefore(ElseTerm);
  if (CD) {
    // Adjacent: one iteration fewer, lane 0's index S further. Else the
    // next iteration's dividend starts a new count.
    Type *T = CD->Left->getType();
    IRBuilder<> TB(ThenTerm), EB(ElseTerm);
    Type *IdxT = CD->Rem->getType();
    Value *LeftThen = TB.CreateSub(CD->Left, ConstantInt::get(T, 1));
    Value *RemThen = TB.CreateAdd(CD->Rem, ConstantInt::get(IdxT, CD->Step));
    // With a step larger than N the index passes M when the count runs out
    // although no lane wraps, and the other side's loads start at lane 0's
    // address: reduced mod M. (A step of at most N reaches at most M, which
    // the other side takes as 0 lanes before the wrap.)
    if (CD->Step > N)
      RemThen = TB.CreateAnd(RemThen, ConstantInt::get(IdxT, L.PowerOf2M - 1),
                             "countdown.next");
    auto [RemElse, LeftElse] = countFrom(
        EB, EB.CreateAdd(L.Y0, ConstantInt::get(L.Y0->getType(), CD->Step)), L,
        N, CD->Step);
    RemElse = EB.CreateZExtOrTrunc(RemElse, IdxT);
    IRBuilder<> PB(Tail, Tail->begin());
    PHINode *LeftNext = PB.CreatePHI(T, 2, "countdown.left.next");
    PHINode *RemNext = PB.CreatePHI(IdxT, 2, "countdown.index.next");
    LeftNext->addIncoming(LeftThen, ThenTerm->getParent());
    LeftNext->addIncoming(LeftElse, ElseTerm->getParent());
    RemNext->addIncoming(RemThen, ThenTerm->getParent());
    RemNext->addIncoming(RemElse, ElseTerm->getParent());
    // Tail dominates the latch (II's block did): the backedge carries them.
    for (BasicBlock *Pred : predecessors(CD->Header))
      if (Pred != CD->Preheader) {
        CD->Left->addIncoming(LeftNext, Pred);
        CD->Rem->addIncoming(RemNext, Pred);
      }
    unrollCountDownLoop(CD->Header, CD->Preheader);
  }
  IRBuilder<> TB(ThenTerm);
  bool AllOn = isa<Constant>(Mask) && cast<Constant>(Mask)->isAllOnesValue();
  auto Keep = [&](Instruction *New) {
    New->copyMetadata(*II, {LLVMContext::MD_tbaa, LLVMContext::MD_noalias,
                            LLVMContext::MD_alias_scope,
                            LLVMContext::MD_access_group,
                            LLVMContext::MD_nontemporal});
    return New;
  };
  if (!Gather) {
    if (AllOn)
      Keep(TB.CreateAlignedStore(II->getArgOperand(0), Base, A));
    else
      Keep(TB.CreateMaskedStore(II->getArgOperand(0), Base, A, Mask));
    return;
  }
  Instruction *Adjacent =
      AllOn ? static_cast<Instruction *>(TB.CreateAlignedLoad(VT, Base, A))
            : TB.CreateMaskedLoad(VT, Base, A, Mask, II->getArgOperand(3));
  Keep(Adjacent);

  // A gather whose lanes all read one address (`offsets[i / chunk]`, the
  // same for a whole chunk of work-items) is one load and a broadcast. A
  // modular index's lanes never are (M >= N residues of consecutive values).
  if (L.Adjacent) {
    IRBuilder<> PB(Tail, Tail->getFirstInsertionPt());
    PHINode *Phi = PB.CreatePHI(VT, 2);
    II->replaceAllUsesWith(Phi);
    Value *Wrapped = II;
    if (CD && L.PowerOf2M >= N)
      Wrapped = splitWrap(II, L, *CD, N, Size);
    Phi->addIncoming(Adjacent, ThenTerm->getParent());
    Phi->addIncoming(Wrapped, ElseTerm->getParent());
    return;
  }
  IRBuilder<> EB(II);
  Value *Same = allLanes(EB, L.Index, 0, "lanes.same");
  // The scalar load reads lane 0's address whatever the mask: only when
  // some lane is on is that an address the gather reads (with every lane
  // off, the lanes may all hold one address that is not to be touched: a
  // pipe built-in's slot of an invalid reservation, behind its test).
  if (!AllOn) {
    auto *MaskTy = cast<FixedVectorType>(Mask->getType());
    Value *Bits =
        EB.CreateBitCast(Mask, EB.getIntNTy(MaskTy->getNumElements()));
    Same = EB.CreateAnd(
        Same, EB.CreateICmpNE(Bits, ConstantInt::get(Bits->getType(), 0)),
        "lanes.same.on");
  }
  Instruction *SameTerm, *GatherTerm;
  SplitBlockAndInsertIfThenElse(Same, II, &SameTerm, &GatherTerm);
  BasicBlock *GatherTail = II->getParent();
  II->moveBefore(GatherTerm);
  IRBuilder<> SB(SameTerm);
  Value *One = Keep(SB.CreateAlignedLoad(VT->getElementType(), Base, A));
  Value *Splat = SB.CreateVectorSplat(N, One);
  if (!AllOn)
    Splat = SB.CreateSelect(Mask, Splat, II->getArgOperand(3));

  IRBuilder<> GB(GatherTail, GatherTail->getFirstInsertionPt());
  PHINode *Inner = GB.CreatePHI(VT, 2);
  IRBuilder<> PB(Tail, Tail->getFirstInsertionPt());
  PHINode *Phi = PB.CreatePHI(VT, 2);
  // Uses first, then the PHIs' own incoming II (RAUW would rewrite it).
  II->replaceAllUsesWith(Phi);
  Inner->addIncoming(Splat, SameTerm->getParent());
  Inner->addIncoming(II, GatherTerm->getParent());
  Phi->addIncoming(Adjacent, ThenTerm->getParent());
  Phi->addIncoming(Inner, GatherTail);
}

} // namespace

PreservedAnalyses
RuntimeConsecutiveGathersPass::run(Function &F, FunctionAnalysisManager &FAM) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  LoopInfo &LI0 = FAM.getResult<LoopAnalysis>(F);
  SmallVector<IntrinsicInst *, 16> Work;
  for (BasicBlock &BB : F) {
    if (!LI0.getLoopFor(&BB))
      continue; // once-only code: not worth the branch
    for (Instruction &I : BB)
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        if ((II->getIntrinsicID() == Intrinsic::masked_gather ||
             II->getIntrinsicID() == Intrinsic::masked_scatter) &&
            candidate(*II, DL))
          Work.push_back(II);
  }
  for (IntrinsicInst *II : Work) {
    // Each guard splits blocks: the next one sees fresh analyses.
    guard(II, DL, FAM.getResult<LoopAnalysis>(F),
          FAM.getResult<DominatorTreeAnalysis>(F),
          FAM.getResult<ScalarEvolutionAnalysis>(F));
    FAM.invalidate(F, PreservedAnalyses::none());
  }
  return Work.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace clcpu::compiler
