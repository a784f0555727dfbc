//===- ProgressYields.h - clcpu-progress-yields ---------------------------===//
//
// The pass of compiler/passes/ProgressYields.cpp (registered as
// `clcpu-progress-yields`, compiler/passes/Passes.def); the .cpp explains the
// transformation.

#ifndef CLCPU_COMPILER_PASSES_PROGRESS_YIELDS_H
#define CLCPU_COMPILER_PASSES_PROGRESS_YIELDS_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// Independent forward progress: a call through WorkGroupContext::Yield on
/// the back edge of every loop of a kernel body whose exit depends on an
/// atomic or volatile load. Changes nothing where there is none; where
/// there is, the kernel must run one fiber per work-item.
struct ProgressYieldsPass : llvm::PassInfoMixin<ProgressYieldsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
