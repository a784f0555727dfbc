//===- InterleavedAccesses.h - clcpu-interleaved-accesses -----------------===//
//
// The pass of compiler/passes/InterleavedAccesses.cpp (registered as
// `clcpu-interleaved-accesses`, compiler/passes/Passes.def); the .cpp
// explains the transformation.

#ifndef CLCPU_COMPILER_PASSES_INTERLEAVED_ACCESSES_H
#define CLCPU_COMPILER_PASSES_INTERLEAVED_ACCESSES_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// The gathers (scatters) of the fields of one small struct per lane (the
/// channels of an RGBA texel, a float4's components) become, when the
/// lanes' structs are adjacent at run time, wide loads (stores) and
/// shuffles.
struct InterleavedAccessesPass
    : llvm::PassInfoMixin<InterleavedAccessesPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
