//===- MathBuiltins.h - clcpu-math-builtins -------------------------------===//
//
// The pass of compiler/passes/MathBuiltins.cpp (registered as
// `clcpu-math-builtins`, compiler/passes/Passes.def); the .cpp explains the
// transformation.

#ifndef CLCPU_COMPILER_PASSES_MATH_BUILTINS_H
#define CLCPU_COMPILER_PASSES_MATH_BUILTINS_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// The builtin library's declarations of sqrt, fabs, sin, pow ... as the
/// LLVM intrinsics, which the vectorizer widens across work-items.
struct MathBuiltinsPass : llvm::PassInfoMixin<MathBuiltinsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
