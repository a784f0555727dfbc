//===- WorkItemLoopCheck.h - clcpu-work-item-loop-check -------------------===//
//
// The pass of compiler/passes/WorkItemLoopCheck.cpp (registered as
// `clcpu-work-item-loop-check`, compiler/passes/Passes.def); the .cpp explains
// the transformation.

#ifndef CLCPU_COMPILER_PASSES_WORK_ITEM_LOOP_CHECK_H
#define CLCPU_COMPILER_PASSES_WORK_ITEM_LOOP_CHECK_H

#include <llvm/IR/PassManager.h>

namespace llvm {
class Loop;
class LoopInfo;
class ScalarEvolution;
} // namespace llvm

namespace clcpu::compiler {

/// Why the vectorizer's VPlan-native path cannot widen the work-item x-loop
/// \p L across work-items (or widens it worse than the inner-loop path), or
/// null if it can. With \p VectorsSplit, \p L's OpenCL vector operations
/// count as the scalars ScalarizeWorkItemLoops would split them into (the
/// question that pass asks before splitting).
const char *nativePathObstacle(llvm::Loop &L, llvm::LoopInfo &LI,
                               llvm::ScalarEvolution &SE, bool VectorsSplit);

/// Right before the loop vectorizer: withdraws the outer-loop vectorize
/// hint from a marked work-item x-loop the VPlan-native path cannot widen
/// (or widens worse than the inner-loop path).
struct WorkItemLoopCheckPass : llvm::PassInfoMixin<WorkItemLoopCheckPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
