//===- BlockedStores.h - clcpu-blocked-stores -----------------------------===//
//
// The pass of compiler/passes/BlockedStores.cpp (registered as
// `clcpu-blocked-stores`, compiler/passes/Passes.def); the .cpp explains the
// transformation.

#ifndef CLCPU_COMPILER_PASSES_BLOCKED_STORES_H
#define CLCPU_COMPILER_PASSES_BLOCKED_STORES_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// An innermost work-item loop whose stores write each work-item's own S
/// consecutive elements stays scalar (width 1), so the SLP vectorizer stores
/// each work-item's block as one vector.
struct BlockedStoresPass : llvm::PassInfoMixin<BlockedStoresPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
