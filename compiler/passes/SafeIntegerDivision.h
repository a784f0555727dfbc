//===- SafeIntegerDivision.h - clcpu-safe-integer-division ----------------===//
//
// The pass of compiler/passes/SafeIntegerDivision.cpp (registered as
// `clcpu-safe-integer-division`, compiler/passes/Passes.def); the .cpp
// explains the transformation.

#ifndef CLCPU_COMPILER_PASSES_SAFE_INTEGER_DIVISION_H
#define CLCPU_COMPILER_PASSES_SAFE_INTEGER_DIVISION_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// Integer / and % never trap (OpenCL C 6.3: an unspecified value instead
/// of an exception): a divisor that may be 0 (or -1 with a minimum
/// dividend) is replaced by 1 in that case.
struct SafeIntegerDivisionPass : llvm::PassInfoMixin<SafeIntegerDivisionPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
