//===- compiler/ContextWords.h - context fields by word ---------*- C++ -*-===//
//
// Generated code reads the WorkGroupContext its work-group function gets
// (compiler/WorkGroupContext.h) as an array of 64-bit words. These are the
// words' indices, one list for every file that emits such loads
// (WorkGroupFunction.cpp, Barriers.cpp, regions/), computed from the
// structure's own layout so that they follow it.

#ifndef CLCPU_COMPILER_CONTEXTWORDS_H
#define CLCPU_COMPILER_CONTEXTWORDS_H

#include "compiler/WorkGroupContext.h"

#include <cstddef>

namespace clcpu::compiler {

/// The word at byte \p Offset of the WorkGroupContext.
constexpr unsigned contextWord(size_t Offset) {
  return static_cast<unsigned>(Offset / sizeof(size_t));
}

enum ContextWord : unsigned {
  WGroupId = contextWord(offsetof(WorkGroupContext, GroupId)),
  WLocalSize = contextWord(offsetof(WorkGroupContext, LocalSize)),
  WGlobalOffset = contextWord(offsetof(WorkGroupContext, GlobalOffset)),
  WGlobalSize = contextWord(offsetof(WorkGroupContext, GlobalSize)),
  WNumGroups = contextWord(offsetof(WorkGroupContext, NumGroups)),
  WWorkDim = contextWord(offsetof(WorkGroupContext, WorkDim)),
  WLocalMem = contextWord(offsetof(WorkGroupContext, LocalMem)),
  WEnqueuedLocalSize =
      contextWord(offsetof(WorkGroupContext, EnqueuedLocalSize)),
  WLocalId = contextWord(offsetof(WorkGroupContext, LocalId)),
  WBarrier = contextWord(offsetof(WorkGroupContext, Barrier)),
  WCollective = contextWord(offsetof(WorkGroupContext, Collective)),
  WSubGroupBarrier = contextWord(offsetof(WorkGroupContext, SubGroupBarrier)),
  WYield = contextWord(offsetof(WorkGroupContext, Yield)),
  WLocalEnd = contextWord(offsetof(WorkGroupContext, LocalEnd)),
  WPrivateLo = contextWord(offsetof(WorkGroupContext, PrivateLo)),
  WPrivateHi = contextWord(offsetof(WorkGroupContext, PrivateHi)),
  WScratch = contextWord(offsetof(WorkGroupContext, Scratch)),
  WGroupCollective = contextWord(offsetof(WorkGroupContext, GroupCollective)),
  WScratchEnd = contextWord(offsetof(WorkGroupContext, ScratchEnd)),
};

} // namespace clcpu::compiler

#endif
