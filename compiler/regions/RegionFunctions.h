//===- compiler/regions/RegionFunctions.h - the cut body --------*- C++ -*-===//
//
// The fourth phase of barrier-region formation: `<K>.regions(args, ctx, lx,
// ly, lz, region, one_state) -> next`, the kernel body cut at its sync
// points. It runs one work-item from the start of `region` (0: the kernel's
// entry; k: right after sync point k) to the next sync point and returns
// that sync point's number (0 when the work-item finished), also stored in
// the work-item's state slot.

#ifndef CLCPU_COMPILER_REGIONS_REGIONFUNCTIONS_H
#define CLCPU_COMPILER_REGIONS_REGIONFUNCTIONS_H

#include "compiler/regions/RegionPlan.h"

namespace clcpu::compiler::regions {

class SlotAliases;

/// P.R: a copy of P.Body taking the region to start and `one_state` as
/// last parameters, returning 0 where the body returns (P.Exits).
void makeRegionsFunction(RegionPlan &P);

/// P.Entry: P.R's new entry, with every private variable, the work-item's
/// scratch address and state slot (P.SA, P.StateAt); the resident private
/// variables become their slots.
void emitRegionsEntry(RegionPlan &P);

/// Cuts P.R at each sync point: stores what the group needs, saves what
/// lives across and returns the sync point's number; a new block (P.Resume)
/// restores and continues after it. P.Entry's switch on the region goes to
/// P.Start or to one of those.
void cutAtSyncPoints(RegionPlan &P, SlotAliases &Aliases);

/// Every use of a value live across a sync point sees the definition or
/// the reload that reaches it.
void repairSSA(RegionPlan &P);

/// Drops the saves of values only reloaded from the same slot since.
void dropRedundantSaves(RegionPlan &P);

} // namespace clcpu::compiler::regions

#endif
