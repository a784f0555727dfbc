//===- compiler/SiteReach.h - which sync sites can follow which -*- C++ -*-===//
//
// The interface of compiler/SiteReach.cpp.

#ifndef CLCPU_COMPILER_SITEREACH_H
#define CLCPU_COMPILER_SITEREACH_H

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>

#include <cstdint>

namespace llvm {
class BasicBlock;
} // namespace llvm

namespace clcpu::compiler {

/// Bit j of entry i says a work-item waiting at the end
/// of block \p Sites[i] can still reach block \p Sites[j] (all of one
/// function) in this round of every loop around Sites[j]: along a path
/// that takes no back edge of a loop containing Sites[j]. A sub-group
/// releases a non-uniform call that none of its other waiting work-items
/// can reach: after a loop of varying trip count, the calls in the loop go
/// first; inside a loop, a work-item waiting at a reconvergence point does
/// not hold back the call on the other side of the branch.
llvm::SmallVector<uint64_t, 8>
siteReach(llvm::ArrayRef<const llvm::BasicBlock *> Sites);

} // namespace clcpu::compiler

#endif
