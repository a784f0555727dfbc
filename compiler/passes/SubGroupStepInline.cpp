//===- SubGroupStepInline.cpp - sub-group steps after vectorizing ---------===//
//
// A sub-group stretch (emitSubGroupStretch in
// compiler/regions/RegionDriver.cpp) runs, per sub-group, a region as a loop
// over the sub-group's S work-items, then the sub-group collective
// (`<K>.collective.sg`, compiler/regions/CollectiveSteps.cpp) across one
// vector of S lanes, then the next region. The vectorizer
// widens each such loop into one vector iteration; the collective is vector
// code from the start. Inlined early, the collective would meet the
// scalarizer the x-loops need (ScalarizeWorkItemLoops splits every vector
// operation of a function with a work-item loop), which splits its <S x i64>
// loads into pieces that no longer match the region's vector stores, and
// each sub-group then waits on a failed store-to-load forward.
//
// So `<K>.collective.sg` is emitted noinline and marked; this pass, at the
// end of the optimizer, inlines it into each caller and then lets GVN
// forward the region's vector stores of the collective's operands into the
// collective's loads (and its results into the next region's loads), so a
// sub-group's values stay in registers across the collective, and
// dead-store elimination drops what nobody reads any more.

#include "compiler/passes/SubGroupStepInline.h"

#include "compiler/Compiler.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/DeadStoreElimination.h>
#include <llvm/Transforms/Scalar/GVN.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-sub-group-step-inline"

namespace clcpu::compiler {

namespace {} // namespace

PreservedAnalyses SubGroupStepInlinePass::run(Module &M,
                                              ModuleAnalysisManager &MAM) {
  SmallPtrSet<Function *, 8> Callers;
  for (Function &F : M) {
    if (!F.hasFnAttribute(LateInlineAttr))
      continue;
    F.removeFnAttr(LateInlineAttr);
    F.removeFnAttr(Attribute::NoInline);
    F.addFnAttr(Attribute::AlwaysInline);
    for (User *U : F.users())
      if (auto *CI = dyn_cast<CallInst>(U))
        Callers.insert(CI->getFunction());
  }
  if (Callers.empty())
    return PreservedAnalyses::all();
  AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false).run(M, MAM);
  FunctionPassManager FPM;
  // The step's switch on its (now constant) sync point folds away.
  FPM.addPass(SimplifyCFGPass());
  FPM.addPass(InstCombinePass());
  FPM.addPass(GVNPass());
  FPM.addPass(DSEPass());
  FPM.addPass(InstCombinePass());
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  for (Function *F : Callers)
    if (!F->isDeclaration()) {
      FAM.invalidate(*F, PreservedAnalyses::none());
      FPM.run(*F, FAM);
    }
  return PreservedAnalyses::none();
}

} // namespace clcpu::compiler
