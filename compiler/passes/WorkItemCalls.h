//===- WorkItemCalls.h - clcpu-work-item-calls ----------------------------===//
//
// The pass of compiler/passes/WorkItemCalls.cpp (registered as
// `clcpu-work-item-calls`, compiler/passes/Passes.def); the .cpp explains the
// transformation.

#ifndef CLCPU_COMPILER_PASSES_WORK_ITEM_CALLS_H
#define CLCPU_COMPILER_PASSES_WORK_ITEM_CALLS_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// The work-item functions (get_global_id, get_local_size, the sub-group
/// queries, to_local ...) of a kernel body as arithmetic on its local ids
/// and loads of WorkGroupContext fields.
struct WorkItemCallsPass : llvm::PassInfoMixin<WorkItemCallsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
