//===- NonTemporalStores.h - clcpu-non-temporal-stores --------------------===//
//
// The pass of compiler/passes/NonTemporalStores.cpp (registered as
// `clcpu-non-temporal-stores`, compiler/passes/Passes.def); the .cpp explains
// the transformation.

#ifndef CLCPU_COMPILER_PASSES_NON_TEMPORAL_STORES_H
#define CLCPU_COMPILER_PASSES_NON_TEMPORAL_STORES_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// Full-register vector stores into output-only arguments of work-group
/// functions become non-temporal when the launch writes more than the
/// last-level cache (and the address is aligned).
struct NonTemporalStoresPass : llvm::PassInfoMixin<NonTemporalStoresPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
