//===- compiler/SiteReach.cpp - which sync points reach which -------------===//
//
// siteReach (declared in compiler/SiteReach.h): for the sync points of a
// kernel with non-uniform sub-group functions, which can reach which in the
// same round of the loops around the target. Both barrier paths release
// waiting calls in that order (compiler/regions/,
// compiler/Barriers.cpp).

#include "compiler/SiteReach.h"

#include "compiler/Compiler.h"

#include <llvm/ADT/DenseSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>

using namespace llvm;

namespace clcpu::compiler {

SmallVector<uint64_t, 8> siteReach(ArrayRef<const BasicBlock *> Sites) {
  SmallVector<uint64_t, 8> Out(Sites.size(), 0);
  if (Sites.empty())
    return Out;
  Function &F = *const_cast<Function *>(Sites[0]->getParent());
  DominatorTree DT(F);
  LoopInfo LI(DT);
  for (size_t J = 0; J < Sites.size() && J < 64; ++J) {
    // The back edges of the loops around site J: taking one starts the
    // next round of a loop J is in.
    DenseSet<std::pair<const BasicBlock *, const BasicBlock *>> Back;
    for (const Loop *L = LI.getLoopFor(Sites[J]); L; L = L->getParentLoop()) {
      SmallVector<BasicBlock *, 4> Latches;
      L->getLoopLatches(Latches);
      for (const BasicBlock *Latch : Latches)
        Back.insert({Latch, L->getHeader()});
    }
    for (size_t I = 0; I < Sites.size(); ++I) {
      DenseSet<const BasicBlock *> Seen;
      SmallVector<const BasicBlock *, 32> Work = {Sites[I]};
      bool Found = false;
      while (!Work.empty() && !Found) {
        const BasicBlock *BB = Work.pop_back_val();
        for (const BasicBlock *S : successors(BB)) {
          if (Back.count({BB, S}) || !Seen.insert(S).second)
            continue;
          Found |= S == Sites[J];
          Work.push_back(S);
        }
      }
      if (Found)
        Out[I] |= uint64_t(1) << J;
    }
  }
  return Out;
}

} // namespace clcpu::compiler
