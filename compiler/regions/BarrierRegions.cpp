//===- compiler/regions/BarrierRegions.cpp - barriers as work-item loops --===//
//
// The barrier fast path. A kernel with barriers or work-group / sub-group
// collectives is cut at each of them ("sync points") into regions. The
// kernel body becomes a function `<K>.regions(args, ctx, lx, ly, lz,
// region) -> next` that runs one work-item from the start of `region` (0:
// the kernel's entry; k: right after sync point k) to the next sync point,
// and returns that sync point's number (0 when the work-item finished),
// also stored in the work-item's state slot.
// `wg_<K>` then runs, for region r, one loop over the group's work-items
// calling `<K>.regions(..., r)`: with r a constant in each loop, the inliner
// keeps only the region's code, and that loop vectorizes across work-items
// exactly like a barrier-free kernel's. Between two loops every work-item
// has reached the sync point, which is what a barrier means; a collective
// is computed there in one O(n) pass over the values the work-items stored
// (WorkGroupContext::GroupCollective).
//
// The phases, each in a file of this folder, hand each other a RegionPlan
// (RegionPlan.h):
//
//   SyncPoints.cpp       the sync points, each alone in its block, numbered
//   Liveness.cpp         the values and private variables live across them
//   ScratchLayout.cpp    their per-work-item slots and alias metadata
//   RegionFunctions.cpp  `<K>.regions`: the body cut at the sync points
//   CollectiveSteps.cpp  the collectives computed between regions
//   RegionShapes.cpp     uniform exits, loops, sub-group stretches
//   RegionDriver.cpp     `wg_<K>`: the loops over the work-items
//
// Shapes the regions do not handle (a collective of a vector or half
// operand, a dynamically sized private allocation, private state above
// MaxRegionScratch per work-item) stay on fibers (compiler/Barriers.cpp).

#include "compiler/regions/BarrierRegions.h"

#include "compiler/PromotePrivates.h"
#include "compiler/regions/CollectiveSteps.h"
#include "compiler/regions/Liveness.h"
#include "compiler/regions/RegionDriver.h"
#include "compiler/regions/RegionFunctions.h"
#include "compiler/regions/RegionPlan.h"
#include "compiler/regions/RegionShapes.h"
#include "compiler/regions/ScratchLayout.h"
#include "compiler/regions/SyncPoints.h"

#include <llvm/IR/Function.h>

#include <string>

using namespace llvm;

namespace clcpu::compiler {

namespace {

/// \p N and \p What, plural unless N is 1.
std::string plural(uint64_t N, const std::string &What) {
  return std::to_string(N) + " " + What + (N == 1 ? "" : "s");
}

/// The kernel path line of a barrier-region kernel (CLCPU_LOG_KERNEL_PATHS).
std::string describePath(const regions::RegionPlan &P) {
  unsigned Syncs = P.Syncs.size();
  unsigned Barriers = Syncs - P.Collectives - P.Meetings - P.LoopSyncs;
  auto Optional = [](uint64_t N, const std::string &Text) {
    return N ? ", " + Text : std::string();
  };
  unsigned UniformExits =
      count_if(P.Shapes, [](const auto &S) { return S.UniformExit; });
  return "barrier regions: " + std::to_string(Syncs + 1) + " regions (" +
         plural(Barriers, "barrier") + ", " +
         plural(P.Collectives, "collective") +
         Optional(P.Inline, std::to_string(P.Inline) + " of them inline") +
         Optional(P.LoopSyncs, plural(P.LoopSyncs, "grid-stride loop")) +
         Optional(P.Meetings, plural(P.Meetings, "reconvergence point")) +
         "), " + std::to_string(P.Kept) + " values (" +
         std::to_string(P.KeptUniform) + " uniform) and " +
         std::to_string(P.CopiedAllocas.size() + P.ResidentAllocas.size()) +
         " private arrays across them, " + std::to_string(P.ScratchBytes) +
         " bytes of scratch per work-item, " + std::to_string(UniformExits) +
         " regions with uniform exits" +
         Optional(P.Stretched, std::to_string(P.Stretched) +
                                   " starting a run per sub-group when the x "
                                   "size allows");
}

} // namespace

bool emitBarrierRegions(Module &M, Function &Kernel, Function &Body,
                        KernelInfo &K, std::string &Why) {
  using namespace regions;
  // A vector or half collective is the fibers' to report unsupported.
  if (!collectivesAreScalar(Body, Why))
    return false;
  // Private variables to SSA values first: what is live across a sync point
  // is then mostly registers, and what stays in memory is a real array.
  promotePrivates(Body);
  RegionPlan P(M, Kernel, Body, K);
  // A copy of the body to cut, taking the region to start.
  makeRegionsFunction(P);
  // Grid-stride loops: one region per iteration (LoopSyncPoints.cpp).
  addLoopSyncPoints(P);
  // Nothing to cut at, or private memory no slot can hold: not this path.
  if (!findSyncPoints(P, Why) || !findPrivates(P, Why)) {
    P.R->eraseFromParent();
    return false;
  }
  // A region ends at the end of a block and starts at the beginning of one.
  isolateSyncPoints(P);
  // The order the divergent loop releases non-uniform sync points in.
  findReachingSyncPoints(P);
  // What each work-item keeps across each sync point.
  findLiveValues(P);
  classifyPrivates(P);
  // Where it keeps it; too much private state stays on fibers.
  if (!layOutScratch(P, Why)) {
    P.R->eraseFromParent();
    return false;
  }
  // The work-item's slots, computed once on entry to any region.
  emitRegionsEntry(P);
  // Slot accesses alias neither the kernel's memory nor each other.
  SlotAliases Aliases(P);
  // Save, return, and restore on resume at every sync point.
  cutAtSyncPoints(P, Aliases);
  repairSSA(P);
  dropRedundantSaves(P);
  // What the driver needs to know about each region.
  findRegionShapes(P);
  planSubGroupStretches(P);
  // The steps between regions and the loops over the work-items.
  Function *Step = emitCollectiveStep(P);
  Function *SubGroupStep = P.Stretched ? emitSubGroupStep(P, Aliases) : nullptr;
  emitRegionDriver(M, Kernel, *P.R, *Step, SubGroupStep, P.SubGroupSyncs,
                   P.Shapes, P.ReachedBy, K);
  K.Path = describePath(P);
  return true;
}

} // namespace clcpu::compiler
