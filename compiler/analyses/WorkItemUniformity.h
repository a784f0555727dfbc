//===- compiler/analyses/WorkItemUniformity.h - uniform values --*- C++ -*-===//
//
// Which values of a kernel body are the same in every work-item of a
// group when computed (clcpu-uniformity). The barrier regions keep such
// values in one slot per sync point instead of one per work-item and read
// one work-item's state after regions whose exit only uniform branches
// decide (compiler/regions/RegionShapes.cpp); the reconvergence points go
// only after branches that are not uniform (compiler/passes/
// Reconvergence.cpp); grid-stride loops get a sync point only where their
// trip count varies (compiler/passes/LoopSyncPoints.cpp).

#ifndef CLCPU_COMPILER_ANALYSES_WORKITEMUNIFORMITY_H
#define CLCPU_COMPILER_ANALYSES_WORKITEMUNIFORMITY_H

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/PassManager.h>

namespace llvm {
class raw_ostream;
class Value;
} // namespace llvm

namespace clcpu::compiler {

/// The uniform values of one function. A function that is not a kernel
/// body (no local id parameters, compiler/KernelBody.h) has no divergence:
/// every value is uniform.
class WorkItemUniformity {
public:
  WorkItemUniformity() = default;
  explicit WorkItemUniformity(llvm::Function &F);

  /// Whether \p V is the same in every work-item of a group: a constant,
  /// an argument other than the local ids, or an instruction the analysis
  /// found uniform.
  bool isUniform(const llvm::Value *V) const;
  llvm::ArrayRef<llvm::Value *> localIds() const { return LocalIds; }

  bool invalidate(llvm::Function &F, const llvm::PreservedAnalyses &PA,
                  llvm::FunctionAnalysisManager::Invalidator &);

private:
  llvm::DenseSet<const llvm::Value *> Uniform;
  llvm::SmallVector<llvm::Value *, 3> LocalIds;
};

/// The analysis the passes request (FunctionAnalysisManager::getResult).
class WorkItemUniformityAnalysis
    : public llvm::AnalysisInfoMixin<WorkItemUniformityAnalysis> {
  friend llvm::AnalysisInfoMixin<WorkItemUniformityAnalysis>;
  static llvm::AnalysisKey Key;

public:
  using Result = WorkItemUniformity;
  Result run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

/// `print<clcpu-uniformity>`: each value-producing instruction of a kernel
/// body, uniform or divergent, for IR tests.
class WorkItemUniformityPrinterPass
    : public llvm::PassInfoMixin<WorkItemUniformityPrinterPass> {
  llvm::raw_ostream &OS;

public:
  explicit WorkItemUniformityPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
  static bool isRequired() { return true; }
};

} // namespace clcpu::compiler

#endif
