//===- ScalarizeWorkItemLoops.h - clcpu-scalarize-work-item-loops ---------===//
//
// The pass of compiler/passes/ScalarizeWorkItemLoops.cpp (registered as
// `clcpu-scalarize-work-item-loops`, compiler/passes/Passes.def); the .cpp
// explains the transformation.

#ifndef CLCPU_COMPILER_PASSES_SCALARIZE_WORK_ITEM_LOOPS_H
#define CLCPU_COMPILER_PASSES_SCALARIZE_WORK_ITEM_LOOPS_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// In a function with a marked work-item loop, splits OpenCL vector
/// operations (loads and stores included) into scalars the loop vectorizer
/// widens across work-items.
struct ScalarizeWorkItemLoopsPass
    : llvm::PassInfoMixin<ScalarizeWorkItemLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
