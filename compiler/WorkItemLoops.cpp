//===- compiler/WorkItemLoops.cpp - marking work-item loops ---------------===//
//
// A barrier-free kernel becomes a loop over the work-items of a group
// (compiler/WorkGroupFunction.cpp). When the kernel body has no loop of its
// own, that x-loop is innermost and LLVM's loop vectorizer widens it as it
// is. When the body has loops (nbody's loop over bodies, a naive sgemm's loop
// over k) the x-loop is an OUTER loop, which the vectorizer only takes on its
// VPlan-native path and only when told to. This file marks the x-loop of
// such a kernel for vectorization across work-items, with a width of one
// vector register of 32-bit lanes (work-items are independent between
// barriers, so any width is legal), and lets the passes recognize the mark.
//
// The passes around the vectorizer do the rest: ScalarizeWorkItemLoops
// splits OpenCL vector operations into the scalars the vectorizer widens,
// WorkItemLoopCheck withdraws the mark where the native path cannot widen,
// and after the vectorizer UniformVectorPhis and ConsecutiveGathers repair
// the gathers and widened uniform values the native path leaves.

#include "compiler/WorkItemLoops.h"

#include <llvm/Analysis/CFG.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>

using namespace llvm;

namespace clcpu::compiler {

namespace {

const char *const MarkName = "clcpu.work_item_loop";
const char *const MaxTripsName = "clcpu.work_item_loop.max_trips";

/// The loop ID operand named \p Name, or null.
MDNode *loopProperty(MDNode *LoopID, StringRef Name) {
  if (!LoopID)
    return nullptr;
  for (const MDOperand &Op : drop_begin(LoopID->operands()))
    if (auto *N = dyn_cast<MDNode>(Op.get()))
      if (auto *S = dyn_cast_or_null<MDString>(N->getOperand(0).get());
          S && S->getString() == Name)
        return N;
  return nullptr;
}

} // namespace

bool isOptimizerHint(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II)
    return false;
  switch (II->getIntrinsicID()) {
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::sideeffect:
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_label:
    return true;
  default:
    return false;
  }
}

void replaceVectorizeHints(Loop &L, ArrayRef<Metadata *> Hints) {
  SmallVector<Metadata *, 4> Ops = {nullptr};
  if (MDNode *ID = L.getLoopID())
    for (const MDOperand &Op : drop_begin(ID->operands()))
      if (auto *N = dyn_cast<MDNode>(Op.get());
          !N || !isa<MDString>(N->getOperand(0)) ||
          !cast<MDString>(N->getOperand(0))
               ->getString()
               .starts_with("llvm.loop.vectorize."))
        Ops.push_back(Op.get());
  append_range(Ops, Hints);
  MDNode *NewID = MDNode::getDistinct(L.getHeader()->getContext(), Ops);
  NewID->replaceOperandWith(0, NewID);
  L.setLoopID(NewID);
}

bool isWorkItemLoop(const Loop &L) {
  return loopProperty(L.getLoopID(), MarkName);
}

unsigned workItemLoopMaxTrips(const Loop &L) {
  if (MDNode *P = loopProperty(L.getLoopID(), MaxTripsName))
    if (P->getNumOperands() == 2)
      if (auto *V = mdconst::dyn_extract<ConstantInt>(P->getOperand(1)))
        return static_cast<unsigned>(V->getZExtValue());
  return 0;
}

void markWorkItemLoop(BranchInst &Latch, const Function &Body, unsigned Lanes,
                      bool Capped, unsigned MaxTrips) {
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> Backedges;
  FindFunctionBackedges(Body, Backedges);
  // Half precision computes in float lanes (builtins/half.cl). The cost
  // model prices the F16C conversions high and picks half the float width
  // for such loops (math on half at half the speed of float), so they get
  // the float width, as loops do.
  bool Half = any_of(instructions(Body), [](const Instruction &I) {
    return (isa<FPExtInst>(I) && I.getOperand(0)->getType()->isHalfTy()) ||
           (isa<FPTruncInst>(I) && I.getType()->isHalfTy());
  });
  markWorkItemLoop(Latch, !Backedges.empty() || Half, Lanes,
                   /*NoUnroll=*/false, Capped, MaxTrips);
}

void markWorkItemLoop(BranchInst &Latch, bool BodyHasLoops, unsigned Lanes,
                      bool NoUnroll, bool Capped, unsigned MaxTrips) {
  LLVMContext &C = Latch.getContext();
  SmallVector<Metadata *, 4> Ops = {nullptr,
                                    MDNode::get(C, MDString::get(C, MarkName))};
  // An innermost x-loop is left to the cost model's width, except where
  // that width could exceed the loop's trip count (Capped): the vector
  // loop would then never run.
  if ((BodyHasLoops || Capped) && Lanes > 1) {
    Type *I1 = Type::getInt1Ty(C), *I32 = Type::getInt32Ty(C);
    Ops.push_back(
        MDNode::get(C, {MDString::get(C, "llvm.loop.vectorize.enable"),
                        ConstantAsMetadata::get(ConstantInt::get(I1, 1))}));
    Ops.push_back(MDNode::get(
        C, {MDString::get(C, "llvm.loop.vectorize.width"),
            ConstantAsMetadata::get(ConstantInt::get(I32, Lanes))}));
    // One vector per iteration: an outer loop's width is its own choice,
    // a capped width the trip count's bound.
    Ops.push_back(
        MDNode::get(C, {MDString::get(C, "llvm.loop.interleave.count"),
                        ConstantAsMetadata::get(ConstantInt::get(I32, 1))}));
    // A capped loop is one or two vectors: no work-item is peeled off it
    // before the vectorizer (loop peeling drops an `if (lid == 0)` test
    // that way). A group of 16 in 16 lanes would keep 15 iterations, fewer
    // than a vector, and all of them ran in the scalar remainder; kept
    // whole, the test is a mask. Loop peeling stops once
    // unroll-peel-max-count (7) iterations were peeled, which this count
    // claims.
    if (Capped)
      Ops.push_back(MDNode::get(
          C, {MDString::get(C, "llvm.loop.peeled.count"),
              ConstantAsMetadata::get(ConstantInt::get(I32, 1 << 16))}));
    // A required extent that is no multiple of the width (pyopencl's
    // radix sort: 12 work-items in 8 lanes) leaves a remainder in every
    // group: folded into the vector loop, the last iteration is masked
    // instead of scalar. Where the vectorizer cannot fold it, it keeps the
    // scalar remainder.
    if (Capped && MaxTrips % Lanes)
      Ops.push_back(MDNode::get(
          C, {MDString::get(C, "llvm.loop.vectorize.predicate.enable"),
              ConstantAsMetadata::get(ConstantInt::get(I1, 1))}));
  }
  if (NoUnroll)
    Ops.push_back(MDNode::get(C, MDString::get(C, "llvm.loop.unroll.disable")));
  if (MaxTrips)
    Ops.push_back(MDNode::get(C, {MDString::get(C, MaxTripsName),
                                  ConstantAsMetadata::get(ConstantInt::get(
                                      Type::getInt32Ty(C), MaxTrips))}));
  MDNode *ID = MDNode::getDistinct(C, Ops);
  ID->replaceOperandWith(0, ID);
  Latch.setMetadata(LLVMContext::MD_loop, ID);
}

} // namespace clcpu::compiler
