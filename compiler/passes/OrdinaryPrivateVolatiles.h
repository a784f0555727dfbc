//===- OrdinaryPrivateVolatiles.h - clcpu-ordinary-private-volatiles ------===//
//
// The pass of compiler/passes/OrdinaryPrivateVolatiles.cpp (registered as
// `clcpu-ordinary-private-volatiles`, compiler/passes/Passes.def); the .cpp
// explains the transformation.

#ifndef CLCPU_COMPILER_PASSES_ORDINARY_PRIVATE_VOLATILES_H
#define CLCPU_COMPILER_PASSES_ORDINARY_PRIVATE_VOLATILES_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// Loads, stores and memory intrinsics of a work-item's private variables
/// lose their volatile mark: no one but the work-item can observe them.
struct OrdinaryPrivateVolatilesPass
    : llvm::PassInfoMixin<OrdinaryPrivateVolatilesPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
