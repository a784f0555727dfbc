//===- CheckRangeVersioning.h - clcpu-check-range-versioning
//---------------===//
//
// The pass of compiler/passes/CheckRangeVersioning.cpp (registered as
// `clcpu-check-range-versioning`, compiler/passes/Passes.def); the .cpp
// explains the transformation.

#ifndef CLCPU_COMPILER_PASSES_CHECK_RANGE_VERSIONING_H
#define CLCPU_COMPILER_PASSES_CHECK_RANGE_VERSIONING_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// In the bounds-check mode: a work-item loop whose checks move by a
/// constant step per work-item tests their ranges once, in its preheader,
/// and runs an unchecked copy when they hold; then every check becomes its
/// compare.
struct CheckRangeVersioningPass
    : llvm::PassInfoMixin<CheckRangeVersioningPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
