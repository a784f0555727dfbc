//===- LoopSyncPoints.h - clcpu-loop-sync-points --------------------------===//
//
// The pass of compiler/passes/LoopSyncPoints.cpp (registered as
// `clcpu-loop-sync-points`, compiler/passes/Passes.def); the .cpp explains the
// transformation.

#ifndef CLCPU_COMPILER_PASSES_LOOP_SYNC_POINTS_H
#define CLCPU_COMPILER_PASSES_LOOP_SYNC_POINTS_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// A sync point at the header of each grid-stride loop of a kernel body
/// (compiler/passes/LoopSyncPoints.cpp), so that the barrier regions run
/// each iteration as a vectorized region. Requests clcpu-uniformity.
struct LoopSyncPointsPass : llvm::PassInfoMixin<LoopSyncPointsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
