//===- ScanLoopVectorize.h - clcpu-scan-loop-vectorize --------------------===//
//
// The pass of compiler/passes/ScanLoopVectorize.cpp (registered as
// `clcpu-scan-loop-vectorize`, compiler/passes/Passes.def); the .cpp explains
// the transformation.

#ifndef CLCPU_COMPILER_PASSES_SCAN_LOOP_VECTORIZE_H
#define CLCPU_COMPILER_PASSES_SCAN_LOOP_VECTORIZE_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// A loop that writes out a running sum (min, max, and, or, xor) runs VF
/// iterations at a time, the running values computed across the vector
/// lanes.
struct ScanLoopVectorizePass : llvm::PassInfoMixin<ScanLoopVectorizePass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
