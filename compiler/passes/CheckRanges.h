//===- CheckRanges.h - ranges of checked offsets over a loop
//---------------===//
//
// What the bounds-check mode's two loop versionings share
// (passes/CheckBounds.cpp on a kernel body's inner loops,
// passes/CheckRangeVersioning.cpp on work-item loops): the lowest and
// highest offset an access takes over every iteration of a loop, the
// preheader's test that they lie in an object, and the copy of the loop
// that runs when they do.

#ifndef CLCPU_COMPILER_PASSES_CHECK_RANGES_H
#define CLCPU_COMPILER_PASSES_CHECK_RANGES_H

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <optional>

namespace llvm {
class BasicBlock;
class DominatorTree;
class Loop;
class LoopInfo;
class PredicatedScalarEvolution;
class SCEV;
class SCEVExpander;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace clcpu::compiler {

/// The offsets (i64) an access takes over every iteration of a loop: from
/// Lo to Hi, all of them when the test of withinRange holds.
struct OffsetRange {
  const llvm::SCEV *Lo, *Hi;
  /// The loop's backedge-taken count when the range moves (it must stay
  /// below 2^32), else null.
  const llvm::SCEV *Taken;
};

/// The range of \p Offset (an i64 expression, affine in \p L or invariant
/// in it, as PSE made it) over the iterations of \p L that reach block
/// \p At; none if its step is not a constant below 2^31 in magnitude or the
/// iterations cannot be counted, or if the preheader cannot compute it.
std::optional<OffsetRange> offsetRangeOver(llvm::ScalarEvolution &SE,
                                           const llvm::Loop &L,
                                           const llvm::SCEV *Offset,
                                           const llvm::BasicBlock *At);

/// An i1 computed before \p Where: every offset of \p R lies in
/// [0, \p Room] (unsigned i64 \p Room).
llvm::Value *withinRange(llvm::IRBuilderBase &B, llvm::SCEVExpander &Exp,
                         const OffsetRange &R, llvm::Value *Room,
                         llvm::Instruction *Where);

/// Puts a copy of \p L (an innermost loop with a preheader and one, dedicated
/// exit block) in front of it: its preheader branches on the i1 that
/// \p Test computes there (with PSE's assumptions, which hold when it is
/// true) to the copy or to \p L. The copy's values are in \p VMap; its
/// values leave through \p L's exit, whose phis merge both. False if \p L
/// does not have that shape (nothing changed).
bool versionLoop(llvm::Loop &L, llvm::LoopInfo &LI, llvm::DominatorTree &DT,
                 llvm::ScalarEvolution &SE,
                 llvm::function_ref<llvm::Value *(llvm::IRBuilderBase &,
                                                  llvm::Instruction *Where)>
                     Test,
                 llvm::ValueToValueMapTy &VMap);

} // namespace clcpu::compiler

#endif
