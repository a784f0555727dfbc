//===- LocalIdModulo.h - clcpu-local-id-modulo ----------------------------===//
//
// The pass of compiler/passes/LocalIdModulo.cpp (registered as
// `clcpu-local-id-modulo`, compiler/passes/Passes.def); the .cpp explains
// the transformation.

#ifndef CLCPU_COMPILER_PASSES_LOCAL_ID_MODULO_H
#define CLCPU_COMPILER_PASSES_LOCAL_ID_MODULO_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// A power-of-two remainder of the local id in a work-item loop, `(lid +
/// c) & (n - 1)`, written so that the loop vectorizer gathers through it
/// instead of versioning the loop on its not wrapping.
struct LocalIdModuloPass : llvm::PassInfoMixin<LocalIdModuloPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
