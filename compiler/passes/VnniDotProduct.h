//===- VnniDotProduct.h - clcpu-vnni-dot-product --------------------------===//
//
// The pass of compiler/passes/VnniDotProduct.cpp (registered as
// `clcpu-vnni-dot-product`, compiler/passes/Passes.def); the .cpp explains
// the transformation.

#ifndef CLCPU_COMPILER_PASSES_VNNI_DOT_PRODUCT_H
#define CLCPU_COMPILER_PASSES_VNNI_DOT_PRODUCT_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// Vector sums of the four unsigned-by-signed byte products of 32-bit lanes
/// (plus an accumulator, or saturated onto one) become vpdpbusd /
/// vpdpbusds where the function's target has AVX-512 VNNI or AVX-VNNI.
struct VnniDotProductPass : llvm::PassInfoMixin<VnniDotProductPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
