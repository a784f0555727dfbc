//===- GridStridePrefetch.h - clcpu-grid-stride-prefetch ------------------===//
//
// The pass of compiler/passes/GridStridePrefetch.cpp (registered as
// `clcpu-grid-stride-prefetch`, compiler/passes/Passes.def); the .cpp explains
// the transformation.

#ifndef CLCPU_COMPILER_PASSES_GRID_STRIDE_PREFETCH_H
#define CLCPU_COMPILER_PASSES_GRID_STRIDE_PREFETCH_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// A gather from base[X], X a per-work-item slot advanced by a uniform step
/// each iteration (a grid-stride loop on the barrier-region path),
/// prefetches lane 0's element a few steps ahead.
struct GridStridePrefetchPass : llvm::PassInfoMixin<GridStridePrefetchPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
