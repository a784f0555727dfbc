//===- compiler/regions/RegionPlan.h - state the phases share ---*- C++ -*-===//
//
// Barrier-region formation (compiler/regions/BarrierRegions.cpp) runs as a
// list of phases: sync points, liveness, scratch layout, the region
// functions, the region shapes and the driver. Each phase reads what the
// ones before it found and adds its own part to one RegionPlan, declared
// here with the records it holds: the sync points, the values and private
// variables live across them, and the per-work-item scratch slots they are
// kept in. The phases run in order on one kernel; a phase's fields are
// meaningful once it ran.

#ifndef CLCPU_COMPILER_REGIONS_REGIONPLAN_H
#define CLCPU_COMPILER_REGIONS_REGIONPLAN_H

#include "compiler/Barriers.h"
#include "compiler/ContextFields.h"
#include "compiler/InlineCollectives.h"
#include "compiler/PromotePrivates.h"
#include "compiler/SiteReach.h"
#include "compiler/WorkGroupFunction.h"
#include "compiler/analyses/WorkItemUniformity.h"
#include "compiler/passes/LoopSyncPoints.h"
#include "compiler/passes/SubGroupStepInline.h"
#include "compiler/regions/BarrierRegions.h"
#include "compiler/regions/RegionDriver.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <cstdint>
#include <optional>
#include <utility>

namespace clcpu::compiler::regions {

/// The slots every region kernel has, in bytes per work-item: the region
/// each work-item returned (i32), a collective's operand and its index
/// argument (i64 each).
constexpr uint64_t StateOffset = 0, ValueOffset = 8, IndexOffset = 16,
                   FixedBytes = 24;

/// Private state per work-item above which a kernel stays on fibers.
constexpr uint64_t MaxRegionScratch = 256 * 1024;

/// A per-work-item slot: Offset * n + lid * Size bytes into the scratch.
struct Slot {
  uint64_t Offset = 0, Size = 0;
};

struct SyncPoint {
  llvm::CallInst *Call = nullptr;
  SyncCall What;
  llvm::BasicBlock *Block = nullptr; // only Call and a branch to Post
  llvm::BasicBlock *Post = nullptr;
  unsigned Id = 0; // the region that starts after it (1-based)
  /// Blocks reachable from Post, and blocks from which Block is reachable.
  llvm::DenseSet<const llvm::BasicBlock *> After, Before;
  /// Whether a region starting after this sync point can end at it again
  /// without passing another one (a loop with this single sync point).
  bool SelfLoop = false;
  /// A work-group collective whose result is the same for every work-item
  /// (a reduction, a broadcast, all/any): the collective step copies that
  /// result to this group-wide slot (Size 0) and the region after it reads
  /// it there, one invariant load instead of one per work-item. Not the
  /// work-items' own value slots: a region that ends at a collective again
  /// (a retry loop) has its first work-items store their next operands there
  /// before the later ones would read the result.
  std::optional<Slot> Result;
  /// A work-group pipe reservation or commit (OpenCL C 3.0 6.15.16.3),
  /// whose arguments the spec requires to be the same in every work-item:
  /// they are stored once, in the first work-item's operand slots, and the
  /// runtime reserves (commits) for a group of one. A reservation's id
  /// then lands in the first value slot, from which the collective step
  /// copies it to Result. Per-work-item operands and ids were two thirds of
  /// the scratch traffic of a group moving one int per work-item through a
  /// pipe.
  bool groupWideOperands() const {
    uint32_t Kind = (What.Op % CollSubGroup) / 16;
    if (What.Op & CollSubGroup)
      return false;
    if (Kind == CollPipeCommitRead || Kind == CollPipeCommitWrite)
      return true;
    return Result &&
           (Kind == CollPipeReserveRead || Kind == CollPipeReserveWrite);
  }
};

/// An SSA value live across sync points, and at which.
struct Crossing {
  llvm::Instruction *V = nullptr;
  llvm::SmallVector<unsigned, 4> At; // indices into RegionPlan::Syncs
  Slot Where;
  bool Remat = false; // computed again after the sync point, not kept
  /// Uniform: one slot for the whole group per sync point in At (where
  /// it is saved), not one per work-item. Per sync point, because a
  /// region reads the slot of the sync point it starts after while its
  /// work-items, one after another, write the one it ends at. At a sync
  /// point a region both starts after and ends at (a loop with a single
  /// barrier), the work-items write a second slot, which the collective
  /// step copies to the first before the region runs again: otherwise the
  /// later work-items would read what the earlier ones stored for the
  /// next iteration.
  bool Uniform = false;
  llvm::SmallVector<Slot, 2> UniformSlots, NextSlots; // parallel to At
  Slot at(unsigned SI) const {
    if (!Uniform)
      return Where;
    return UniformSlots[llvm::find(At, SI) - At.begin()];
  }
  Slot storedAt(unsigned SI) const {
    if (!Uniform)
      return Where;
    return NextSlots[llvm::find(At, SI) - At.begin()];
  }
};

/// A private variable copied to its slot before the sync points it is live
/// across (At: indices into RegionPlan::Syncs) and back after them.
struct CopiedAlloca {
  llvm::AllocaInst *A;
  llvm::SmallVector<unsigned, 4> At;
  Slot Where;
};

/// A uniform value's group-wide slot written at sync point Id, copied to
/// the one the region after it reads (Crossing::NextSlots).
struct SlotCopy {
  unsigned Id;
  uint64_t From, To, Bytes;
};

/// Where the slots of the work-item at linear id Lin are, in a group of N.
struct ScratchAddress {
  llvm::Value *Scratch = nullptr, *N = nullptr, *Lin = nullptr;
  llvm::Value *at(llvm::IRBuilder<> &B, Slot S) const;
};

/// One kernel's barrier regions, filled in phase by phase.
struct RegionPlan {
  RegionPlan(llvm::Module &M, llvm::Function &Kernel, llvm::Function &Body,
             KernelInfo &K)
      : M(M), Kernel(Kernel), Body(Body), K(K) {}

  llvm::Module &M;
  llvm::Function &Kernel, &Body;
  KernelInfo &K;

  // The `<K>.regions` function (makeRegionsFunction): its returns (where a
  // work-item finishes) and its last parameters.
  llvm::Function *R = nullptr;
  llvm::SmallVector<llvm::ReturnInst *, 4> Exits;
  llvm::Value *Ctx = nullptr, *Region = nullptr, *OneState = nullptr;
  llvm::Value *Lid[3] = {};

  // Sync points (SyncPoints.cpp): the grid-stride loop ones among them, the
  // blocks they are alone in, and for kernels with non-uniform sub-group
  // functions which can reach which (bit t of ReachedBy[s]: sync point t
  // can reach s; empty otherwise).
  unsigned LoopSyncs = 0;
  llvm::SmallVector<SyncPoint, 8> Syncs;
  llvm::SmallPtrSet<const llvm::BasicBlock *, 8> SyncBlocks;
  llvm::SmallVector<uint64_t, 16> ReachedBy;

  // Liveness (Liveness.cpp): the original entry (where region 0 starts), its
  // private variables, the values the same in every work-item, what lives
  // across sync points, and the private variables that live in their slot
  // for good (Resident) or are copied there and back.
  llvm::BasicBlock *Start = nullptr;
  llvm::SmallVector<llvm::AllocaInst *, 16> Allocas;
  WorkItemUniformity Uniform;
  llvm::SmallVector<Crossing, 16> Values;
  llvm::SmallPtrSet<llvm::AllocaInst *, 8> Resident;
  llvm::SmallVector<CopiedAlloca, 8> CopiedAllocas;

  // Scratch layout (ScratchLayout.cpp): bytes per work-item, how many
  // values are kept (not rematerialized), the copies between uniform slots,
  // the resident private variables' slots.
  uint64_t ScratchBytes = 0;
  unsigned Kept = 0, KeptUniform = 0;
  llvm::SmallVector<SlotCopy, 8> Copies;
  llvm::SmallVector<std::pair<llvm::AllocaInst *, Slot>, 8> ResidentAllocas;

  // The cut (RegionFunctions.cpp): the new entry and what it computes, the
  // block each region after a sync point starts at, the reloads of each
  // value (per Values entry: index into Syncs and the reload), its stores
  // into per-work-item slots, and what kinds of sync points there were.
  llvm::BasicBlock *Entry = nullptr;
  llvm::Value *Size[3] = {};
  ScratchAddress SA;
  llvm::Value *StateAt = nullptr;
  llvm::SmallVector<llvm::BasicBlock *, 8> Resume;
  llvm::SmallVector<
      llvm::SmallVector<std::pair<unsigned, llvm::Instruction *>, 4>, 16>
      Restored;
  llvm::SmallVector<std::pair<unsigned, llvm::StoreInst *>, 16> Saves;
  unsigned Collectives = 0, Meetings = 0, Inline = 0;

  // Region shapes (RegionShapes.cpp): per region (0: the kernel's start,
  // Id: after sync point Id), the sub-group sync points a stretch runs
  // through, and how many regions start a stretch.
  llvm::SmallVector<RegionShape, 8> Shapes;
  llvm::SmallVector<unsigned, 8> SubGroupSyncs;
  unsigned Stretched = 0;
};

} // namespace clcpu::compiler::regions

#endif
