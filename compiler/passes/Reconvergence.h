//===- Reconvergence.h - clcpu-reconvergence ------------------------------===//
//
// The pass of compiler/passes/Reconvergence.cpp (registered as
// `clcpu-reconvergence`, compiler/passes/Passes.def); the .cpp explains the
// transformation.

#ifndef CLCPU_COMPILER_PASSES_RECONVERGENCE_H
#define CLCPU_COMPILER_PASSES_RECONVERGENCE_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// After each branch that is not uniform and leads to a sub-group function
/// computed per call site (non-uniform, shuffle, rotate), a reconvergence
/// point where the sub-group's work-items meet again. Runs on a kernel
/// body: a function whose last four parameters are (ctx, lx, ly, lz).
struct ReconvergencePass : llvm::PassInfoMixin<ReconvergencePass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
