//===- InvariantDivision.h - clcpu-invariant-division ---------------------===//
//
// The pass of compiler/passes/InvariantDivision.cpp (registered as
// `clcpu-invariant-division`, compiler/passes/Passes.def); the .cpp explains
// the transformation.

#ifndef CLCPU_COMPILER_PASSES_INVARIANT_DIVISION_H
#define CLCPU_COMPILER_PASSES_INVARIANT_DIVISION_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// 32-bit divisions and remainders by a loop-invariant divisor become a
/// multiply-high and shifts (vectorizable).
struct InvariantDivisionPass : llvm::PassInfoMixin<InvariantDivisionPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
