//===- LowerWorkGroupSync.cpp - the fiber path's sync calls ---------------===//
//
// A kernel that keeps barriers or collectives the barrier regions do not
// take (compiler/regions/) runs one fiber per work-item. This pass turns
// its body's barrier(), work_group_barrier(), sub_group_barrier() and
// work_group_* / sub_group_* collectives into calls through the
// WorkGroupContext's Barrier, SubGroupBarrier and Collective fields, which
// the scheduler fills (scheduler/Fiber.cpp). The lowering itself,
// shared with the collective classification, is compiler/Barriers.cpp.

#include "compiler/passes/LowerWorkGroupSync.h"

#include "compiler/Barriers.h"
#include "compiler/KernelBody.h"

#include <llvm/IR/Function.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-lower-work-group-sync"

namespace clcpu::compiler {

PreservedAnalyses LowerWorkGroupSyncPass::run(Function &F,
                                              FunctionAnalysisManager &) {
  if (!contextParam(F) || !lowerWorkGroupSync(F))
    return PreservedAnalyses::all(); // not a body, or nothing to lower
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace clcpu::compiler
