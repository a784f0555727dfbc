//===- compiler/regions/RegionDriver.h - running the regions ----*- C++ -*-===//
//
// The last phase of barrier-region formation: `wg_<K>`, the work-group
// function that runs the regions of `<K>.regions`, each as one loop over
// the group's work-items, with the collective steps between them.

#ifndef CLCPU_COMPILER_REGIONS_REGIONDRIVER_H
#define CLCPU_COMPILER_REGIONS_REGIONDRIVER_H

#include "compiler/Barriers.h"
#include "compiler/InlineCollectives.h"
#include "compiler/PromotePrivates.h"
#include "compiler/SiteReach.h"
#include "compiler/WorkGroupFunction.h"
#include "compiler/passes/LoopSyncPoints.h"
#include "compiler/passes/SubGroupStepInline.h"
#include "compiler/regions/BarrierRegions.h"

#include <llvm/ADT/ArrayRef.h>

#include <cstdint>

namespace clcpu::compiler::regions {

/// What the driver needs to know about one region (RegionShapes.cpp).
struct RegionShape {
  /// Its code has loops (the vectorizer's outer-loop path).
  bool HasLoops = false;
  /// Which sync point it stops at (or whether it finishes) is decided only
  /// by uniform branches: work-items that start it together stop together,
  /// so the driver reads one work-item's state instead of scanning all.
  bool UniformExit = false;
  /// It runs one sub-group at a time when the group's x size is a multiple
  /// of the sub-group size: its exit is uniform, it has no atomics, and it
  /// starts after, or can stop at, one of the driver's \p SubGroupSyncs.
  bool SubGroupStretch = false;
  /// A stretch starts at it (it can stop at such a sync point; a region
  /// that only starts after one gains nothing from starting one).
  bool SubGroupStretchStart = false;
  /// The one sync point it always stops at (no other, and it never
  /// finishes), or -1.
  int OnlyEnd = -1;
};

/// `wg_<K>` for barrier regions: one work-item loop per region of \p
/// Regions (`<K>.regions`, compiler/regions/RegionFunctions.cpp), then \p
/// CollectiveStep between regions; \p Shapes describes each region.
/// \p ReachedBy: for a kernel with non-uniform sub-group functions, bit t
/// of entry s says sync point t can reach sync point s (the divergent loop
/// then releases the sync points in that order); empty: lowest first.
/// \p SubGroupSyncs: the sub-group sync points (sub-group barriers and
/// collectives computed in the kernel's code) whose next region has a
/// uniform exit; \p SubGroupStep (`void(ctx, i32 sync point, ptr scratch,
/// i64 n, i64 first)`) computes one of them for the one sub-group whose
/// first linear local id is `first`. A stretch of regions joined by them
/// runs sub-group by sub-group: each region a loop over the sub-group's S
/// work-items (one vector), its collective across that vector's lanes
/// right after, then the next region, until a work-group sync point.
void emitRegionDriver(llvm::Module &M, llvm::Function &Kernel,
                      llvm::Function &Regions, llvm::Function &CollectiveStep,
                      llvm::Function *SubGroupStep,
                      llvm::ArrayRef<unsigned> SubGroupSyncs,
                      llvm::ArrayRef<RegionShape> Shapes,
                      llvm::ArrayRef<uint64_t> ReachedBy, const KernelInfo &K);

} // namespace clcpu::compiler::regions

#endif
