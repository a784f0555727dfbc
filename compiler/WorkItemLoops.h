//===- compiler/WorkItemLoops.h - marking work-item loops -----------------===//
//
// The mark that tells the loop vectorizer's outer-loop path to widen a
// work-item x-loop across work-items (compiler/WorkItemLoops.cpp).

#ifndef CLCPU_COMPILER_WORKITEMLOOPS_H
#define CLCPU_COMPILER_WORKITEMLOOPS_H

#include <llvm/ADT/ArrayRef.h>

namespace llvm {
class BranchInst;
class Function;
class Instruction;
class Loop;
class Metadata;
} // namespace llvm

namespace clcpu::compiler {

/// Marks the work-item x-loop whose latch is \p Latch; if \p Body (the
/// kernel body it calls) has loops or computes with half, or \p Capped
/// (\p Lanes is below the register's lanes: xLoopLanes), also asks the
/// vectorizer to widen it by \p Lanes work-items. \p MaxTrips (0: unknown)
/// records that the loop runs at most that many times
/// (reqd_work_group_size's x extent), for the passes that reason about the
/// local id's range without bounding the loop itself
/// (compiler/passes/LocalIdModulo.cpp).
void markWorkItemLoop(llvm::BranchInst &Latch, const llvm::Function &Body,
                      unsigned Lanes, bool Capped = false,
                      unsigned MaxTrips = 0);
/// The same for a loop whose body is known to have loops or not; \p
/// NoUnroll keeps the unroller off it (a loop over one sub-group, which
/// must reach the vectorizer whole).
void markWorkItemLoop(llvm::BranchInst &Latch, bool BodyHasLoops,
                      unsigned Lanes, bool NoUnroll = false,
                      bool Capped = false, unsigned MaxTrips = 0);

/// Whether \p L is a work-item x-loop marked by markWorkItemLoop.
bool isWorkItemLoop(const llvm::Loop &L);
/// The MaxTrips markWorkItemLoop recorded on \p L, or 0.
unsigned workItemLoopMaxTrips(const llvm::Loop &L);

/// \p L's loop ID with its llvm.loop.vectorize.* properties replaced by
/// \p Hints (none: the vectorizer decides alone).
void replaceVectorizeHints(llvm::Loop &L,
                           llvm::ArrayRef<llvm::Metadata *> Hints = {});

/// Intrinsics that only inform the optimizer (alias scopes of inlined
/// `restrict` arguments, lifetimes, assumptions, debug info): dropping them
/// is safe.
bool isOptimizerHint(const llvm::Instruction &I);

} // namespace clcpu::compiler

#endif
