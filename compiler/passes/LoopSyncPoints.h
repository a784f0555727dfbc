//===- LoopSyncPoints.h - clcpu-loop-sync-points --------------------------===//
//
// The pass of compiler/passes/LoopSyncPoints.cpp (registered as
// `clcpu-loop-sync-points`, compiler/passes/Passes.def); the .cpp explains the
// transformation.

#ifndef CLCPU_COMPILER_PASSES_LOOP_SYNC_POINTS_H
#define CLCPU_COMPILER_PASSES_LOOP_SYNC_POINTS_H

#include <llvm/IR/Instructions.h>
#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

class SyncCalls;
class WorkItemUniformity;

/// A sync point at the header of each grid-stride loop of a kernel body
/// (compiler/passes/LoopSyncPoints.cpp), so that the barrier regions run
/// each iteration as a vectorized region. Requests clcpu-uniformity.
struct LoopSyncPointsPass : llvm::PassInfoMixin<LoopSyncPointsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

/// In a barrier-region kernel's body \p R, a sync point
/// (a fence-less barrier call marked clcpu.loop_sync) at the header of each
/// loop whose trip count differs between work-items only through the start
/// of a strided induction (grid-stride loops), so each iteration runs as a
/// vectorized region. \p Uniform, \p Syncs: R's uniform values and sync
/// calls. Returns how many were
/// inserted.
unsigned insertLoopSyncPoints(llvm::Function &R,
                              const WorkItemUniformity &Uniform,
                              const SyncCalls &Syncs);
/// Whether \p CI is a sync point insertLoopSyncPoints made.
bool isLoopSyncPoint(const llvm::CallInst &CI);

} // namespace clcpu::compiler

#endif
