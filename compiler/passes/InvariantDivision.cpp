//===- InvariantDivision.cpp - division by a loop-invariant value ---------===//
//
// Index arithmetic in kernels divides by launch parameters: `i / width`,
// `i % chunk`. x86 has no vector integer division, so the vectorizer
// either gives up on a work-item loop containing one or scalarizes it into
// one `idiv` per lane (tens of cycles each): a three-pass scan's
// `out[i] += offsets[i / chunk]` is then bound by its divisions, not by
// memory.
//
// When the divisor of a 32-bit sdiv, udiv, srem or urem inside a loop does
// not change in that loop, this pass computes a magic multiplier and shift
// once in the preheader of the outermost loop the divisor is invariant in
// and replaces the division by a multiply-high, adds and shifts, which
// vectorize (T. Granlund, P. Montgomery, "Division by invariant integers
// using multiplication", PLDI 1994: figure 4.1 for unsigned, 5.2 for signed
// truncating division; exact for every dividend and non-zero divisor).
//
// A zero divisor (an unspecified result in OpenCL C 6.3, never a trap) is
// replaced by 1 in the preheader, as compiler/passes/SafeIntegerDivision.cpp
// does for the remaining divisions, whose `select(bad, 1, d)` this pass looks
// through. INT_MIN / -1 yields INT_MIN (the wrapped result), no trap.

#include "compiler/passes/InvariantDivision.h"

#include "compiler/passes/PassResult.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/PatternMatch.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-invariant-division"
using namespace llvm::PatternMatch;

namespace clcpu::compiler {

namespace {

/// Whether \p C implies SafeIntegerDivision's guard of `N / D`: `D == 0`,
/// or `N == INT_MIN && D == -1` (after unswitching, a loop may keep only
/// the second part). On both, the magic numbers below give what the guarded
/// division gives (0 → 1; INT_MIN / -1 wraps to INT_MIN = INT_MIN / 1 and
/// the remainder is 0 either way).
bool isGuard(Value *C, Value *N, Value *D, unsigned Depth = 0) {
  if (Depth > 4)
    return false;
  if (match(C, m_SpecificICmp(ICmpInst::ICMP_EQ, m_Specific(D), m_Zero())))
    return true;
  Value *X, *Y;
  if (match(C, m_LogicalOr(m_Value(X), m_Value(Y))))
    return isGuard(X, N, D, Depth + 1) && isGuard(Y, N, D, Depth + 1);
  if (!match(C, m_LogicalAnd(m_Value(X), m_Value(Y))))
    return false;
  auto Min = m_SpecificICmp(ICmpInst::ICMP_EQ, m_Specific(N), m_SignMask());
  auto MinusOne = m_SpecificICmp(ICmpInst::ICMP_EQ, m_Specific(D), m_AllOnes());
  return (match(X, Min) && match(Y, MinusOne)) ||
         (match(X, MinusOne) && match(Y, Min)) || isGuard(X, N, D, Depth + 1) ||
         isGuard(Y, N, D, Depth + 1);
}

/// The divisor of \p Div without SafeIntegerDivision's guard:
/// `select(guard, 1, d)` → d. Any other select stays (its divisor may vary).
Value *unguarded(BinaryOperator &Div) {
  Value *D = Div.getOperand(1), *C, *Inner;
  if (match(D, m_Select(m_Value(C), m_One(), m_Value(Inner))) &&
      isGuard(C, Div.getOperand(0), Inner))
    return Inner;
  return D;
}

/// The outermost loop containing \p I in which \p V is invariant and which
/// has a preheader, or null.
Loop *hoistLoop(LoopInfo &LI, Instruction &I, Value *V) {
  Loop *Best = nullptr;
  for (Loop *L = LI.getLoopFor(I.getParent()); L; L = L->getParentLoop()) {
    if (!L->isLoopInvariant(V) || !L->getLoopPreheader())
      break;
    Best = L;
  }
  return Best;
}

/// Magic numbers for one divisor, computed in a preheader.
struct Magic {
  Value *D = nullptr;      // the divisor, 0 replaced by 1
  Value *M = nullptr;      // unsigned: i64 multiplier; signed: i32 m'
  Value *Shift1 = nullptr; // unsigned: min(l, 1)
  Value *Shift2 = nullptr; // unsigned: max(l - 1, 0); signed: l - 1
  Value *Sign = nullptr;   // signed: d >> 31
};

Magic computeMagic(IRBuilder<> &B, Value *Divisor, bool Signed) {
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  Module *M = B.GetInsertBlock()->getModule();
  Function *Ctlz = Intrinsic::getDeclaration(M, Intrinsic::ctlz, {I32});
  Magic R;
  R.D = B.CreateSelect(B.CreateICmpEQ(Divisor, B.getInt32(0)), B.getInt32(1),
                       Divisor, "div.d");
  if (!Signed) {
    // l = ceil(log2 d); m = 2^32 * (2^l - d) / d + 1 (< 2^32: 2^l - d <
    // 2^31, so the shifted value fits in 64 bits).
    Value *L = B.CreateSub(
        B.getInt32(32),
        B.CreateCall(Ctlz, {B.CreateSub(R.D, B.getInt32(1)), B.getFalse()}));
    Value *D64 = B.CreateZExt(R.D, I64), *L64 = B.CreateZExt(L, I64);
    Value *Num = B.CreateShl(B.CreateSub(B.CreateShl(B.getInt64(1), L64), D64),
                             B.getInt64(32));
    R.M = B.CreateAdd(B.CreateUDiv(Num, D64), B.getInt64(1), "div.m");
    R.Shift1 = B.CreateBinaryIntrinsic(Intrinsic::umin, L, B.getInt32(1));
    R.Shift2 = B.CreateBinaryIntrinsic(Intrinsic::usub_sat, L, B.getInt32(1));
    return R;
  }
  // l = max(ceil(log2 |d|), 1); m = 2^(31 + l) / |d| + 1; m' = m - 2^32
  // (its low 32 bits). |INT_MIN| is 2^31 as unsigned, so l <= 31.
  Value *Abs = B.CreateBinaryIntrinsic(Intrinsic::abs, R.D, B.getFalse());
  Value *LC = B.CreateSub(
      B.getInt32(32),
      B.CreateCall(Ctlz, {B.CreateSub(Abs, B.getInt32(1)), B.getFalse()}));
  Value *L = B.CreateBinaryIntrinsic(Intrinsic::umax, LC, B.getInt32(1));
  Value *Pow = B.CreateShl(B.getInt64(1),
                           B.CreateZExt(B.CreateAdd(L, B.getInt32(31)), I64));
  Value *M64 =
      B.CreateAdd(B.CreateUDiv(Pow, B.CreateZExt(Abs, I64)), B.getInt64(1));
  R.M = B.CreateTrunc(M64, I32, "div.m");
  R.Shift2 = B.CreateSub(L, B.getInt32(1));
  R.Sign = B.CreateAShr(R.D, B.getInt32(31));
  return R;
}

/// N / d with the magic numbers of d, at \p B.
Value *quotient(IRBuilder<> &B, Value *N, const Magic &Mg, bool Signed) {
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  if (!Signed) {
    Value *T1 = B.CreateTrunc(
        B.CreateLShr(B.CreateMul(B.CreateZExt(N, I64), Mg.M), 32), I32);
    return B.CreateLShr(
        B.CreateAdd(T1, B.CreateLShr(B.CreateSub(N, T1), Mg.Shift1)),
        Mg.Shift2);
  }
  Value *MulSH = B.CreateTrunc(
      B.CreateAShr(B.CreateMul(B.CreateSExt(N, I64), B.CreateSExt(Mg.M, I64)),
                   32),
      I32);
  Value *Q0 = B.CreateAdd(N, MulSH);
  Q0 =
      B.CreateSub(B.CreateAShr(Q0, Mg.Shift2), B.CreateAShr(N, B.getInt32(31)));
  return B.CreateSub(B.CreateXor(Q0, Mg.Sign), Mg.Sign);
}

} // namespace

PreservedAnalyses InvariantDivisionPass::run(Function &F,
                                             FunctionAnalysisManager &FAM) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  SmallVector<BinaryOperator *, 8> Divs;
  for (BasicBlock &BB : F) {
    if (!LI.getLoopFor(&BB))
      continue;
    for (Instruction &I : BB) {
      auto *BO = dyn_cast<BinaryOperator>(&I);
      if (!BO || !BO->getType()->isIntegerTy(32))
        continue;
      switch (BO->getOpcode()) {
      case Instruction::SDiv:
      case Instruction::UDiv:
      case Instruction::SRem:
      case Instruction::URem:
        // A constant divisor is the backend's (it does the same).
        if (!isa<Constant>(unguarded(*BO)))
          Divs.push_back(BO);
        break;
      default:
        break;
      }
    }
  }
  // One set of magic numbers per divisor, loop and signedness.
  DenseMap<std::tuple<Value *, Loop *, unsigned>, Magic> Cache;
  bool Changed = false;
  for (BinaryOperator *Div : Divs) {
    bool Signed = Div->getOpcode() == Instruction::SDiv ||
                  Div->getOpcode() == Instruction::SRem;
    Value *D = unguarded(*Div);
    Loop *L = hoistLoop(LI, *Div, D);
    if (!L)
      continue;
    Magic &Mg = Cache[{D, L, unsigned(Signed)}];
    if (!Mg.D) {
      IRBuilder<> PB(L->getLoopPreheader()->getTerminator());
      Mg = computeMagic(PB, D, Signed);
    }
    IRBuilder<> B(Div);
    Value *N = Div->getOperand(0);
    Value *Q = quotient(B, N, Mg, Signed);
    bool Rem = Div->getOpcode() == Instruction::SRem ||
               Div->getOpcode() == Instruction::URem;
    Value *R = Rem ? B.CreateSub(N, B.CreateMul(Q, Mg.D)) : Q;
    R->takeName(Div);
    Div->replaceAllUsesWith(R);
    Div->eraseFromParent();
    Changed = true;
  }
  return keptCFG(Changed);
}

} // namespace clcpu::compiler
