//===- ScalarizeWorkItemLoops.cpp - vectors to scalars --------------------===//
//
// The loop vectorizer widens scalars only: a kernel's float4 arithmetic
// inside a work-item loop would keep the loop scalar. In a work-group
// function with a work-item loop this pass splits every vector operation
// (loads and stores included) into scalar streams the vectorizer then widens
// across work-items; the per-work-item (fiber) code keeps its vector
// operations.

#include "compiler/passes/ScalarizeWorkItemLoops.h"

#include "compiler/WorkItemLoops.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Function.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-scalarize-work-item-loops"

namespace clcpu::compiler {

namespace {

/// Whether \p F has a loop marked by markWorkItemLoop.
bool hasWorkItemLoop(Function &F, FunctionAnalysisManager &FAM) {
  for (Loop *L : FAM.getResult<LoopAnalysis>(F).getLoopsInPreorder())
    if (isWorkItemLoop(*L))
      return true;
  return false;
}

} // namespace

PreservedAnalyses
ScalarizeWorkItemLoopsPass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (!hasWorkItemLoop(F, FAM))
    return PreservedAnalyses::all();
  ScalarizerPassOptions O;
  O.ScalarizeLoadStore = true;
  return ScalarizerPass(O).run(F, FAM);
}

} // namespace clcpu::compiler
