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
/// After the null, one more entry: non-null when a failed work-item also
/// sets WorkGroupContext's CheckReportFailed word (a kernel without loops,
/// which writes its report only on a failure), null when the scheduler
/// must read the arrays.
inline constexpr const char CheckSitesPrefix[] = "clcpu.check_sites.";

/// The check of one access: `i1 @clcpu.check.in_bounds(i64 offset, i64
/// extent, i64 size)`, true when extent >= size and offset <= extent -
/// size (unsigned). It stays a call, which the optimizer may move or
/// merge but not take apart, until passes/CheckRangeVersioning.cpp has used
/// it and expands it.
inline constexpr const char InBoundsFunction[] = "clcpu.check.in_bounds";
/// \p M's declaration of InBoundsFunction (added if missing).
llvm::Function *inBoundsFunction(llvm::Module &M);

/// Whether \p M holds a kernel body the pass instrumented (it marks the
/// module with the named metadata `clcpu.check_bounds`).
bool isBoundsChecked(const llvm::Module &M);

/// The bounds-check mode on a kernel body: every access to an object of
/// known extent checked, the first failure of each work-item reported
/// through WorkGroupContext::CheckReport.
struct CheckBoundsPass : llvm::PassInfoMixin<CheckBoundsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace clcpu::compiler

#endif
