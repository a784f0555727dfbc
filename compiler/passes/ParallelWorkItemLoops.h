//===- ParallelWorkItemLoops.h - clcpu-parallel-work-item-loops -----------===//
//
// The pass of compiler/passes/ParallelWorkItemLoops.cpp (registered as
// `clcpu-parallel-work-item-loops`, compiler/passes/Passes.def); the .cpp
// explains the transformation.

#ifndef CLCPU_COMPILER_PASSES_PARALLEL_WORK_ITEM_LOOPS_H
#define CLCPU_COMPILER_PASSES_PARALLEL_WORK_ITEM_LOOPS_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// The memory accesses of a work-item x-loop are declared free of
/// dependences between iterations (llvm.access.group and
/// llvm.loop.parallel_accesses) where the OpenCL memory model makes them so.
struct ParallelWorkItemLoopsPass
    : llvm::PassInfoMixin<ParallelWorkItemLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
