//===- SubGroupStepInline.h - clcpu-sub-group-step-inline -----------------===//
//
// The pass of compiler/passes/SubGroupStepInline.cpp (registered as
// `clcpu-sub-group-step-inline`, compiler/passes/Passes.def); the .cpp explains
// the transformation.

#ifndef CLCPU_COMPILER_PASSES_SUB_GROUP_STEP_INLINE_H
#define CLCPU_COMPILER_PASSES_SUB_GROUP_STEP_INLINE_H

#include <llvm/IR/PassManager.h>

namespace clcpu::compiler {

/// At the end of the optimizer, inlines the functions marked
/// \c LateInlineAttr (a sub-group stretch's collective step, kept out of the
/// scalarizer's way until the vectorizer ran) and forwards their callers'
/// stores to the inlined loads (GVN, DSE).
struct SubGroupStepInlinePass : llvm::PassInfoMixin<SubGroupStepInlinePass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

/// The attribute of a sub-group stretch's collective step, kept out of the
/// scalarizer's way until the vectorizer ran: passes/SubGroupStepInline.cpp
/// inlines the functions that have it at the end of the optimizer.
inline constexpr const char *LateInlineAttr = "clcpu-late-inline";

} // namespace clcpu::compiler

#endif
