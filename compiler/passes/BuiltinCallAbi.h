//===- BuiltinCallAbi.h - clcpu-builtin-call-abi ----------------*- C++ -*-===//
//
// The pass of compiler/passes/BuiltinCallAbi.cpp (registered as
// `clcpu-builtin-call-abi`, compiler/passes/Passes.def); the .cpp explains
// the transformation.

#ifndef CLCPU_COMPILER_PASSES_BUILTIN_CALL_ABI_H
#define CLCPU_COMPILER_PASSES_BUILTIN_CALL_ABI_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// A call that passes a value where the function it calls, as the front
/// end lowered it for the host ABI, takes it in memory (byval) passes a
/// copy in memory instead.
struct BuiltinCallAbiPass : llvm::PassInfoMixin<BuiltinCallAbiPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace clcpu::compiler

#endif
