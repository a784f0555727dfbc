//===- Reconvergence.cpp - where divergent work-items meet ----------------===//
//
// A non-uniform sub-group function (and a shuffle or rotation, which "need
// not be encountered by all work items in a sub-group", OpenCL C 3.0
// 6.15.19) runs over the work-items that reach the call together: the
// active set of a SIMD machine, which runs both sides of a divergent branch
// one after the other and joins them where the branch's paths meet again
// (its immediate post-dominator). Both kernel paths release a waiting call
// once no other waiting work-item of the sub-group can still reach it
// (scheduler/Fiber.cpp, releaseNonUniform; compiler/regions/RegionDriver.cpp,
// pickSyncPoint). Without a meeting point, a work-item that finished its
// side of a branch in a loop would run on into the next round and join the
// work-items still in this round at their call:
//
//   for (int k = 0; k < 3; ++k)
//     if ((l + k) % 3 == 0)
//       a += sub_group_non_uniform_reduce_add(k);   // round k's set
//     else
//       b += sub_group_non_uniform_reduce_add(k);   // round k's set
//
// So this pass puts a reconvergence point (a call that synchronizes the
// sub-group and computes nothing: CollReconverge) at the immediate
// post-dominator of every branch whose condition is not uniform
// (compiler/analyses/WorkItemUniformity.cpp) and from which such a call can be
// reached before that post-dominator. A work-item that finished one side waits
// there, the other side's call runs with its own work-items, and the
// sub-group goes on together. The same holds for a loop whose trip count
// differs between work-items: those that left it wait at its exit for the
// ones still in it, instead of reaching a call further on in the next round
// of an enclosing loop. Kernels without such calls are left alone.

#include "compiler/passes/Reconvergence.h"

#include "compiler/Barriers.h"
#include "compiler/KernelBody.h"
#include "compiler/PromotePrivates.h"
#include "compiler/WorkGroupContext.h"
#include "compiler/analyses/SyncCalls.h"
#include "compiler/analyses/WorkItemUniformity.h"

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-reconvergence"

namespace clcpu::compiler {

namespace {

bool insertReconvergencePoints(Function &Body, FunctionAnalysisManager &AM) {
  DenseSet<const BasicBlock *> Calls;
  for (const auto &[CI, S] : AM.getResult<SyncCallsAnalysis>(Body).calls())
    if (S.PerCallSite)
      Calls.insert(CI->getParent());
  if (Calls.empty())
    return false;

  // Private variables to SSA values first: the divergence analysis takes
  // every load from an alloca as divergent.
  promotePrivates(Body);
  AM.invalidate(Body, PreservedAnalyses::none());
  const WorkItemUniformity &Uniform =
      AM.getResult<WorkItemUniformityAnalysis>(Body);
  auto IsUniform = [&](const Value *V) { return Uniform.isUniform(V); };

  PostDominatorTree &PDT = AM.getResult<PostDominatorTreeAnalysis>(Body);
  SetVector<BasicBlock *> Joins;
  for (BasicBlock &B : Body) {
    const Instruction *T = B.getTerminator();
    const Value *Cond = nullptr;
    if (const auto *Br = dyn_cast<BranchInst>(T); Br && Br->isConditional())
      Cond = Br->getCondition();
    else if (const auto *Sw = dyn_cast<SwitchInst>(T))
      Cond = Sw->getCondition();
    if (!Cond || IsUniform(Cond))
      continue;
    DomTreeNode *Node = PDT.getNode(&B);
    DomTreeNode *IPDom = Node ? Node->getIDom() : nullptr;
    BasicBlock *Join = IPDom ? IPDom->getBlock() : nullptr;
    if (!Join)
      continue; // the paths only meet at the kernel's returns
    // The blocks between the branch and where its paths meet.
    SmallVector<BasicBlock *, 16> Work(successors(&B));
    DenseSet<BasicBlock *> Seen;
    bool Reaches = false;
    while (!Work.empty() && !Reaches) {
      BasicBlock *BB = Work.pop_back_val();
      if (BB == Join || !Seen.insert(BB).second)
        continue;
      Reaches = Calls.count(BB) != 0;
      append_range(Work, successors(BB));
    }
    if (Reaches)
      Joins.insert(Join);
  }
  if (Joins.empty())
    return true; // promotePrivates may have rewritten the body

  Module &M = *Body.getParent();
  LLVMContext &C = M.getContext();
  // int __clcpu_reconverge(int), Itanium-mangled as the builtins are, so
  // that classifySyncCall reads it like them.
  std::string Mangled =
      "_Z" + std::to_string(strlen(ReconvergeName)) + ReconvergeName + "i";
  FunctionCallee Reconverge = M.getOrInsertFunction(
      Mangled,
      FunctionType::get(Type::getInt32Ty(C), {Type::getInt32Ty(C)}, false));
  auto *Decl = cast<Function>(Reconverge.getCallee());
  Decl->addFnAttr(Attribute::Convergent);
  Decl->addFnAttr(Attribute::NoUnwind);
  for (BasicBlock *Join : Joins) {
    IRBuilder<> B(&*Join->getFirstInsertionPt());
    CallInst *Call = B.CreateCall(Reconverge, {B.getInt32(0)});
    Call->addFnAttr(Attribute::Convergent);
  }
  return true;
}

} // namespace

PreservedAnalyses ReconvergencePass::run(Function &F,
                                         FunctionAnalysisManager &AM) {
  // Only a kernel body has local ids (compiler/KernelBody.h).
  Value *Lid[3];
  if (!localIdParams(F, Lid))
    return PreservedAnalyses::all();
  return insertReconvergencePoints(F, AM) ? PreservedAnalyses::none()
                                          : PreservedAnalyses::all();
}

} // namespace clcpu::compiler
