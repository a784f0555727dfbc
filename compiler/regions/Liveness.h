//===- compiler/regions/Liveness.h - state across sync points ---*- C++ -*-===//
//
// The second phase of barrier-region formation: what a work-item must keep
// across each sync point. SSA values used after a sync point they were
// defined before are saved and reloaded, or computed again when that is
// cheap; private variables live across one are copied to scratch and back,
// or live there for good.

#ifndef CLCPU_COMPILER_REGIONS_LIVENESS_H
#define CLCPU_COMPILER_REGIONS_LIVENESS_H

#include "compiler/regions/RegionPlan.h"

#include <string>

namespace clcpu::compiler::regions {

/// P.Start and P.Allocas: P.R's entry block and its private variables.
/// False, with the reason in \p Why, for one of dynamic size.
bool findPrivates(RegionPlan &P, std::string &Why);

/// P.Uniform and P.Values: the SSA values live across each sync point,
/// which of them are the same in every work-item and which can be
/// computed again after it.
void findLiveValues(RegionPlan &P);

/// P.Resident and P.CopiedAllocas: the private variables kept in their
/// slot for good and those copied there and back at the sync points they
/// are live across.
void classifyPrivates(RegionPlan &P);

/// A copy of \p V's expression at \p B (\p Copies: what is copied
/// already), for a value Crossing::Remat says to compute again.
llvm::Value *
rematerialize(llvm::IRBuilder<> &B, llvm::Value *V,
              llvm::DenseMap<llvm::Value *, llvm::Value *> &Copies);

} // namespace clcpu::compiler::regions

#endif
