//===- ScanLoopVectorize.cpp - running sums in vector lanes ---------------===//
//
// A loop that writes out a running value,
//
//   for (j = 0; j < k; ++j) { v = in[base + j]; out[base + j] = pre; pre += v;
//   }
//
// is a scan: `pre` is a recurrence whose every intermediate value is used,
// so LLVM's loop vectorizer (which widens reductions, whose intermediate
// values nobody sees) leaves it scalar. It is the second half of every
// "k consecutive elements per work-item" scan (the scan bench's scan_blocks
// and scan_lookback) and of plain CPU prefix sums.
//
// This pass runs such a loop VF iterations at a time: it loads VF elements,
// computes the VF running values in registers (log2 VF shift-and-combine
// steps, Hillis-Steele across lanes), combines them with the value carried
// in from the previous VF iterations and stores them. A loop of full
// vectors runs first; the last n mod VF iterations (all of them when n < VF,
// as with k = 8 and 16 lanes) run once more with masked loads and stores.
//
// What a loop must look like (anything else is left alone):
//  * innermost, in simplified and LCSSA form, not inside a work-item loop
//    the vectorizer widens as a whole (its inner loops are widened with it);
//  * its blocks a straight line from header to latch, the latch the only
//    exit, a backedge-taken count SCEV can compute;
//  * header phis: integer inductions with a constant step, and at least one
//    recurrence `acc = acc op x` (op: integer add, sub, and, or, xor,
//    min/max; fadd/fsub only with `reassoc`) whose running value is used in
//    the loop; x must not depend on any recurrence;
//  * loads and stores simple and consecutive (one element further each
//    iteration, possibly under SCEV's no-wrap predicates), every other
//    instruction without side effects and safe to run for lanes past the
//    end (no division), vectorizable intrinsics only;
//  * the loads that feed a recurrence come before every store, so loading
//    them for VF iterations at once does not move a load above a store;
//  * LoopAccessAnalysis finds the accesses safe at this width, with
//    run-time overlap and predicate checks if needed: when one fails, the
//    original loop runs instead.
//
// Integer scans give exactly the scalar loop's results (their adds lose
// nsw/nuw: the order of the additions changes). Floating-point ones only
// run with `reassoc` (-cl-fast-relaxed-math, -cl-unsafe-math-optimizations)
// because the order of the additions changes their rounding.

#include "compiler/passes/ScanLoopVectorize.h"

#include "compiler/WorkItemLoops.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/IVDescriptors.h>
#include <llvm/Analysis/LoopAccessAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <optional>

using namespace llvm;

#define DEBUG_TYPE "clcpu-scan-loop-vectorize"

namespace clcpu::compiler {

namespace {

/// acc = acc op x (op Opcode, or the min/max intrinsic MinMax).
struct Recurrence {
  PHINode *Phi = nullptr;
  Instruction *Next = nullptr;
  Value *Operand = nullptr; // x
  unsigned Opcode = 0;
  Intrinsic::ID MinMax = Intrinsic::not_intrinsic;
  bool Negate = false; // acc = acc - x: the scan of -x
};

struct Induction {
  PHINode *Phi = nullptr;
  Value *Start = nullptr;
  ConstantInt *Step = nullptr;
};

struct ScanLoop {
  Loop *L = nullptr;
  SmallVector<BasicBlock *, 4> Chain; // header ... latch
  SmallVector<Induction, 2> IVs;
  SmallVector<Recurrence, 2> Recs;
  const SCEV *BackedgeTaken = nullptr;
  unsigned VF = 0;
};

/// The value \p V passes through single-incoming phis of \p L's blocks.
Value *throughCopies(Value *V, const Loop &L) {
  while (auto *P = dyn_cast<PHINode>(V))
    if (P->getNumIncomingValues() == 1 && L.contains(P) &&
        P->getParent() != L.getHeader())
      V = P->getIncomingValue(0);
    else
      break;
  return V;
}

std::optional<Recurrence> matchRecurrence(PHINode &P, const Loop &L) {
  Recurrence R;
  R.Phi = &P;
  R.Next = dyn_cast<Instruction>(
      throughCopies(P.getIncomingValueForBlock(L.getLoopLatch()), L));
  if (!R.Next || !L.contains(R.Next))
    return std::nullopt;
  if (auto *BO = dyn_cast<BinaryOperator>(R.Next)) {
    Value *A = BO->getOperand(0), *B = BO->getOperand(1);
    bool AIsAcc = throughCopies(A, L) == &P, BIsAcc = throughCopies(B, L) == &P;
    if (AIsAcc == BIsAcc)
      return std::nullopt;
    R.Operand = AIsAcc ? B : A;
    switch (unsigned Op = BO->getOpcode()) {
    case Instruction::FSub:
    case Instruction::FAdd:
      if (!BO->hasAllowReassoc())
        return std::nullopt;
      [[fallthrough]];
    case Instruction::Sub:
    case Instruction::Add:
    case Instruction::And:
    case Instruction::Or:
    case Instruction::Xor:
      // acc - x: x - acc is no scan.
      if (Op == Instruction::Sub || Op == Instruction::FSub) {
        if (!AIsAcc)
          return std::nullopt;
        R.Negate = true;
        Op = Op == Instruction::Sub ? Instruction::Add : Instruction::FAdd;
      }
      R.Opcode = Op;
      return R;
    default:
      return std::nullopt;
    }
  }
  auto *II = dyn_cast<IntrinsicInst>(R.Next);
  if (!II)
    return std::nullopt;
  switch (II->getIntrinsicID()) {
  case Intrinsic::smin:
  case Intrinsic::smax:
  case Intrinsic::umin:
  case Intrinsic::umax: {
    bool AIsAcc = throughCopies(II->getArgOperand(0), L) == &P;
    bool BIsAcc = throughCopies(II->getArgOperand(1), L) == &P;
    if (AIsAcc == BIsAcc)
      return std::nullopt;
    R.Operand = II->getArgOperand(AIsAcc ? 1 : 0);
    R.MinMax = II->getIntrinsicID();
    return R;
  }
  default:
    return std::nullopt;
  }
}

/// Whether \p V, computed in \p L, depends on one of \p Roots (header phis
/// or values of the loop) within one iteration.
bool dependsOn(Value *V, const Loop &L,
               const SmallPtrSetImpl<const Value *> &Roots) {
  SmallVector<Value *, 16> Work = {V};
  SmallPtrSet<Value *, 16> Seen;
  while (!Work.empty()) {
    Value *W = Work.pop_back_val();
    if (Roots.contains(W))
      return true;
    auto *I = dyn_cast<Instruction>(W);
    if (!I || !L.contains(I) || !Seen.insert(I).second)
      continue;
    if (isa<PHINode>(I) && I->getParent() == L.getHeader())
      continue; // the next iteration's business
    append_range(Work, I->operands());
  }
  return false;
}

/// Whether the lanes of \p Ty can be loaded and stored as a vector of
/// consecutive elements.
bool isLaneType(Type *Ty, const DataLayout &DL) {
  if (!Ty->isIntegerTy() && !Ty->isFloatingPointTy() && !Ty->isPointerTy())
    return false;
  return Ty->getScalarSizeInBits() % 8 == 0 && DL.typeSizeEqualsStoreSize(Ty) &&
         DL.getTypeStoreSize(Ty) == DL.getTypeAllocSize(Ty);
}

/// Whether an enclosing loop is to be widened as a whole (a work-item loop
/// on the vectorizer's outer-loop path): its inner loops go with it.
bool insideWidenedLoop(const Loop &L) {
  for (const Loop *P = L.getParentLoop(); P; P = P->getParentLoop())
    if (getBooleanLoopAttribute(P, "llvm.loop.vectorize.enable"))
      return true;
  return false;
}

/// S.Chain: \p L's blocks as a straight line from header to latch (each
/// but the latch falls through to the next, each but the header has that
/// one predecessor); false if they are not one.
bool matchChain(Loop &L, ScanLoop &S) {
  BasicBlock *Header = L.getHeader(), *Latch = L.getLoopLatch();
  for (BasicBlock *BB = Header;;) {
    S.Chain.push_back(BB);
    if (BB == Latch)
      break;
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br || Br->isConditional() || !L.contains(Br->getSuccessor(0)))
      return false;
    BB = Br->getSuccessor(0);
    if (BB == Header || !BB->getSinglePredecessor())
      return false;
  }
  return S.Chain.size() == L.getNumBlocks();
}

/// S.IVs and S.Recs: \p L's header phis, inductions and recurrences; false
/// for any other phi, or unless some running value is used in the loop
/// (else it is a reduction, the loop vectorizer's own business) and no
/// recurrence feeds another.
bool matchHeaderPhis(Loop &L, ScalarEvolution &SE, ScanLoop &S) {
  SmallPtrSet<const Value *, 8> RecValues;
  for (PHINode &P : L.getHeader()->phis()) {
    InductionDescriptor ID;
    if (InductionDescriptor::isInductionPHI(&P, &L, &SE, ID) &&
        ID.getKind() == InductionDescriptor::IK_IntInduction &&
        ID.getConstIntStepValue()) {
      S.IVs.push_back({&P, ID.getStartValue(), ID.getConstIntStepValue()});
      continue;
    }
    std::optional<Recurrence> R = matchRecurrence(P, L);
    if (!R)
      return false;
    S.Recs.push_back(*R);
    RecValues.insert(R->Phi);
    RecValues.insert(R->Next);
  }
  if (S.Recs.empty())
    return false;
  bool Scan = false;
  for (const Recurrence &R : S.Recs) {
    if (dependsOn(R.Operand, L, RecValues))
      return false;
    for (Value *V : {static_cast<Value *>(R.Phi), static_cast<Value *>(R.Next)})
      for (User *U : V->users())
        if (auto *UI = dyn_cast<Instruction>(U);
            UI && L.contains(UI) && UI != R.Next && UI != R.Phi &&
            !(isa<PHINode>(UI) && throughCopies(UI, L) == R.Next))
          Scan = true;
  }
  return Scan;
}

/// Whether every instruction of \p S's loop is one a vector iteration can
/// run, lanes past the end included (see the file comment); \p WidestBits:
/// the widest lane type, at least 8.
bool instructionsVectorize(const ScanLoop &S, ScalarEvolution &SE,
                           PredicatedScalarEvolution &PSE, const DataLayout &DL,
                           unsigned &WidestBits) {
  Loop &L = *S.L;
  BasicBlock *Header = L.getHeader();
  const Instruction *LatchBr = L.getLoopLatch()->getTerminator();
  WidestBits = 8;
  bool SeenStore = false;
  auto NoteLane = [&](Type *Ty) {
    if (!isLaneType(Ty, DL))
      return false;
    WidestBits = std::max<unsigned>(WidestBits, DL.getTypeSizeInBits(Ty));
    return true;
  };
  auto Consecutive = [&](Value *Ptr, Type *Ty) {
    const SCEVAddRecExpr *AR = PSE.getAsAddRec(Ptr);
    if (!AR || AR->getLoop() != &L || !AR->isAffine())
      return false;
    auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
    return Step && Step->getAPInt() == DL.getTypeAllocSize(Ty).getFixedValue();
  };
  for (const Recurrence &R : S.Recs)
    if (!NoteLane(R.Phi->getType()))
      return false;
  for (BasicBlock *BB : S.Chain) {
    for (Instruction &I : *BB) {
      if (&I == LatchBr || isOptimizerHint(I))
        continue;
      if (auto *Br = dyn_cast<BranchInst>(&I)) {
        if (Br->isConditional())
          return false;
        continue;
      }
      if (auto *P = dyn_cast<PHINode>(&I)) {
        if (BB != Header && P->getNumIncomingValues() != 1)
          return false;
        continue;
      }
      if (I.getType()->isVectorTy() || any_of(I.operands(), [](const Use &U) {
            return U->getType()->isVectorTy();
          }))
        return false;
      if (auto *Ld = dyn_cast<LoadInst>(&I)) {
        if (!Ld->isSimple() || !NoteLane(Ld->getType()) ||
            !Consecutive(Ld->getPointerOperand(), Ld->getType()))
          return false;
        // Loaded for VF iterations at once: not below a store.
        if (SeenStore && any_of(S.Recs, [&](const Recurrence &R) {
              SmallPtrSet<const Value *, 1> Root = {Ld};
              return dependsOn(R.Operand, L, Root);
            }))
          return false;
        continue;
      }
      if (auto *St = dyn_cast<StoreInst>(&I)) {
        Type *Ty = St->getValueOperand()->getType();
        if (!St->isSimple() || !NoteLane(Ty) ||
            !Consecutive(St->getPointerOperand(), Ty))
          return false;
        SeenStore = true;
        continue;
      }
      if (auto *CI = dyn_cast<CallInst>(&I)) {
        Intrinsic::ID ID = CI->getIntrinsicID();
        if (ID == Intrinsic::not_intrinsic || !isTriviallyVectorizable(ID) ||
            !isSafeToSpeculativelyExecute(CI))
          return false;
        for (unsigned A = 0; A < CI->arg_size(); ++A)
          if (isVectorIntrinsicWithScalarOpAtArg(ID, A) &&
              !L.isLoopInvariant(CI->getArgOperand(A)))
            return false;
        continue;
      }
      if (!(isa<BinaryOperator>(I) || isa<UnaryOperator>(I) ||
            isa<CastInst>(I) || isa<CmpInst>(I) || isa<SelectInst>(I) ||
            isa<GetElementPtrInst>(I) || isa<FreezeInst>(I)) ||
          !isSafeToSpeculativelyExecute(&I))
        return false;
    }
  }
  return true;
}

/// Whether the target has the masked loads and stores of \p S's VF lanes
/// that the last iterations run with.
bool maskedAccessesLegal(const ScanLoop &S, const TargetTransformInfo &TTI) {
  for (BasicBlock *BB : S.Chain)
    for (Instruction &I : *BB) {
      auto *Ld = dyn_cast<LoadInst>(&I);
      auto *St = dyn_cast<StoreInst>(&I);
      if (Ld && !TTI.isLegalMaskedLoad(
                    FixedVectorType::get(Ld->getType(), S.VF), Ld->getAlign()))
        return false;
      if (St &&
          !TTI.isLegalMaskedStore(
              FixedVectorType::get(St->getValueOperand()->getType(), S.VF),
              St->getAlign()))
        return false;
    }
  return true;
}

/// The scan loop \p L is, with its lanes per vector, or nullopt.
std::optional<ScanLoop> matchScanLoop(Loop &L, ScalarEvolution &SE,
                                      PredicatedScalarEvolution &PSE,
                                      DominatorTree &DT,
                                      const TargetTransformInfo &TTI,
                                      const DataLayout &DL) {
  BasicBlock *Latch = L.getLoopLatch();
  if (!L.isInnermost() || !L.isLoopSimplifyForm() || !L.isLCSSAForm(DT) ||
      !Latch || L.getExitingBlock() != Latch || !L.getExitBlock())
    return std::nullopt;
  auto *LatchBr = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!LatchBr || !LatchBr->isConditional())
    return std::nullopt;
  ScanLoop S;
  S.L = &L;
  if (!matchChain(L, S))
    return std::nullopt;
  S.BackedgeTaken = SE.getBackedgeTakenCount(&L);
  if (isa<SCEVCouldNotCompute>(S.BackedgeTaken) ||
      SE.getTypeSizeInBits(S.BackedgeTaken->getType()) > 64)
    return std::nullopt;
  unsigned WidestBits;
  if (!matchHeaderPhis(L, SE, S) ||
      !instructionsVectorize(S, SE, PSE, DL, WidestBits))
    return std::nullopt;
  unsigned RegBits =
      TTI.getRegisterBitWidth(TargetTransformInfo::RGK_FixedWidthVector)
          .getFixedValue();
  S.VF = std::min(16u, RegBits / WidestBits);
  if (S.VF < 2 || !maskedAccessesLegal(S, TTI))
    return std::nullopt;
  return S;
}

/// One vector iteration of a scan loop: \p VF consecutive iterations starting
/// at counter value \p Count, all of them (no \p Mask) or the lanes \p Mask
/// enables, each recurrence starting at its \p AccIn (a scalar, or already
/// splat across the VF lanes).
class VectorBody {
public:
  VectorBody(const ScanLoop &S, unsigned VF, IRBuilder<> &B, Value *Count,
             Value *Mask, ArrayRef<Value *> AccIn)
      : S(S), L(*S.L), VF(VF), B(B), Count(Count), Mask(Mask),
        AccIn(AccIn.begin(), AccIn.end()), Carry(S.Recs.size()),
        SplatCarry(S.Recs.size()) {}

  /// Loads and stores in the loop's order, then the recurrences' carries.
  void emit() {
    for (BasicBlock *BB : S.Chain)
      for (Instruction &I : *BB) {
        if (auto *II = dyn_cast<IntrinsicInst>(&I);
            II &&
            II->getIntrinsicID() == Intrinsic::experimental_noalias_scope_decl)
          B.Insert(I.clone());
        else if (isa<LoadInst>(I))
          vec(&I);
        else if (auto *St = dyn_cast<StoreInst>(&I))
          store(*St);
      }
    for (unsigned R = 0; R < S.Recs.size(); ++R)
      scan(R);
  }

  /// The value after the last iteration this body ran, for the recurrence
  /// \p R.
  Value *carry(unsigned R) const { return Carry[R]; }

  /// The same, splat across the VF lanes (unmasked bodies only): the next
  /// vector iteration's \p AccIn, one combine after this one's (the lane
  /// scan and the broadcast of its total stay off the loop-carried path).
  Value *splatCarry(unsigned R) const { return SplatCarry[R]; }

  /// Lane \p Lane of \p V (a value of the loop), or \p V if invariant.
  Value *lane(Value *V, Value *Lane) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !L.contains(I))
      return V;
    return B.CreateExtractElement(vec(V), Lane);
  }

private:
  const ScanLoop &S;
  const Loop &L;
  unsigned VF;
  IRBuilder<> &B;
  Value *Count, *Mask;
  SmallVector<Value *, 2> AccIn;
  SmallVector<Value *, 2> Carry, SplatCarry;
  DenseMap<Value *, Value *> Vec, Lane0;

  Type *vecTy(Type *Ty) const { return FixedVectorType::get(Ty, VF); }

  /// Lane 0's value of \p V: the scalar computation of the first of the VF
  /// iterations (addresses of consecutive accesses).
  Value *lane0(Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !L.contains(I))
      return V;
    if (Value *Known = Lane0.lookup(V))
      return Known;
    Value *R = nullptr;
    auto *P = dyn_cast<PHINode>(I);
    if (P && P->getParent() != L.getHeader()) {
      R = lane0(P->getIncomingValue(0));
    } else if (const Induction *IV = induction(P)) {
      Value *C = B.CreateZExtOrTrunc(Count, P->getType());
      R = B.CreateAdd(IV->Start, B.CreateMul(C, IV->Step));
    } else if (P || isa<LoadInst>(I) || isa<CallInst>(I)) {
      R = B.CreateExtractElement(vec(V), uint64_t(0));
    } else {
      Instruction *C = I->clone();
      for (Use &U : C->operands())
        U.set(lane0(U.get()));
      R = B.Insert(C);
    }
    Lane0[V] = R;
    return R;
  }

  const Induction *induction(const PHINode *P) const {
    for (const Induction &IV : S.IVs)
      if (IV.Phi == P)
        return &IV;
    return nullptr;
  }

  /// All VF lanes of \p V.
  Value *vec(Value *V) {
    if (Value *Known = Vec.lookup(V))
      return Known;
    Value *R = widen(V);
    Vec[V] = R;
    return R;
  }

  Value *widen(Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !L.contains(I))
      return B.CreateVectorSplat(VF, V);
    for (unsigned R = 0; R < S.Recs.size(); ++R)
      if (S.Recs[R].Phi == I || S.Recs[R].Next == I) {
        scan(R);
        return Vec.lookup(V);
      }
    if (auto *P = dyn_cast<PHINode>(I)) {
      if (P->getParent() != L.getHeader())
        return vec(P->getIncomingValue(0));
      const Induction *IV = induction(P);
      SmallVector<Constant *, 16> Steps;
      for (unsigned K = 0; K < VF; ++K)
        Steps.push_back(
            ConstantInt::get(P->getType(), IV->Step->getValue() * K));
      return B.CreateAdd(B.CreateVectorSplat(VF, lane0(P)),
                         ConstantVector::get(Steps));
    }
    if (auto *Ld = dyn_cast<LoadInst>(I)) {
      Value *Ptr = lane0(Ld->getPointerOperand());
      Instruction *N;
      if (Mask)
        N = B.CreateMaskedLoad(vecTy(Ld->getType()), Ptr, Ld->getAlign(), Mask);
      else
        N = B.CreateAlignedLoad(vecTy(Ld->getType()), Ptr, Ld->getAlign());
      N->setAAMetadata(Ld->getAAMetadata());
      return N;
    }
    if (auto *BO = dyn_cast<BinaryOperator>(I)) {
      Value *N = B.CreateBinOp(BO->getOpcode(), vec(BO->getOperand(0)),
                               vec(BO->getOperand(1)));
      if (auto *NI = dyn_cast<Instruction>(N))
        NI->copyIRFlags(BO);
      return N;
    }
    if (auto *UO = dyn_cast<UnaryOperator>(I)) {
      Value *N = B.CreateUnOp(UO->getOpcode(), vec(UO->getOperand(0)));
      if (auto *NI = dyn_cast<Instruction>(N))
        NI->copyIRFlags(UO);
      return N;
    }
    if (auto *C = dyn_cast<CastInst>(I))
      return B.CreateCast(C->getOpcode(), vec(C->getOperand(0)),
                          vecTy(C->getType()));
    if (auto *C = dyn_cast<CmpInst>(I)) {
      Value *N = B.CreateCmp(C->getPredicate(), vec(C->getOperand(0)),
                             vec(C->getOperand(1)));
      if (auto *NI = dyn_cast<Instruction>(N); NI && isa<FPMathOperator>(NI))
        NI->copyIRFlags(C);
      return N;
    }
    if (auto *Sel = dyn_cast<SelectInst>(I)) {
      Value *Cond = Sel->getCondition();
      Value *N =
          B.CreateSelect(L.isLoopInvariant(Cond) ? Cond : vec(Cond),
                         vec(Sel->getTrueValue()), vec(Sel->getFalseValue()));
      if (auto *NI = dyn_cast<Instruction>(N); NI && isa<FPMathOperator>(NI))
        NI->copyIRFlags(Sel);
      return N;
    }
    if (auto *Fr = dyn_cast<FreezeInst>(I))
      return B.CreateFreeze(vec(Fr->getOperand(0)));
    if (auto *G = dyn_cast<GetElementPtrInst>(I)) {
      SmallVector<Value *, 4> Idx;
      for (Use &U : G->indices())
        Idx.push_back(vec(U.get()));
      return B.CreateGEP(G->getSourceElementType(), vec(G->getPointerOperand()),
                         Idx, "", G->getNoWrapFlags());
    }
    auto *CI = cast<CallInst>(I);
    Intrinsic::ID ID = CI->getIntrinsicID();
    SmallVector<Value *, 4> Args;
    SmallVector<Type *, 2> Tys;
    if (isVectorIntrinsicWithOverloadTypeAtArg(ID, -1))
      Tys.push_back(vecTy(CI->getType()));
    for (unsigned A = 0; A < CI->arg_size(); ++A) {
      Value *Arg = CI->getArgOperand(A);
      Args.push_back(isVectorIntrinsicWithScalarOpAtArg(ID, A) ? Arg
                                                               : vec(Arg));
      if (isVectorIntrinsicWithOverloadTypeAtArg(ID, A))
        Tys.push_back(Args.back()->getType());
    }
    Function *Fn = Intrinsic::getDeclaration(CI->getModule(), ID, Tys);
    CallInst *N = B.CreateCall(Fn, Args);
    if (isa<FPMathOperator>(N))
      N->copyFastMathFlags(CI);
    return N;
  }

  Value *combine(const Recurrence &R, Value *X, Value *Y) {
    if (R.MinMax != Intrinsic::not_intrinsic)
      return B.CreateBinaryIntrinsic(R.MinMax, X, Y);
    // Integer ops without nsw/nuw: the order of the operations changed.
    Value *N = B.CreateBinOp(Instruction::BinaryOps(R.Opcode), X, Y);
    if (auto *NI = dyn_cast<Instruction>(N); NI && isa<FPMathOperator>(NI))
      NI->copyFastMathFlags(R.Next);
    return N;
  }

  /// The running values of recurrence \p RI for the VF lanes: the phi's
  /// (before each lane's x) and the next value's (after it).
  void scan(unsigned RI) {
    const Recurrence &R = S.Recs[RI];
    if (Carry[RI])
      return;
    Type *Ty = R.Phi->getType();
    Constant *Id = R.MinMax != Intrinsic::not_intrinsic
                       ? ConstantExpr::getIntrinsicIdentity(R.MinMax, Ty)
                       : ConstantExpr::getBinOpIdentity(
                             R.Opcode, Ty, false,
                             R.Next->getType()->isFPOrFPVectorTy() &&
                                 R.Next->hasNoSignedZeros());
    Value *Ids = ConstantVector::getSplat(ElementCount::getFixed(VF), Id);
    Value *X = vec(R.Operand);
    if (R.Negate)
      X = Ty->isFloatingPointTy() ? B.CreateFNeg(X) : B.CreateNeg(X);
    if (Mask) // lanes past the end add nothing to the carry
      X = B.CreateSelect(Mask, X, Ids);
    Value *Own = X;
    // Hillis-Steele across the lanes, first within each 128-bit block
    // (shifts that stay in a block are one in-lane instruction, vpslldq for
    // a zero identity; a shift across the whole vector is a cross-lane
    // permute, two uops on Zen, and a blend), then across blocks: each
    // block's total broadcast within it (vpshufd), scanned over the blocks
    // by whole-block shifts, and the blocks before each added to it. After
    // the in-block step with shift Sh, lane l holds x[l - 2 Sh + 1 .. l]
    // of its own block.
    unsigned Bits = Ty->getScalarSizeInBits();
    unsigned E = Bits && Bits <= 64 && 128 % Bits == 0 ? 128 / Bits : VF;
    if (E >= VF || VF % E != 0)
      E = VF; // one block: the whole vector
    auto Shift = [&](Value *V, unsigned Sh, unsigned Block) {
      SmallVector<int, 16> Idx;
      for (unsigned K = 0; K < VF; ++K)
        Idx.push_back(K % Block < Sh ? int(VF + K) : int(K - Sh));
      return B.CreateShuffleVector(V, Ids, Idx);
    };
    for (unsigned Sh = 1; Sh < E; Sh *= 2)
      X = combine(R, X, Shift(X, Sh, E));
    if (E < VF) {
      SmallVector<int, 16> Last;
      for (unsigned K = 0; K < VF; ++K)
        Last.push_back(int(K / E * E + E - 1));
      Value *T = B.CreateShuffleVector(X, Last, "scan.blocks");
      // Inclusive over the blocks up to the last but one.
      for (unsigned Sh = E; Sh < VF - E; Sh *= 2)
        T = combine(R, T, Shift(T, Sh, VF));
      X = combine(R, X, Shift(T, E, VF));
    }
    Value *Acc = AccIn[RI]->getType()->isVectorTy()
                     ? AccIn[RI]
                     : B.CreateVectorSplat(VF, AccIn[RI]);
    Value *Incl = combine(R, Acc, X);
    // Integer add: the value before each lane is the value after it less
    // the lane's own operand (exact in wrapping arithmetic): one subtract
    // instead of a cross-lane shift (on AVX2 a vpermd and a vpblendd).
    Value *Excl;
    if (R.MinMax == Intrinsic::not_intrinsic && R.Opcode == Instruction::Add &&
        Ty->isIntegerTy()) {
      Excl = B.CreateSub(Incl, Own, "scan.excl");
    } else {
      SmallVector<int, 16> Idx;
      for (unsigned K = 0; K < VF; ++K)
        Idx.push_back(K == 0 ? int(VF) : int(K - 1));
      Excl = combine(R, Acc, B.CreateShuffleVector(X, Ids, Idx));
    }
    Vec[R.Phi] = Excl;
    Vec[R.Next] = Incl;
    Carry[RI] = B.CreateExtractElement(Incl, uint64_t(VF - 1));
    if (Mask)
      return; // the masked tail's carry stays scalar
    // The lanes' total (the scan's last lane) broadcast, then one combine
    // with the incoming splat: the only step that waits for the previous
    // vector iteration. (Extracting the carry and splatting it again would
    // put an extract, a move to a general register and a broadcast on that
    // path, adding their latency to every vector iteration.)
    Value *Total = B.CreateShuffleVector(
        X, SmallVector<int, 16>(VF, int(VF - 1)), "scan.total");
    SplatCarry[RI] = combine(R, Acc, Total);
  }

  void store(StoreInst &St) {
    Value *V = vec(St.getValueOperand());
    Value *Ptr = lane0(St.getPointerOperand());
    Instruction *N;
    if (Mask)
      N = B.CreateMaskedStore(V, Ptr, St.getAlign(), Mask);
    else
      N = B.CreateAlignedStore(V, Ptr, St.getAlign());
    N->setAAMetadata(St.getAAMetadata());
    if (MDNode *NT = St.getMetadata(LLVMContext::MD_nontemporal))
      N->setMetadata(LLVMContext::MD_nontemporal, NT);
  }
};

/// Loop metadata that keeps the vectorizer and the runtime unroller off a
/// loop that already runs VF iterations per pass.
void markVectorized(BranchInst &Latch) {
  LLVMContext &C = Latch.getContext();
  Type *I32 = Type::getInt32Ty(C);
  Metadata *Ops[] = {
      nullptr,
      MDNode::get(C, {MDString::get(C, "llvm.loop.isvectorized"),
                      ConstantAsMetadata::get(ConstantInt::get(I32, 1))}),
      MDNode::get(C, MDString::get(C, "llvm.loop.unroll.runtime.disable"))};
  MDNode *ID = MDNode::getDistinct(C, Ops);
  ID->replaceOperandWith(0, ID);
  Latch.setMetadata(LLVMContext::MD_loop, ID);
}

/// Puts the vector loops in front of \p S's loop; returns whether the
/// original loop stays (as the fallback of run-time checks).
bool vectorize(const ScanLoop &S, const LoopAccessInfo &LAI,
               PredicatedScalarEvolution &PSE, ScalarEvolution &SE,
               const DataLayout &DL) {
  Loop &L = *S.L;
  BasicBlock *Pre = L.getLoopPreheader(), *Header = L.getHeader();
  BasicBlock *Latch = L.getLoopLatch(), *Exit = L.getExitBlock();
  Function &F = *Header->getParent();
  LLVMContext &C = F.getContext();
  Type *I64 = Type::getInt64Ty(C), *I32 = Type::getInt32Ty(C);
  Instruction *PreTerm = Pre->getTerminator();

  // Preheader: the trip count, and whether a run-time check fails.
  SCEVExpander Exp(SE, DL, "scan.check");
  Value *Bail = nullptr;
  const RuntimePointerChecking *RPC = LAI.getRuntimePointerChecking();
  if (RPC->Need)
    Bail = addRuntimeChecks(PreTerm, &L, RPC->getChecks(), Exp);
  IRBuilder<> B(PreTerm);
  if (!PSE.getPredicate().isAlwaysTrue()) {
    Value *P = Exp.expandCodeForPredicate(&PSE.getPredicate(), PreTerm);
    Bail = Bail ? B.CreateOr(Bail, P) : P;
  }
  Value *N = Exp.expandCodeFor(
      SE.getAddExpr(SE.getNoopOrZeroExtend(S.BackedgeTaken, I64),
                    SE.getOne(I64)),
      I64, PreTerm);

  BasicBlock *VecPh = BasicBlock::Create(C, "scan.vec.ph", &F, Exit);
  BasicBlock *Main = BasicBlock::Create(C, "scan.vec", &F, Exit);
  BasicBlock *MainEnd = BasicBlock::Create(C, "scan.vec.end", &F, Exit);
  BasicBlock *MainOut = BasicBlock::Create(C, "scan.vec.out", &F, Exit);
  BasicBlock *Tail = BasicBlock::Create(C, "scan.tail", &F, Exit);
  B.SetInsertPoint(PreTerm);
  if (Bail)
    B.CreateCondBr(Bail, Header, VecPh);
  else
    B.CreateBr(VecPh);
  PreTerm->eraseFromParent();

  // scan.vec.ph: how many iterations the full vectors take.
  B.SetInsertPoint(VecPh);
  Value *Full =
      B.CreateAnd(N, ConstantInt::get(I64, ~uint64_t(S.VF - 1)), "scan.full");
  B.CreateCondBr(B.CreateICmpEQ(Full, ConstantInt::get(I64, 0)), Tail, Main);

  // scan.vec: VF iterations at a time.
  B.SetInsertPoint(Main);
  PHINode *Count = B.CreatePHI(I64, 2, "scan.i");
  Count->addIncoming(ConstantInt::get(I64, 0), VecPh);
  // The accumulators travel splat across the lanes (splatCarry).
  SmallVector<PHINode *, 2> MainAcc;
  SmallVector<Value *, 2> AccIn;
  for (const Recurrence &R : S.Recs) {
    MainAcc.push_back(B.CreatePHI(FixedVectorType::get(R.Phi->getType(), S.VF),
                                  2, "scan.acc"));
    AccIn.push_back(MainAcc.back());
  }
  {
    IRBuilder<> PB(VecPh->getTerminator());
    for (unsigned R = 0; R < S.Recs.size(); ++R)
      MainAcc[R]->addIncoming(
          PB.CreateVectorSplat(S.VF,
                               S.Recs[R].Phi->getIncomingValueForBlock(Pre)),
          VecPh);
  }
  VectorBody MainBody(S, S.VF, B, Count, nullptr, AccIn);
  MainBody.emit();
  Value *Next = B.CreateAdd(Count, ConstantInt::get(I64, S.VF), "scan.next",
                            /*HasNUW=*/true);
  Count->addIncoming(Next, Main);
  for (unsigned R = 0; R < S.Recs.size(); ++R)
    MainAcc[R]->addIncoming(MainBody.splatCarry(R), Main);
  markVectorized(*B.CreateCondBr(B.CreateICmpEQ(Next, Full), MainEnd, Main));

  // scan.vec.end: done unless some iterations are left.
  B.SetInsertPoint(MainEnd);
  B.CreateCondBr(B.CreateICmpEQ(Full, N), MainOut, Tail);

  // scan.vec.out: the loop's results from the last full vector.
  SmallVector<std::pair<PHINode *, Value *>, 4> Outs;
  B.SetInsertPoint(MainOut);
  for (PHINode &P : Exit->phis())
    Outs.push_back({&P, P.getIncomingValueForBlock(Latch)});
  for (auto [P, V] : Outs)
    P->addIncoming(MainBody.lane(V, ConstantInt::get(I32, S.VF - 1)), MainOut);
  B.CreateBr(Exit);

  // scan.tail: the last N - Full (< VF) iterations, masked, half a vector
  // at a time (at most two passes; one for k = 8 at 16 lanes, with a scan
  // one step shorter than a full vector's).
  unsigned TailVF = std::max(2u, S.VF / 2);
  B.SetInsertPoint(Tail);
  PHINode *TailCount = B.CreatePHI(I64, 3, "scan.tail.i");
  TailCount->addIncoming(ConstantInt::get(I64, 0), VecPh);
  TailCount->addIncoming(Full, MainEnd);
  SmallVector<PHINode *, 2> TailAcc;
  for (unsigned R = 0; R < S.Recs.size(); ++R) {
    TailAcc.push_back(
        B.CreatePHI(S.Recs[R].Phi->getType(), 3, "scan.tail.acc"));
    TailAcc[R]->addIncoming(S.Recs[R].Phi->getIncomingValueForBlock(Pre),
                            VecPh);
    TailAcc[R]->addIncoming(MainBody.carry(R), MainEnd);
  }
  // Lanes left, at most VF - 1.
  Value *Left = B.CreateTrunc(B.CreateSub(N, TailCount), I32, "scan.left");
  SmallVector<Constant *, 16> Lanes;
  for (unsigned K = 0; K < TailVF; ++K)
    Lanes.push_back(ConstantInt::get(I32, K));
  Value *Mask = B.CreateICmpULT(ConstantVector::get(Lanes),
                                B.CreateVectorSplat(TailVF, Left), "scan.mask");
  SmallVector<Value *, 2> TailIn(TailAcc.begin(), TailAcc.end());
  VectorBody TailBody(S, TailVF, B, TailCount, Mask, TailIn);
  TailBody.emit();
  Value *TailNext = B.CreateAdd(TailCount, ConstantInt::get(I64, TailVF),
                                "scan.tail.next", /*HasNUW=*/true);
  TailCount->addIncoming(TailNext, Tail);
  for (unsigned R = 0; R < S.Recs.size(); ++R)
    TailAcc[R]->addIncoming(TailBody.carry(R), Tail);
  BasicBlock *TailOut = BasicBlock::Create(C, "scan.tail.out", &F, Exit);
  markVectorized(*B.CreateCondBr(B.CreateICmpULT(TailNext, N), Tail, TailOut));

  // scan.tail.out: the results from the last lane the tail ran.
  B.SetInsertPoint(TailOut);
  Value *LastLane = B.CreateSub(Left, ConstantInt::get(I32, 1));
  for (auto [P, V] : Outs)
    P->addIncoming(TailBody.lane(V, LastLane), TailOut);
  B.CreateBr(Exit);
  return Bail != nullptr;
}

} // namespace

PreservedAnalyses ScanLoopVectorizePass::run(Function &F,
                                             FunctionAnalysisManager &FAM) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  const TargetTransformInfo &TTI = FAM.getResult<TargetIRAnalysis>(F);
  LoopAccessInfoManager &LAIs = FAM.getResult<LoopAccessAnalysis>(F);
  const DataLayout &DL = F.getDataLayout();
  // Matched first, transformed after: the analyses describe the function
  // as it was.
  struct Match {
    ScanLoop S;
    const LoopAccessInfo *LAI;
    std::unique_ptr<PredicatedScalarEvolution> PSE;
  };
  SmallVector<Match, 2> Matches;
  bool Simplified = false;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!L->isInnermost() || insideWidenedLoop(*L))
      continue; // (widened with its work-item loop)
    // GuardedLoopBound's bypass of a loop leaves it without a preheader
    // and dedicated exits; the vectorizer restores them the same way.
    Simplified |= simplifyLoop(L, &DT, &LI, &SE, nullptr, nullptr,
                               /*PreserveLCSSA=*/false);
    Simplified |= formLCSSA(*L, DT, &LI, &SE);
    auto PSE = std::make_unique<PredicatedScalarEvolution>(SE, *L);
    std::optional<ScanLoop> S = matchScanLoop(*L, SE, *PSE, DT, TTI, DL);
    if (!S)
      continue;
    const LoopAccessInfo &LAI = LAIs.getInfo(*L);
    const MemoryDepChecker &Deps = LAI.getDepChecker();
    if (!LAI.canVectorizeMemory() ||
        LAI.hasLoadStoreDependenceInvolvingLoopInvariantAddress() ||
        LAI.hasStoreStoreDependenceInvolvingLoopInvariantAddress())
      continue;
    unsigned WidestBits = 0;
    for (BasicBlock *BB : S->Chain)
      for (Instruction &I : *BB)
        if (isa<LoadInst>(I) || isa<StoreInst>(I))
          WidestBits = std::max<unsigned>(
              WidestBits, DL.getTypeSizeInBits(getLoadStoreType(&I)));
    if (!Deps.isSafeForAnyVectorWidth() &&
        Deps.getMaxSafeVectorWidthInBits() < uint64_t(S->VF) * WidestBits)
      continue;
    PSE->addPredicate(LAI.getPSE().getPredicate());
    Matches.push_back({std::move(*S), &LAI, std::move(PSE)});
  }
  if (Matches.empty()) {
    if (!Simplified)
      return PreservedAnalyses::all();
    PreservedAnalyses PA;
    PA.preserve<DominatorTreeAnalysis>();
    PA.preserve<LoopAnalysis>();
    PA.preserve<ScalarEvolutionAnalysis>();
    return PA;
  }
  bool Dead = false;
  for (Match &M : Matches)
    Dead |= !vectorize(M.S, *M.LAI, *M.PSE, SE, DL);
  // Loops without run-time checks no longer run.
  if (Dead)
    removeUnreachableBlocks(F);
  return PreservedAnalyses::none();
}

} // namespace clcpu::compiler
