//===- OrdinaryPrivateVolatiles.cpp - volatile private variables ----------===//
//
// C99 6.7.3p6, which OpenCL C inherits: "What constitutes an access to an
// object that has volatile-qualified type is implementation-defined." A
// private variable is visible to its work-item alone (OpenCL C 3.0 6.7.4:
// the private address space is "private to a work-item"; a pointer to it
// used by another work-item is undefined), so no agent but the work-item
// itself could observe the accesses that volatile would keep. clcpu
// defines them as ordinary accesses, and this pass drops the volatile mark
// of every load, store and memory intrinsic whose address is based on
// allocas only.
//
// Why it matters: GPU libraries mark private variables volatile to steer
// their vendors' compilers. CLBlast's Xgemm keeps `volatile int tid` (the
// local linear id) across its barriers; the volatile accesses made the
// variable a private array kept in scratch, and the volatile loads inside
// the region's work-item loop kept the loop from being widened across
// work-items (compiler/passes/WorkItemLoopCheck.cpp), so its float4
// accumulators ran as one serial chain of FMAs per work-item.
//
// Volatile accesses of __global and __local memory, which other work-items
// and the host do see, keep their mark; so do atomics, which are not
// volatile accesses.

#include "compiler/passes/OrdinaryPrivateVolatiles.h"

#include <llvm/ADT/Statistic.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-ordinary-private-volatiles"

STATISTIC(NumOrdinary, "Volatile accesses of private variables made ordinary");

namespace clcpu::compiler {

namespace {

/// Whether every object \p Ptr may point into is an alloca of the function
/// (through GEPs, casts, selects and phis).
bool onlyPrivate(const Value *Ptr) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects, /*LI=*/nullptr, /*MaxLookup=*/0);
  return !Objects.empty() &&
         all_of(Objects, [](const Value *O) { return isa<AllocaInst>(O); });
}

} // namespace

PreservedAnalyses OrdinaryPrivateVolatilesPass::run(Module &M,
                                                    ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      if (auto *L = dyn_cast<LoadInst>(&I)) {
        if (!L->isVolatile() || !onlyPrivate(L->getPointerOperand()))
          continue;
        L->setVolatile(false);
      } else if (auto *S = dyn_cast<StoreInst>(&I)) {
        if (!S->isVolatile() || !onlyPrivate(S->getPointerOperand()))
          continue;
        S->setVolatile(false);
      } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
        // A copy is ordinary only if both of its sides are private.
        if (!MI->isVolatile() || !onlyPrivate(MI->getRawDest()))
          continue;
        if (auto *T = dyn_cast<MemTransferInst>(MI);
            T && !onlyPrivate(T->getRawSource()))
          continue;
        MI->setVolatile(ConstantInt::getFalse(M.getContext()));
      } else {
        continue;
      }
      ++NumOrdinary;
      Changed = true;
    }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace clcpu::compiler
