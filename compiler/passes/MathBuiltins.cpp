//===- MathBuiltins.cpp - math builtins as LLVM intrinsics ----------------===//
//
// OpenCL C 6.15.2 (math functions): the builtin library declares sqrt,
// fabs, floor, ceil, trunc, rint, round, fma, mad, fmin, fmax, copysign,
// sin, cos, exp, exp2, log, log2, log10 and pow, for every floating-point
// type and vector width, as mangled functions. Where every parameter has
// the result's type, their uses become the matching LLVM intrinsic,
// overloaded on scalar and vector types, which the vectorizer widens
// across work-items like any other instruction; a sin, exp or pow that
// stays scalar after scalarization becomes a libm call.

#include "compiler/passes/MathBuiltins.h"

#include "compiler/WorkGroupFunction.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include <utility>

using namespace llvm;

#define DEBUG_TYPE "clcpu-math-builtins"

namespace clcpu::compiler {

namespace {

bool lowerMathBuiltins(Module &M) {
  bool Changed = false;
  static const std::pair<const char *, Intrinsic::ID> Map[] = {
      {"sqrt", Intrinsic::sqrt},   {"fabs", Intrinsic::fabs},
      {"floor", Intrinsic::floor}, {"ceil", Intrinsic::ceil},
      {"trunc", Intrinsic::trunc}, {"rint", Intrinsic::rint},
      {"round", Intrinsic::round}, {"fma", Intrinsic::fma},
      {"mad", Intrinsic::fmuladd}, {"fmin", Intrinsic::minnum},
      {"fmax", Intrinsic::maxnum}, {"copysign", Intrinsic::copysign},
      {"sin", Intrinsic::sin},     {"cos", Intrinsic::cos},
      {"exp", Intrinsic::exp},     {"exp2", Intrinsic::exp2},
      {"log", Intrinsic::log},     {"log2", Intrinsic::log2},
      {"log10", Intrinsic::log10}, {"pow", Intrinsic::pow},
  };
  for (Function &F : M) {
    if (!F.isDeclaration() || !F.getName().starts_with("_Z"))
      continue;
    StringRef Name = baseName(F.getName());
    Type *Ty = F.getReturnType();
    if (!Ty->isFPOrFPVectorTy())
      continue;
    bool SameTypes = F.arg_size() > 0;
    for (const Argument &A : F.args())
      SameTypes &= A.getType() == Ty;
    if (!SameTypes)
      continue;
    for (auto [N, ID] : Map) {
      if (Name != N)
        continue;
      Function *Intr = Intrinsic::getDeclaration(&M, ID, {Ty});
      if (Intr->getFunctionType()->getNumParams() != F.arg_size())
        break;
      F.replaceAllUsesWith(Intr);
      Changed = true;
      break;
    }
  }
  return Changed;
}

} // namespace

PreservedAnalyses MathBuiltinsPass::run(Module &M, ModuleAnalysisManager &) {
  return lowerMathBuiltins(M) ? PreservedAnalyses::none()
                              : PreservedAnalyses::all();
}

} // namespace clcpu::compiler
