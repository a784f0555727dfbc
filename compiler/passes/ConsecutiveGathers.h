//===- ConsecutiveGathers.h - clcpu-consecutive-gathers -------------------===//
//
// The pass of compiler/passes/ConsecutiveGathers.cpp (registered as
// `clcpu-consecutive-gathers`, compiler/passes/Passes.def); the .cpp explains
// the transformation.

#ifndef CLCPU_COMPILER_PASSES_CONSECUTIVE_GATHERS_H
#define CLCPU_COMPILER_PASSES_CONSECUTIVE_GATHERS_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// Gathers and scatters whose lanes are adjacent elements become vector
/// loads and stores.
struct ConsecutiveGathersPass : llvm::PassInfoMixin<ConsecutiveGathersPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
