//===- UniformVectorPhis.h - clcpu-uniform-vector-phis --------------------===//
//
// The pass of compiler/passes/UniformVectorPhis.cpp (registered as
// `clcpu-uniform-vector-phis`, compiler/passes/Passes.def); the .cpp explains
// the transformation.

#ifndef CLCPU_COMPILER_PASSES_UNIFORM_VECTOR_PHIS_H
#define CLCPU_COMPILER_PASSES_UNIFORM_VECTOR_PHIS_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// After vectorization, vector PHIs whose lanes are always equal become
/// scalar PHIs and a broadcast.
struct UniformVectorPhisPass : llvm::PassInfoMixin<UniformVectorPhisPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
