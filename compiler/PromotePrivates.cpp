//===- compiler/PromotePrivates.cpp - private variables to SSA values --===//
//
// The private variables of a kernel body to SSA values where they can be,
// before the uniformity analysis (compiler/analyses/WorkItemUniformity.h),
// which takes every load from a private variable as divergent.

#include "compiler/PromotePrivates.h"

#include "compiler/Compiler.h"

#include <llvm/IR/Function.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/Scalar/SROA.h>

using namespace llvm;

namespace clcpu::compiler {

void promotePrivates(Function &F) {
  PassBuilder PB;
  FunctionAnalysisManager FAM;
  PB.registerFunctionAnalyses(FAM);
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.run(F, FAM);
}

} // namespace clcpu::compiler
