//===- ImageArguments.h - clcpu-image-arguments ---------------------------===//
//
// The pass of compiler/passes/ImageArguments.cpp (registered as
// `clcpu-image-arguments`, compiler/passes/Passes.def); the .cpp explains
// the transformation.

#ifndef CLCPU_COMPILER_PASSES_IMAGE_ARGUMENTS_H
#define CLCPU_COMPILER_PASSES_IMAGE_ARGUMENTS_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// The function metadata that names a kernel body's image and sampler
/// parameters and the values a launch-time specialization fixes: a tuple
/// of `!{i32 Index, !"image"}`, `!{i32 Index, !"image", i32 Order, i32
/// Type, i32 ElementSize, i32 Channels}` and `!{i32 Index, !"sampler", i32
/// Bits}` (compiler/WorkGroupFunction.cpp attaches it).
inline constexpr const char *ImageArgumentsMetadata = "clcpu.image_args";

/// The loads of an image descriptor become invariant loads, and those of
/// a format field whose value the launch fixes become that constant; a
/// fixed sampler parameter becomes its bits.
struct ImageArgumentsPass : llvm::PassInfoMixin<ImageArgumentsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
