//===- WorkItemDebugVariables.h - clcpu-work-item-debug-variables ---------===//
//
// The pass of compiler/passes/WorkItemDebugVariables.cpp (registered as
// `clcpu-work-item-debug-variables`, compiler/passes/Passes.def); the .cpp
// explains the transformation.

#ifndef CLCPU_COMPILER_PASSES_WORK_ITEM_DEBUG_VARIABLES_H
#define CLCPU_COMPILER_PASSES_WORK_ITEM_DEBUG_VARIABLES_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// A kernel body built with -g gets the variables __global_id, __local_id
/// and __group_id (size_t[3]) that a debugger prints.
struct WorkItemDebugVariablesPass
    : llvm::PassInfoMixin<WorkItemDebugVariablesPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
