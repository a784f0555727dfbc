//===- DeferFloatAdds.h - clcpu-defer-float-adds --------------------------===//
//
// The pass of compiler/passes/DeferFloatAdds.cpp (registered as
// `clcpu-defer-float-adds`, compiler/passes/Passes.def); the .cpp explains
// the transformation and why it is allowed.

#ifndef CLCPU_COMPILER_PASSES_DEFER_FLOAT_ADDS_H
#define CLCPU_COMPILER_PASSES_DEFER_FLOAT_ADDS_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// The metadata compiler/WorkGroupFunction.cpp puts on a work-item-loop
/// work-group function: the indices of its __global pointer arguments.
inline constexpr const char *GlobalArgsMetadata = "clcpu.global_args";

/// The runtime functions a deferred add becomes
/// (scheduler/DeferredAdds.cpp).
inline constexpr const char *DeferredAddF32 = "clcpu_deferred_fadd_f32";
inline constexpr const char *DeferredAddF64 = "clcpu_deferred_fadd_f64";

/// The metadata markDeferrableAdds puts on an add no other memory access
/// of its work-item may touch.
inline constexpr const char *DeferrableMetadata = "clcpu.deferrable";

/// Marks the float and double atomic adds of work-item function \p Body
/// whose memory no other load, store or call of \p Body may access (alias
/// analysis, per work-item: `restrict` arguments count).
void markDeferrableAdds(llvm::Function &Body);

/// Relaxed float and double atomic adds whose results are unused, into
/// __global buffers nothing else in the work-group function touches,
/// become calls that queue them per thread.
struct DeferFloatAddsPass : llvm::PassInfoMixin<DeferFloatAddsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
