//===- CheckBounds.h - clcpu-check-bounds ---------------------------------===//
//
// The pass of compiler/passes/CheckBounds.cpp (registered as
// `clcpu-check-bounds`, compiler/passes/Passes.def); the .cpp explains the
// transformation.

#ifndef CLCPU_COMPILER_PASSES_CHECK_BOUNDS_H
#define CLCPU_COMPILER_PASSES_CHECK_BOUNDS_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// The metadata cloneBody puts on the address of each __local variable in
/// a kernel body: !{i64 bytes, !"name"}.
inline constexpr const char LocalVariableMetadata[] = "clcpu.local_variable";
/// The table of a checked kernel's check sites is the global
/// `clcpu.check_sites.<kernel>`: an array of C strings ending with null,
/// site n (from 1) at index n - 1. Each text starts with what happened
/// ("load of 4 bytes from argument 0 'in'", "integer division by zero").
inline constexpr const char CheckSitesPrefix[] = "clcpu.check_sites.";

/// The bounds-check mode on a kernel body: every access to an object of
/// known extent checked, the first failure of each work-item reported
/// through WorkGroupContext::CheckReport.
struct CheckBoundsPass : llvm::PassInfoMixin<CheckBoundsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
