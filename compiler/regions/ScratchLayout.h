//===- compiler/regions/ScratchLayout.h - scratch slots ---------*- C++ -*-===//
//
// The third phase of barrier-region formation: where in the per-work-item
// scratch (WorkGroupContext::Scratch) each value and private variable that
// lives across a sync point is kept, and the alias metadata that tells the
// optimizer the slots apart from each other and from the kernel's memory.

#ifndef CLCPU_COMPILER_REGIONS_SCRATCHLAYOUT_H
#define CLCPU_COMPILER_REGIONS_SCRATCHLAYOUT_H

#include "compiler/regions/RegionPlan.h"

#include <llvm/IR/MDBuilder.h>

#include <string>

namespace clcpu::compiler::regions {

/// The slots of P.Values, P.CopiedAllocas and the resident private
/// variables (P.ResidentAllocas), P.Copies, P.ScratchBytes and
/// P.K.RegionScratch. False, with the reason in \p Why, above
/// MaxRegionScratch bytes per work-item.
bool layOutScratch(RegionPlan &P, std::string &Why);

/// The bytes of private variable \p A.
uint64_t allocaBytes(const llvm::AllocaInst &A, const llvm::DataLayout &DL);

/// The alias metadata of the slots. Creating it marks every memory access
/// of P.R outside the slots; tag() and tagState() mark the slots' own.
class SlotAliases {
public:
  explicit SlotAliases(const RegionPlan &P);
  /// \p I accesses slot \p S (a per-work-item one, or a uniform value's
  /// group-wide one: S.Size 0).
  llvm::Instruction *tag(llvm::Instruction *I, Slot S);
  /// \p I accesses the state slot.
  llvm::Instruction *tagState(llvm::Instruction *I);

private:
  llvm::Instruction *tag(llvm::Instruction *I, uint64_t TagOffset,
                         llvm::MDNode *Own);
  llvm::MDNode *slotTag(uint64_t Offset);

  llvm::LLVMContext &C;
  llvm::MDBuilder MDB;
  llvm::MDNode *Scope = nullptr, *PerItem = nullptr, *StateScope = nullptr;
  llvm::MDNode *SlotRoot = nullptr;
  llvm::DenseMap<uint64_t, llvm::MDNode *> GroupScopes; // by slot offset
  llvm::DenseMap<uint64_t, llvm::MDNode *> SlotTags;    // by slot offset
  llvm::SmallVector<llvm::Metadata *, 8> AllSlotScopes;
};

} // namespace clcpu::compiler::regions

#endif
