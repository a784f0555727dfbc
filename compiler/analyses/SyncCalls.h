//===- compiler/analyses/SyncCalls.h - a body's sync calls ------*- C++ -*-===//
//
// The calls of a function that synchronize work-items (clcpu-sync-calls):
// barrier(), work_group_barrier(), sub_group_barrier() and the
// work_group_* / sub_group_* collectives, each with what it is
// (compiler/Barriers.h, SyncCall). Whether a kernel has any decides its
// path (compiler/WorkGroupFunction.cpp); the reconvergence points go
// after branches that lead to per-call-site ones (compiler/passes/
// Reconvergence.cpp); a loop that holds one gets no loop sync point
// (compiler/passes/LoopSyncPoints.cpp).

#ifndef CLCPU_COMPILER_ANALYSES_SYNCCALLS_H
#define CLCPU_COMPILER_ANALYSES_SYNCCALLS_H

#include "compiler/Barriers.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/PassManager.h>

#include <utility>

namespace llvm {
class CallInst;
class raw_ostream;
} // namespace llvm

namespace clcpu::compiler {

/// The synchronizing calls of one function, in instruction order.
class SyncCalls {
public:
  SyncCalls() = default;
  explicit SyncCalls(llvm::Function &F);

  /// What \p CI is; null if it does not synchronize.
  const SyncCall *lookup(const llvm::CallInst *CI) const;
  bool empty() const { return Calls.empty(); }
  llvm::ArrayRef<std::pair<llvm::CallInst *, SyncCall>> calls() const {
    return Calls;
  }

  bool invalidate(llvm::Function &F, const llvm::PreservedAnalyses &PA,
                  llvm::FunctionAnalysisManager::Invalidator &);

private:
  llvm::SmallVector<std::pair<llvm::CallInst *, SyncCall>, 8> Calls;
  llvm::DenseMap<const llvm::CallInst *, unsigned> Index;
};

/// The analysis the passes request (FunctionAnalysisManager::getResult).
class SyncCallsAnalysis : public llvm::AnalysisInfoMixin<SyncCallsAnalysis> {
  friend llvm::AnalysisInfoMixin<SyncCallsAnalysis>;
  static llvm::AnalysisKey Key;

public:
  using Result = SyncCalls;
  Result run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

/// `print<clcpu-sync-calls>`: each synchronizing call with its kind and
/// Op, for IR tests.
class SyncCallsPrinterPass : public llvm::PassInfoMixin<SyncCallsPrinterPass> {
  llvm::raw_ostream &OS;

public:
  explicit SyncCallsPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
  static bool isRequired() { return true; }
};

} // namespace clcpu::compiler

#endif
