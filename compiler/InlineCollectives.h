//===- compiler/InlineCollectives.h - inline sub-group steps ----*- C++ -*-===//
//
// The interface of compiler/InlineCollectives.cpp: sub-group collectives the
// barrier regions compute in the kernel's own code.

#ifndef CLCPU_COMPILER_INLINECOLLECTIVES_H
#define CLCPU_COMPILER_INLINECOLLECTIVES_H

#include <llvm/IR/IRBuilder.h>

#include <cstdint>

namespace llvm {
class Value;
} // namespace llvm

namespace clcpu::compiler {

/// Whether the barrier regions compute sub-group
/// collective \p Op in the kernel's code when every work-item of the group
/// is at it (and, if \p Diverged, when only some are: the others' states
/// name other sync points); and the code: at \p B, over the full
/// sub-groups of the \p N 64-bit value slots at \p Values (index arguments
/// at \p Args), one vector of hostSubGroupSize() lanes per sub-group, over
/// every work-item (\p States null) or those whose i32 state is \p Region.
/// Returns how many work-items that covered (N rounded down to whole
/// sub-groups); the rest, a partial last sub-group, is the caller's.
bool inlineSubGroupOp(uint32_t Op, bool Diverged = false);
llvm::Value *emitInlineSubGroupOp(llvm::IRBuilder<> &B, uint32_t Op,
                                  llvm::Value *Values, llvm::Value *Args,
                                  llvm::Value *N, llvm::Value *States,
                                  llvm::Value *Region);

} // namespace clcpu::compiler

#endif
