//===- compiler/regions/CollectiveSteps.h - between regions -----*- C++ -*-===//
//
// Part of the fourth phase of barrier-region formation: the code the driver
// runs between two regions. `<K>.collective` computes the collective a
// region ended at over the whole group; `<K>.collective.sg` computes a
// sub-group one for one sub-group at a time.

#ifndef CLCPU_COMPILER_REGIONS_COLLECTIVESTEPS_H
#define CLCPU_COMPILER_REGIONS_COLLECTIVESTEPS_H

#include "compiler/regions/RegionPlan.h"

namespace clcpu::compiler::regions {

class SlotAliases;

/// `void <K>.collective(ctx, i32 region, ptr scratch, i64 n, ptr states)`,
/// called before the driver runs \p region: computes the collective of the
/// sync point that ends at it, if it is one (\p states: null, or the state
/// slots when work-items diverged), and makes the uniform values the
/// work-items saved there the ones the region reads (P.Copies).
llvm::Function *emitCollectiveStep(const RegionPlan &P);

/// `void <K>.collective.sg(ctx, i32 region, ptr scratch, i64 n, i64
/// first)`: what <K>.collective does before \p region when it follows one
/// of the sub-group sync points P.SubGroupSyncs, for the one full sub-group
/// whose first linear local id is \p first only (every work-item of it
/// stopped there: the regions before have uniform exits). Inlined with a
/// constant region after the vectorizer
/// (compiler/passes/SubGroupStepInline.cpp): the sub-group's slots as one
/// vector, the operation across its lanes, one store. Its slot accesses get
/// their tags from \p Aliases.
llvm::Function *emitSubGroupStep(const RegionPlan &P, SlotAliases &Aliases);

} // namespace clcpu::compiler::regions

#endif
