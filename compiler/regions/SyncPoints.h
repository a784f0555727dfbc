//===- compiler/regions/SyncPoints.h - where regions end --------*- C++ -*-===//
//
// The first phase of barrier-region formation: the sync points (barriers,
// collectives, grid-stride loop headers) where `<K>.regions` is cut, each
// alone in its block, numbered, with the blocks before and after it and,
// for non-uniform sub-group functions, which can reach which.

#ifndef CLCPU_COMPILER_REGIONS_SYNCPOINTS_H
#define CLCPU_COMPILER_REGIONS_SYNCPOINTS_H

#include "compiler/regions/RegionPlan.h"

#include <string>

namespace clcpu::compiler::regions {

/// Whether every collective of \p Body has a scalar operand; if not, the
/// reason in \p Why (the fibers report a vector or half one unsupported).
bool collectivesAreScalar(llvm::Function &Body, std::string &Why);

/// A sync point at the header of each grid-stride loop of P.R
/// (insertLoopSyncPoints): one region per iteration.
void addLoopSyncPoints(RegionPlan &P);

/// P.Syncs: P.R's sync points, the loop ones first, numbered from 1; drops
/// P.R's lifetime markers. False, with the reason in \p Why, if there is
/// none.
bool findSyncPoints(RegionPlan &P, std::string &Why);

/// Each sync point alone in its block (SyncPoint::Block, ::Post), with the
/// blocks before and after it, P.SyncBlocks and SyncPoint::SelfLoop.
void isolateSyncPoints(RegionPlan &P);

/// P.ReachedBy, for a kernel with non-uniform sub-group functions.
void findReachingSyncPoints(RegionPlan &P);

/// The blocks reachable from \p From (\p Forward), or from which it is.
llvm::DenseSet<const llvm::BasicBlock *> reachable(const llvm::BasicBlock *From,
                                                   bool Forward);

} // namespace clcpu::compiler::regions

#endif
