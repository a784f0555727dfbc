//===- PassResult.h - what a pass preserves -------------------------------===//
//
// The PreservedAnalyses of the passes in compiler/passes that rewrite
// instructions or metadata but never add, remove or rewire blocks.

#ifndef CLCPU_COMPILER_PASSES_PASS_RESULT_H
#define CLCPU_COMPILER_PASSES_PASS_RESULT_H

#include <llvm/IR/Analysis.h>

namespace clcpu::compiler {

/// Everything when the pass changed nothing, else the CFG analyses.
inline llvm::PreservedAnalyses keptCFG(bool Changed) {
  if (!Changed)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses PA;
  PA.preserveSet<llvm::CFGAnalyses>();
  return PA;
}

} // namespace clcpu::compiler

#endif
