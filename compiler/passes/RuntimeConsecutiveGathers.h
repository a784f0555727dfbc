//===- RuntimeConsecutiveGathers.h - clcpu-runtime-consecutive-gathers ----===//
//
// The pass of compiler/passes/RuntimeConsecutiveGathers.cpp (registered as
// `clcpu-runtime-consecutive-gathers`, compiler/passes/Passes.def); the .cpp
// explains the transformation.

#ifndef CLCPU_COMPILER_PASSES_RUNTIME_CONSECUTIVE_GATHERS_H
#define CLCPU_COMPILER_PASSES_RUNTIME_CONSECUTIVE_GATHERS_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// The other gathers and scatters in loops check at run time whether their
/// lanes are adjacent and then run as vector loads and stores.
struct RuntimeConsecutiveGathersPass
    : llvm::PassInfoMixin<RuntimeConsecutiveGathersPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
