//===- WorkGroupDebugInfo.h - clcpu-work-group-debug-info -----------------===//
//
// The pass of compiler/passes/WorkGroupDebugInfo.cpp (registered as
// `clcpu-work-group-debug-info`, compiler/passes/Passes.def); the .cpp
// explains the transformation.

#ifndef CLCPU_COMPILER_PASSES_WORK_GROUP_DEBUG_INFO_H
#define CLCPU_COMPILER_PASSES_WORK_GROUP_DEBUG_INFO_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// A program built with -g: every function the kernels became (work-group
/// functions, bodies, regions, work-item functions) gets a subprogram, and
/// the kernel's code appears in it as the kernel inlined there, so that a
/// debugger finds the kernel by name and its source lines.
struct WorkGroupDebugInfoPass : llvm::PassInfoMixin<WorkGroupDebugInfoPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
