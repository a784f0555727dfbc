//===- GuardedLoopBound.h - clcpu-guarded-loop-bound ----------------------===//
//
// The pass of compiler/passes/GuardedLoopBound.cpp (registered as
// `clcpu-guarded-loop-bound`, compiler/passes/Passes.def); the .cpp explains
// the transformation.

#ifndef CLCPU_COMPILER_PASSES_GUARDED_LOOP_BOUND_H
#define CLCPU_COMPILER_PASSES_GUARDED_LOOP_BOUND_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// A loop whose body is guarded by a bound that only goes from true to false
/// (`if (base + j < n)`) stops at the first false guard instead of running
/// the remaining empty iterations.
struct GuardedLoopBoundPass : llvm::PassInfoMixin<GuardedLoopBoundPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
