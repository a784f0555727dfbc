//===- LowerWorkGroupSync.h - clcpu-lower-work-group-sync -----------------===//
//
// The pass of compiler/passes/LowerWorkGroupSync.cpp (registered as
// `clcpu-lower-work-group-sync`, compiler/passes/Passes.def); the .cpp explains
// the transformation.

#ifndef CLCPU_COMPILER_PASSES_LOWER_WORK_GROUP_SYNC_H
#define CLCPU_COMPILER_PASSES_LOWER_WORK_GROUP_SYNC_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// The fiber path: barriers and work-group / sub-group collectives of a
/// kernel body as calls through WorkGroupContext::Barrier, ::Collective and
/// ::SubGroupBarrier (compiler/Barriers.cpp).
struct LowerWorkGroupSyncPass : llvm::PassInfoMixin<LowerWorkGroupSyncPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
