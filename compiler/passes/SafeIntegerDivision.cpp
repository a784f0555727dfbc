//===- SafeIntegerDivision.cpp - no traps from / and % --------------------===//
//
// OpenCL C 6.3 (operators): "A divide by zero with integer types does not
// cause an exception but will result in an unspecified value. Division by
// zero for floating-point types will result in ±infinity or NaN as
// prescribed by the IEEE-754 standard." x86's integer division traps on a
// zero divisor and on INT_MIN / -1, which would kill the application.
//
// Every integer division and remainder whose divisor is not a constant
// known to be safe gets its divisor replaced: 0 becomes 1 (the result is
// then the dividend or 0, an unspecified value), and for signed operations
// -1 becomes 1 when the dividend is the type's minimum (INT_MIN / 1 ==
// INT_MIN, which is also the wrapped mathematical result; the remainder is
// 0, which is exact).

#include "compiler/passes/SafeIntegerDivision.h"

#include "compiler/passes/PassResult.h"

#include <llvm/ADT/Statistic.h>

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-safe-integer-division"

STATISTIC(NumGuarded, "Integer divisions and remainders given a safe divisor");

namespace clcpu::compiler {

namespace {

/// Whether dividing by constant \p C can trap for some dividend.
bool mayTrap(const Constant *C, bool Signed) {
  if (!C)
    return true;
  if (C->containsUndefOrPoisonElement())
    return true;
  auto Lane = [&](const Constant *E) {
    const auto *CI = dyn_cast_or_null<ConstantInt>(E);
    return !CI || CI->isZero() || (Signed && CI->isMinusOne());
  };
  if (auto *VT = dyn_cast<FixedVectorType>(C->getType())) {
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      if (Lane(C->getAggregateElement(I)))
        return true;
    return false;
  }
  return Lane(C);
}

bool makeSafe(BinaryOperator &Div) {
  bool Signed = Div.getOpcode() == Instruction::SDiv ||
                Div.getOpcode() == Instruction::SRem;
  Value *X = Div.getOperand(0), *D = Div.getOperand(1);
  if (!mayTrap(dyn_cast<Constant>(D), Signed))
    return false;
  IRBuilder<> B(&Div);
  Type *Ty = D->getType();
  Constant *One = ConstantInt::get(Ty, 1);
  Value *Bad = B.CreateICmpEQ(D, Constant::getNullValue(Ty));
  if (Signed) {
    Constant *Min = ConstantInt::get(
        Ty, APInt::getSignedMinValue(Ty->getScalarSizeInBits()));
    Bad = B.CreateOr(
        Bad, B.CreateAnd(B.CreateICmpEQ(X, Min),
                         B.CreateICmpEQ(D, Constant::getAllOnesValue(Ty))));
  }
  Div.setOperand(1, B.CreateSelect(Bad, One, D, "safe.divisor"));
  ++NumGuarded;
  return true;
}

} // namespace

PreservedAnalyses SafeIntegerDivisionPass::run(Module &M,
                                               ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *BO = dyn_cast<BinaryOperator>(&I))
        switch (BO->getOpcode()) {
        case Instruction::SDiv:
        case Instruction::UDiv:
        case Instruction::SRem:
        case Instruction::URem:
          Changed |= makeSafe(*BO);
          break;
        default:
          break;
        }
  return keptCFG(Changed);
}

} // namespace clcpu::compiler
