//===- DeviceEnqueueCalls.h - clcpu-device-enqueue-calls ------------------===//
//
// The pass of compiler/passes/DeviceEnqueueCalls.cpp (registered as
// `clcpu-device-enqueue-calls`, compiler/passes/Passes.def); the .cpp
// explains the transformation.

#ifndef CLCPU_COMPILER_PASSES_DEVICE_ENQUEUE_CALLS_H
#define CLCPU_COMPILER_PASSES_DEVICE_ENQUEUE_CALLS_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// The attribute of a block's kernel (the function Clang makes of a block
/// passed to enqueue_kernel): not one of the program's kernels for the
/// application, only for the runtime's device-side enqueue.
inline constexpr const char BlockKernelAttr[] = "clcpu-block-kernel";

/// enqueue_kernel and the block queries as calls of the runtime
/// (scheduler/DeviceEnqueue.h), naming the block's kernel; the block
/// kernels given their arguments' metadata. \p Detailed (-g): enqueue_kernel
/// returns the specific CLK_* error rather than CLK_ENQUEUE_FAILURE.
struct DeviceEnqueueCallsPass : llvm::PassInfoMixin<DeviceEnqueueCallsPass> {
  explicit DeviceEnqueueCallsPass(bool Detailed = false) : Detailed(Detailed) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);

private:
  bool Detailed;
};

} // namespace clcpu::compiler

#endif
