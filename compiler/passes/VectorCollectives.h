//===- VectorCollectives.h - clcpu-vector-collectives ---------------------===//
//
// The pass of compiler/passes/VectorCollectives.cpp (registered as
// `clcpu-vector-collectives`, compiler/passes/Passes.def); the .cpp explains
// the transformation.

#ifndef CLCPU_COMPILER_PASSES_VECTOR_COLLECTIVES_H
#define CLCPU_COMPILER_PASSES_VECTOR_COLLECTIVES_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// sub_group_broadcast and sub_group_non_uniform_broadcast of vectors
/// (cl_khr_subgroup_extended_types) become one scalar broadcast per
/// component, which both barrier paths compute on 64 bits.
struct VectorCollectivesPass : llvm::PassInfoMixin<VectorCollectivesPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
