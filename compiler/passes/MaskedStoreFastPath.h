//===- MaskedStoreFastPath.h - clcpu-masked-store-fast-path ---------------===//
//
// The pass of compiler/passes/MaskedStoreFastPath.cpp (registered as
// `clcpu-masked-store-fast-path`, compiler/passes/Passes.def); the .cpp
// explains the transformation.

#ifndef CLCPU_COMPILER_PASSES_MASKED_STORE_FAST_PATH_H
#define CLCPU_COMPILER_PASSES_MASKED_STORE_FAST_PATH_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// On targets without AVX-512, masked stores in loops test their mask: all
/// lanes on, a plain store; none, no store.
struct MaskedStoreFastPathPass : llvm::PassInfoMixin<MaskedStoreFastPathPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
