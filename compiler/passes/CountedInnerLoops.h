//===- CountedInnerLoops.h - clcpu-counted-inner-loops --------------------===//
//
// The pass of compiler/passes/CountedInnerLoops.cpp (registered as
// `clcpu-counted-inner-loops`, compiler/passes/Passes.def); the .cpp
// explains the transformation.

#ifndef CLCPU_COMPILER_PASSES_COUNTED_INNER_LOOPS_H
#define CLCPU_COMPILER_PASSES_COUNTED_INNER_LOOPS_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// Right before the loop vectorizer: each loop inside a work-item x-loop
/// marked for the VPlan-native path whose trip count is the same for every
/// work-item gets a counter from 0 by 1 that decides its exit, the form
/// the native path requires of inner loops.
struct CountedInnerLoopsPass : llvm::PassInfoMixin<CountedInnerLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
